import { type ApiClient, type ApiClientCreated, type ClientBody, clientBody } from '@llmor/contracts';
import {
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  Group,
  Loader,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconArrowLeft, IconCheck, IconCopy, IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { testIdProps } from '../../../components/FieldError';
import { LoadError } from '../../../components/LoadError';
import { NoVendorSelected } from '../../../components/NoVendorSelected';
import { PageHeader } from '../../../components/PageHeader';
import { RelativeTime } from '../../../components/RelativeTime';
import { isApiError } from '../../../lib/api/error';
import { useCurrentVendor } from '../../../lib/appState';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifySuccess, SETTINGS_AREA_TOAST } from '../../../lib/notify';
import { useClient } from '../api/getClient';
import { useSaveClient } from '../api/saveClient';
import { curlExamples, openAiBaseUrl } from '../lib';
import { ClientStatus } from './ClientsList';
import '../i18n';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';

type ClientForm = Required<ClientBody>;

/** App settings → API client: `clientId` '+' creates one (docs/reference/console.md "App settings: API clients"). */
export function AppClientSettings({ appId, clientId }: { appId: string; clientId: string }) {
  const vendor = useCurrentVendor();
  if (!vendor) return <NoVendorSelected />;
  return <ClientDetail vendorId={vendor.id} vendorKey={vendor.key} appId={appId} clientId={clientId} />;
}

function ClientDetail({
  vendorId,
  vendorKey,
  appId,
  clientId,
}: {
  vendorId: number;
  vendorKey: string;
  appId: string;
  clientId: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const creating = clientId === '+';
  const id = /^\d+$/.test(clientId) ? Number(clientId) : null;
  // The full token lives only here, in memory, from the create answer until the page is left.
  const [issued, setIssued] = useState<ApiClientCreated | null>(null);
  const query = useClient(vendorId, appId, creating ? null : id);
  const listPath = `/apps/${appId}/settings/clients`;
  const back = (
    <Anchor component={Link} to={listPath} size="sm" data-testid="client-back">
      <Group gap={4} wrap="nowrap">
        <IconArrowLeft size={14} />
        {t('clients.detail.back')}
      </Group>
    </Anchor>
  );

  if (!creating && (id === null || query.isError)) {
    return (
      <>
        <PageHeader sub title={t('clients.detail.title')} titleTestId="settings-title" actions={back} />
        {id !== null && !(isApiError(query.error) && query.error.status === 404) ? (
          <LoadError error={query.error} onRetry={query.refetch} testId="client-load-error" />
        ) : (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            data-testid="client-not-found"
          >
            {t('clients.detail.notFound')}
          </Alert>
        )}
      </>
    );
  }
  if (!creating && !query.data) return <Loader size="sm" aria-label={t('clients.loading')} />;
  const client = creating ? null : (query.data ?? null);
  const used = client !== null && (client.last_used !== null || client.requets_count > 0);

  return (
    <Stack gap="lg">
      <PageHeader
        sub
        title={client ? client.name || t('clients.unnamed') : t('clients.detail.newTitle')}
        titleTestId="settings-title"
        actions={back}
      />
      {issued && <IssuedToken client={issued} vendorKey={vendorKey} />}
      <ClientSettingsForm
        // A fresh form once the client exists (its saved values become the initial ones).
        key={client?.id ?? 'new'}
        vendorId={vendorId}
        appId={appId}
        client={client}
        onCreated={(created) => {
          setIssued(created);
          // docs/reference/rules.md: the route's '+' becomes the new id.
          navigate(`${listPath}/${created.id}`, { replace: true });
        }}
      />
      {client && used && <UsageStatistics client={client} />}
    </Stack>
  );
}

function ClientSettingsForm({
  vendorId,
  appId,
  client,
  onCreated,
}: {
  vendorId: number;
  appId: string;
  client: ApiClient | null;
  onCreated(created: ApiClientCreated): void;
}) {
  const { t } = useTranslation();
  const save = useSaveClient(vendorId, appId, client?.id ?? null);
  const form = useForm<ClientForm>({
    initialValues: {
      name: client?.name ?? '',
      active: client?.active ?? true,
      request_rate_limit: client?.request_rate_limit ?? null,
      request_rate_interval: client?.request_rate_interval ?? null,
    },
    validate: zodFormValidate(clientBody, t),
  });
  const unsaved = useUnsavedChanges(form.isDirty());
  const onSave = async (values: ClientForm) => {
    try {
      const answer = await save.mutateAsync({ ...values, name: values.name.trim() });
      notifySuccess(t('clients.detail.saved'), SETTINGS_AREA_TOAST);
      form.resetDirty(values);
      if (!client) {
        unsaved.allowNextNavigation();
        onCreated(answer.data as ApiClientCreated);
      }
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('clients.detail.saveFailed'), SETTINGS_AREA_TOAST)));
    }
  };
  /** An emptied number field is no limit (null), as the server takes it. */
  const numberProps = (field: 'request_rate_limit' | 'request_rate_interval') => ({
    value: form.values[field] ?? '',
    onChange: (value: number | string) => form.setFieldValue(field, typeof value === 'number' ? value : null),
    error: form.errors[field],
    min: 1,
    allowDecimal: false,
    allowNegative: false,
  });

  return (
    <form onSubmit={form.onSubmit((values) => void onSave(values))} noValidate data-testid="client-form">
      <Stack gap="md">
        <Switch
          label={t('clients.detail.active')}
          description={t('clients.detail.activeHint')}
          {...form.getInputProps('active', { type: 'checkbox' })}
          data-testid="client-active-input"
        />
        <TextInput
          label={t('clients.detail.name')}
          required
          {...form.getInputProps('name')}
          errorProps={testIdProps('client-name-error')}
          data-testid="client-name-input"
        />
        {client && (
          <TextInput
            label={t('clients.detail.token')}
            description={t('clients.detail.tokenHint')}
            value={`…${client.token}`}
            disabled
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            data-testid="client-token-input"
          />
        )}
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('clients.detail.rateLimit')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('clients.detail.rateLimitHint')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              label={t('clients.detail.requestRateLimit')}
              {...numberProps('request_rate_limit')}
              errorProps={testIdProps('client-rate-limit-error')}
              data-testid="client-rate-limit-input"
            />
            <NumberInput
              label={t('clients.detail.requestRateInterval')}
              {...numberProps('request_rate_interval')}
              errorProps={testIdProps('client-rate-interval-error')}
              data-testid="client-rate-interval-input"
            />
          </SimpleGrid>
        </Stack>
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={save.isPending}
            leftSection={<IconDeviceFloppy size={16} />}
            data-testid="client-save"
          >
            {t('clients.detail.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function CopyValue({ value, testId }: { value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button
          size="xs"
          variant="light"
          color={copied ? 'teal' : undefined}
          leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
          onClick={copy}
          style={{ flexShrink: 0 }}
          data-testid={testId}
        >
          {copied ? t('clients.issued.copied') : t('clients.issued.copy')}
        </Button>
      )}
    </CopyButton>
  );
}

