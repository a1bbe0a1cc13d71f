import { type SlackIntegration, type SlackIntegrationBody, slackIntegrationBody } from '@llmor/contracts';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  List,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconBrandSlack, IconCheck, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { NoVendorSelected } from '../../../components/NoVendorSelected';
import { PageHeader } from '../../../components/PageHeader';
import { useCurrentVendor } from '../../../lib/appState';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useSlackIntegration } from '../api/getSlackIntegration';
import { useSaveSlackIntegration } from '../api/saveSlackIntegration';
import '../i18n';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';

/** Where the vendor's Slack configuration token is set (owners). */
const VENDOR_SLACK_SETTINGS = '/settings/integrations/slack';

/** App settings → Slack Integration (docs/reference/console.md): the app's Slack bot, created, installed and updated here. */
export function AppSlackSettings({ appId }: { appId: string }) {
  const { t } = useTranslation();
  const vendor = useCurrentVendor();
  return (
    <>
      <PageHeader sub title={t('slack.title')} titleTestId="settings-title" />
      {vendor ? <SlackLoader vendorId={vendor.id} appId={appId} /> : <NoVendorSelected />}
    </>
  );
}

function SlackLoader({ vendorId, appId }: { vendorId: number; appId: string }) {
  const { t } = useTranslation();
  const integration = useSlackIntegration(vendorId, appId);
  if (integration.isError) {
    return (
      <LoadError
        error={integration.error}
        onRetry={integration.refetch}
        testId="slack-load-error"
        title={t('slack.loadFailed')}
      />
    );
  }
  if (!integration.data) return <Skeleton height={160} data-testid="slack-loading" />;
  return <SlackSettings vendorId={vendorId} appId={appId} integration={integration.data} />;
}

function StatusBanner({ integration }: { integration: SlackIntegration }) {
  const { t } = useTranslation();
  const configured = integration.is_configured;
  const appId = integration.slack_app_id ?? '';
  return (
    <Alert
      color={configured ? 'green' : 'gray'}
      variant="light"
      icon={configured ? <IconCheck size={18} /> : <IconInfoCircle size={18} />}
      title={configured ? t('slack.configured') : t('slack.notConfigured')}
      data-testid="slack-status"
      data-configured={String(configured)}
    >
      {!configured
        ? t('slack.notConfiguredText')
        : integration.slack_team_domain
          ? t('slack.installedIn', { appId, team: integration.slack_team_domain })
          : t('slack.notInstalled', { appId })}
    </Alert>
  );
}

function Detail({ label, value, testId }: { label: string; value: string | null; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} ff="monospace" data-testid={testId}>
        {value ?? t('slack.none')}
      </Text>
    </Stack>
  );
}

function SlackDetails({ integration }: { integration: SlackIntegration }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" data-testid="slack-details">
      <Stack gap="sm">
        <Title order={4} size="h5">
          {t('slack.details')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Detail label={t('slack.appId')} value={integration.slack_app_id} testId="slack-app-id" />
          <Detail label={t('slack.clientId')} value={integration.slack_client_id} testId="slack-client-id" />
          <Detail
            label={t('slack.teamDomain')}
            value={integration.slack_team_domain}
            testId="slack-team-domain"
          />
        </SimpleGrid>
        {integration.slack_oauth_authorize_url && (
          <Group>
            <Button
              component="a"
              href={integration.slack_oauth_authorize_url}
              variant="light"
              leftSection={<IconBrandSlack size={18} />}
              data-testid="slack-install"
            >
              {t('slack.install')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function HowThisWorks() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" data-testid="slack-how">
      <Stack gap="sm">
        <Title order={4} size="h5">
          {t('slack.howTitle')}
        </Title>
        <List type="ordered" spacing="xs" size="sm">
          <List.Item>{t('slack.how.create')}</List.Item>
          <List.Item>{t('slack.how.install')}</List.Item>
          <List.Item>{t('slack.how.talk')}</List.Item>
        </List>
      </Stack>
    </Paper>
  );
}

function SlackSettings({
  vendorId,
  appId,
  integration,
}: {
  vendorId: number;
  appId: string;
  integration: SlackIntegration;
}) {
  const { t } = useTranslation();
  const save = useSaveSlackIntegration(vendorId, appId);
  const form = useForm<Required<SlackIntegrationBody>>({
    initialValues: {
      slack_bot_name: integration.slack_bot_name,
      slack_bot_always_online: integration.slack_bot_always_online,
    },
    validate: zodFormValidate(slackIntegrationBody, t),
  });
  useUnsavedChanges(form.isDirty());
  const configured = integration.is_configured;

  const onSave = async (body: Required<SlackIntegrationBody>) => {
    try {
      await save.mutateAsync({ create: !configured, body });
      form.resetDirty(body);
      notifySuccess(t('slack.saved'));
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('slack.saveFailed'))));
    }
  };

  return (
    <Stack gap="md" maw={820}>
      {!integration.vendor_configured && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title={t('slack.vendorTitle')}
          data-testid="slack-vendor-warning"
        >
          <Stack gap={4}>
            <Text size="sm">{t('slack.vendorText')}</Text>
            <Anchor component={Link} to={VENDOR_SLACK_SETTINGS} size="sm" data-testid="slack-vendor-link">
              {t('slack.vendorLink')}
            </Anchor>
          </Stack>
        </Alert>
      )}
      <StatusBanner integration={integration} />
      {configured && <SlackDetails integration={integration} />}
      <form onSubmit={form.onSubmit((values) => void onSave(values))} noValidate data-testid="slack-form">
        <Stack gap="md">
          <TextInput
            label={t('slack.botName')}
            description={t('slack.botNameHint')}
            placeholder={t('slack.botNamePlaceholder')}
            required
            maw={420}
            {...form.getInputProps('slack_bot_name')}
            data-testid="slack-bot-name"
          />
          <Checkbox
            label={t('slack.alwaysOnline')}
            {...form.getInputProps('slack_bot_always_online', { type: 'checkbox' })}
            data-testid="slack-always-online"
          />
          <Group>
            <Button
              type="submit"
              leftSection={<IconBrandSlack size={18} />}
              loading={save.isPending}
              disabled={form.values.slack_bot_name.trim() === ''}
              data-testid="slack-save"
            >
              {configured ? t('slack.update') : t('slack.create')}
            </Button>
          </Group>
        </Stack>
      </form>
      {!configured && <HowThisWorks />}
    </Stack>
  );
}
