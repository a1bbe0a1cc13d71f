import { type App, LOADING_BUTTON_MIN_MS, type VendorModelPick } from '@llmor/contracts';
import {
  Button,
  Collapse,
  Grid,
  Group,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EntityIcon } from '../../../components/EntityIcon';
import { EntityPicker } from '../../../components/EntityPicker';
import { fieldError } from '../../../components/FieldError';
import { JsonEditor } from '../../../components/JsonEditor';
import { PageHeader } from '../../../components/PageHeader';
import { UserAvatar } from '../../../components/UserAvatar';
import { useCurrentVendor } from '../../../lib/appState';
import { formatDateTime } from '../../../lib/format/date';
import { notifySuccess } from '../../../lib/notify';
import { handleSaveError } from '../../../lib/saveError';
import { useApp } from '../api/getApp';
import '../i18n';
import { searchCompletionModels, usePickedModel } from '../api/searchModels';
import { useUpdateApp } from '../api/updateApp';
import { errorMessages, parametersErrorLines } from '../lib';

/** Settings → Details (spec 02 §2 App settings: Details). */
export function AppDetailsForm() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const vendor = useCurrentVendor();
  const app = useApp(vendor?.id ?? 0, id);
  const [advanced, setAdvanced] = useState(false);

  return (
    <>
      <PageHeader sub title={t('pages.app.detailsTitle')} titleTestId="settings-title" />
      {app.data && vendor ? (
        <DetailsFields
          key={`${app.data.id}:${app.data.modified_at ?? ''}`}
          app={app.data}
          vendorId={vendor.id}
          advanced={advanced}
          setAdvanced={setAdvanced}
        />
      ) : (
        <Stack gap="md" data-testid="details-loading">
          <Skeleton height={36} />
          <Skeleton height={36} />
          <Skeleton height={72} />
        </Stack>
      )}
    </>
  );
}

interface DetailsFieldsProps {
  app: App;
  vendorId: number;
  advanced: boolean;
  setAdvanced(v: boolean): void;
}

function DetailsFields({ app, vendorId, advanced, setAdvanced }: DetailsFieldsProps) {
  const { t, i18n } = useTranslation();
  const [name, setName] = useState(app.name);
  const [description, setDescription] = useState(app.description ?? '');
  const [modelId, setModelId] = useState<number | null>(app.completion_vendor_model_id);
  const [chosenModel, setChosenModel] = useState<VendorModelPick | null>(null);
  const [parameters, setParameters] = useState<unknown>(app.parameters);
  const [errors, setErrors] = useState<Record<string, unknown> | null>(null);
  const picked = usePickedModel(vendorId, chosenModel ? null : modelId);
  const update = useUpdateApp(vendorId, app.id, LOADING_BUTTON_MIN_MS);

  const model: VendorModelPick | null =
    modelId === null
      ? null
      : (chosenModel ??
        picked.data ?? { id: modelId, name: `#${modelId}`, image: null, cost_per_1k_formatted: '' });

  const parameterLines = parametersErrorLines(errors?.parameters);
  const creator = app.creator?.data;
  const creatorName = creator ? `${creator.firstname} ${creator.lastname}`.trim() || creator.email : null;

  const onSave = async () => {
    try {
      await update.mutateAsync({
        name,
        description,
        completion_vendor_model_id: modelId,
        parameters: parameters as Record<string, unknown>,
      });
      setErrors(null);
      notifySuccess(t('apps.details.saved'));
    } catch (error) {
      const fieldErrors = handleSaveError(error, t('apps.details.saveFailed'));
      setErrors(fieldErrors);
      if (fieldErrors?.parameters) setAdvanced(true);
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void onSave();
      }}
      data-testid="details-form"
    >
      <Stack gap="md">
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label={t('apps.details.appKey')}
              value={app.app_key}
              readOnly
              variant="filled"
              data-testid="details-app-key"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label={t('apps.details.name')}
              required
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fieldError(errorMessages(errors?.name))}
              data-testid="details-name"
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <Textarea
              label={t('apps.details.description')}
              autosize
              minRows={2}
              maxRows={8}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={fieldError(errorMessages(errors?.description))}
              data-testid="details-description"
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <EntityPicker<VendorModelPick>
              label={t('apps.details.model')}
              placeholder={t('apps.details.modelPlaceholder')}
              value={model}
              onChange={(item) => {
                setChosenModel(item);
                setModelId(item?.id ?? null);
              }}
              search={(text) => searchCompletionModels(vendorId, text)}
              queryKey={['apps', vendorId, 'model-search', 'chat_completion']}
              getId={(m) => m.id}
              getLabel={(m) => m.name}
              renderSelected={(m) => <EntityIcon icon={m.image} name={m.name} size={20} />}
              renderOption={(m) => (
                <Group gap="sm" wrap="nowrap" justify="space-between">
                  <Group gap="sm" wrap="nowrap">
                    <EntityIcon icon={m.image} name={m.name} size="sm" />
                    <Text size="sm">{m.name}</Text>
                  </Group>
                  {m.cost_per_1k_formatted && (
                    <Text size="xs" c="dimmed">
                      {t('apps.details.costPer1k', { cost: m.cost_per_1k_formatted })}
                    </Text>
                  )}
                </Group>
              )}
              clearable
              error={fieldError(errorMessages(errors?.completion_vendor_model_id))}
              data-testid="details-model"
            />
          </Grid.Col>
        </Grid>

        <Paper withBorder p="md" radius="md">
          <Grid>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <Text size="xs" c="dimmed" mb={4}>
                {t('apps.details.creator')}
              </Text>
              <Group gap="xs" wrap="nowrap" data-testid="details-creator">
                <UserAvatar name={creatorName ?? t('apps.list.unknownUser')} size="sm" />
                <Text size="sm">{creatorName ?? t('apps.list.unknownUser')}</Text>
              </Group>
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 4 }}>
              <Text size="xs" c="dimmed" mb={4}>
                {t('apps.details.createdAt')}
              </Text>
              <Text size="sm" data-testid="details-created-at">
                {formatDateTime(app.created_at, i18n.language)}
              </Text>
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 4 }}>
              <Text size="xs" c="dimmed" mb={4}>
                {t('apps.details.modifiedAt')}
              </Text>
              <Text size="sm" data-testid="details-modified-at">
                {app.modified_at ? formatDateTime(app.modified_at, i18n.language) : t('apps.details.never')}
              </Text>
            </Grid.Col>
          </Grid>
        </Paper>

        <Switch
          label={t('apps.details.advanced')}
          checked={advanced}
          onChange={(e) => setAdvanced(e.currentTarget.checked)}
          data-testid="details-advanced-toggle"
        />
        <Collapse expanded={advanced}>
          {advanced && (
            <JsonEditor
              label={t('apps.details.parameters')}
              rows={10}
              value={parameters}
              onChange={setParameters}
              error={fieldError(parameterLines)}
              data-testid="details-parameters-json"
            />
          )}
        </Collapse>

        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} />}
            loading={update.isPending}
            data-testid="details-save"
          >
            {t('apps.details.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
