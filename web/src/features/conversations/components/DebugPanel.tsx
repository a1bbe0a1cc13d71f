import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './Conversations.module.css';
import { formatJson } from './FunctionCallChip';

/** Debug tab: the merged debug data as key/value rows, or 'no debug data'. */
export function DebugPanel({ data }: { data: Record<string, unknown> }) {
  const { t } = useTranslation();
  const entries = Object.entries(data);
  if (entries.length === 0) {
    return (
      <Text c="dimmed" size="sm" ta="center" py="lg" data-testid="debug-empty">
        {t('conversations.debug.empty')}
      </Text>
    );
  }
  return (
    <Table withTableBorder striped data-testid="debug-panel">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('conversations.debug.key')}</Table.Th>
          <Table.Th>{t('conversations.debug.value')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map(([key, value]) => (
          <Table.Tr key={key} data-testid="debug-entry" data-key={key}>
            <Table.Td>
              <Text ff="monospace" size="sm">
                {key}
              </Text>
            </Table.Td>
            <Table.Td>
              {typeof value === 'string' ? (
                <Text size="sm">{value}</Text>
              ) : (
                <pre className={classes.json}>{formatJson(value)}</pre>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
