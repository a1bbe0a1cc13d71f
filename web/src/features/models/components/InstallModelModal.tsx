import type { AvailableModel, ModelType } from '@llmor/contracts';
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Group,
  List,
  Modal,
  ScrollArea,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Stepper,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconCircleCheckFilled, IconSearch } from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EntityIcon } from '../../../components/EntityIcon';
import { LoadingState } from '../../../components/LoadingState';
import {
  type FieldSuggestions,
  type FormSchema,
  type FormValues,
  hasProperties,
  SchemaForm,
  type SchemaFormHandle,
  schemaDefaults,
  schemaFieldErrors,
  schemaOtherErrors,
} from '../../../components/SchemaForm';
import { describeError } from '../../../lib/api/error';
import { notifySuccess } from '../../../lib/notify';
import { useAvailableModels } from '../api/getAvailableModels';
import { useProviderModels } from '../api/getProviderModels';
import { parameterValidationSchema, useInstallModel } from '../api/installModel';
import { useModelLabels } from './labels';
import '../i18n';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';

type TypeFilter = 'all' | ModelType;

interface Configuration {
  modelId: string;
  /** The model's schema, or the code-52 replacement carrying the submitted values and `x-error`s. */
  schema: FormSchema;
  values: FormValues;
  fieldErrors: Record<string, string>;
}

export interface InstallModelModalProps {
  vendorId: number;
  opened: boolean;
  onClose(): void;
}

/**
 * Install model modal (docs/reference/console.md): select ⇄ configure, closes on success. Every opening starts
 * afresh (selection, filters, errors) and loads the available models again.
 */
export function InstallModelModal({ vendorId, opened, onClose }: InstallModelModalProps) {
  const { t } = useTranslation();
  const [session, setSession] = useState(0);
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) setSession((n) => n + 1);
  }
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('models.installModal.title')}
      size="xl"
      data-testid="model-install-modal-root"
    >
      <InstallModelFlow key={session} vendorId={vendorId} onClose={onClose} />
    </Modal>
  );
}

function matchesSearch(model: AvailableModel, search: string, providerLabel: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [model.name, model.provider, providerLabel].some((text) => text.toLowerCase().includes(needle));
}

/** Drops values the form left undefined (untouched optional fields); the server ignores '' and null for optional ones. */
function toParameters(values: FormValues): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

function ErrorBanner({ message, onClose, testId }: { message: string; onClose(): void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={t('models.installModal.errorTitle')}
      withCloseButton
      closeButtonLabel={t('errors.dismiss')}
      onClose={onClose}
      role="alert"
      data-testid={testId}
    >
      {message}
    </Alert>
  );
}

function ModelCard({
  model,
  selected,
  onSelect,
  onChoose,
}: {
  model: AvailableModel;
  selected: boolean;
  onSelect(): void;
  onChoose(): void;
}) {
  const { t } = useTranslation();
  const labels = useModelLabels();
  return (
    <UnstyledButton
      onClick={onSelect}
      onDoubleClick={onChoose}
      aria-pressed={selected}
      data-testid={`available-model-${model.id}`}
      data-selected={String(selected)}
      style={{ display: 'block', height: '100%' }}
    >
      <Card
        withBorder
        padding="sm"
        radius="md"
        h="100%"
        style={{
          borderColor: selected ? 'var(--mantine-primary-color-filled)' : undefined,
          boxShadow: selected ? '0 0 0 1px var(--mantine-primary-color-filled)' : undefined,
        }}
      >
        <Group wrap="nowrap" align="flex-start" gap="sm">
          <EntityIcon icon={model.image} name={model.name} size="md" />
          <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
            <Text fw={600} size="sm" data-testid="available-model-name">
              {model.name}
            </Text>
            <Group gap={4}>
              <Badge size="xs" variant="light" data-testid="available-model-type">
                {labels.type(model.type)}
              </Badge>
              <Badge size="xs" variant="outline" color="gray" data-testid="available-model-provider">
                {labels.provider(model.provider)}
              </Badge>
            </Group>
          </Stack>
          {selected && (
            <IconCircleCheckFilled
              size={20}
              color="var(--mantine-primary-color-filled)"
              aria-label={t('models.installModal.selected')}
            />
          )}
        </Group>
        <Text size="xs" c="dimmed" mt="xs" lineClamp={4} title={model.description}>
          {model.description}
        </Text>
      </Card>
    </UnstyledButton>
  );
}

