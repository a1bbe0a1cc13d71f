import {
  FUNCTION_RUNTIMES,
  type FunctionDetail,
  type FunctionRuntime,
  type FunctionSaved,
} from '@llmor/contracts';
import { Alert, Button, Grid, Group, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { testIdProps } from '../../../components/FieldError';
import { notifySuccess } from '../../../lib/notify';
import { type FieldErrors, handleSaveError } from '../../../lib/saveError';
import { useCreateFunction } from '../api/createFunction';
import { useUpdateFunction } from '../api/updateFunction';
import { useFunctionLabels } from './labels';
import { FUNCTIONS_TOAST } from './toast';

/** The messages of one field of a server error map (a string or a list of strings). */
function fieldMessage(errors: FieldErrors | null, key: string): string | undefined {
  const value = errors?.[key];
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(' ') || undefined;
  return undefined;
}

/** Details tab (spec 02): name, function_key, description, runtime, library switch; create or update. */
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
  const [name, setName] = useState(fn?.name ?? '');
  const [functionKey, setFunctionKey] = useState(fn?.function_key ?? '');
  const [description, setDescription] = useState(fn?.description ?? '');
  const [runtime, setRuntime] = useState<FunctionRuntime>(fn?.runtime ?? 'silicon');
  const [isLibrary, setIsLibrary] = useState(fn?.is_library ?? false);
  const [errors, setErrors] = useState<FieldErrors | null>(null);
  const create = useCreateFunction(vendorId);
  const update = useUpdateFunction(vendorId, fn?.id ?? 0);
  const saving = create.isPending || update.isPending;
  const appId = fn ? fn.specific_app_id : specificAppId;

  // Required fields are checked here too, so an empty form never reaches the server.
  const localErrors = (): FieldErrors | null => {
    const out: FieldErrors = {};
    if (!name.trim()) out.name = t('functions.form.required');
    if (!functionKey.trim()) out.function_key = t('functions.form.required');
    return Object.keys(out).length ? out : null;
  };

  const onSave = async () => {
    const missing = localErrors();
    if (missing) {
      setErrors(missing);
      return;
    }
    const body = {
      name: name.trim(),
      function_key: functionKey.trim(),
      description,
      runtime,
      is_library: isLibrary,
    };
    try {
      let saved: FunctionSaved;
      if (fn) {
        saved = await update.mutateAsync(body);
      } else {
        saved = await create.mutateAsync(specificAppId ? { ...body, specific_app_id: specificAppId } : body);
      }
      setErrors(null);
      notifySuccess(t('functions.form.saved'), FUNCTIONS_TOAST);
      // Spec 02 §4: after a create the route's '+' becomes the new id.
      if (!fn) navigate(`/functions/${saved.data.id}/details`, { replace: true });
    } catch (error) {
      setErrors(handleSaveError(error, t('functions.form.saveFailed'), FUNCTIONS_TOAST));
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void onSave();
      }}
      noValidate
      data-testid="function-form"
    >
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
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fieldMessage(errors, 'name')}
              errorProps={testIdProps('function-name-error')}
              data-testid="function-name-input"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label={t('functions.form.key')}
              description={t('functions.form.keyHint')}
              required
              value={functionKey}
              onChange={(e) => setFunctionKey(e.currentTarget.value)}
              error={fieldMessage(errors, 'function_key')}
              errorProps={testIdProps('function-key-error')}
              ff="monospace"
              data-testid="function-key-input"
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <Textarea
              label={t('functions.form.description')}
              autosize
              minRows={2}
              maxRows={8}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={fieldMessage(errors, 'description')}
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
              value={runtime}
              onChange={(value) => value && setRuntime(value as FunctionRuntime)}
              error={fieldMessage(errors, 'runtime')}
              data-testid="function-runtime-input"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }} style={{ display: 'flex', alignItems: 'flex-end' }}>
            <Switch
              label={t('functions.form.library')}
              description={t('functions.form.libraryHint')}
              checked={isLibrary}
              onChange={(e) => setIsLibrary(e.currentTarget.checked)}
              error={fieldMessage(errors, 'is_library')}
              data-testid="function-library-input"
            />
          </Grid.Col>
        </Grid>
        {fieldMessage(errors, 'specific_app_id') && (
          <Alert color="red" variant="light" data-testid="function-app-error">
            {fieldMessage(errors, 'specific_app_id')}
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
