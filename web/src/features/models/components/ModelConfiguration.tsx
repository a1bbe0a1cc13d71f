import type { InstalledModelDetail } from '@llmor/contracts';
import { Badge, Card, Code, Group, Table, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

function display(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The model's non-secret parameters, read-only, and a masked hint per secret (never the secret itself). */
export function ModelConfiguration({ model }: { model: InstalledModelDetail }) {
  const { t } = useTranslation();
  const parameters = Object.entries(model.parameters ?? {});
  const secrets = Object.entries(model.secret_hints ?? {});
  if (parameters.length === 0 && secrets.length === 0) {
    return (
      <Text c="dimmed" data-testid="model-config-none">
        {t('models.detail.config.none')}
      </Text>
    );
  }
  return (
    <Card withBorder radius="md" padding={0} data-testid="model-config">
      <Table verticalSpacing="sm" horizontalSpacing="md">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('models.detail.config.parameter')}</Table.Th>
            <Table.Th>{t('models.detail.config.value')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {parameters.map(([key, value]) => (
            <Table.Tr key={key} data-testid={`model-param-${key}`}>
              <Table.Td>
                <Code>{key}</Code>
              </Table.Td>
              <Table.Td>
                <Text
                  size="sm"
                  ff="monospace"
                  style={{ wordBreak: 'break-all' }}
                  data-testid="model-param-value"
                >
                  {display(value)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
          {secrets.map(([key, hint]) => (
            <Table.Tr key={key} data-testid={`model-secret-${key}`}>
              <Table.Td>
                <Code>{key}</Code>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Badge
                    variant="light"
                    color="gray"
                    leftSection={<IconLock size={12} />}
                    title={t('models.detail.config.secretHint')}
                  >
                    {t('models.detail.config.secret')}
                  </Badge>
                  <Text size="sm" ff="monospace" data-testid="model-secret-hint">
                    {hint}
                  </Text>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" px="md" py="sm">
        {t('models.detail.config.readOnly')}
        {secrets.length > 0 ? ` ${t('models.detail.config.secretHint')}` : ''}
      </Text>
    </Card>
  );
}
