import { type ApiClient, type ClientOrderColumn, PAGE_SIZE_DEFAULT } from '@llmor/contracts';
import { Anchor, Button, ColorSwatch, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListFooter } from '../../../components/ListFooter';
import { ListTable } from '../../../components/ListTable';
import { LoadError } from '../../../components/LoadError';
import { NoVendorSelected } from '../../../components/NoVendorSelected';
import { PageHeader } from '../../../components/PageHeader';
import { RelativeTime } from '../../../components/RelativeTime';
import { type Sort, SortHeader, useSort } from '../../../components/SortHeader';
import { useCurrentVendor } from '../../../lib/appState';
import { useClampPage } from '../../../lib/listState';
import { useClients } from '../api/listClients';
import '../i18n';

const COLUMNS = 7;

/** Green for an active client, red for an inactive one (docs/reference/console.md), named for screen readers. */
export function ClientStatus({ client }: { client: Pick<ApiClient, 'active'> }) {
  const { t } = useTranslation();
  const label = client.active ? t('clients.active') : t('clients.inactive');
  return (
    <Tooltip label={label}>
      <ColorSwatch
        component="span"
        size={12}
        withShadow={false}
        color={`var(--mantine-color-${client.active ? 'green' : 'red'}-6)`}
        role="img"
        aria-label={label}
        data-testid="client-status"
        data-active={String(client.active)}
      />
    </Tooltip>
  );
}

/** App settings → API clients (docs/reference/console.md): sortable paged table, newest first by default, Create. */
export function AppClientsSettings({ appId }: { appId: string }) {
  const vendor = useCurrentVendor();
  if (!vendor) return <NoVendorSelected />;
  return <ClientsTable vendorId={vendor.id} appId={appId} />;
}

function ClientsTable({ vendorId, appId }: { vendorId: number; appId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const [sort, onSort] = useSort<Sort<ClientOrderColumn>>({ column: 'created_at', dir: 'desc' });
  const query = useClients(vendorId, appId, {
    page,
    page_size: PAGE_SIZE_DEFAULT,
    order: sort.column,
    order_dir: sort.dir,
  });
  useClampPage(query.data, query.isPlaceholderData, page, PAGE_SIZE_DEFAULT, setPage);
  const rows = query.data?.data ?? [];
  const sortProps = { sort, onSort, testIdPrefix: 'clients-sort', titleKeyPrefix: 'clients.sort' } as const;
  const base = `/apps/${appId}/settings/clients`;

  return (
    <>
      <PageHeader
        sub
        title={t('clients.title')}
        titleTestId="settings-title"
        actions={
          <Button
            component={Link}
            to={`${base}/+`}
            leftSection={<IconPlus size={16} />}
            data-testid="clients-create"
          >
            {t('clients.create')}
          </Button>
        }
      />
      {query.isError ? (
        <LoadError
          error={query.error}
          onRetry={query.refetch}
          testId="clients-load-error"
          title={t('clients.loadFailed')}
        />
      ) : (
        <ListTable
          load={query}
          testIdPrefix="clients"
          minWidth={680}
          columns={COLUMNS}
          loading={query.isPending}
          loadingText={t('clients.loading')}
          empty={rows.length === 0}
          emptyText={t('clients.empty')}
          head={
            <>
              <Table.Th>{t('clients.columns.name')}</Table.Th>
              <Table.Th>{t('clients.columns.status')}</Table.Th>
              <Table.Th>{t('clients.columns.token')}</Table.Th>
              <SortHeader column="last_used" {...sortProps}>
                {t('clients.columns.lastUsed')}
              </SortHeader>
              <SortHeader column="requets_count" {...sortProps}>
                {t('clients.columns.requests')}
              </SortHeader>
              <SortHeader column="created_at" {...sortProps}>
                {t('clients.columns.createdAt')}
              </SortHeader>
              <Table.Th>
                <VisuallyHidden>{t('clients.columns.actions')}</VisuallyHidden>
              </Table.Th>
            </>
          }
        >
          {rows.map((client) => (
            <Table.Tr key={client.id} data-testid={`client-row-${client.id}`}>
              <Table.Td data-testid="client-name">
                {client.name || (
                  <Text span c="dimmed" fs="italic" size="sm">
                    {t('clients.unnamed')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <ClientStatus client={client} />
              </Table.Td>
              <Table.Td>
                <Text span ff="monospace" size="sm" data-testid="client-token">
                  {client.token}
                </Text>
              </Table.Td>
              <Table.Td data-testid="client-last-used" style={{ whiteSpace: 'nowrap' }}>
                {client.last_used ? <RelativeTime value={client.last_used} /> : t('clients.neverUsed')}
              </Table.Td>
              <Table.Td data-testid="client-requests">{client.requets_count}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <RelativeTime value={client.created_at} />
              </Table.Td>
              <Table.Td>
                <Group justify="flex-end">
                  <Anchor
                    component={Link}
                    to={`${base}/${client.id}`}
                    size="sm"
                    data-testid="client-settings"
                  >
                    {t('clients.settings')}
                  </Anchor>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      )}
      <ListFooter page={page} pageSize={PAGE_SIZE_DEFAULT} counts={query.data} onPageChange={setPage} />
    </>
  );
}
