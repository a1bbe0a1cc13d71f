import type { FunctionConsoleEntry } from '@llmor/contracts';
import { Badge, Code, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { consoleDeltas, consoleMarker } from '../lib';

const MARKER_COLOR = { ok: 'green', info: 'blue', error: 'red' } as const;

/** Console entries: level marker (0 ok, 1 info, otherwise error), message, time since the previous entry. */
export function ConsoleList({ entries, testId }: { entries: FunctionConsoleEntry[]; testId: string }) {
  const { t } = useTranslation();
  if (entries.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid={`${testId}-empty`}>
        {t('functions.editor.console.empty')}
      </Text>
    );
  }
  const deltas = consoleDeltas(entries);
  return (
    <Stack gap={4} data-testid={testId}>
      {entries.map((entry, i) => {
        const marker = consoleMarker(entry.level);
        return (
          <Group
            // biome-ignore lint/suspicious/noArrayIndexKey: entries have no identity of their own and never reorder
            key={i}
            gap="xs"
            wrap="nowrap"
            align="flex-start"
            data-testid="console-entry"
            data-level={entry.level}
            data-marker={marker}
          >
            <Badge size="sm" variant="light" color={MARKER_COLOR[marker]} style={{ flex: '0 0 auto' }}>
              {t(`functions.editor.console.${marker}`)}
            </Badge>
            <Code
              block={false}
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', flex: 1 }}
              data-testid="console-message"
            >
              {entry.message}
            </Code>
            <Text size="xs" c="dimmed" style={{ flex: '0 0 auto' }} data-testid="console-delta">
              +{t('functions.ms', { value: deltas[i] })}
            </Text>
          </Group>
        );
      })}
    </Stack>
  );
}
