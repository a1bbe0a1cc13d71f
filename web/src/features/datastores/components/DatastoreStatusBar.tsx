import { type Datastore, EMBEDDING_MODEL_REQUIRED } from '@llmor/contracts';
import { Alert, Group, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useDatastoreStatus } from '../api/getDatastoreStatus';

/**
 * Documents, how many are embedded (a progress bar while the worker embeds), failures and the last error.
 * The missing-model notice follows the status, which polls while documents wait: the server gives the
 * datastore the vendor's embedding model once one is installed, and the notice goes.
 */
export function DatastoreStatusBar({ datastore }: { datastore: Datastore }) {
  const { t } = useTranslation();
  const status = useDatastoreStatus(datastore.id);
  const s = status.data;
  return (
    <Stack
      gap={6}
      style={{ flex: 1 }}
      data-testid="datastore-status"
      data-pending={s?.pending ?? ''}
      data-documents={s?.documents ?? ''}
    >
      {s?.last_error === EMBEDDING_MODEL_REQUIRED && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconInfoCircle size={18} />}
          data-testid="datastore-no-model"
        >
          {t('datastores.noEmbeddingModel')}
        </Alert>
      )}
      {s && (
        <>
          <Group gap="lg">
            <Text size="sm">
              {t('datastores.status.documents')}: <b data-testid="status-documents">{s.documents}</b>
            </Text>
            <Text size="sm">
              {t('datastores.status.pending')}: <b data-testid="status-pending">{s.pending}</b>
            </Text>
            {s.failed > 0 && (
              <Text size="sm" c="red">
                {t('datastores.status.failed')}: <b data-testid="status-failed">{s.failed}</b>
              </Text>
            )}
          </Group>
          {s.documents > 0 && (
            <>
              <Progress
                value={((s.documents - s.pending) / s.documents) * 100}
                color={s.pending === 0 ? 'green' : 'blue'}
                animated={s.pending > 0 && s.failed === 0}
                aria-label={t('datastores.status.pending')}
                size="sm"
              />
              <Text size="xs" c="dimmed" data-testid="status-text">
                {s.pending === 0
                  ? t('datastores.status.synced')
                  : t('datastores.status.syncing', { done: s.documents - s.pending, total: s.documents })}
              </Text>
            </>
          )}
          {s.last_error && s.last_error !== EMBEDDING_MODEL_REQUIRED && (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertTriangle size={18} />}
              data-testid="status-error"
            >
              {t('datastores.status.lastError', { error: s.last_error })}
            </Alert>
          )}
        </>
      )}
    </Stack>
  );
}
