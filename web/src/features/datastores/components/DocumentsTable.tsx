import {
  type DatastoreDocument,
  DOCUMENT_PREVIEW_LENGTH,
  HASH_PREVIEW_LENGTH,
  PAGE_SIZE_DEFAULT,
} from '@llmor/contracts';
import { ActionIcon, Box, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconEye, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentSourceLabel } from '../../../components/DocumentSourceLabel';
import { ListFooter } from '../../../components/ListFooter';
import { ListTable } from '../../../components/ListTable';
import { LoadError } from '../../../components/LoadError';
import { RelativeTime } from '../../../components/RelativeTime';
import { describeError } from '../../../lib/api/error';
import { useClampPage } from '../../../lib/listState';
import { notifyError, notifySuccess, SETTINGS_AREA_TOAST } from '../../../lib/notify';
import { useDeleteDocument } from '../api/deleteDocument';
import { useDatastoreStatus } from '../api/getDatastoreStatus';
import { useDocuments } from '../api/listDocuments';
import { DocumentModal } from './DocumentModal';

const truncate = (text: string, n: number) => (text.length > n ? `${text.slice(0, n)}…` : text);

/** The actions stay in view at the table's right edge while a narrow screen scrolls the rest sideways. */
const STUCK_RIGHT = {
  position: 'sticky',
  right: 0,
  background: 'var(--mantine-color-body)',
  boxShadow: '-1px 0 0 var(--mantine-color-default-border)',
} as const;

/**
 * The document table (docs/reference/console.md): ID, Hash (7 + …), Document (70) with its source beneath,
 * Updated with the sync dot, actions.
 */
export function DocumentsTable({ datastoreId }: { datastoreId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<DatastoreDocument | null>(null);
  const status = useDatastoreStatus(datastoreId);
  const docs = useDocuments(datastoreId, page, PAGE_SIZE_DEFAULT, 0, (status.data?.pending ?? 0) > 0);
  const remove = useDeleteDocument(datastoreId);
  useClampPage(docs.data, docs.isPlaceholderData, page, PAGE_SIZE_DEFAULT, setPage);
  const rows = docs.data?.data ?? [];
  const onDelete = async (id: number) => {
    try {
      await remove.mutateAsync(id);
      notifySuccess(t('datastores.table.deleted'), SETTINGS_AREA_TOAST);
    } catch (error) {
      notifyError(describeError(error).message ?? t('datastores.saveFailed'), SETTINGS_AREA_TOAST);
    }
  };
  if (docs.isError) {
    return (
      <LoadError
        error={docs.error}
        onRetry={docs.refetch}
        testId="documents-load-error"
        title={t('datastores.table.loadFailed')}
      />
    );
  }
  return (
    <>
      <ListTable
        load={docs}
        testIdPrefix="documents"
        minWidth={720}
        columns={5}
        loading={docs.isPending}
        loadingText={t('datastores.table.loading')}
        empty={rows.length === 0}
        emptyText={t('datastores.table.empty')}
        head={
          <>
            <Table.Th w={80}>{t('datastores.table.id')}</Table.Th>
            <Table.Th w={110}>{t('datastores.table.hash')}</Table.Th>
            <Table.Th>{t('datastores.table.document')}</Table.Th>
            <Table.Th w={170}>{t('datastores.table.updated')}</Table.Th>
            <Table.Th w={90} style={STUCK_RIGHT}>
              {t('datastores.table.actions')}
            </Table.Th>
          </>
        }
      >
        {rows.map((d) => (
          <Table.Tr
            key={d.id}
            data-testid={`document-row-${d.id}`}
            data-sync={d.requires_sync ? 'pending' : 'done'}
          >
            <Table.Td>{d.id}</Table.Td>
            <Table.Td>
              <Text ff="monospace" size="sm">
                {truncate(d.hash, HASH_PREVIEW_LENGTH)}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm" style={{ wordBreak: 'break-all' }} data-testid="document-preview">
                {truncate(JSON.stringify(d.document), DOCUMENT_PREVIEW_LENGTH)}
              </Text>
              {d.source && <DocumentSourceLabel source={d.source} />}
            </Table.Td>
            <Table.Td>
              <Group gap={8} wrap="nowrap">
                <SyncDot document={d} />
                <Text size="sm">
                  <RelativeTime value={d.modified_at} />
                </Text>
              </Group>
            </Table.Td>
            <Table.Td style={STUCK_RIGHT} data-testid="document-actions">
              <Group gap={4} wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  aria-label={t('datastores.table.open', { id: d.id })}
                  onClick={() => setOpen(d)}
                  data-testid="document-open"
                >
                  <IconEye size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('datastores.table.delete', { id: d.id })}
                  loading={remove.isPending && remove.variables === d.id}
                  onClick={() => void onDelete(d.id)}
                  data-testid="document-delete"
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <ListFooter page={page} pageSize={PAGE_SIZE_DEFAULT} counts={docs.data} onPageChange={setPage} />
      {open && <DocumentModal datastoreId={datastoreId} document={open} onClose={() => setOpen(null)} />}
    </>
  );
}

function SyncDot({ document }: { document: DatastoreDocument }) {
  const { t } = useTranslation();
  const label = document.sync_error
    ? t('datastores.table.syncError', { error: document.sync_error })
    : document.requires_sync
      ? t('datastores.table.pendingSync')
      : t('datastores.table.inSync');
  return (
    <Tooltip label={label}>
      <Box
        role="img"
        aria-label={label}
        w={10}
        h={10}
        style={{ borderRadius: '50%', flex: 'none' }}
        bg={document.requires_sync ? 'red.6' : 'green.6'}
        data-testid="sync-dot"
      />
    </Tooltip>
  );
}
