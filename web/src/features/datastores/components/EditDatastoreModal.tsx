import { type Datastore, type DatastoreUpdateBody, datastoreUpdateBody } from '@llmor/contracts';
import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifySuccess, SETTINGS_AREA_TOAST } from '../../../lib/notify';
import { useEmbeddingModels } from '../api/searchEmbeddingModels';
import { useUpdateDatastore } from '../api/updateDatastore';

interface Values {
  name: string;
  embedding_vendor_model_id: string | null;
}

/** Edit: the name and the embedding model (a new model embeds every document again). */
export function EditDatastoreModal({
  vendorId,
  appId,
  datastore,
  onClose,
}: {
  vendorId: number;
  appId: string;
  datastore: Datastore;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const models = useEmbeddingModels(vendorId);
  const update = useUpdateDatastore(vendorId, appId);
  const form = useForm<Values>({
    initialValues: {
      name: datastore.name,
      embedding_vendor_model_id:
        datastore.embedding_vendor_model_id === null ? null : String(datastore.embedding_vendor_model_id),
    },
    validate: zodFormValidate(datastoreUpdateBody.pick({ name: true }), t),
  });
  useUnsavedChanges(form.isDirty());
  const onSubmit = async (values: Values) => {
    const body: DatastoreUpdateBody = {
      name: values.name.trim(),
      ...(values.embedding_vendor_model_id
        ? { embedding_vendor_model_id: Number(values.embedding_vendor_model_id) }
        : {}),
    };
    try {
      await update.mutateAsync({ id: datastore.id, body });
      notifySuccess(t('datastores.saved'), SETTINGS_AREA_TOAST);
      onClose();
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('datastores.saveFailed'), SETTINGS_AREA_TOAST)));
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('datastores.editTitle')} data-testid="datastore-edit-modal">
      <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('datastores.name')}
            description={t('datastores.nameHint')}
            required
            data-testid="datastore-edit-name"
            {...form.getInputProps('name')}
          />
          <Select
            label={t('datastores.embeddingModel')}
            description={t('datastores.embeddingModelHint')}
            data={(models.data ?? []).map((m) => ({ value: String(m.id), label: m.name }))}
            disabled={models.isPending}
            data-testid="datastore-edit-model"
            {...form.getInputProps('embedding_vendor_model_id')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('datastores.cancel')}
            </Button>
            <Button type="submit" loading={update.isPending} data-testid="datastore-edit-save">
              {t('datastores.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
