import {
  type App,
  type AppUpdateBody,
  appUpdateBody,
  LOADING_BUTTON_MIN_MS,
  type VendorModelPick,
} from '@llmor/contracts';
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
import { useForm } from '@mantine/form';
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
import {
  errorsUnder,
  type FieldMessages,
  submitErrors,
  toFormErrors,
  zodFormValidate,
} from '../../../lib/form';
import { formatDateTime } from '../../../lib/format/date';
import { notifySuccess } from '../../../lib/notify';
import { useApp } from '../api/getApp';
import { appKeys } from '../api/keys';
import '../i18n';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { searchCompletionModels, usePickedModel } from '../api/searchModels';
import { useUpdateApp } from '../api/updateApp';
import { parametersErrorLines } from '../lib';

/** Settings → Details (docs/reference/console.md App settings: Details). */
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
  const form = useForm<AppUpdateBody>({
    initialValues: {
      name: app.name,
      description: app.description ?? '',
      completion_vendor_model_id: app.completion_vendor_model_id,
      parameters: app.parameters,
    },
    validate: zodFormValidate(appUpdateBody, t),
  });
  useUnsavedChanges(form.isDirty());
  const [chosenModel, setChosenModel] = useState<VendorModelPick | null>(null);
  // The parameters' errors show as lines under the one JSON editor that holds them all.
  const [parameterErrors, setParameterErrors] = useState<FieldMessages>({});
  // While the advanced JSON does not parse, Save is refused (the editor keeps its text and error).
  const [jsonValid, setJsonValid] = useState(true);
  const modelId = form.values.completion_vendor_model_id ?? null;
  const picked = usePickedModel(vendorId, chosenModel ? null : modelId);
  const update = useUpdateApp(vendorId, app.id, LOADING_BUTTON_MIN_MS);

  const model: VendorModelPick | null =
    modelId === null
      ? null
      : (chosenModel ??
        picked.data ?? { id: modelId, name: `#${modelId}`, image: null, cost_per_1k_formatted: '' });

  const parameterLines = parametersErrorLines(parameterErrors);
  const creator = app.creator?.data;
  const creatorName = creator ? `${creator.firstname} ${creator.lastname}`.trim() || creator.email : null;

  const onSave = async (values: AppUpdateBody) => {
    if (!jsonValid) return;
    try {
      await update.mutateAsync(values);
      form.resetDirty(values);
      setParameterErrors({});
      notifySuccess(t('apps.details.saved'));
    } catch (error) {
      const errors = submitErrors(error, t('apps.details.saveFailed'));
      form.setErrors(toFormErrors(errors));
      const parameters = errorsUnder(errors, 'parameters');
      setParameterErrors(parameters);
      if (Object.keys(parameters).length > 0) setAdvanced(true);
    }
  };

  return (
    <form onSubmit={form.onSubmit((values) => void onSave(values))} noValidate data-testid="details-form">
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
              {...form.getInputProps('name')}
              data-testid="details-name"
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <Textarea
              label={t('apps.details.description')}
              autosize
              minRows={2}
              maxRows={8}
              {...form.getInputProps('description')}
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
                form.setFieldValue('completion_vendor_model_id', item?.id ?? null);
              }}
              search={(text) => searchCompletionModels(vendorId, text)}
              queryKey={appKeys.modelSearch(vendorId)}
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
              error={form.errors.completion_vendor_model_id}
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
          onChange={(e) => {
            setAdvanced(e.currentTarget.checked);
            // Hiding the editor drops its unparsed text; the form keeps the last valid parameters.
            if (!e.currentTarget.checked) setJsonValid(true);
          }}
          data-testid="details-advanced-toggle"
        />
        <Collapse expanded={advanced}>
          {advanced && (
            <JsonEditor
              label={t('apps.details.parameters')}
              rows={10}
              value={form.values.parameters}
              onChange={(value) => form.setFieldValue('parameters', value as Record<string, unknown>)}
              onValidityChange={setJsonValid}
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
            disabled={!jsonValid}
            data-testid="details-save"
          >
            {t('apps.details.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
