import {
  FUNCTION_RUNTIMES,
  type FunctionCreateBody,
  type FunctionDetail,
  type FunctionRuntime,
  type FunctionSaved,
  functionCreateBody,
} from '@llmor/contracts';
import { Alert, Button, Grid, Group, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { testIdProps } from '../../../components/FieldError';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useCreateFunction } from '../api/createFunction';
import { useUpdateFunction } from '../api/updateFunction';
import { useFunctionLabels } from './labels';
import { FUNCTIONS_TOAST } from './toast';

/** Details tab (docs/reference/console.md): name, function_key, description, runtime, library switch; create or update. */
export function FunctionDetailsForm({
  vendorId,
  fn,
  specificAppId = null,
}: {
  vendorId: number;
  /** null: create. */
  fn: FunctionDetail | null;
  specificAppId?: number | null;
}) {
  const { t } = useTranslation();
  const labels = useFunctionLabels();
  const navigate = useNavigate();
  // The contracts' schema checks the form before it is sent, with the server's own rules and messages.
  const form = useForm<FunctionCreateBody & { runtime: FunctionRuntime; is_library: boolean }>({
    initialValues: {
      name: fn?.name ?? '',
      function_key: fn?.function_key ?? '',
      description: fn?.description ?? '',
      runtime: fn?.runtime ?? 'silicon',
      is_library: fn?.is_library ?? false,
    },
    validate: zodFormValidate(functionCreateBody, t),
  });
  const unsaved = useUnsavedChanges(form.isDirty());
  const create = useCreateFunction(vendorId);
  const update = useUpdateFunction(vendorId, fn?.id ?? 0);
  const saving = create.isPending || update.isPending;
  const appId = fn ? fn.specific_app_id : specificAppId;

  const onSave = async (values: typeof form.values) => {
    const body = { ...values, name: values.name.trim(), function_key: values.function_key.trim() };
    try {
      let saved: FunctionSaved;
      if (fn) {
        saved = await update.mutateAsync(body);
      } else {
        saved = await create.mutateAsync(specificAppId ? { ...body, specific_app_id: specificAppId } : body);
      }
      notifySuccess(t('functions.form.saved'), FUNCTIONS_TOAST);
      form.resetDirty(values);
      // docs/reference/rules.md: after a create the route's '+' becomes the new id.
      if (!fn) unsaved.allowNextNavigation();
      if (!fn) navigate(`/functions/${saved.data.id}/details`, { replace: true });
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('functions.form.saveFailed'), FUNCTIONS_TOAST)));
    }
  };

  return (
    <form onSubmit={form.onSubmit((values) => void onSave(values))} noValidate data-testid="function-form">
      <Stack gap="md">
        {appId !== null && (
          <Alert
            variant="light"
            color="blue"
            icon={<IconInfoCircle size={18} />}
            data-testid="function-app-specific"
          >
            {t('functions.form.appSpecific', { id: appId })}
          </Alert>
        )}
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label={t('functions.form.name')}
              required
              {...form.getInputProps('name')}
              errorProps={testIdProps('function-name-error')}
              data-testid="function-name-input"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label={t('functions.form.key')}
              description={t('functions.form.keyHint')}
              required
              {...form.getInputProps('function_key')}
              errorProps={testIdProps('function-key-error')}
              // The key is code-like; its label is not.
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              data-testid="function-key-input"
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <Textarea
              label={t('functions.form.description')}
              autosize
              minRows={2}
              maxRows={8}
              {...form.getInputProps('description')}
              errorProps={testIdProps('function-description-error')}
              data-testid="function-description-input"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Select
              label={t('functions.form.runtime')}
              required
              allowDeselect={false}
              data={FUNCTION_RUNTIMES.map((r) => ({ value: r, label: labels.runtime(r) }))}
              {...form.getInputProps('runtime')}
              data-testid="function-runtime-input"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }} style={{ display: 'flex', alignItems: 'flex-end' }}>
            <Switch
              label={t('functions.form.library')}
              description={t('functions.form.libraryHint')}
              {...form.getInputProps('is_library', { type: 'checkbox' })}
              data-testid="function-library-input"
            />
          </Grid.Col>
        </Grid>
        {form.errors.specific_app_id && (
          <Alert color="red" variant="light" data-testid="function-app-error">
            {form.errors.specific_app_id}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} />}
            loading={saving}
            data-testid="function-save"
          >
            {t('functions.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
