import {
  asLocale,
  type BillingAddress,
  type BillingAddressBody,
  bcp47,
  billingAddressBody,
  COUNTRY_CODES,
} from '@llmor/contracts';
import { Button, Group, Select, SimpleGrid, Skeleton, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/LoadError';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifySuccess, SETTINGS_AREA_TOAST } from '../../../lib/notify';
import { useBillingAddress } from '../api/getBillingAddress';
import { useSaveBillingAddress } from '../api/saveBillingAddress';

/** /settings/billing/address: the address invoices carry (synced to the Stripe customer when Stripe is on). */
export default function AddressPage({ vendorId }: { vendorId: number }) {
  const address = useBillingAddress(vendorId);
  if (address.isError)
    return <LoadError error={address.error} onRetry={address.refetch} testId="billing-load-error" />;
  if (!address.data) return <Skeleton height={260} data-testid="billing-loading" />;
  return <AddressForm key={address.dataUpdatedAt} vendorId={vendorId} address={address.data.data} />;
}

/** The ISO countries by their names in the console's language, sorted by name. */
function useCountryOptions(language: string) {
  return useMemo(() => {
    const names = new Intl.DisplayNames([bcp47(asLocale(language) ?? 'en_US')], { type: 'region' });
    const collator = new Intl.Collator(bcp47(asLocale(language) ?? 'en_US'));
    return COUNTRY_CODES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) =>
      collator.compare(a.label, b.label),
    );
  }, [language]);
}

function AddressForm({ vendorId, address }: { vendorId: number; address: BillingAddress }) {
  const { t, i18n } = useTranslation();
  const countries = useCountryOptions(i18n.language);
  const save = useSaveBillingAddress(vendorId);
  const form = useForm<BillingAddressBody>({
    initialValues: address,
    validate: zodFormValidate(billingAddressBody, t),
  });
  useUnsavedChanges(form.isDirty());
  const onSave = async (values: BillingAddressBody) => {
    try {
      await save.mutateAsync(values);
      form.resetDirty(values);
      notifySuccess(t('billing.address.saved'), SETTINGS_AREA_TOAST);
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('billing.address.saveFailed'), SETTINGS_AREA_TOAST)));
    }
  };
  const field = (name: keyof BillingAddressBody, label: string, required = false) => (
    <TextInput
      label={label}
      required={required}
      {...form.getInputProps(name)}
      data-testid={`billing-address-${name}`}
    />
  );
  return (
    <form onSubmit={form.onSubmit((v) => void onSave(v))} noValidate data-testid="billing-address-form">
      <Stack gap="md" maw={620}>
        {field('name', t('billing.address.name'), true)}
        {field('line1', t('billing.address.line1'), true)}
        {field('line2', t('billing.address.line2'))}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {field('postal_code', t('billing.address.postalCode'), true)}
          {field('city', t('billing.address.city'), true)}
          {field('state', t('billing.address.state'))}
          <Select
            label={t('billing.address.country')}
            required
            searchable
            data={countries}
            {...form.getInputProps('country')}
            onChange={(code) => form.setFieldValue('country', code ?? '')}
            data-testid="billing-address-country"
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} data-testid="billing-address-save">
            {t('billing.address.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
