import { Badge, Box, Code, Collapse, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconCircleCheck, IconTool } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallView } from '../model/messages';

/** Pretty JSON of any value (strings that hold JSON are shown parsed). */
export function formatJson(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A function call as an expandable chip: name, spinner while executing, Arguments and Result as JSON. */
export function FunctionCallChip({ call }: { call: CallView }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const executing = call.status === 'executing';
  return (
    <Box data-testid="function-call" data-status={call.status} data-name={call.name}>
      <UnstyledButton
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-label={t('conversations.calls.toggle', { name: call.name })}
        data-testid="function-call-toggle"
      >
        <Badge
          variant="light"
          color={executing ? 'orange' : 'teal'}
          radius="sm"
          size="lg"
          tt="none"
          leftSection={executing ? <Loader size={12} color="orange" /> : <IconTool size={14} />}
          rightSection={open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        >
          <Group gap={6} wrap="nowrap">
            <span>{call.name}</span>
            {!executing && <IconCircleCheck size={14} aria-label={t('conversations.calls.completed')} />}
            {executing && <span>· {t('conversations.calls.executing')}</span>}
          </Group>
        </Badge>
      </UnstyledButton>
      <Collapse expanded={open}>
        <Stack gap={4} mt={6} data-testid="function-call-details">
          <Text size="xs" fw={600}>
            {t('conversations.calls.arguments')}
          </Text>
          <Code block data-testid="function-call-arguments">
            {formatJson(call.arguments ?? {})}
          </Code>
          <Text size="xs" fw={600}>
            {t('conversations.calls.result')}
          </Text>
          {executing ? (
            <Loader size="xs" />
          ) : (
            <Code block data-testid="function-call-result">
              {call.result === undefined ? t('conversations.calls.noResult') : formatJson(call.result)}
            </Code>
          )}
        </Stack>
      </Collapse>
    </Box>
  );
}
