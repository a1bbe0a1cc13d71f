import { type InvitationAcceptBody, invitationAcceptBody } from '@llmor/contracts';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../../lib/api/error';
import { events } from '../../../lib/events';
import { zodFormValidate } from '../../../lib/form';
import { useLink, useLinkInfo } from '../api/links';

type Values = InvitationAcceptBody & { confirm: string };

/**
 * /invitation/{token} and /reset-password/{token}: the link a mail (or an inviter) gave; choose a
 * password (and, when invited, your name), then land signed in on the dashboard.
 */
export function LinkPage({ token, purpose }: { token: string; purpose: 'invite' | 'reset' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const info = useLinkInfo(token);
  const use = useLink(purpose);
  const form = useForm<Values>({
    initialValues: { token, password: '', confirm: '', firstname: '', lastname: '' },
    validate: (values) => {
      const errors = zodFormValidate(invitationAcceptBody, t)(values);
      if (values.confirm !== values.password) errors.confirm = t('link.mismatch');
      return errors;
    },
  });
  const onSubmit = async ({ confirm: _confirm, ...values }: Values) => {
    const body = purpose === 'invite' ? values : { token, password: values.password };
    try {
      await use.mutateAsync(body);
      events.emit('user-did-sign-in');
      navigate('/', { replace: true });
    } catch {
      // Shown below from the mutation's error.
    }
  };
  const failure = use.error ?? (info.isError ? info.error : null);
  const failureText = failure
    ? ((isApiError(failure) ? failure.serverMessage : null) ?? t('errors.unknownMessage'))
    : null;
  const data = info.data?.data;

  return (
    <Center mih="100vh" p="md">
      <Paper
        withBorder
        shadow="sm"
        p="xl"
        radius="md"
        w="100%"
        maw={440}
        data-testid="link-page"
        data-purpose={purpose}
      >
        {info.isPending ? (
          <Center>
            <Loader />
          </Center>
        ) : !data ? (
          <Stack>
            <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="link-invalid">
              {failureText}
            </Alert>
            <Anchor component={Link} to="/login" size="sm">
              {t('link.toLogin')}
            </Anchor>
          </Stack>
        ) : (
          <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate>
            <Stack gap="md">
              <div>
                <Title order={2} data-testid="link-title">
                  {purpose === 'invite'
                    ? t('link.inviteTitle', { vendor: data.vendor_name ?? 'llmor' })
                    : t('link.resetTitle')}
                </Title>
                <Text c="dimmed" size="sm" data-testid="link-email">
                  {data.email}
                </Text>
              </div>
              {failureText && (
                <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="link-error" role="alert">
                  {failureText}
                </Alert>
              )}
              {purpose === 'invite' && (
                <Group grow>
                  <TextInput
                    label={t('link.firstname')}
                    {...form.getInputProps('firstname')}
                    data-testid="link-firstname"
                  />
                  <TextInput
                    label={t('link.lastname')}
                    {...form.getInputProps('lastname')}
                    data-testid="link-lastname"
                  />
                </Group>
              )}
              <PasswordInput
                label={t('link.password')}
                description={t('link.passwordHint')}
                autoComplete="new-password"
                required
                data-autofocus
                {...form.getInputProps('password')}
                data-testid="link-password"
              />
              <PasswordInput
                label={t('link.confirm')}
                autoComplete="new-password"
                required
                {...form.getInputProps('confirm')}
                data-testid="link-confirm"
              />
              <Button type="submit" loading={use.isPending} fullWidth data-testid="link-submit">
                {purpose === 'invite' ? t('link.accept') : t('link.reset')}
              </Button>
            </Stack>
          </form>
        )}
      </Paper>
    </Center>
  );
}
