import { type FunctionDetail, PAGE_SIZE_DEFAULT } from '@llmor/contracts';
import {
  Anchor,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFooter } from '../../../components/ListFooter';
import { ListTable } from '../../../components/ListTable';
import { RelativeTime } from '../../../components/RelativeTime';
import { formatBytes } from '../../../lib/format/bytes';
import { formatDateTime } from '../../../lib/format/date';
import { useLogError } from '../../../lib/listState';
import { useFunctionRunStats } from '../api/getFunctionRunStats';
import { useFunctionRuns } from '../api/listFunctionRuns';
import { useFunctionLabels } from './labels';
import { RunDetailModal } from './RunDetailModal';
import { StatusIcon } from './StatusIcon';

type StatusFilter = 'all' | 'success' | 'failure';
const FILTER_STATUS: Record<StatusFilter, 1 | -1 | undefined> = { all: undefined, success: 1, failure: -1 };
const COLUMNS = 6;

function Tile({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Paper withBorder p="md" radius="md" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="xl" fw={700} mt={4} data-testid={`${testId}-value`}>
        {children}
      </Text>
    </Paper>
  );
}

/** Runs tab (docs/reference/console.md): tiles from the stats call, a status filter, the paged runs and a detail modal. */
export function FunctionRuns({ vendorId, fn }: { vendorId: number; fn: FunctionDetail }) {
  const { t, i18n } = useTranslation();
  const labels = useFunctionLabels();
  const [filter, setFilter] = useState<StatusFilter>('all');
  const [page, setPage] = useState(0);
  const [viewing, setViewing] = useState<number | null>(null);
  const stats = useFunctionRunStats(vendorId, fn.id);
  const runs = useFunctionRuns(vendorId, fn.id, {
    page,
    page_size: PAGE_SIZE_DEFAULT,
    status: FILTER_STATUS[filter],
  });

  useLogError(runs.error, 'Loading the runs failed');
  useLogError(stats.error, 'Loading the run statistics failed');

  const s = stats.data?.data;
  const rows = runs.data?.data ?? [];
  const loading = runs.isPending;

  return (
    <>
      <SimpleGrid cols={{ base: 2, md: 4 }} mb="lg">
        <Tile label={t('functions.runs.total')} testId="runs-tile-total">
          {s ? s.total_runs : '–'}
        </Tile>
        <Tile label={t('functions.runs.successRate')} testId="runs-tile-success-rate">
          {s ? (s.success_rate === null ? t('functions.notAvailable') : `${s.success_rate}%`) : '–'}
        </Tile>
        <Tile label={t('functions.runs.lastRun')} testId="runs-tile-last-run">
          {s ? s.last_run ? <RelativeTime value={s.last_run} /> : t('functions.never') : '–'}
        </Tile>
        <Tile label={t('functions.runs.runtime')} testId="runs-tile-runtime">
          {labels.runtime(s?.runtime ?? fn.runtime)}
        </Tile>
      </SimpleGrid>

      <Group mb="md" justify="space-between">
        <SegmentedControl
          aria-label={t('functions.runs.filter')}
          value={filter}
          onChange={(value) => {
            setFilter(value as StatusFilter);
            setPage(0);
          }}
          data={[
            { value: 'all', label: t('functions.runs.all') },
            { value: 'success', label: t('functions.runs.success') },
            { value: 'failure', label: t('functions.runs.failure') },
          ]}
          data-testid="runs-filter"
        />
      </Group>

      <ListTable
        load={runs}
        testIdPrefix="runs"
        minWidth={640}
        columns={COLUMNS}
        loading={loading}
        loadingText={t('functions.runs.loading')}
        empty={rows.length === 0}
        emptyText={filter === 'all' ? t('functions.runs.empty') : t('functions.runs.noMatch')}
        head={
          <>
            <Table.Th>{t('functions.runs.columns.id')}</Table.Th>
            <Table.Th>{t('functions.runs.columns.status')}</Table.Th>
            <Table.Th>{t('functions.runs.columns.duration')}</Table.Th>
            <Table.Th>{t('functions.runs.columns.memory')}</Table.Th>
            <Table.Th>{t('functions.runs.columns.started')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('functions.runs.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </>
        }
      >
        {rows.map((run) => (
          <Table.Tr key={run.id} data-testid={`run-row-${run.id}`} data-status={run.status}>
            <Table.Td data-testid="run-id">#{run.id}</Table.Td>
            <Table.Td>
              <StatusIcon status={run.status} testId="run-status" />
            </Table.Td>
            <Table.Td data-testid="run-duration">{labels.ms(run.took)}</Table.Td>
            <Table.Td data-testid="run-memory">{formatBytes(run.memory)}</Table.Td>
            <Table.Td data-testid="run-started" style={{ whiteSpace: 'nowrap' }}>
              {formatDateTime(run.created_at, i18n.language)}
            </Table.Td>
            <Table.Td>
              <Anchor component="button" size="sm" onClick={() => setViewing(run.id)} data-testid="run-view">
                {t('functions.runs.view')}
              </Anchor>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <ListFooter page={page} pageSize={PAGE_SIZE_DEFAULT} counts={runs.data} onPageChange={setPage} />
      <RunDetailModal
        vendorId={vendorId}
        functionId={fn.id}
        runId={viewing}
        onClose={() => setViewing(null)}
      />
    </>
  );
}
