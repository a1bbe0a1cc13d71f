import {
  Accordion,
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconDownload, IconLock, IconWorld } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader';
import { SearchInput } from '../../../components/SearchInput';
import { type OpenApiOperation, useOpenApi } from '../api/getOpenApi';
import '../i18n';
import { groupOperations, jsonSchemaOf } from '../lib';

const METHOD_COLORS: Record<string, string> = {
  GET: 'blue',
  POST: 'green',
  PUT: 'orange',
  PATCH: 'yellow',
  DELETE: 'red',
};

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The API reference (/docs/api): the server's OpenAPI document, grouped by area, searchable, offline. */
export function ApiReference() {
  const { t } = useTranslation();
  const doc = useOpenApi();
  const [search, setSearch] = useState('');

  if (doc.isPending) {
    return (
      <Stack gap="md" data-testid="api-reference-loading">
        <Skeleton height={36} width="40%" />
        <Skeleton height={48} />
        <Skeleton height={48} />
      </Stack>
    );
  }
  if (doc.isError) {
    return (
      <Alert
        color="red"
        variant="light"
        icon={<IconAlertTriangle size={18} />}
        title={t('apiReference.loadFailed')}
        data-testid="api-reference-error"
      >
        <Button size="xs" variant="light" onClick={() => void doc.refetch()}>
          {t('apiReference.retry')}
        </Button>
      </Alert>
    );
  }

  const groups = groupOperations(doc.data, search);
  return (
    <Stack gap="md">
      <PageHeader
        title={t('apiReference.title')}
        subtitle={t('apiReference.subtitle', { version: doc.data.openapi })}
        titleTestId="page-title"
      />
      <Group justify="space-between" wrap="wrap">
        <SearchInput
          value={search}
          onSearch={setSearch}
          placeholder={t('apiReference.search')}
          label={t('apiReference.search')}
          testId="api-reference-search"
        />
        <Anchor href="/v1/openapi.json" download="openapi.json" size="sm">
          <Group gap={4}>
            <IconDownload size={14} />
            {t('apiReference.download')}
          </Group>
        </Anchor>
      </Group>
      {groups.length === 0 ? (
        <Text c="dimmed" data-testid="api-reference-empty">
          {t('apiReference.empty')}
        </Text>
      ) : (
        groups.map(([tag, operations]) => (
          <Stack key={tag} gap="xs" data-testid={`api-reference-group-${tag}`}>
            <Title order={4} tt="capitalize">
              {tag}
            </Title>
            <Accordion variant="separated" chevronPosition="left">
              {operations.map(({ id, method, path, operation }) => (
                <Accordion.Item key={id} value={id} data-testid="api-reference-operation">
                  <Accordion.Control>
                    <Group gap="sm" wrap="nowrap">
                      <Badge color={METHOD_COLORS[method] ?? 'gray'} variant="light" w={72}>
                        {method}
                      </Badge>
                      <Code>{path}</Code>
                      <Text size="sm" c="dimmed" truncate>
                        {operation.summary}
                      </Text>
                    </Group>
                  </Accordion.Control>
                  <Accordion.Panel>
                    <OperationDetail operation={operation} />
                  </Accordion.Panel>
                </Accordion.Item>
              ))}
            </Accordion>
          </Stack>
        ))
      )}
    </Stack>
  );
}

function OperationDetail({ operation }: { operation: OpenApiOperation }) {
  const { t } = useTranslation();
  const body = jsonSchemaOf(operation.requestBody);
  return (
    <Stack gap="sm">
      <Group gap={6}>
        {operation.security ? <IconLock size={14} /> : <IconWorld size={14} />}
        <Text size="xs" c="dimmed">
          {operation.security ? t('apiReference.signed') : t('apiReference.public')}
        </Text>
      </Group>
      {operation.parameters && operation.parameters.length > 0 && (
        <>
          <Text fw={600} size="sm">
            {t('apiReference.parameters')}
          </Text>
          <Table withTableBorder fz="sm">
            <Table.Tbody>
              {operation.parameters.map((p) => (
                <Table.Tr key={`${p.in}-${p.name}`}>
                  <Table.Td>
                    <Code>{p.name}</Code>
                  </Table.Td>
                  <Table.Td>{p.in}</Table.Td>
                  <Table.Td>{p.required ? t('apiReference.required') : ''}</Table.Td>
                  <Table.Td>
                    <Code>{json(p.schema ?? {})}</Code>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
      {body !== undefined && (
        <>
          <Text fw={600} size="sm">
            {t('apiReference.requestBody')}
          </Text>
          <Code block>{json(body)}</Code>
        </>
      )}
      <Text fw={600} size="sm">
        {t('apiReference.responses')}
      </Text>
      <Accordion variant="contained" multiple>
        {Object.entries(operation.responses ?? {}).map(([status, response]) => {
          const schema = jsonSchemaOf(response);
          return (
            <Accordion.Item key={status} value={status}>
              <Accordion.Control>
                <Group gap="xs">
                  <Badge color={status.startsWith('2') ? 'green' : 'red'} variant="outline">
                    {status}
                  </Badge>
                  <Text size="sm">{response.description}</Text>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>{schema !== undefined && <Code block>{json(schema)}</Code>}</Accordion.Panel>
            </Accordion.Item>
          );
        })}
      </Accordion>
    </Stack>
  );
}
