import { PAGE_SIZE_DEFAULT } from '@llmor/contracts';
import {
  Anchor,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Table,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp, IconPlus } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EntityIcon } from '../../../components/EntityIcon';
import { ListFooter } from '../../../components/ListFooter';
import { PageHeader } from '../../../components/PageHeader';
import { useModels } from '../api/getModels';
import { BillingBadge } from './BillingBadge';
import { InstallModelModal } from './InstallModelModal';
import { useModelLabels } from './labels';
import '../i18n';

type SortColumn = 'name' | 'type';
interface Sort {
  column: SortColumn;
  dir: 'asc' | 'desc';
}

/** Clicking a header: another column → ascending; the sorted column → the other direction. */
export function nextSort(current: Sort | null, column: SortColumn): Sort {
  if (!current || current.column !== column) return { column, dir: 'asc' };
  return { column, dir: current.dir === 'asc' ? 'desc' : 'asc' };
}

function SortHeader({
  column,
  sort,
  onSort,
  children,
}: {
  column: SortColumn;
  sort: Sort | null;
  onSort(column: SortColumn): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const dir = sort?.column === column ? sort.dir : null;
  const Icon = dir === 'asc' ? IconArrowUp : dir === 'desc' ? IconArrowDown : IconArrowsSort;
  return (
    <Table.Th aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}>
      <UnstyledButton
        onClick={() => onSort(column)}
        data-testid={`models-sort-${column}`}
        data-sort={dir ?? 'none'}
        title={t(`models.sort.${dir ?? 'none'}`)}
      >
        <Group gap={4} wrap="nowrap">
          <Text fw={700} size="sm">
            {children}
          </Text>
          <Icon size={14} stroke={1.5} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** The Models list (spec 02): installed models, sortable by name and type, paged; 'Install New Model'. */
export function ModelsList({ vendorId }: { vendorId: number }) {
  const { t } = useTranslation();
  const labels = useModelLabels();
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<Sort | null>(null);
  const [installOpen, setInstallOpen] = useState(false);
  const query = useModels(vendorId, {
    page,
    page_size: PAGE_SIZE_DEFAULT,
    order: sort?.column,
    order_dir: sort?.dir,
  });

  // Spec 02 §8: a failed list fetch is only logged.
  useEffect(() => {
    if (query.error) console.error('Loading the models failed', query.error);
  }, [query.error]);

  const rows = query.data?.data ?? [];
  // A page that emptied (models removed elsewhere) moves back to the last page that has rows.
  const lastPage = query.data ? Math.max(0, Math.ceil(query.data.filter_count / PAGE_SIZE_DEFAULT) - 1) : 0;
  useEffect(() => {
    if (query.data && !query.isPlaceholderData && page > lastPage) setPage(lastPage);
  }, [query.data, query.isPlaceholderData, page, lastPage]);

  const loading = query.isPending;

  return (
    <>
      <PageHeader
        title={t('models.title')}
        subtitle={t('models.subtitle')}
        breadcrumbs={[{ label: t('models.title') }]}
        actions={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setInstallOpen(true)}
            data-testid="models-install"
          >
            {t('models.install')}
          </Button>
        }
      />
      <Card withBorder padding={0} radius="md">
        <Table.ScrollContainer minWidth={860}>
          <Table
            verticalSpacing="sm"
            highlightOnHover
            data-testid="models-table"
            data-loading={String(loading)}
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader column="name" sort={sort} onSort={(c) => setSort(nextSort(sort, c))}>
                  {t('models.columns.name')}
                </SortHeader>
                <Table.Th>{t('models.columns.id')}</Table.Th>
                <SortHeader column="type" sort={sort} onSort={(c) => setSort(nextSort(sort, c))}>
                  {t('models.columns.type')}
                </SortHeader>
                <Table.Th>{t('models.columns.provider')}</Table.Th>
                <Table.Th>{t('models.columns.cost')}</Table.Th>
                <Table.Th>{t('models.columns.tokens')}</Table.Th>
                <Table.Th>{t('models.columns.billing')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('models.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {loading ? (
                <Table.Tr>
                  <Table.Td colSpan={8}>
                    <Center py="lg" data-testid="models-loading">
                      <Group gap="xs">
                        <Loader size="sm" />
                        <Text c="dimmed" size="sm">
                          {t('models.loading')}
                        </Text>
                      </Group>
                    </Center>
                  </Table.Td>
                </Table.Tr>
              ) : rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={8}>
                    <Text ta="center" c="dimmed" py="lg" data-testid="models-empty">
                      {t('models.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                rows.map((model) => (
                  <Table.Tr
                    key={model.id}
                    data-testid={`model-row-${model.id}`}
                    data-model-key={model.model_key}
                  >
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <EntityIcon icon={model.image} name={model.name} size="md" />
                        <Text size="sm" fw={500} data-testid="model-name">
                          {model.name}
                        </Text>
                      </Group>
                    </Table.Td>
                    <Table.Td data-testid="model-id">{model.id}</Table.Td>
                    <Table.Td data-testid="model-type" style={{ whiteSpace: 'nowrap' }}>
                      {labels.type(model.type)}
                    </Table.Td>
                    <Table.Td data-testid="model-provider">{labels.provider(model.provider)}</Table.Td>
                    <Table.Td data-testid="model-cost" style={{ whiteSpace: 'nowrap' }}>
                      {model.cost_per_1k_formatted}
                    </Table.Td>
                    <Table.Td data-testid="model-tokens">{model.available_tokens_formatted}</Table.Td>
                    <Table.Td>
                      <BillingBadge prepaid={model.prepaid} testId="model-billing" />
                    </Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/models/${model.id}`} size="sm" data-testid="model-view">
                        {t('models.view')}
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))
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
      <InstallModelModal vendorId={vendorId} opened={installOpen} onClose={() => setInstallOpen(false)} />
    </>
  );
}
