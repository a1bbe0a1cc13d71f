import {
  type App,
  type AppFunction,
  FUNCTION_LIBRARY_PAGE_SIZE,
  type FunctionSummary,
  isPlainObject,
} from '@llmor/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconCheck,
  IconDeviceFloppy,
  IconDownload,
  IconPencil,
  IconPlus,
  IconSettings,
  IconTrash,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ListFooter } from '../../../components/ListFooter';
import { LoadError } from '../../../components/LoadError';
import { LoadingState } from '../../../components/LoadingState';
import { NoVendorSelected } from '../../../components/NoVendorSelected';
import { PageHeader } from '../../../components/PageHeader';
import { SearchInput } from '../../../components/SearchInput';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { useCurrentVendor } from '../../../lib/appState';
import { errorsUnder, type FieldMessages, submitErrors } from '../../../lib/form';
import { useDebouncedSearch, useLogError } from '../../../lib/listState';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useAppFunctions } from '../api/getAppFunctions';
import { useFunctions } from '../api/listFunctions';
import { useSaveAppFunctions } from '../api/saveAppFunctions';
import { schemaHasProperties } from '../lib';
import { useFunctionLabels } from './labels';
import { ObjectValueEditor } from './ObjectValueEditor';
import { FUNCTIONS_TOAST } from './toast';
import '../i18n';

interface Installed {
  id: number;
  name: string;
  function_key: string;
  description: string;
  runtime: string;
  config_schema: Record<string, unknown> | null;
  config: Record<string, unknown>;
}

interface SaveErrors {
  functions: string[];
  config: Record<string, string>;
}

/** `functions.functions_data`, `rules.functions_data` and `function_config.<id>` of a save error (docs/reference/rules.md). */
function readSaveErrors(errors: FieldMessages): SaveErrors {
  const out: SaveErrors = { functions: [], config: {} };
  for (const group of ['functions', 'rules']) {
    for (const [path, messages] of Object.entries(errorsUnder(errors, group))) {
      if (path === '' || path === 'functions_data') out.functions.push(...messages);
    }
  }
  for (const [path, messages] of Object.entries(errorsUnder(errors, 'function_config'))) {
    const [id = '', ...rest] = path.split('.');
    const text = messages.map((m) => (rest.length ? `${rest.join('.')}: ${m}` : m)).join(' ');
    out.config[id] = out.config[id] ? `${out.config[id]} ${text}` : text;
  }
  return out;
}

const fromApp = (f: AppFunction): Installed => ({
  id: f.id,
  name: f.name,
  function_key: f.function_key,
  description: f.description,
  runtime: f.runtime,
  config_schema: isPlainObject(f.config_schema) ? f.config_schema : null,
  config: isPlainObject(f.config) ? f.config : {},
});

const fromLibrary = (f: FunctionSummary): Installed => ({
  id: f.id,
  name: f.name,
  function_key: f.function_key,
  description: f.description,
  runtime: f.runtime,
  config_schema: f.config_schema,
  config: {},
});

/**
 * App settings → Functions (docs/reference/console.md): the installed functions with their config (form or JSON), the
 * Function Library to install from, and Save Changes (`PUT …/apps/{appId}` with `functions: [{id, config}]`).
 */
export function AppFunctionsSettings({ vendorId, appId }: { vendorId?: number; appId: number | string }) {
  const { t } = useTranslation();
  const vendor = useCurrentVendor();
  const vid = vendorId ?? vendor?.id;
  if (!vid) return <NoVendorSelected />;
  return (
    <>
      <PageHeader sub title={t('functions.app.title')} titleTestId="settings-title" />
      <AppFunctionsLoader vendorId={vid} appId={String(appId)} />
    </>
  );
}

function AppFunctionsLoader({ vendorId, appId }: { vendorId: number; appId: string }) {
  const app = useAppFunctions(vendorId, appId);
  if (app.isPending) {
    return (
      <Stack gap="md" data-testid="app-functions-loading">
        <Skeleton height={60} />
        <Skeleton height={60} />
      </Stack>
    );
  }
  if (app.error || !app.data) {
    return <LoadError error={app.error} onRetry={app.refetch} testId="app-functions-error" />;
  }
  return (
    <AppFunctionsEditor
      key={`${app.data.id}:${app.data.modified_at ?? ''}`}
      vendorId={vendorId}
      appId={appId}
      app={app.data}
    />
  );
}

