import {
  LOCALE_LABELS,
  LOCALES,
  type VendorSettings,
  type VendorSettingsBody,
  vendorSettingsBody,
} from '@llmor/contracts';
import { Button, Group, Select, Skeleton, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/LoadError';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useSettings } from '../api/getSettings';
import { useUpdateSettings } from '../api/updateSettings';
import { SettingsLayout } from './SettingsLayout';

/** /settings/vendor: the vendor's name, currency and default language (owners). */
export function VendorSettingsPage({ vendorId }: { vendorId: number }) {
  const { t } = useTranslation();
  const settings = useSettings(vendorId);
  return (
    <SettingsLayout title={t('settings.nav.general')}>
      {settings.isError ? (
        <LoadError
          error={settings.error}
          onRetry={settings.refetch}
          testId="settings-load-error"
          title={t('settings.loadFailed')}
        />
      ) : settings.data ? (
        <GeneralForm key={settings.dataUpdatedAt} vendorId={vendorId} settings={settings.data.data} />
      ) : (
        <Skeleton height={160} data-testid="settings-loading" />
      )}
    </SettingsLayout>
  );
}

function GeneralForm({ vendorId, settings }: { vendorId: number; settings: VendorSettings }) {
  const { t } = useTranslation();
  const update = useUpdateSettings(vendorId);
  const form = useForm<VendorSettingsBody>({
    initialValues: { name: settings.name, currency: settings.currency, locale: settings.locale },
    validate: zodFormValidate(vendorSettingsBody, t),
  });
  useUnsavedChanges(form.isDirty());
  const onSave = async (values: VendorSettingsBody) => {
    try {
      await update.mutateAsync(values);
      form.resetDirty(values);
      notifySuccess(t('settings.saved'));
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('settings.saveFailed'))));
    }
  };
  return (
    <form onSubmit={form.onSubmit((v) => void onSave(v))} noValidate data-testid="vendor-settings-form">
      <Stack gap="md" maw={520}>
        <TextInput
          label={t('settings.vendor.name')}
          required
          {...form.getInputProps('name')}
          data-testid="vendor-settings-name"
        />
        <TextInput
          label={t('settings.vendor.currency')}
          description={t('settings.vendor.currencyHint')}
          required
          maxLength={3}
          {...form.getInputProps('currency')}
          data-testid="vendor-settings-currency"
        />
        <Select
          label={t('settings.vendor.locale')}
          data={LOCALES.map((l) => ({ value: l, label: LOCALE_LABELS[l] }))}
          allowDeselect={false}
          {...form.getInputProps('locale')}
          data-testid="vendor-settings-locale"
        />
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending} data-testid="vendor-settings-save">
            {t('settings.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
