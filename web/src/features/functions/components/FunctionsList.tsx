import { type FunctionOrderColumn, PAGE_SIZE_DEFAULT } from '@llmor/contracts';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListFooter } from '../../../components/ListFooter';
import { PageHeader } from '../../../components/PageHeader';
import { RelativeTime } from '../../../components/RelativeTime';
import { useFunctions } from '../api/listFunctions';
import { successRatePercent } from '../lib';
import { useFunctionLabels } from './labels';
import { nextSort, type Sort, SortHeader } from './SortHeader';
import '../i18n';

const SEARCH_DEBOUNCE_MS = 250;
const COLUMNS = 7;

/** /functions (spec 02 Functions list): search, sortable paged table (default name ascending), Create. */
export function FunctionsList({ vendorId }: { vendorId: number }) {
  const { t } = useTranslation();
  const labels = useFunctionLabels();
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<Sort<FunctionOrderColumn>>({ column: 'name', dir: 'asc' });
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const query = useFunctions(vendorId, {
    page,
    page_size: PAGE_SIZE_DEFAULT,
    order: sort.column,
    order_dir: sort.dir,
    search: debouncedSearch || undefined,
  });

  // Spec 02 §8: a failed list fetch is only logged.
  useEffect(() => {
    if (query.error) console.error('Loading the functions failed', query.error);
  }, [query.error]);

  // A new search starts on the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the search changes
  useEffect(() => setPage(0), [debouncedSearch]);

  const rows = query.data?.data ?? [];
  const lastPage = query.data ? Math.max(0, Math.ceil(query.data.filter_count / PAGE_SIZE_DEFAULT) - 1) : 0;
  useEffect(() => {
    if (query.data && !query.isPlaceholderData && page > lastPage) setPage(lastPage);
  }, [query.data, query.isPlaceholderData, page, lastPage]);

  const onSort = (column: FunctionOrderColumn) => setSort(nextSort(sort, column));
  const loading = query.isPending;

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
        <TextInput
          placeholder={t('functions.list.searchPlaceholder')}
          aria-label={t('functions.list.searchLabel')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={{ base: '100%', sm: 360 }}
          data-testid="functions-search"
        />
      </Group>
      <Card withBorder padding={0} radius="md">
        <Table.ScrollContainer minWidth={860}>
          <Table
            verticalSpacing="sm"
            highlightOnHover
            data-testid="functions-table"
            data-loading={String(loading)}
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader column="name" sort={sort} onSort={onSort} testIdPrefix="functions-sort">
                  {t('functions.list.columns.name')}
                </SortHeader>
                <SortHeader column="runtime" sort={sort} onSort={onSort} testIdPrefix="functions-sort">
                  {t('functions.list.columns.runtime')}
                </SortHeader>
                <Table.Th>{t('functions.list.columns.type')}</Table.Th>
                <SortHeader column="last_run" sort={sort} onSort={onSort} testIdPrefix="functions-sort">
                  {t('functions.list.columns.lastRun')}
                </SortHeader>
                <SortHeader column="run_count" sort={sort} onSort={onSort} testIdPrefix="functions-sort">
                  {t('functions.list.columns.runCount')}
                </SortHeader>
                <Table.Th>{t('functions.list.columns.successRate')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('functions.list.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {loading ? (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS}>
                    <Center py="lg" data-testid="functions-loading">
                      <Group gap="xs">
                        <Loader size="sm" />
                        <Text c="dimmed" size="sm">
                          {t('functions.list.loading')}
                        </Text>
                      </Group>
                    </Center>
                  </Table.Td>
                </Table.Tr>
              ) : rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS}>
                    <Text ta="center" c="dimmed" py="lg" data-testid="functions-empty">
                      {debouncedSearch ? t('functions.list.noMatch') : t('functions.list.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                rows.map((fn) => {
                  const rate = successRatePercent(fn.run_count, fn.run_count_success);
                  return (
                    <Table.Tr
                      key={fn.id}
                      data-testid={`function-row-${fn.id}`}
                      data-function-key={fn.function_key}
                    >
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
                        <Badge
                          variant="light"
                          color={fn.is_library ? 'violet' : 'gray'}
                          data-testid="function-type"
                        >
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
                        <Anchor
                          component={Link}
                          to={`/functions/${fn.id}`}
                          size="sm"
                          data-testid="function-edit"
                        >
                          {t('functions.list.edit')}
                        </Anchor>
                      </Table.Td>
                    </Table.Tr>
                  );
                })
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      {query.data && (
        <ListFooter
          page={page}
          pageSize={PAGE_SIZE_DEFAULT}
          filtered={query.data.filter_count}
          total={query.data.total_count}
          onPageChange={setPage}
        />
      )}
    </>
  );
}
