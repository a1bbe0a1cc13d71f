import { type SmtpSettings, smtpSettingsBody, smtpTestBody } from '@llmor/contracts';
import {
  Alert,
  Button,
  Divider,
  Group,
  NumberInput,
  PasswordInput,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/LoadError';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { isApiError } from '../../../lib/api/error';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useSettings } from '../api/getSettings';
import { useTestSmtp } from '../api/testSmtp';
import { useUpdateSettings } from '../api/updateSettings';
import { SettingsLayout } from './SettingsLayout';

function useIntegrationsCrumbs() {
  const { t } = useTranslation();
  return [{ label: t('pages.settings.integrations'), to: '/settings/integrations/slack' }];
}

/** /settings/integrations/slack: the vendor's Slack configuration token (write-only). */
export function SlackSettingsPage({ vendorId }: { vendorId: number }) {
  const { t } = useTranslation();
  const settings = useSettings(vendorId);
  const update = useUpdateSettings(vendorId);
  const [token, setToken] = useState('');
  useUnsavedChanges(token !== '');
  const save = async (value: string | null) => {
    try {
      await update.mutateAsync({ slack: { config_token: value } });
      setToken('');
      notifySuccess(t('settings.saved'));
    } catch (error) {
      submitErrors(error, t('settings.saveFailed'));
    }
  };
  const configured = settings.data?.data.slack.configured;
  return (
    <SettingsLayout title={t('settings.slack.title')} crumbs={useIntegrationsCrumbs()}>
      {settings.isError ? (
        <LoadError
          error={settings.error}
          onRetry={settings.refetch}
          testId="settings-load-error"
          title={t('settings.loadFailed')}
        />
      ) : !settings.data ? (
        <Skeleton height={120} />
      ) : (
        <Stack gap="md" maw={560}>
          <Text size="sm" c="dimmed">
            {t('settings.slack.intro')}
          </Text>
          <Alert
            color={configured ? 'green' : 'gray'}
            icon={configured ? <IconCheck size={18} /> : <IconInfoCircle size={18} />}
            data-testid="slack-token-status"
            data-configured={String(Boolean(configured))}
          >
            {configured ? t('settings.slack.configured') : t('settings.slack.missing')}
          </Alert>
          <PasswordInput
            label={t('settings.slack.token')}
            placeholder={t('settings.slack.tokenPlaceholder')}
            value={token}
            onChange={(e) => setToken(e.currentTarget.value)}
            autoComplete="off"
            data-testid="slack-token-input"
          />
          <Group justify="flex-end">
            {configured && (
              <Button
                variant="subtle"
                color="red"
                onClick={() => void save(null)}
                data-testid="slack-token-remove"
              >
                {t('settings.slack.remove')}
              </Button>
            )}
            <Button
              disabled={token.trim() === ''}
              loading={update.isPending}
              onClick={() => void save(token.trim())}
              data-testid="slack-token-save"
            >
              {t('settings.save')}
            </Button>
          </Group>
        </Stack>
      )}
    </SettingsLayout>
  );
}

/** /settings/integrations/smtp: the vendor's mail server (password write-only) and a test mail. */
export function SmtpSettingsPage({ vendorId }: { vendorId: number }) {
  const { t } = useTranslation();
  const settings = useSettings(vendorId);
  return (
    <SettingsLayout title={t('settings.smtp.title')} crumbs={useIntegrationsCrumbs()}>
      {settings.isError ? (
        <LoadError
          error={settings.error}
          onRetry={settings.refetch}
          testId="settings-load-error"
          title={t('settings.loadFailed')}
        />
      ) : settings.data ? (
        <Stack gap="lg" maw={560}>
          <SmtpForm key={settings.dataUpdatedAt} vendorId={vendorId} smtp={settings.data.data.smtp} />
          <Divider />
          <SmtpTest vendorId={vendorId} disabled={!settings.data.data.smtp.configured} />
        </Stack>
      ) : (
        <Skeleton height={240} />
      )}
    </SettingsLayout>
  );
}

type SmtpValues = {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  from: string;
};

function SmtpForm({ vendorId, smtp }: { vendorId: number; smtp: SmtpSettings }) {
  const { t } = useTranslation();
  const update = useUpdateSettings(vendorId);
  const form = useForm<SmtpValues>({
    initialValues: {
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      user: smtp.user,
      password: '',
      from: smtp.from,
    },
    // The form's fields are the SMTP settings themselves, so its errors are keyed as its fields are.
    validate: zodFormValidate(smtpSettingsBody, t),
  });
  useUnsavedChanges(form.isDirty());
  const onSave = async ({ password, ...values }: SmtpValues) => {
    try {
      // An empty password field keeps the stored one.
      await update.mutateAsync({ smtp: { ...values, ...(password ? { password } : {}) } });
      form.resetDirty();
      notifySuccess(t('settings.saved'));
    } catch (error) {
      const errors = submitErrors(error, t('settings.saveFailed'));
      form.setErrors(
        toFormErrors(
          Object.fromEntries(Object.entries(errors).map(([k, v]) => [k.replace(/^smtp\./, ''), v])),
        ),
      );
    }
  };
  return (
    <form onSubmit={form.onSubmit((v) => void onSave(v))} noValidate data-testid="smtp-form">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('settings.smtp.intro')}
        </Text>
        <Alert
          color={smtp.configured ? 'green' : 'gray'}
          data-testid="smtp-status"
          data-configured={String(smtp.configured)}
        >
          {smtp.configured ? t('settings.smtp.configured') : t('settings.smtp.notConfigured')}
        </Alert>
        <Group grow align="flex-start">
          <TextInput
            label={t('settings.smtp.host')}
            {...form.getInputProps('host')}
            data-testid="smtp-host"
          />
          <NumberInput
            label={t('settings.smtp.port')}
            min={1}
            max={65535}
            {...form.getInputProps('port')}
            data-testid="smtp-port"
          />
        </Group>
        <Switch
          label={t('settings.smtp.secure')}
          {...form.getInputProps('secure', { type: 'checkbox' })}
          data-testid="smtp-secure"
        />
        <Group grow align="flex-start">
          <TextInput
            label={t('settings.smtp.user')}
            autoComplete="off"
            {...form.getInputProps('user')}
            data-testid="smtp-user"
          />
          <PasswordInput
            label={t('settings.smtp.password')}
            placeholder={smtp.password_set ? t('settings.smtp.passwordSet') : undefined}
            autoComplete="new-password"
            {...form.getInputProps('password')}
            data-testid="smtp-password"
          />
        </Group>
        <TextInput
          label={t('settings.smtp.from')}
          type="email"
          {...form.getInputProps('from')}
          data-testid="smtp-from"
        />
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending} data-testid="smtp-save">
            {t('settings.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SmtpTest({ vendorId, disabled }: { vendorId: number; disabled: boolean }) {
  const { t } = useTranslation();
  const test = useTestSmtp(vendorId);
  const form = useForm({ initialValues: { to: '' }, validate: zodFormValidate(smtpTestBody, t) });
  const error = test.error ? (isApiError(test.error) ? test.error.serverMessage : test.error.message) : null;
  return (
    <form onSubmit={form.onSubmit((v) => test.mutate(v))} noValidate data-testid="smtp-test-form">
      <Stack gap="sm">
        <Title order={5}>{t('settings.smtp.testTitle')}</Title>
        <Group align="flex-end">
          <TextInput
            label={t('settings.smtp.testTo')}
            type="email"
            style={{ flex: 1 }}
            {...form.getInputProps('to')}
            data-testid="smtp-test-to"
          />
          <Button
            type="submit"
            variant="light"
            disabled={disabled}
            loading={test.isPending}
            data-testid="smtp-test-send"
          >
            {t('settings.smtp.testSend')}
          </Button>
        </Group>
        {test.isSuccess && (
          <Alert color="green" data-testid="smtp-test-result">
            {test.data.message}
          </Alert>
        )}
        {error && (
          <Alert color="red" data-testid="smtp-test-error">
            {error}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
