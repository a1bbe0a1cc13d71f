import { PAGE_SIZE_DEFAULT } from '@llmor/contracts';
import { Anchor, Button, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EntityIcon } from '../../../components/EntityIcon';
import { ListFooter } from '../../../components/ListFooter';
import { ListTable } from '../../../components/ListTable';
import { PageHeader } from '../../../components/PageHeader';
import { type Sort, SortHeader, useSort } from '../../../components/SortHeader';
import { useClampPage, useLogError } from '../../../lib/listState';
import { useModels } from '../api/getModels';
import { BillingBadge } from './BillingBadge';
import { InstallModelModal } from './InstallModelModal';
import { useModelLabels } from './labels';
import '../i18n';

type SortColumn = 'name' | 'type';

/** The Models list (docs/reference/console.md): installed models, sortable by name and type, paged; 'Install New Model'. */
export function ModelsList({ vendorId }: { vendorId: number }) {
  const { t } = useTranslation();
  const labels = useModelLabels();
  const [page, setPage] = useState(0);
  const [sort, onSort] = useSort<Sort<SortColumn> | null>(null);
  const [installOpen, setInstallOpen] = useState(false);
  const query = useModels(vendorId, {
    page,
    page_size: PAGE_SIZE_DEFAULT,
    order: sort?.column,
    order_dir: sort?.dir,
  });

  useLogError(query.error, 'Loading the models failed');
  useClampPage(query.data, query.isPlaceholderData, page, PAGE_SIZE_DEFAULT, setPage);

  const rows = query.data?.data ?? [];
  const loading = query.isPending;
  const sortProps = { sort, onSort, testIdPrefix: 'models-sort', titleKeyPrefix: 'models.sort' } as const;

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
      <ListTable
        load={query}
        testIdPrefix="models"
        minWidth={860}
        columns={8}
        loading={loading}
        loadingText={t('models.loading')}
        empty={rows.length === 0}
        emptyText={t('models.empty')}
        head={
          <>
            <SortHeader column="name" {...sortProps}>
              {t('models.columns.name')}
            </SortHeader>
            <Table.Th>{t('models.columns.id')}</Table.Th>
            <SortHeader column="type" {...sortProps}>
              {t('models.columns.type')}
            </SortHeader>
            <Table.Th>{t('models.columns.provider')}</Table.Th>
            <Table.Th>{t('models.columns.cost')}</Table.Th>
            <Table.Th>{t('models.columns.tokens')}</Table.Th>
            <Table.Th>{t('models.columns.billing')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('models.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </>
        }
      >
        {rows.map((model) => (
          <Table.Tr key={model.id} data-testid={`model-row-${model.id}`} data-model-key={model.model_key}>
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
        ))}
      </ListTable>
      <ListFooter page={page} pageSize={PAGE_SIZE_DEFAULT} counts={query.data} onPageChange={setPage} />
      <InstallModelModal vendorId={vendorId} opened={installOpen} onClose={() => setInstallOpen(false)} />
    </>
  );
}
