import { Badge, Code, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format/date';
import type { RelayLogEntry } from '../model/relay';
import { formatJson } from './FunctionCallChip';

const badgeColor = (type: string) =>
  type.startsWith('function_call.') ? 'grape' : type === 'function_call_iteration' ? 'violet' : 'blue';

/** Relay tab: received relay messages, newest first, each with a type badge and its JSON data. */
export function RelayPanel({ log }: { log: readonly RelayLogEntry[] }) {
  const { t, i18n } = useTranslation();
  if (log.length === 0) {
    return (
      <Text c="dimmed" size="sm" ta="center" py="lg" data-testid="relay-empty">
        {t('conversations.relay.empty')}
      </Text>
    );
  }
  return (
    <Stack gap="xs" data-testid="relay-log">
      {log.map((entry) => (
        <Paper key={entry.seq} withBorder p="xs" data-testid="relay-entry" data-type={entry.type}>
          <Group justify="space-between" mb={4}>
            <Badge variant="light" color={badgeColor(entry.type)} tt="none" data-testid="relay-entry-type">
              {entry.type}
            </Badge>
            <Text size="xs" c="dimmed">
              {formatDateTime(entry.received_at, i18n.language)}
            </Text>
          </Group>
          <Code block data-testid="relay-entry-data">
            {formatJson(entry.data)}
          </Code>
        </Paper>
      ))}
    </Stack>
  );
}
