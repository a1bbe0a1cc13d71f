import type { DatastoreDocument } from '@llmor/contracts';
import { Button, Group, Input, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentSourceLabel } from '../../../components/DocumentSourceLabel';
import { JsonEditor } from '../../../components/JsonEditor';
import { submitErrors } from '../../../lib/form';
import { notifySuccess, SETTINGS_AREA_TOAST } from '../../../lib/notify';
import { useUpdateDocument } from '../api/updateDocument';

/**
 * A document: its hash read-only and a JSON editor. Save works; it is
 * refused while the JSON is invalid, and closing with unsaved changes asks first.
 */
export function DocumentModal({
  datastoreId,
  document,
  onClose,
}: {
  datastoreId: number;
  document: DatastoreDocument;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const update = useUpdateDocument(datastoreId);
  const [value, setValue] = useState<unknown>(document.document);
  const [valid, setValid] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const dirty = JSON.stringify(value) !== JSON.stringify(document.document) || !valid;
  const close = () => {
    if (dirty && !window.confirm(t('datastores.document.unsaved'))) return;
    onClose();
  };
  const save = async () => {
    if (!valid) return;
    setError(null);
    try {
      await update.mutateAsync({ id: document.id, document: value });
      notifySuccess(t('datastores.saved'), SETTINGS_AREA_TOAST);
      onClose();
    } catch (err) {
      const errors = submitErrors(err, t('datastores.saveFailed'), SETTINGS_AREA_TOAST);
      setError(errors.document?.join(' ') ?? null);
    }
  };
  return (
    <Modal
      opened
      onClose={close}
      size="lg"
      title={t('datastores.document.title', { id: document.id })}
      data-testid="document-modal"
    >
      <Stack gap="sm">
        <TextInput
          label={t('datastores.document.hash')}
          value={document.hash}
          readOnly
          data-testid="document-hash"
        />
        {document.source && (
          <Input.Wrapper label={t('datastores.table.source')}>
            <DocumentSourceLabel source={document.source} size="sm" />
          </Input.Wrapper>
        )}
        <JsonEditor
          label={t('datastores.document.json')}
          value={value}
          onChange={setValue}
          onValidityChange={setValid}
          rows={14}
          error={error}
          data-testid="document-json"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('datastores.cancel')}
          </Button>
          <Button
            onClick={() => void save()}
            disabled={!valid || !dirty}
            loading={update.isPending}
            data-testid="document-save"
          >
            {t('datastores.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
