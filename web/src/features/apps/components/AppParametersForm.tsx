import { type App, LOADING_BUTTON_MIN_MS, type ParameterDefinition } from '@llmor/contracts';
import { Alert, Button, Grid, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { PageHeader } from '../../../components/PageHeader';
import { useCurrentVendor } from '../../../lib/appState';
import { errorsUnder, type FieldMessages, submitErrors } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useApp } from '../api/getApp';
import '../i18n';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { useAppParameters } from '../api/getAppParameters';
import { useUpdateApp } from '../api/updateApp';
import { gridSpan, parameterErrors, parametersErrorLines, valueKeyOf } from '../lib';
import { ParameterField } from './ParameterField';

/** Settings → Configuration: a 12-column grid built from the app's parameter definitions (docs/reference/console.md). */
export function AppParametersForm() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const vendor = useCurrentVendor();
  const app = useApp(vendor?.id ?? 0, id);
  const definitions = useAppParameters(vendor?.id ?? 0, id);

  return (
    <>
      <PageHeader sub title={t('pages.app.parameters')} titleTestId="settings-title" />
      {app.data && definitions.data && vendor ? (
        <ParametersGrid
          key={`${app.data.id}:${app.data.modified_at ?? ''}`}
          app={app.data}
          definitions={definitions.data}
          vendorId={vendor.id}
        />
      ) : definitions.isError ? (
        <LoadError error={definitions.error} onRetry={definitions.refetch} testId="parameters-load-error" />
      ) : (
        <Stack gap="md" data-testid="parameters-loading">
          <Skeleton height={36} />
          <Skeleton height={96} />
          <Skeleton height={36} width="50%" />
        </Stack>
      )}
    </>
  );
}

interface ParametersGridProps {
  app: App;
  definitions: ParameterDefinition[];
  vendorId: number;
}

function ParametersGrid({ app, definitions, vendorId }: ParametersGridProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, unknown>>(() => ({ ...app.parameters }));
  // The values last saved, as text: the grid has unsaved changes while its values differ.
  const [saved, setSaved] = useState(() => JSON.stringify(app.parameters));
  useUnsavedChanges(JSON.stringify(values) !== saved);
  const [errors, setErrors] = useState<FieldMessages>({});
  const update = useUpdateApp(vendorId, app.id, LOADING_BUTTON_MIN_MS);

  // Errors the grid cannot place under a field: `parameters` not an object, unknown parameters.
  const names = new Set(definitions.map((d) => d.name));
  const looseErrors = parametersErrorLines(
    Object.fromEntries(
      Object.entries(errorsUnder(errors, 'parameters')).filter(([path]) => !names.has(path.split('.')[0]!)),
    ),
  );

  const onSave = async () => {
    try {
      await update.mutateAsync({
        name: app.name,
        description: app.description,
        completion_vendor_model_id: app.completion_vendor_model_id,
        parameters: values,
      });
      setSaved(JSON.stringify(values));
      setErrors({});
      notifySuccess(t('apps.details.saved'));
    } catch (error) {
      setErrors(submitErrors(error, t('apps.details.saveFailed')));
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void onSave();
      }}
      data-testid="parameters-form"
    >
      <Stack gap="md">
        {looseErrors.length > 0 && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            data-testid="parameters-errors"
          >
            {looseErrors.map((m) => (
              <div key={m}>{m}</div>
            ))}
          </Alert>
        )}
        {definitions.length === 0 ? (
          <Text c="dimmed" data-testid="parameters-empty">
            {t('apps.parameters.noParameters')}
          </Text>
        ) : (
          <Grid columns={12} gap="md">
            {definitions.map((def) => {
              const key = valueKeyOf(def);
              const span = gridSpan(def.params.visual_grid);
              const hint = def.type !== 'visual.header' ? def.params.hint : undefined;
              return (
                <Grid.Col
                  key={def.name}
                  span={{ base: 12, md: span }}
                  data-testid={`param-field-${def.name}`}
                  data-span={span}
                >
                  <ParameterField
                    def={def}
                    value={key === null ? undefined : values[key]}
                    onChange={(v) => key !== null && setValues((prev) => ({ ...prev, [key]: v }))}
                    errors={parameterErrors(errors, def.name)}
                  />
                  {hint && (
                    <Text size="xs" c="dimmed" mt={4}>
                      {hint}
                    </Text>
                  )}
                </Grid.Col>
              );
            })}
          </Grid>
        )}
        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} />}
            loading={update.isPending}
            disabled={definitions.length === 0}
            data-testid="parameters-save"
          >
            {t('apps.details.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
