import { type EMBED_ORDER_COLUMNS, PAGE_SIZE_DEFAULT } from '@llmor/contracts';
import {
  ActionIcon,
  Anchor,
  Button,
  Code,
  Group,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconCode, IconCopy, IconPlus, IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListFooter } from '../../../components/ListFooter';
import { ListTable } from '../../../components/ListTable';
import { NoVendorSelected } from '../../../components/NoVendorSelected';
import { PageHeader } from '../../../components/PageHeader';
import { RelativeTime } from '../../../components/RelativeTime';
import { SortHeader, useSort } from '../../../components/SortHeader';
import { useCurrentVendor } from '../../../lib/appState';
import { useClampPage, useLogError } from '../../../lib/listState';
import { useEmbeds } from '../api/listEmbeds';
import { EmbedCodeModal } from './EmbedCodeModal';
import { useEmbedCopy } from './useEmbedCopy';
import '../i18n';

type Column = (typeof EMBED_ORDER_COLUMNS)[number];

/** App settings → Web embeds (docs/reference/console.md): Name, masked Token, Created at; Embed Code, copy token, Settings. */
export function AppEmbedsSettings({ appId }: { appId: string }) {
  const { t } = useTranslation();
  const vendor = useCurrentVendor();
  return (
    <>
      <PageHeader
        sub
        title={t('embeds.title')}
        titleTestId="settings-title"
        actions={
          vendor && (
            <Button
              component={Link}
              to={`/apps/${appId}/settings/embeds/+`}
              leftSection={<IconPlus size={16} />}
              data-testid="embeds-create"
            >
              {t('embeds.create')}
            </Button>
          )
        }
      />
      {vendor ? <EmbedsTable vendorId={vendor.id} appId={appId} /> : <NoVendorSelected />}
    </>
  );
}

function EmbedsTable({ vendorId, appId }: { vendorId: number; appId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const [sort, onSort] = useSort<{ column: Column; dir: 'asc' | 'desc' }>({
    column: 'created_at',
    dir: 'desc',
  });
  const [codeOf, setCodeOf] = useState<number | null>(null);
  const { copyToken } = useEmbedCopy(vendorId, appId);
  const query = useEmbeds(vendorId, appId, {
    page,
    page_size: PAGE_SIZE_DEFAULT,
    order: sort.column,
    order_dir: sort.dir,
  });
  useLogError(query.error, 'Loading the embeds failed');
  useClampPage(query.data, query.isPlaceholderData, page, PAGE_SIZE_DEFAULT, setPage);
  const rows = query.data?.data ?? [];
  const header = (column: Column, label: string) => (
    <SortHeader
      column={column}
      sort={sort}
      onSort={(c) => {
        onSort(c);
        setPage(0);
      }}
      testIdPrefix="embeds-sort"
      titleKeyPrefix="embeds.sort"
    >
      {label}
    </SortHeader>
  );
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('embeds.intro')}
      </Text>
      <ListTable
        load={query}
        testIdPrefix="embeds"
        minWidth={640}
        columns={4}
        loading={query.isPending}
        loadingText={t('embeds.loading')}
        empty={!query.isPending && rows.length === 0}
        emptyText={t('embeds.empty')}
        head={
          <>
            {header('name', t('embeds.columns.name'))}
            <Table.Th>{t('embeds.columns.token')}</Table.Th>
            {header('created_at', t('embeds.columns.created'))}
            <Table.Th>
              <VisuallyHidden>{t('embeds.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </>
        }
      >
        {rows.map((embed) => (
          <Table.Tr key={embed.id} data-testid={`embed-row-${embed.id}`}>
            <Table.Td>
              <Anchor component={Link} to={`/apps/${appId}/settings/embeds/${embed.id}`}>
                {embed.name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Code data-testid="embed-token">{embed.token}</Code>
            </Table.Td>
            <Table.Td>
              <RelativeTime value={embed.created_at} />
            </Table.Td>
            <Table.Td>
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Tooltip label={t('embeds.embedCode')}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={`${t('embeds.embedCode')}: ${embed.name}`}
                    onClick={() => setCodeOf(embed.id)}
                    data-testid="embed-show-code"
                  >
                    <IconCode size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('embeds.copyToken')}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={`${t('embeds.copyToken')}: ${embed.name}`}
                    onClick={() => void copyToken(embed.id)}
                    data-testid="embed-copy-token"
                  >
                    <IconCopy size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('embeds.settings')}>
                  <ActionIcon
                    variant="subtle"
                    component={Link}
                    to={`/apps/${appId}/settings/embeds/${embed.id}`}
                    aria-label={`${t('embeds.settings')}: ${embed.name}`}
                    data-testid="embed-settings"
                  >
                    <IconSettings size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {query.data && (
        <ListFooter page={page} pageSize={PAGE_SIZE_DEFAULT} counts={query.data} onPageChange={setPage} />
      )}
      <EmbedCodeModal vendorId={vendorId} appId={appId} embedId={codeOf} onClose={() => setCodeOf(null)} />
    </Stack>
  );
}
