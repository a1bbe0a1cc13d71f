import { type AccountUpdateBody, accountUpdateBody } from '@llmor/contracts';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/LoadError';
import { LoadingState } from '../../../components/LoadingState';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useAccount } from '../api/getAccount';
import { useUpdateAccount } from '../api/updateAccount';

type Values = Required<AccountUpdateBody>;

/** The person's own names (PUT /v1/account), shown to every vendor they belong to. */
export function NameSection() {
  const { t } = useTranslation();
  const account = useAccount();
  const update = useUpdateAccount();
  const form = useForm<Values>({
    initialValues: { firstname: '', lastname: '' },
    validate: zodFormValidate<Values>(accountUpdateBody, t),
  });
  useUnsavedChanges(form.isDirty());
  const user = account.data?.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded account.
  useEffect(() => {
    if (!user) return;
    form.setValues({ firstname: user.firstname, lastname: user.lastname });
    form.resetDirty({ firstname: user.firstname, lastname: user.lastname });
  }, [user?.id]);

  if (account.isPending)
    return <LoadingState text={t('app.loading.loading')} testId="account-name-loading" />;
  if (!user) {
    return (
      <LoadError error={account.error} onRetry={() => void account.refetch()} testId="account-name-error" />
    );
  }

  const onSubmit = async (values: Values) => {
    try {
      const answer = await update.mutateAsync(values);
      form.resetDirty({ firstname: answer.data.firstname, lastname: answer.data.lastname });
      notifySuccess(t('account.name.saved'));
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('account.saveFailed'))));
    }
  };

  return (
    <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate data-testid="account-name-form">
      <Stack gap="sm" maw={520}>
        <TextInput label={t('account.name.email')} value={user.email} readOnly data-testid="account-email" />
        <Group grow align="flex-start">
          <TextInput
            label={t('account.name.firstname')}
            autoComplete="given-name"
            {...form.getInputProps('firstname')}
            data-testid="account-firstname"
          />
          <TextInput
            label={t('account.name.lastname')}
            autoComplete="family-name"
            {...form.getInputProps('lastname')}
            data-testid="account-lastname"
          />
        </Group>
        <Group>
          <Button type="submit" loading={update.isPending} data-testid="account-name-save">
            {t('account.name.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
