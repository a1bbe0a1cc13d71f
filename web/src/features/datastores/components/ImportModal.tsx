import { FILE_IMPORT_MODES, type FileImportMode, importModeOfFile } from '@llmor/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  Modal,
  NativeSelect,
  Paper,
  Progress,
  Stack,
  Table,
  Tabs,
  Text,
} from '@mantine/core';
import { IconFileUpload, IconX } from '@tabler/icons-react';
import { type DragEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../lib/api/error';
import { formatBytes } from '../../../lib/format/bytes';
import { useDatastoreStatus } from '../api/getDatastoreStatus';
import { useUploadDocuments } from '../api/uploadDocuments';

/**
 * Where a file is: waiting, its bytes on the way (with progress), all sent and the server reading it (the
 * answer comes when the file is read and its documents stored), done, refused or failed, or cancelled.
 */
type FileStatus = 'pending' | 'uploading' | 'parsing' | 'done' | 'error' | 'cancelled';

/**
 * An import file entry (docs/reference/rules.md): the file, its own mode, its status, the share uploaded and,
 * when done, the imported count.
 */
interface ImportEntry {
  key: string;
  file: File;
  mode: FileImportMode;
  status: FileStatus;
  /** 0–1 of the file sent while uploading. */
  sent: number;
  importedDocs: number;
  error?: string;
}

const STATUS_COLOR: Record<FileStatus, string> = {
  pending: 'gray',
  uploading: 'blue',
  parsing: 'violet',
  done: 'green',
  error: 'red',
  cancelled: 'gray',
};

/**
 * The import dialog: a tab per mode (default qa), a dropzone for several files, and per file its mode
 * (from its type — a PDF is read as PDF — else the tab's when it was added; changeable), its upload
 * status pending → uploading (progress) → parsing (sent, until the server answers) → done (count) / error
 * (the server's message, in the console's language) — then the datastore embeds them, its status shown
 * below. Files are sent as they are, one after another; files already done are skipped when it runs again.
 * Cancel, or closing the dialog, aborts the upload under way and stops the run.
 */
export function ImportModal({
  datastoreId,
  opened,
  onClose,
}: {
  datastoreId: number;
  opened: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<FileImportMode>('qa');
  const [entries, setEntries] = useState<ImportEntry[]>([]);
  const [running, setRunning] = useState(false);
  /** What the last run imported, shown in the dialog (a toast would cover its tabs). */
  const [summary, setSummary] = useState<number | null>(null);
  const upload = useUploadDocuments(datastoreId);
  /** The run under way's cancel. */
  const cancelRun = useRef<AbortController | null>(null);
  const patch = (key: string, change: Partial<ImportEntry>) =>
    setEntries((all) => all.map((e) => (e.key === key ? { ...e, ...change } : e)));

  const run = async () => {
    const cancel = new AbortController();
    cancelRun.current = cancel;
    setRunning(true);
    setSummary(null);
    let imported = 0;
    for (const entry of entries) {
      if (entry.status === 'done') continue;
      patch(entry.key, { status: 'uploading', sent: 0, error: undefined });
      try {
        const { data: docs } = await upload.mutateAsync({
          mode: entry.mode,
          file: entry.file,
          // The last progress event says every byte is sent (XMLHttpRequest's upload end of body).
          onProgress: (sent) => patch(entry.key, sent >= 1 ? { sent, status: 'parsing' } : { sent }),
          cancel: cancel.signal,
        });
        imported += docs.length;
        patch(entry.key, { status: 'done', importedDocs: docs.length });
      } catch (error) {
        if (cancel.signal.aborted) {
          patch(entry.key, { status: 'cancelled' });
          break;
        }
        console.error('Import failed', entry.file.name, error);
        patch(entry.key, { status: 'error', error: describeError(error).message ?? undefined });
      }
    }
    setRunning(false);
    // Closed meanwhile (close let go of the run): nothing of it is shown when the dialog opens again.
    if (cancelRun.current !== cancel) return;
    cancelRun.current = null;
    setSummary(imported);
  };

  const add = (files: File[]) =>
    setEntries((all) => [
      ...all,
      ...files.map((file) => ({
        key: `${file.name}:${file.size}:${file.lastModified}:${Math.random()}`,
        file,
        mode: importModeOfFile(file.name) ?? mode,
        status: 'pending' as const,
        sent: 0,
        importedDocs: 0,
      })),
    ]);
  const close = () => {
    cancelRun.current?.abort();
    cancelRun.current = null;
    setEntries([]);
    setSummary(null);
    onClose();
  };
  const waiting = entries.some((e) => e.status !== 'done');
  return (
    <Modal
      opened={opened}
      onClose={close}
      size="lg"
      title={t('datastores.importer.title')}
      data-testid="import-modal"
    >
      <Stack gap="md">
        <Tabs value={mode} onChange={(v) => v && setMode(v as FileImportMode)}>
          <Tabs.List>
            {FILE_IMPORT_MODES.map((m) => (
              <Tabs.Tab key={m} value={m} disabled={running} data-testid={`import-mode-${m}`}>
                {t(`datastores.importer.modes.${m}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        <Text size="sm" c="dimmed" data-testid="import-mode-help">
          {t(`datastores.importer.modeHelp.${mode}`)}
        </Text>
        <FileDrop disabled={running} onFiles={add} />
        {entries.length > 0 && (
          <Table data-testid="import-files">
            <Table.Tbody>
              {entries.map((e) => (
                <Table.Tr key={e.key} data-testid={`import-file-${e.file.name}`} data-status={e.status}>
                  <Table.Td>
                    <Text size="sm">{e.file.name}</Text>
                    <Text size="xs" c="dimmed">
                      {formatBytes(e.file.size)}
                    </Text>
                    {e.status === 'uploading' && (
                      <Progress
                        value={Math.round(e.sent * 100)}
                        size="sm"
                        mt={4}
                        aria-label={t('datastores.importer.progress', { name: e.file.name })}
                        data-testid="import-file-progress"
                      />
                    )}
                    {e.status === 'parsing' && (
                      <>
                        <Progress
                          value={100}
                          color="violet"
                          striped
                          animated
                          size="sm"
                          mt={4}
                          aria-label={t('datastores.importer.parsingHint')}
                        />
                        <Text size="xs" c="dimmed" data-testid="import-file-parsing">
                          {t('datastores.importer.parsingHint')}
                        </Text>
                      </>
                    )}
                    {e.error && (
                      <Text size="xs" c="red" data-testid="import-file-error">
                        {e.error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td w={130}>
                    <NativeSelect
                      size="xs"
                      value={e.mode}
                      disabled={running || e.status === 'done'}
                      aria-label={t('datastores.importer.fileMode', { name: e.file.name })}
                      data={FILE_IMPORT_MODES.map((m) => ({
                        value: m,
                        label: t(`datastores.importer.modes.${m}`),
                      }))}
                      onChange={(event) =>
                        patch(e.key, { mode: event.currentTarget.value as FileImportMode })
                      }
                      data-testid="import-file-mode"
                    />
                  </Table.Td>
                  <Table.Td w={170}>
                    <Badge color={STATUS_COLOR[e.status]} variant="light" data-testid="import-file-status">
                      {t(`datastores.importer.statuses.${e.status}`, { count: e.importedDocs })}
                    </Badge>
                  </Table.Td>
                  <Table.Td w={40}>
                    <ActionIcon
                      variant="subtle"
                      disabled={running}
                      aria-label={t('datastores.importer.remove', { name: e.file.name })}
                      onClick={() => setEntries((all) => all.filter((x) => x.key !== e.key))}
                    >
                      <IconX size={14} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {summary !== null && summary > 0 && (
          <Alert color="green" variant="light" data-testid="import-summary">
            {t('datastores.importer.summary', { count: summary })}
            <Embedding datastoreId={datastoreId} />
          </Alert>
        )}
        <Group justify="flex-end">
          {running ? (
            <Button variant="default" onClick={() => cancelRun.current?.abort()} data-testid="import-cancel">
              {t('datastores.cancel')}
            </Button>
          ) : (
            <Button variant="default" onClick={close}>
              {t('datastores.importer.close')}
            </Button>
          )}
          <Button onClick={() => void run()} loading={running} disabled={!waiting} data-testid="import-start">
            {t('datastores.importer.start')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The step after the import: the datastore's embedding, as its status bar tells it (polled while pending). */
function Embedding({ datastoreId }: { datastoreId: number }) {
  const { t } = useTranslation();
  const status = useDatastoreStatus(datastoreId).data;
  if (!status || status.documents === 0) return null;
  return (
    <Text size="sm" mt={4} data-testid="import-embedding">
      {status.pending === 0
        ? t('datastores.status.synced')
        : t('datastores.status.syncing', {
            done: status.documents - status.pending,
            total: status.documents,
          })}
    </Text>
  );
}

/**
 * Drop files here or choose them (Mantine's FileButton). Not @mantine/dropzone: its react-dropzone chain
 * declares Node ≥ 22 while we support Node 20 (ADR 0011).
 */
function FileDrop({ disabled, onFiles }: { disabled: boolean; onFiles(files: File[]): void }) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  return (
    <FileButton multiple onChange={(files) => files.length && onFiles(files)} disabled={disabled}>
      {(props) => (
        <Paper
          {...props}
          component="button"
          type="button"
          withBorder
          p="lg"
          disabled={disabled}
          onDragOver={(e: DragEvent) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e: DragEvent) => {
            e.preventDefault();
            setOver(false);
            if (!disabled) onFiles([...e.dataTransfer.files]);
          }}
          style={{
            borderStyle: 'dashed',
            width: '100%',
            cursor: disabled ? 'not-allowed' : 'pointer',
            background: over ? 'var(--mantine-color-blue-light)' : undefined,
          }}
          data-testid="import-dropzone"
        >
          <Group justify="center" gap="md" mih={80} style={{ pointerEvents: 'none' }}>
            <IconFileUpload size={36} stroke={1.5} />
            <div>
              <Text>{t('datastores.importer.drop')}</Text>
              <Text size="sm" c="dimmed">
                {t('datastores.importer.dropHint')}
              </Text>
            </div>
          </Group>
        </Paper>
      )}
    </FileButton>
  );
}
