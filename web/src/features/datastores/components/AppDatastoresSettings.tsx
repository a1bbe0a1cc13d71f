import {
  DATASTORE_NAME_MAX_LENGTH,
  type Datastore,
  type DatastoreCreateBody,
  datastoreCreateBody,
} from '@llmor/contracts';
import { Box, Button, Group, Menu, Stack, Tabs, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDots, IconEraser, IconFileImport, IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal';
import { LoadError } from '../../../components/LoadError';
import { LoadingState } from '../../../components/LoadingState';
import { NoVendorSelected } from '../../../components/NoVendorSelected';
import { PageHeader } from '../../../components/PageHeader';
import { describeError } from '../../../lib/api/error';
import { useCurrentVendor } from '../../../lib/appState';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifyError, notifySuccess, SETTINGS_AREA_TOAST } from '../../../lib/notify';
import { useCreateDatastore } from '../api/createDatastore';
import { useDatastores } from '../api/listDatastores';
import { useTruncateDatastore } from '../api/truncateDatastore';
import { DatastoreStatusBar } from './DatastoreStatusBar';
import { DocumentsTable } from './DocumentsTable';
import { EditDatastoreModal } from './EditDatastoreModal';
import { ImportModal } from './ImportModal';
import '../i18n';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';

const CREATE_TAB = 'create';

/**
 * App settings → Datastores (docs/reference/console.md): a tab per datastore plus 'Create new' (default: the first
 * datastore, else create; a new datastore is selected), each with its menu, sync status and documents.
 */
export function AppDatastoresSettings({ appId }: { appId: string }) {
  const { t } = useTranslation();
  const vendor = useCurrentVendor();
  if (!vendor) return <NoVendorSelected />;
  return (
    <>
      <PageHeader sub title={t('datastores.title')} titleTestId="settings-title" />
      <DatastoreTabs vendorId={vendor.id} appId={appId} />
    </>
  );
}

function DatastoreTabs({ vendorId, appId }: { vendorId: number; appId: string }) {
  const { t } = useTranslation();
  const list = useDatastores(vendorId, appId);
  const [tab, setTab] = useState<string | null>(null);
  if (list.isPending) return <LoadingState text={t('datastores.loading')} testId="datastores-loading" />;
  if (list.isError) {
    return (
      <LoadError
        error={list.error}
        onRetry={list.refetch}
        testId="datastores-load-error"
        title={t('datastores.loadFailed')}
      />
    );
  }
  const stores = list.data;
  const known = tab !== null && (tab === CREATE_TAB || stores.some((d) => String(d.id) === tab));
  const active = known ? tab : stores[0] ? String(stores[0].id) : CREATE_TAB;
  const current = stores.find((d) => String(d.id) === active);
  return (
    <Tabs value={active} onChange={setTab} keepMounted={false} data-testid="datastore-tabs">
      <Tabs.List mb="md">
        {stores.map((d) => (
          <Tabs.Tab key={d.id} value={String(d.id)} data-testid={`datastore-tab-${d.name}`}>
            {d.name}
          </Tabs.Tab>
        ))}
        <Tabs.Tab value={CREATE_TAB} leftSection={<IconPlus size={14} />} data-testid="datastore-tab-create">
          {t('datastores.createNew')}
        </Tabs.Tab>
      </Tabs.List>
      {current && <DatastorePanel key={current.id} vendorId={vendorId} appId={appId} datastore={current} />}
      {/* Kept while another tab shows, so a name being typed survives a look at a datastore. */}
      <Box display={current ? 'none' : undefined}>
        <CreateDatastoreForm vendorId={vendorId} appId={appId} onCreated={(d) => setTab(String(d.id))} />
      </Box>
    </Tabs>
  );
}