/** What Save would send, as text: differs from the last saved one while there are unsaved changes. */
const savedForm = (list: Installed[]) => JSON.stringify(list.map((f) => [f.id, f.config]));

function AppFunctionsEditor({ vendorId, appId, app }: { vendorId: number; appId: string; app: App }) {
  const { t } = useTranslation();
  const labels = useFunctionLabels();
  const [installed, setInstalled] = useState<Installed[]>(() => (app.functions ?? []).map(fromApp));
  const [saved, setSaved] = useState(() => savedForm(installed));
  const dirty = savedForm(installed) !== saved;
  useUnsavedChanges(dirty);
  const [open, setOpen] = useState<Record<number, boolean>>({});
  const [invalid, setInvalid] = useState<Record<number, boolean>>({});
  const [errors, setErrors] = useState<SaveErrors>({ functions: [], config: {} });
  const save = useSaveAppFunctions(vendorId, appId);

  const install = (fn: FunctionSummary) =>
    setInstalled((list) => (list.some((f) => f.id === fn.id) ? list : [...list, fromLibrary(fn)]));
  const remove = (id: number) => {
    setInstalled((list) => list.filter((f) => f.id !== id));
    setInvalid((m) => ({ ...m, [id]: false }));
  };
  const setConfig = (id: number, config: Record<string, unknown>) =>
    setInstalled((list) => list.map((f) => (f.id === id ? { ...f, config } : f)));

  const onSave = async () => {
    const broken = installed.find((f) => invalid[f.id]);
    if (broken) {
      setOpen((m) => ({ ...m, [broken.id]: true }));
      notifyError(t('functions.app.fixJson'), FUNCTIONS_TOAST);
      return;
    }
    try {
      await save.mutateAsync({ app, functions: installed.map((f) => ({ id: f.id, config: f.config })) });
      setErrors({ functions: [], config: {} });
      setSaved(savedForm(installed));
      notifySuccess(t('functions.app.saved'), FUNCTIONS_TOAST);
    } catch (error) {
      const next = readSaveErrors(submitErrors(error, t('functions.app.saveFailed'), FUNCTIONS_TOAST));
      setErrors(next);
      const withErrors = Object.keys(next.config).map(Number);
      if (withErrors.length)
        setOpen((m) => ({ ...m, ...Object.fromEntries(withErrors.map((id) => [id, true])) }));
    }
  };

  return (
    <Stack gap="xl" data-testid="app-functions">
      <Stack gap="sm">
        <div>
          <Title order={4}>{t('functions.app.installed')}</Title>
          <Text size="sm" c="dimmed">
            {t('functions.app.installedHint')}
          </Text>
        </div>
        {errors.functions.length > 0 && (
          <Alert color="red" variant="light" data-testid="app-functions-save-error">
            {errors.functions.join(' ')}
          </Alert>
        )}
        {installed.length === 0 ? (
          <Paper withBorder p="lg" radius="md">
            <Text ta="center" c="dimmed" data-testid="app-functions-none">
              {t('functions.app.noneInstalled')}
            </Text>
          </Paper>
        ) : (
          <Stack gap="xs" data-testid="app-functions-installed">
            {installed.map((fn) => {
              const configurable = schemaHasProperties(fn.config_schema);
              const configError = errors.config[String(fn.id)];
              const expanded = !!open[fn.id] && (configurable || !!configError);
              return (
                <Paper
                  key={fn.id}
                  withBorder
                  p="sm"
                  radius="md"
                  data-testid={`app-function-${fn.id}`}
                  data-function-key={fn.function_key}
                >
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Stack gap={2} style={{ minWidth: 0 }}>
                      <Group gap="xs">
                        <Text fw={600} size="sm" data-testid="app-function-name">
                          {fn.name}
                        </Text>
                        <Badge size="sm" variant="light" data-testid="app-function-runtime">
                          {labels.runtimeShort(fn.runtime)}
                        </Badge>
                      </Group>
                      <Text size="xs" c="dimmed" ff="monospace" data-testid="app-function-key">
                        {fn.function_key}
                      </Text>
                      {fn.description && (
                        <Text size="sm" c="dimmed" lineClamp={2}>
                          {fn.description}
                        </Text>
                      )}
                    </Stack>
                    <Group gap={4} wrap="nowrap">
                      {configurable && (
                        <Tooltip
                          label={expanded ? t('functions.app.hideConfig') : t('functions.app.configure')}
                        >
                          <ActionIcon
                            variant={expanded ? 'filled' : 'light'}
                            onClick={() => {
                              // Closing drops unparsed JSON text: the last valid config stays.
                              if (expanded) setInvalid((m) => ({ ...m, [fn.id]: false }));
                              setOpen((m) => ({ ...m, [fn.id]: !m[fn.id] }));
                            }}
                            aria-label={t('functions.app.configure')}
                            aria-expanded={expanded}
                            data-testid={`app-function-config-toggle-${fn.id}`}
                          >
                            <IconSettings size={16} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                      <Tooltip label={t('functions.app.remove')}>
                        <ActionIcon
                          color="red"
                          variant="light"
                          onClick={() => remove(fn.id)}
                          aria-label={t('functions.app.remove')}
                          data-testid={`app-function-remove-${fn.id}`}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Group>
                  {configError && !expanded && (
                    <Text size="sm" c="red" mt="xs" data-testid={`app-function-config-${fn.id}-error`}>
                      {configError}
                    </Text>
                  )}
                  {expanded && (
                    <Stack gap="xs" mt="sm">
                      <Text size="sm" fw={500}>
                        {t('functions.app.config')}
                      </Text>
                      <ObjectValueEditor
                        schema={fn.config_schema}
                        value={fn.config}
                        onChange={(config) => setConfig(fn.id, config)}
                        onValidityChange={(valid) => setInvalid((m) => ({ ...m, [fn.id]: !valid }))}
                        texts={{
                          editAsJson: t('functions.app.editAsJson'),
                          jsonLabel: t('functions.app.configJson'),
                          invalidJson: t('functions.app.invalidJson'),
                          notObject: t('functions.app.notObject'),
                        }}
                        error={configError}
                        testId={`app-function-config-${fn.id}`}
                        formId={`app-function-config-${fn.id}`}
                      />
                    </Stack>
                  )}
                </Paper>
              );
            })}
          </Stack>
        )}
        <Group justify="flex-end">
          <Button
            leftSection={<IconDeviceFloppy size={16} />}
            onClick={() => void onSave()}
            loading={save.isPending}
            data-testid="app-functions-save"
          >
            {t('functions.app.save')}
          </Button>
        </Group>
      </Stack>

      <FunctionLibrary
        vendorId={vendorId}
        appId={appId}
        installedIds={new Set(installed.map((f) => f.id))}
        onInstall={install}
      />
    </Stack>
  );
}

function FunctionLibrary({
  vendorId,
  appId,
  installedIds,
  onInstall,
}: {
  vendorId: number;
  appId: string;
  installedIds: Set<number>;
  onInstall(fn: FunctionSummary): void;
}) {
  const { t } = useTranslation();
  const labels = useFunctionLabels();
  const navigate = useNavigate();
  const { search, setSearch, debouncedSearch } = useDebouncedSearch();
  const [runtime, setRuntime] = useState<string>('');
  const [page, setPage] = useState(0);
  const numericAppId = /^\d+$/.test(appId) ? Number(appId) : undefined;
  const query = useFunctions(vendorId, {
    page,
    page_size: FUNCTION_LIBRARY_PAGE_SIZE,
    order: 'name',
    order_dir: 'asc',
    search: debouncedSearch || undefined,
    runtime: (runtime || undefined) as 'silicon' | undefined,
    app_id: numericAppId,
  });

  useLogError(query.error, 'Loading the function library failed');
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search or filter starts on the first page
  useEffect(() => setPage(0), [debouncedSearch, runtime]);

  const rows = query.data?.data ?? [];

  return (
    <Stack gap="sm" data-testid="function-library">
      <Group justify="space-between" align="flex-end">
        <Title order={4}>{t('functions.app.library')}</Title>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          onClick={() => navigate(`/functions/+/details?app_id=${encodeURIComponent(appId)}`)}
          data-testid="library-create-specific"
        >
          {t('functions.app.createSpecific')}
        </Button>
      </Group>
      <Group gap="sm" align="flex-end">
        <SearchInput
          placeholder={t('functions.app.searchPlaceholder')}
          label={t('functions.app.searchLabel')}
          value={search}
          onSearch={setSearch}
          w={{ base: '100%', sm: 300 }}
          testId="library-search"
        />
        <Select
          aria-label={t('functions.app.runtimeFilter')}
          data={[
            { value: '', label: t('functions.app.allRuntimes') },
            { value: 'silicon', label: labels.runtimeShort('silicon') },
          ]}
          value={runtime}
          onChange={(v) => setRuntime(v ?? '')}
          allowDeselect={false}
          w={200}
          data-testid="library-runtime"
        />
      </Group>
      {query.isPending ? (
        <LoadingState text={t('functions.app.loading')} testId="library-loading" />
      ) : rows.length === 0 ? (
        <Paper withBorder p="lg" radius="md">
          <Text ta="center" c="dimmed" data-testid="library-empty">
            {t('functions.app.noneFound')}
          </Text>
        </Paper>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="library-grid">
          {rows.map((fn) => {
            const isInstalled = installedIds.has(fn.id);
            return (
              <Card
                key={fn.id}
                withBorder
                radius="md"
                padding="sm"
                data-testid={`library-function-${fn.id}`}
                data-function-key={fn.function_key}
              >
                <Stack gap={6} h="100%" justify="space-between">
                  <Stack gap={4}>
                    <Group justify="space-between" wrap="nowrap" align="flex-start">
                      <Text fw={600} size="sm" data-testid="library-function-name">
                        {fn.name}
                      </Text>
                      <Tooltip label={t('functions.app.edit')}>
                        <ActionIcon
                          component={Link}
                          to={`/functions/${fn.id}`}
                          variant="subtle"
                          size="sm"
                          aria-label={t('functions.app.edit')}
                          data-testid={`library-edit-${fn.id}`}
                        >
                          <IconPencil size={14} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {fn.function_key}
                    </Text>
                    {fn.description && (
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {fn.description}
                      </Text>
                    )}
                    <Group gap={4}>
                      {fn.specific_app_id !== null && (
                        <Badge
                          size="xs"
                          color="orange"
                          variant="light"
                          data-testid="library-badge-app-specific"
                        >
                          {t('functions.app.appSpecific')}
                        </Badge>
                      )}
                      <Badge size="xs" variant="light" data-testid="library-badge-runtime">
                        {labels.runtimeShort(fn.runtime)}
                      </Badge>
                      {fn.run_count > 0 && (
                        <Badge size="xs" color="gray" variant="light" data-testid="library-badge-runs">
                          {t('functions.app.runCount', { count: fn.run_count })}
                        </Badge>
                      )}
                      {fn.is_library && (
                        <Badge size="xs" color="violet" variant="light" data-testid="library-badge-library">
                          {t('functions.app.libraryFunction')}
                        </Badge>
                      )}
                    </Group>
                  </Stack>
                  <Group justify="flex-end" mt={4}>
                    <Button
                      size="xs"
                      variant={isInstalled ? 'light' : 'filled'}
                      color={isInstalled ? 'green' : undefined}
                      disabled={isInstalled}
                      leftSection={isInstalled ? <IconCheck size={14} /> : <IconDownload size={14} />}
                      onClick={() => onInstall(fn)}
                      data-testid={`library-install-${fn.id}`}
                      data-installed={String(isInstalled)}
                    >
                      {isInstalled ? t('functions.app.installedLabel') : t('functions.app.install')}
                    </Button>
                  </Group>
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
      {query.data && query.data.filter_count > FUNCTION_LIBRARY_PAGE_SIZE && (
        <ListFooter
          page={page}
          pageSize={FUNCTION_LIBRARY_PAGE_SIZE}
          counts={query.data}
          onPageChange={setPage}
        />
      )}
    </Stack>
  );
}
