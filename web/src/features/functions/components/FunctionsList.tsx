import { type FunctionOrderColumn, PAGE_SIZE_DEFAULT } from '@llmor/contracts';
import { Anchor, Badge, Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListFooter } from '../../../components/ListFooter';
import { ListTable } from '../../../components/ListTable';
import { PageHeader } from '../../../components/PageHeader';
import { RelativeTime } from '../../../components/RelativeTime';
import { SearchInput } from '../../../components/SearchInput';
import { type Sort, SortHeader, useSort } from '../../../components/SortHeader';
import { useClampPage, useDebouncedSearch, useLogError } from '../../../lib/listState';
import { useFunctions } from '../api/listFunctions';
import { successRatePercent } from '../lib';
import { useFunctionLabels } from './labels';
import '../i18n';

const COLUMNS = 7;

/** /functions (docs/reference/console.md Functions list): search, sortable paged table (default name ascending), Create. */
export function FunctionsList({ vendorId }: { vendorId: number }) {
  const { t } = useTranslation();
  const labels = useFunctionLabels();
  const [page, setPage] = useState(0);
  const [sort, onSort] = useSort<Sort<FunctionOrderColumn>>({ column: 'name', dir: 'asc' });
  const { search, setSearch, debouncedSearch } = useDebouncedSearch();
  const query = useFunctions(vendorId, {
    page,
    page_size: PAGE_SIZE_DEFAULT,
    order: sort.column,
    order_dir: sort.dir,
    search: debouncedSearch || undefined,
  });

  useLogError(query.error, 'Loading the functions failed');

  // A new search starts on the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the search changes
  useEffect(() => setPage(0), [debouncedSearch]);

  useClampPage(query.data, query.isPlaceholderData, page, PAGE_SIZE_DEFAULT, setPage);

  const rows = query.data?.data ?? [];
  const loading = query.isPending;
  const sortProps = {
    sort,
    onSort,
    testIdPrefix: 'functions-sort',
    titleKeyPrefix: 'functions.sort',
  } as const;

  return (
    <>
      <PageHeader
        title={t('functions.title')}
        subtitle={t('functions.subtitle')}
        breadcrumbs={[{ label: t('functions.title') }]}
        actions={
          <Button
            component={Link}
            to="/functions/+"
            leftSection={<IconPlus size={16} />}
            data-testid="functions-create"
          >
            {t('functions.create')}
          </Button>
        }
      />
      <Group mb="md">
        <SearchInput
          placeholder={t('functions.list.searchPlaceholder')}
          label={t('functions.list.searchLabel')}
          value={search}
          onSearch={setSearch}
          w={{ base: '100%', sm: 360 }}
          testId="functions-search"
        />
      </Group>
      <ListTable
        load={query}
        testIdPrefix="functions"
        minWidth={860}
        columns={COLUMNS}
        loading={loading}
        loadingText={t('functions.list.loading')}
        empty={rows.length === 0}
        emptyText={debouncedSearch ? t('functions.list.noMatch') : t('functions.list.empty')}
        head={
          <>
            <SortHeader column="name" {...sortProps}>
              {t('functions.list.columns.name')}
            </SortHeader>
            <SortHeader column="runtime" {...sortProps}>
              {t('functions.list.columns.runtime')}
            </SortHeader>
            <Table.Th>{t('functions.list.columns.type')}</Table.Th>
            <SortHeader column="last_run" {...sortProps}>
              {t('functions.list.columns.lastRun')}
            </SortHeader>
            <SortHeader column="run_count" {...sortProps}>
              {t('functions.list.columns.runCount')}
            </SortHeader>
            <Table.Th>{t('functions.list.columns.successRate')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('functions.list.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </>
        }
      >
        {rows.map((fn) => {
          const rate = successRatePercent(fn.run_count, fn.run_count_success);
          return (
            <Table.Tr key={fn.id} data-testid={`function-row-${fn.id}`} data-function-key={fn.function_key}>
              <Table.Td>
                <Stack gap={0}>
                  <Anchor
                    component={Link}
                    to={`/functions/${fn.id}`}
                    size="sm"
                    fw={500}
                    data-testid="function-name"
                  >
                    {fn.name}
                  </Anchor>
                  <Text size="xs" c="dimmed" ff="monospace" data-testid="function-key">
                    {fn.function_key}
                  </Text>
                </Stack>
              </Table.Td>
              <Table.Td data-testid="function-runtime" style={{ whiteSpace: 'nowrap' }}>
                {labels.runtime(fn.runtime)}
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color={fn.is_library ? 'violet' : 'gray'} data-testid="function-type">
                  {fn.is_library ? t('functions.list.library') : t('functions.list.function')}
                </Badge>
              </Table.Td>
              <Table.Td data-testid="function-last-run" style={{ whiteSpace: 'nowrap' }}>
                {fn.last_run ? <RelativeTime value={fn.last_run} /> : t('functions.never')}
              </Table.Td>
              <Table.Td data-testid="function-run-count">{fn.run_count}</Table.Td>
              <Table.Td data-testid="function-success-rate">
                {rate === null ? t('functions.notAvailable') : `${rate}%`}
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/functions/${fn.id}`} size="sm" data-testid="function-edit">
                  {t('functions.list.edit')}
                </Anchor>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </ListTable>
      <ListFooter page={page} pageSize={PAGE_SIZE_DEFAULT} counts={query.data} onPageChange={setPage} />
    </>
  );
}