function CreateDatastoreForm({
  vendorId,
  appId,
  onCreated,
}: {
  vendorId: number;
  appId: string;
  onCreated(datastore: Datastore): void;
}) {
  const { t } = useTranslation();
  const create = useCreateDatastore(vendorId, appId);
  const form = useForm<DatastoreCreateBody>({
    initialValues: { name: '' },
    validate: zodFormValidate(datastoreCreateBody, t),
  });
  useUnsavedChanges(form.isDirty());
  const onSubmit = async (values: DatastoreCreateBody) => {
    try {
      const { data } = await create.mutateAsync({ name: values.name.trim() });
      notifySuccess(t('datastores.created'), SETTINGS_AREA_TOAST);
      form.reset();
      onCreated(data);
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('datastores.saveFailed'), SETTINGS_AREA_TOAST)));
    }
  };
  return (
    <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate data-testid="datastore-create-form">
      <Stack gap="sm" maw={480}>
        <TextInput
          label={t('datastores.name')}
          description={t('datastores.nameHint')}
          placeholder={t('datastores.namePlaceholder')}
          required
          maxLength={DATASTORE_NAME_MAX_LENGTH}
          data-testid="datastore-name"
          {...form.getInputProps('name')}
        />
        <Group>
          <Button
            type="submit"
            loading={create.isPending}
            leftSection={<IconPlus size={16} />}
            data-testid="datastore-create"
          >
            {t('datastores.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DatastorePanel({
  vendorId,
  appId,
  datastore,
}: {
  vendorId: number;
  appId: string;
  datastore: Datastore;
}) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'import' | 'edit' | 'truncate' | null>(null);
  const truncate = useTruncateDatastore(datastore.id);
  const close = () => setDialog(null);
  const onTruncate = async () => {
    try {
      const { message } = await truncate.mutateAsync();
      notifySuccess(message, SETTINGS_AREA_TOAST);
      close();
    } catch (error) {
      notifyError(describeError(error).message ?? t('datastores.truncateFailed'), SETTINGS_AREA_TOAST);
    }
  };
  return (
    <Stack gap="md" data-testid={`datastore-panel-${datastore.name}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <DatastoreStatusBar datastore={datastore} />
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button
              variant="default"
              rightSection={<IconDots size={16} />}
              aria-label={t('datastores.menu')}
              data-testid="datastore-menu"
            >
              {t('datastores.menu')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              leftSection={<IconFileImport size={16} />}
              onClick={() => setDialog('import')}
              data-testid="datastore-import"
            >
              {t('datastores.import')}
            </Menu.Item>
            <Menu.Item
              leftSection={<IconPencil size={16} />}
              onClick={() => setDialog('edit')}
              data-testid="datastore-edit"
            >
              {t('datastores.edit')}
            </Menu.Item>
            <Menu.Divider />
            <Menu.Label>{t('datastores.dangerZone')}</Menu.Label>
            <Menu.Item
              color="red"
              leftSection={<IconEraser size={16} />}
              onClick={() => setDialog('truncate')}
              data-testid="datastore-truncate"
            >
              {t('datastores.truncate')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <DocumentsTable datastoreId={datastore.id} />
      <ImportModal datastoreId={datastore.id} opened={dialog === 'import'} onClose={close} />
      {dialog === 'edit' && (
        <EditDatastoreModal vendorId={vendorId} appId={appId} datastore={datastore} onClose={close} />
      )}
      <ConfirmDeleteModal
        opened={dialog === 'truncate'}
        onClose={close}
        title={t('datastores.truncate')}
        text={t('datastores.truncateConfirm', { name: datastore.name })}
        cancelLabel={t('datastores.cancel')}
        confirmLabel={t('datastores.truncate')}
        onConfirm={() => void onTruncate()}
        loading={truncate.isPending}
        lockWhileLoading
        testIds={{
          dialog: 'truncate-dialog',
          text: 'truncate-text',
          cancel: 'truncate-cancel',
          confirm: 'truncate-confirm',
        }}
      />
    </Stack>
  );
}