/** A command in a code block with its copy button. */
function Command({ title, command, testId }: { title: string; command: string; testId: string }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm" fw={500} style={{ minWidth: 0 }}>
          {title}
        </Text>
        <CopyValue value={command} testId={`${testId}-copy`} />
      </Group>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid={testId}>
        {command}
      </Code>
    </Stack>
  );
}

/** Right after creation: the full token, once, with commands that use it. */
function IssuedToken({ client, vendorKey }: { client: ApiClientCreated; vendorKey: string }) {
  const { t } = useTranslation();
  const origin = window.location.origin;
  const examples = curlExamples({ origin, token: client.full_token, vendorKey, appId: client.vendor_app_id });
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={t('clients.issued.title')}
      data-testid="client-issued"
    >
      <Stack gap="md">
        <Text size="sm">{t('clients.issued.text')}</Text>
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput
            label={t('clients.issued.token')}
            value={client.full_token}
            readOnly
            onFocus={(e) => e.currentTarget.select()}
            style={{ flex: 1 }}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            data-testid="client-full-token"
          />
          <CopyValue value={client.full_token} testId="client-full-token-copy" />
        </Group>
        <Command
          title={t('clients.issued.openConversation')}
          command={examples.openConversation}
          testId="client-curl-open"
        />
        <Command
          title={t('clients.issued.sendMessage')}
          command={examples.sendMessage}
          testId="client-curl-send"
        />
        <Command
          title={t('clients.issued.openai', { url: openAiBaseUrl(origin) })}
          command={examples.openai}
          testId="client-curl-openai"
        />
      </Stack>
    </Alert>
  );
}

/** Shown once the client has been used (docs/reference/console.md): total requests, last used. */
function UsageStatistics({ client }: { client: ApiClient }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" data-testid="client-usage">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={4} size="h5">
            {t('clients.detail.usage')}
          </Title>
          <ClientStatus client={client} />
        </Group>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('clients.detail.totalRequests')}
          </Text>
          <Text size="sm" fw={600} data-testid="client-usage-requests">
            {client.requets_count}
          </Text>
        </Group>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('clients.detail.lastUsed')}
          </Text>
          <Text size="sm" fw={600} data-testid="client-usage-last-used">
            {client.last_used ? <RelativeTime value={client.last_used} /> : t('clients.never')}
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}
