import { LOADING_BUTTON_MIN_MS, type SigninBody } from '@llmor/contracts';
import { Alert, Button, Divider, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api/error';
import { events } from '../../../lib/events';
import { validateWithLazySchema } from '../../../lib/form';
import { withMinDuration } from '../../../lib/minDuration';
import { useSignin } from '../api/signin';
import { ForgotPassword } from './ForgotPassword';

/** Email + password sign-in (docs/reference/README.md). On success the app initialises again (user-did-sign-in). */
export function LoginForm() {
  const { t } = useTranslation();
  const form = useForm<SigninBody>({ initialValues: { identifier: '', secret: '' } });
  const signin = useSignin();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  async function onSubmit(values: SigninBody) {
    if (loading) return;
    setError(null);
    setLoading(true);
    if (!(await validateWithLazySchema(form, () => import('../schemas').then((m) => m.signinBody), t))) {
      setLoading(false);
      setError(t('login.required'));
      return;
    }
    try {
      await withMinDuration(
        signin.mutateAsync({ identifier: values.identifier.trim(), secret: values.secret }),
        LOADING_BUTTON_MIN_MS,
      );
      setLoading(false);
      events.emit('user-did-sign-in');
    } catch (err) {
      setLoading(false);
      setError(
        (isApiError(err) ? err.serverMessage : undefined) ??
          (err instanceof Error && err.message ? err.message : t('errors.unknownMessage')),
      );
    }
  }

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
      <form
        onSubmit={form.onSubmit((values) => void onSubmit(values))}
        noValidate
        data-testid="login-form"
        aria-labelledby="login-title"
      >
        <Stack gap="md">
          <div>
            <Title order={2} id="login-title" data-testid="login-title">
              {t('login.title')}
            </Title>
            <Text c="dimmed" size="sm">
              {t('login.subtitle')}
            </Text>
          </div>
          {error && (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle size={18} />}
              title={t('login.failed')}
              data-testid="login-error"
              role="alert"
            >
              {error}
            </Alert>
          )}
          <TextInput
            label={t('login.email')}
            placeholder={t('login.emailPlaceholder')}
            type="email"
            name="email"
            autoComplete="username"
            required
            data-autofocus
            autoFocus
            {...form.getInputProps('identifier')}
            data-testid="login-email"
          />
          <PasswordInput
            label={t('login.password')}
            placeholder={t('login.passwordPlaceholder')}
            name="password"
            autoComplete="current-password"
            required
            {...form.getInputProps('secret')}
            data-testid="login-password"
            visibilityToggleButtonProps={{ 'aria-label': t('login.toggleVisibility') }}
          />
          <Button type="submit" loading={loading} fullWidth data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
      <Divider my="md" />
      <ForgotPassword />
    </Paper>
  );
}
