import type { PasswordForgotBody } from '@llmor/contracts';
import { Alert, Anchor, Button, Collapse, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppState } from '../../../lib/appState';
import { validateWithLazySchema } from '../../../lib/form';
import { useForgotPassword } from '../api/forgotPassword';

/**
 * "Forgot your password?" under the sign-in form: asks for the address and says a link is on its way —
 * or, on an instance without a mail server, that an owner or the operator sets a new password.
 */
export function ForgotPassword() {
  const { t } = useTranslation();
  const { config } = useAppState();
  const [open, setOpen] = useState(false);
  const forgot = useForgotPassword();
  const form = useForm<PasswordForgotBody>({ initialValues: { email: '' } });
  const submit = async (values: PasswordForgotBody) => {
    if (await validateWithLazySchema(form, () => import('../schemas').then((m) => m.passwordForgotBody), t)) {
      forgot.mutate(values);
    }
  };
  return (
    <Stack gap="xs">
      <Anchor
        component="button"
        type="button"
        size="sm"
        onClick={() => setOpen((o) => !o)}
        data-testid="forgot-toggle"
      >
        {t('link.forgot')}
      </Anchor>
      <Collapse expanded={open}>
        {config?.instance_mail === false ? (
          <Alert color="yellow" data-testid="forgot-no-mail">
            {t('link.noInstanceMail')}
          </Alert>
        ) : forgot.isSuccess ? (
          <Alert color="blue" data-testid="forgot-sent">
            {forgot.data.message}
          </Alert>
        ) : (
          <form onSubmit={form.onSubmit((v) => void submit(v))} noValidate data-testid="forgot-form">
            <Group align="flex-end" wrap="nowrap">
              <TextInput
                label={t('login.email')}
                type="email"
                style={{ flex: 1 }}
                {...form.getInputProps('email')}
                data-testid="forgot-email"
              />
              <Button type="submit" variant="light" loading={forgot.isPending} data-testid="forgot-submit">
                {t('link.sendLink')}
              </Button>
            </Group>
            {forgot.isError && (
              <Alert color="red" mt="xs">
                {forgot.error.message}
              </Alert>
            )}
          </form>
        )}
      </Collapse>
    </Stack>
  );
}
