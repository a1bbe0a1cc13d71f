import { QUEUE_HISTORY_TYPES, type QueueJob } from '@llmor/contracts';
import {
  Badge,
  Button,
  Code,
  Group,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconBolt, IconHistory, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFooter } from '../../../components/ListFooter';
import { ListTable } from '../../../components/ListTable';
import { LoadError } from '../../../components/LoadError';
import { PageHeader } from '../../../components/PageHeader';
import { RelativeTime } from '../../../components/RelativeTime';
import { describeError } from '../../../lib/api/error';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { adminKeys } from '../api/keys';
import { useQueueJobs } from '../api/listQueueJobs';
import { useTriggerPing } from '../api/triggerPing';
import '../i18n';
import { AdminNav } from './AdminNav';

type HistoryType = (typeof QUEUE_HISTORY_TYPES)[number];
const STATUS_COLOR: Record<QueueJob['status'], string> = {
  success: 'green',
  failure: 'red',
  active: 'blue',
  queued: 'gray',
};
const PAGE_SIZE = 20;

/** /admin/queue (docs/reference/console.md): job history by type (all, ping, custom action), Load history, Refresh, Trigger ping. */
export function AdminQueuePage() {
  const { t } = useTranslation();
  const [type, setType] = useState<HistoryType>('all');
  const [action, setAction] = useState('');
  const [page, setPage] = useState(0);
  const [internal, setInternal] = useState(false);
  const [loaded, setLoaded] = useState<{ type: HistoryType; action?: string; internal: boolean } | null>(
    null,
  );
  const jobs = useQueueJobs(loaded && { ...loaded, page });
  const ping = useTriggerPing();
  const queryClient = useQueryClient();
  const load = () => {
    setPage(0);
    // Load history means now: a filter loaded before is fetched again, never shown from the cache.
    void queryClient.invalidateQueries({ queryKey: adminKeys.queues });
    setLoaded({ type, internal, ...(type === 'custom' ? { action: action.trim() } : {}) });
  };
  const onPing = async () => {
    try {
      await ping.mutateAsync();
      notifySuccess(t('admin.queue.pinged'));
      if (loaded) void jobs.refetch();
    } catch (error) {
      notifyError(describeError(error).message ?? t('admin.queue.loadFailed'));
    }
  };
  const rows = jobs.data?.data ?? [];
  return (
    <>
      <PageHeader
        title={t('pages.admin.queue')}
        breadcrumbs={[
          { label: t('pages.admin.title'), to: '/admin/vendors' },
          { label: t('pages.admin.queue') },
        ]}
        actions={
          <Button
            leftSection={<IconBolt size={16} />}
            onClick={() => void onPing()}
            loading={ping.isPending}
            data-testid="queue-ping"
          >
            {t('admin.queue.ping')}
          </Button>
        }
      />
      <AdminNav active="queue" />
      <Stack gap="md">
        <Group align="flex-end" gap="sm">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('admin.queue.historyType')}
            </Text>
            <SegmentedControl
              value={type}
              onChange={(v) => setType(v as HistoryType)}
              data={QUEUE_HISTORY_TYPES.map((v) => ({ value: v, label: t(`admin.queue.types.${v}`) }))}
              data-testid="queue-type"
            />
          </Stack>
          {type === 'custom' && (
            <TextInput
              label={t('admin.queue.action')}
              placeholder={t('admin.queue.actionPlaceholder')}
              value={action}
              onChange={(e) => setAction(e.currentTarget.value)}
              onKeyDown={(e) => e.key === 'Enter' && load()}
              data-testid="queue-action"
            />
          )}
          {type === 'all' && (
            <Switch
              label={t('admin.queue.internal')}
              checked={internal}
              onChange={(e) => setInternal(e.currentTarget.checked)}
              data-testid="queue-internal"
            />
          )}
          <Button leftSection={<IconHistory size={16} />} onClick={load} data-testid="queue-load">
            {t('admin.queue.load')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            onClick={() => void jobs.refetch()}
            disabled={!loaded}
            loading={jobs.isFetching && !jobs.isPending}
            data-testid="queue-refresh"
          >
            {t('admin.queue.refresh')}
          </Button>
        </Group>
        {jobs.isError ? (
          <LoadError
            error={jobs.error}
            onRetry={jobs.refetch}
            testId="queue-load-error"
            title={t('admin.queue.loadFailed')}
          />
        ) : (
          loaded && (
            <ListTable
              load={jobs}
              testIdPrefix="queue"
              minWidth={900}
              columns={7}
              loading={jobs.isPending}
              loadingText={t('admin.queue.loading')}
              empty={rows.length === 0}
              emptyText={t('admin.queue.empty')}
              head={
                <>
                  <Table.Th>{t('admin.queue.columns.id')}</Table.Th>
                  <Table.Th>{t('admin.queue.columns.action')}</Table.Th>
                  <Table.Th>{t('admin.queue.columns.status')}</Table.Th>
                  <Table.Th>{t('admin.queue.columns.timestamp')}</Table.Th>
                  <Table.Th>{t('admin.queue.columns.duration')}</Table.Th>
                  <Table.Th>{t('admin.queue.columns.output')}</Table.Th>
                  <Table.Th>{t('admin.queue.columns.error')}</Table.Th>
                </>
              }
            >
              {rows.map((j) => (
                <Table.Tr key={j.id} data-testid={`queue-job-${j.id}`} data-status={j.status}>
                  <Table.Td>
                    <Code>{j.id.slice(0, 8)}</Code>
                  </Table.Td>
                  <Table.Td>{j.action}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[j.status]} variant="light">
                      {t(`admin.queue.statuses.${j.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <RelativeTime value={j.timestamp} />
                  </Table.Td>
                  <Table.Td>{j.duration === null ? '–' : `${j.duration} ms`}</Table.Td>
                  <Table.Td maw={260}>
                    <Text size="xs" ff="monospace" lineClamp={2} style={{ wordBreak: 'break-all' }}>
                      {j.output === null ? '' : JSON.stringify(j.output)}
                    </Text>
                  </Table.Td>
                  <Table.Td maw={260}>
                    <Text size="xs" c="red" lineClamp={2}>
                      {j.error ?? ''}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
          )
        )}
        {loaded && <ListFooter page={page} pageSize={PAGE_SIZE} counts={jobs.data} onPageChange={setPage} />}
      </Stack>
    </>
  );
}