/**
 * The provider server's model names offered on the field they fill, with a note on what was found. A
 * deployment field (Azure) is offered the models the resource can serve, and the note says so.
 */
function useModelSuggestions(
  vendorId: number,
  model: AvailableModel | null,
  config: Configuration | null,
): Record<string, FieldSuggestions> | undefined {
  const { t } = useTranslation();
  const listed = useProviderModels(vendorId, model, config?.schema ?? null, config?.values ?? {});
  const data = listed.data;
  return useMemo(() => {
    if (!listed.field) return undefined;
    const ids = data?.data.map((m) => m.id);
    const error = listed.error ? (describeError(listed.error).message ?? '') : null;
    const texts = listed.deployment ? 'models.installModal.deploymentList' : 'models.installModal.modelList';
    const note =
      error !== null
        ? t('models.installModal.modelList.failed', { message: error })
        : ids === undefined
          ? undefined
          : ids.length
            ? t(`${texts}.listed`, { count: ids.length })
            : t(`${texts}.none`);
    return { [listed.field]: { options: ids ?? [], loading: listed.isFetching, note } };
  }, [listed.field, listed.deployment, listed.error, listed.isFetching, data, t]);
}

function InstallModelFlow({ vendorId, onClose }: { vendorId: number; onClose(): void }) {
  const { t } = useTranslation();
  const labels = useModelLabels();
  const available = useAvailableModels(vendorId);
  const install = useInstallModel();
  const formRef = useRef<SchemaFormHandle>(null);

  const [step, setStep] = useState<'select' | 'configure'>('select');
  const [search, setSearch] = useState('');
  const [type, setType] = useState<TypeFilter>('all');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [config, setConfig] = useState<Configuration | null>(null);
  const [loadErrorDismissed, setLoadErrorDismissed] = useState(false);
  const [installError, setInstallError] = useState<string | null>(null);
  useUnsavedChanges(selectedId !== null || config !== null);

  const models = available.data?.data ?? [];
  const filtered = useMemo(
    () =>
      models.filter(
        (m) => (type === 'all' || m.type === type) && matchesSearch(m, search, labels.provider(m.provider)),
      ),
    [models, type, search, labels],
  );
  const selected = models.find((m) => m.id === selectedId) ?? null;
  const configured = models.find((m) => m.id === config?.modelId) ?? null;

  const loadError =
    available.error && !loadErrorDismissed
      ? (describeError(available.error).message ?? t('models.installModal.loadFailed'))
      : null;

  const goConfigure = (model: AvailableModel) => {
    if (!config || config.modelId !== model.id) {
      setConfig({
        modelId: model.id,
        schema: model.schema,
        values: schemaDefaults(model.schema),
        fieldErrors: {},
      });
    }
    setInstallError(null);
    setStep('configure');
  };

  const submit = (values: FormValues) => {
    if (!config || install.isPending) return;
    const modelId = config.modelId;
    setInstallError(null);
    install.mutate(
      { vendorId, modelId, parameters: toParameters(values) },
      {
        onSuccess: (result) => {
          notifySuccess(t('models.installModal.installed', { name: result.data.name }));
          onClose();
        },
        onError: (error) => {
          const schema = parameterValidationSchema(error);
          if (schema) {
            // Code 52: the returned schema replaces the model's; the form re-renders with the submitted
            // values (its defaults) and each field's message. No banner (docs/reference/console.md).
            setConfig({
              modelId,
              schema,
              values: schemaDefaults(schema),
              fieldErrors: schemaFieldErrors(schema),
            });
            return;
          }
          console.error('Installing the model failed', error);
          setInstallError(describeError(error).message ?? t('models.installModal.installFailed'));
        },
      },
    );
  };

  const onValuesChange = (values: FormValues) => {
    setConfig((current) => {
      if (!current) return current;
      // A field the user changes loses its server message.
      const fieldErrors = Object.fromEntries(
        Object.entries(current.fieldErrors).filter(([key]) => values[key] === current.values[key]),
      );
      return { ...current, values, fieldErrors };
    });
  };

  const onInstall = () => {
    if (config && hasProperties(config.schema)) formRef.current?.submit();
    else submit({});
  };

  const otherErrors = config ? schemaOtherErrors(config.schema) : [];
  const suggestions = useModelSuggestions(vendorId, configured, config);

  return (
    <Stack gap="md" data-testid="model-install-modal" data-step={step}>
      <Stepper active={step === 'select' ? 0 : 1} size="xs" allowNextStepsSelect={false}>
        <Stepper.Step label={t('models.installModal.stepSelect')} />
        <Stepper.Step label={t('models.installModal.stepConfigure')} />
      </Stepper>

      {step === 'select' ? (
        <>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              style={{ flex: 1, minWidth: 220 }}
              label={t('models.installModal.search')}
              placeholder={t('models.installModal.searchPlaceholder')}
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              data-testid="model-install-search"
              data-autofocus
            />
            <Box>
              <Text size="sm" fw={500} mb={4} id="model-install-type-label">
                {t('models.installModal.typeFilter')}
              </Text>
              <SegmentedControl
                aria-labelledby="model-install-type-label"
                value={type}
                onChange={(v) => setType(v as TypeFilter)}
                data={(['all', 'chat_completion', 'embedding'] as const).map((value) => ({
                  value,
                  label: t(`models.types.${value}`),
                }))}
                data-testid="model-install-type"
              />
            </Box>
          </Group>

          {loadError && (
            <ErrorBanner
              message={loadError}
              onClose={() => setLoadErrorDismissed(true)}
              testId="model-install-error"
            />
          )}

          {available.isPending ? (
            <LoadingState py="xl" text={t('models.installModal.loading')} testId="model-install-loading" />
          ) : filtered.length === 0 ? (
            available.error ? null : (
              <Text ta="center" c="dimmed" py="xl" data-testid="model-install-none">
                {models.length === 0
                  ? t('models.installModal.noneAvailable')
                  : t('models.installModal.noMatch')}
              </Text>
            )
          ) : (
            <ScrollArea.Autosize mah="min(52vh, 560px)" type="auto" offsetScrollbars>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" data-testid="model-install-list">
                {filtered.map((model) => (
                  <ModelCard
                    key={model.id}
                    model={model}
                    selected={model.id === selectedId}
                    onSelect={() => setSelectedId(model.id)}
                    onChoose={() => {
                      setSelectedId(model.id);
                      goConfigure(model);
                    }}
                  />
                ))}
              </SimpleGrid>
            </ScrollArea.Autosize>
          )}

          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} data-testid="model-install-cancel">
              {t('models.installModal.cancel')}
            </Button>
            <Button
              disabled={!selected}
              onClick={() => selected && goConfigure(selected)}
              data-testid="model-install-continue"
            >
              {t('models.installModal.continue')}
            </Button>
          </Group>
        </>
      ) : (
        config &&
        configured && (
          <>
            <Group justify="space-between" wrap="nowrap">
              <Button
                variant="subtle"
                leftSection={<IconArrowLeft size={16} />}
                onClick={() => setStep('select')}
                disabled={install.isPending}
                data-testid="model-install-back"
              >
                {t('models.installModal.back')}
              </Button>
            </Group>
            <Group gap="sm" wrap="nowrap" data-testid="model-install-selected">
              <EntityIcon icon={configured.image} name={configured.name} size="md" />
              <Box style={{ minWidth: 0 }}>
                <Text fw={600}>{configured.name}</Text>
                <Text size="xs" c="dimmed">
                  {labels.type(configured.type)} · {labels.provider(configured.provider)}
                </Text>
              </Box>
            </Group>

            {installError && (
              <ErrorBanner
                message={installError}
                onClose={() => setInstallError(null)}
                testId="model-install-error"
              />
            )}

            {hasProperties(config.schema) ? (
              <SchemaForm
                ref={formRef}
                id="model-install-form"
                testId="model-install-form"
                schema={config.schema}
                value={config.values}
                onChange={onValuesChange}
                onSubmit={submit}
                fieldErrors={config.fieldErrors}
                suggestions={suggestions}
                disabled={install.isPending}
              />
            ) : (
              <Text c="dimmed" data-testid="model-install-no-config">
                {t('models.installModal.noConfiguration')}
              </Text>
            )}

            {otherErrors.length > 0 && (
              <Box data-testid="model-install-form-errors">
                <Text size="sm" c="red" fw={500}>
                  {t('models.installModal.formErrors')}
                </Text>
                <List size="sm" c="red">
                  {otherErrors.map((message) => (
                    <List.Item key={message}>{message}</List.Item>
                  ))}
                </List>
              </Box>
            )}

            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose} data-testid="model-install-cancel">
                {t('models.installModal.cancel')}
              </Button>
              <Button loading={install.isPending} onClick={onInstall} data-testid="model-install-submit">
                {t('models.installModal.submit')}
              </Button>
            </Group>
          </>
        )
      )}
    </Stack>
  );
}
