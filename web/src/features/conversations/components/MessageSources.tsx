import type { MessageSource } from '@llmor/contracts';
import { Button, Collapse, Paper, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentSourceLabel } from '../../../components/DocumentSourceLabel';

/** The passages an answer was given, under it: collapsed to "Sources (n)", each with file, page, heading. */
export function MessageSources({ sources }: { sources: MessageSource[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div data-testid="message-sources">
      <Button
        variant="subtle"
        size="compact-xs"
        leftSection={open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        data-testid="message-sources-toggle"
      >
        {t('conversations.messages.sources', { count: sources.length })}
      </Button>
      <Collapse expanded={open}>
        <Stack gap={4} mt={4}>
          {sources.map((s) => (
            <Paper key={`${s.datastore}:${s.document_id}`} withBorder p="xs" data-testid="message-source">
              {s.source ? (
                <DocumentSourceLabel source={s.source} />
              ) : (
                <Text size="xs" c="dimmed">
                  {t('conversations.messages.sourceDocument', { datastore: s.datastore, id: s.document_id })}
                </Text>
              )}
              <Text size="xs" lineClamp={3}>
                {s.text}
              </Text>
            </Paper>
          ))}
        </Stack>
      </Collapse>
    </div>
  );
}
