import { type AdminVendor, type AdminVendorUpdateBody, adminVendorUpdateBody } from '@llmor/contracts';
import { Button, Group, Skeleton, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadProblem, SectionTabs } from '../../../components/DetailPage';
import { PageHeader } from '../../../components/PageHeader';
import { isApiError } from '../../../lib/api/error';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useAdminVendor } from '../api/getAdminVendor';
import { useUpdateAdminVendor } from '../api/updateAdminVendor';
import '../i18n';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';

const ADMIN_VENDOR_SECTIONS = ['details', 'subscriptions'] as const;
export type AdminVendorSection = (typeof ADMIN_VENDOR_SECTIONS)[number];

/** /admin/vendors/{id}: Details (name, currency, active) and Subscriptions (the billing feature's, as `subscriptions`). */
export function AdminVendorPage({
  vendorId,
  section,
  subscriptions,
}: {
  vendorId: number;
  section: AdminVendorSection;
  subscriptions: ReactNode;
}) {
  const { t } = useTranslation();
  const vendor = useAdminVendor(vendorId);
  const title = vendor.data?.data.name ?? `${t('pages.admin.vendor')} #${vendorId}`;
  return (
    <>
      <PageHeader
        title={title}
        breadcrumbs={[
          { label: t('pages.admin.title'), to: '/admin/vendors' },
          { label: t('pages.admin.vendors'), to: '/admin/vendors' },
          { label: title },
        ]}
      />
      {vendor.isError ? (
        <LoadProblem
          notFound={isApiError(vendor.error) && vendor.error.status === 404}
          error={vendor.error}
          onRetry={vendor.refetch}
          listPath="/admin/vendors"
          testIdPrefix="admin-vendor"
          textKeyPrefix="admin.page"
        />
      ) : (
        <>
          <SectionTabs
            section={section}
            sections={ADMIN_VENDOR_SECTIONS}
            basePath={`/admin/vendors/${vendorId}`}
            testIdPrefix="admin-vendor"
            textKeyPrefix="admin.tabs"
          />
          {section === 'subscriptions' ? (
            subscriptions
          ) : vendor.data ? (
            <DetailsForm key={vendor.dataUpdatedAt} vendor={vendor.data.data} />
          ) : (
            <Skeleton height={200} />
          )}
        </>
      )}
    </>
  );
}

function DetailsForm({ vendor }: { vendor: AdminVendor }) {
  const { t } = useTranslation();
  const update = useUpdateAdminVendor(vendor.id);
  const form = useForm<AdminVendorUpdateBody>({
    initialValues: { name: vendor.name, currency: vendor.currency, active: vendor.active },
    validate: zodFormValidate(adminVendorUpdateBody, t),
  });
  useUnsavedChanges(form.isDirty());
  const onSave = async (values: AdminVendorUpdateBody) => {
    try {
      await update.mutateAsync(values);
      form.resetDirty(values);
      notifySuccess(t('admin.form.saved'));
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('admin.form.saveFailed'))));
    }
  };
  return (
    <form onSubmit={form.onSubmit((v) => void onSave(v))} noValidate data-testid="admin-vendor-form">
      <Stack gap="md" maw={520}>
        <TextInput label={t('admin.form.key')} value={vendor.key} readOnly variant="filled" />
        <TextInput
          label={t('admin.form.name')}
          required
          {...form.getInputProps('name')}
          data-testid="admin-vendor-edit-name"
        />
        <TextInput
          label={t('admin.form.currency')}
          required
          maxLength={3}
          {...form.getInputProps('currency')}
        />
        <Switch
          label={t('admin.form.active')}
          {...form.getInputProps('active', { type: 'checkbox' })}
          data-testid="admin-vendor-active"
        />
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending} data-testid="admin-vendor-save">
            {t('admin.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
