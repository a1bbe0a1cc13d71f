import { type FunctionDetail, PAGE_SIZE_DEFAULT } from '@llmor/contracts';
import {
  Anchor,
  Card,
  Center,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFooter } from '../../../components/ListFooter';
import { RelativeTime } from '../../../components/RelativeTime';
import { formatDateTime } from '../../../lib/format/date';
import { useFunctionRunStats } from '../api/getFunctionRunStats';
import { useFunctionRuns } from '../api/listFunctionRuns';
import { formatBytes } from '../lib';
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

/** Runs tab (spec 02): tiles from the stats call, a status filter, the paged runs and a detail modal. */
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

  useEffect(() => {
    if (runs.error) console.error('Loading the runs failed', runs.error);
    if (stats.error) console.error('Loading the run statistics failed', stats.error);
  }, [runs.error, stats.error]);

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

      <Card withBorder padding={0} radius="md">
        <Table.ScrollContainer minWidth={640}>
          <Table
            verticalSpacing="sm"
            highlightOnHover
            data-testid="runs-table"
            data-loading={String(loading)}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('functions.runs.columns.id')}</Table.Th>
                <Table.Th>{t('functions.runs.columns.status')}</Table.Th>
                <Table.Th>{t('functions.runs.columns.duration')}</Table.Th>
                <Table.Th>{t('functions.runs.columns.memory')}</Table.Th>
                <Table.Th>{t('functions.runs.columns.started')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('functions.runs.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {loading ? (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS}>
                    <Center py="lg" data-testid="runs-loading">
                      <Group gap="xs">
                        <Loader size="sm" />
                        <Text c="dimmed" size="sm">
                          {t('functions.runs.loading')}
                        </Text>
                      </Group>
                    </Center>
                  </Table.Td>
                </Table.Tr>
              ) : rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS}>
                    <Text ta="center" c="dimmed" py="lg" data-testid="runs-empty">
                      {filter === 'all' ? t('functions.runs.empty') : t('functions.runs.noMatch')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                rows.map((run) => (
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
                      <Anchor
                        component="button"
                        size="sm"
                        onClick={() => setViewing(run.id)}
                        data-testid="run-view"
                      >
                        {t('functions.runs.view')}
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      {runs.data && (
        <ListFooter
          page={page}
          pageSize={PAGE_SIZE_DEFAULT}
          filtered={runs.data.filter_count}
          total={runs.data.total_count}
          onPageChange={setPage}
        />
      )}
      <RunDetailModal
        vendorId={vendorId}
        functionId={fn.id}
        runId={viewing}
        onClose={() => setViewing(null)}
      />
    </>
  );
}
