import { type PasswordChangeBody, passwordChangeBody } from '@llmor/contracts';
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { useChangePassword } from '../api/changePassword';

type Values = PasswordChangeBody & { confirm: string };

import { useUnsavedChanges } from '../../../components/UnsavedChanges';
/** Current and new password (POST /v1/account/password): every other session is signed out. */
import { SessionsEndedAlert } from './SessionsEndedAlert';

export function PasswordSection() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [ended, setEnded] = useState<number | null>(null);
  const form = useForm<Values>({
    initialValues: { current_password: '', password: '', confirm: '' },
    validate: (values) => {
      const errors = zodFormValidate<Values>(passwordChangeBody, t)(values);
      if (values.confirm !== values.password) errors.confirm = t('account.password.mismatch');
      return errors;
    },
  });
  useUnsavedChanges(form.isDirty());

  const onSubmit = async ({ confirm: _confirm, ...body }: Values) => {
    setEnded(null);
    try {
      const answer = await change.mutateAsync(body);
      form.reset();
      setEnded(answer.ended);
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('account.saveFailed'))));
    }
  };

  return (
    <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate data-testid="account-password-form">
      <Stack gap="sm" maw={520}>
        {ended !== null && (
          <SessionsEndedAlert
            text={t('account.password.changed', { count: ended })}
            onClose={() => setEnded(null)}
            testId="account-password-changed"
          />
        )}
        <PasswordInput
          label={t('account.password.current')}
          autoComplete="current-password"
          required
          {...form.getInputProps('current_password')}
          data-testid="account-current-password"
        />
        <PasswordInput
          label={t('account.password.new')}
          description={t('account.password.hint')}
          autoComplete="new-password"
          required
          {...form.getInputProps('password')}
          data-testid="account-new-password"
        />
        <PasswordInput
          label={t('account.password.confirm')}
          autoComplete="new-password"
          required
          {...form.getInputProps('confirm')}
          data-testid="account-confirm-password"
        />
        <Group>
          <Button type="submit" loading={change.isPending} data-testid="account-password-submit">
            {t('account.password.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
