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
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { isApiError } from '../../../lib/api/error';
import { useAppState } from '../../../lib/appState';
import { events } from '../../../lib/events';
import { zodFormValidate } from '../../../lib/form';
import { loginReturningTo } from '../../../lib/returnPath';
import { useLinkInfo } from '../api/getLinkInfo';
import { useLink } from '../api/setLinkPassword';

type Values = InvitationAcceptBody & { confirm: string };

/**
 * /invitation/{token} and /reset-password/{token}: the link a mail (or an inviter) gave. A reset, or the
 * invitation of a new account (`action: 'set_password'`): choose a password (and, when invited, your
 * name), then land signed in on the dashboard. The invitation of an existing account (`action: 'sign_in'`)
 * is accepted only signed in as that person (docs/adr/0023-identity-across-tenants.md): the page offers
 * to sign in and comes back, or to sign out of someone else's account.
 */
export function LinkPage({ token, purpose }: { token: string; purpose: 'invite' | 'reset' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { authenticated, user, signOut } = useAppState();
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
  const data = info.data?.data;
  // The names the inviter typed, for the invited person to keep or correct: the form's starting values
  // (not an edit of the person's, so not unsaved input), set once — a later answer never overwrites typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: filled once when the link's answer arrives.
  useEffect(() => {
    if (purpose === 'invite' && data) {
      form.initialize({ ...form.getValues(), firstname: data.firstname, lastname: data.lastname });
    }
  }, [data]);
  // A typed password or name is not dropped without asking (docs/adr/0029-unsaved-changes.md).
  const { allowNextNavigation } = useUnsavedChanges(form.isDirty());
  const onSubmit = async ({ confirm: _confirm, ...values }: Values) => {
    const body = purpose === 'invite' ? values : { token, password: values.password };
    try {
      await use.mutateAsync(body);
      events.emit('user-did-sign-in');
      allowNextNavigation();
      navigate('/', { replace: true });
    } catch {
      // Shown below from the mutation's error.
    }
  };
  const onAcceptSignedIn = async () => {
    try {
      await use.mutateAsync({ token });
      // Initialisation runs again: the new vendor is in the list (and chosen when there was none).
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
  const signInOnly = purpose === 'invite' && data?.action === 'sign_in';
  const title =
    purpose === 'invite'
      ? t('link.inviteTitle', { vendor: data?.vendor_name ?? 'llmor' })
      : t('link.resetTitle');
  const signedInAsInvited =
    authenticated && !!user && !!data && user.email.toLowerCase() === data.email.toLowerCase();

  return (
    // Inside the product's frame (logo, footer) that centres the page.
    <Center w="100%">
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
        ) : signInOnly ? (
          <Stack gap="md" data-testid="link-sign-in-only">
            <LinkHeader title={title} email={data.email} failure={failureText} />
            {signedInAsInvited ? (
              <Button
                loading={use.isPending}
                fullWidth
                onClick={() => void onAcceptSignedIn()}
                data-testid="link-accept"
              >
                {t('link.acceptSignedIn')}
              </Button>
            ) : authenticated && user ? (
              <>
                <Alert color="yellow" icon={<IconInfoCircle size={18} />} data-testid="link-other-account">
                  {t('link.otherAccount', { current: user.email, email: data.email })}
                </Alert>
                <Button
                  variant="default"
                  fullWidth
                  onClick={() => void signOut()}
                  data-testid="link-sign-out"
                >
                  {t('link.signOut')}
                </Button>
              </>
            ) : (
              <>
                <Alert color="blue" icon={<IconInfoCircle size={18} />} data-testid="link-sign-in-prompt">
                  {t('link.signInToAccept', { email: data.email })}
                </Alert>
                <Button
                  component={Link}
                  to={loginReturningTo(location.pathname)}
                  fullWidth
                  data-testid="link-sign-in"
                >
                  {t('link.signIn')}
                </Button>
              </>
            )}
          </Stack>
        ) : (
          <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate>
            <Stack gap="md">
              <LinkHeader title={title} email={data.email} failure={failureText} />
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

/** What the link is for and whom it names, with the last failure. */
function LinkHeader({ title, email, failure }: { title: string; email: string; failure: string | null }) {
  return (
    <>
      <div>
        <Title order={2} data-testid="link-title">
          {title}
        </Title>
        <Text c="dimmed" size="sm" data-testid="link-email">
          {email}
        </Text>
      </div>
      {failure && (
        <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="link-error" role="alert">
          {failure}
        </Alert>
      )}
    </>
  );
}
