import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { Crumb } from '../../components/PageHeader';
import { PlaceholderPage } from '../../components/PlaceholderPage';
import {
  MemberPage,
  MembersPage,
  SettingsLayout,
  SlackSettingsPage,
  SmtpSettingsPage,
  VendorSettingsPage,
} from '../../features/settings';
import { useCurrentVendor } from '../../lib/appState';
import { useEntityLabel } from './useEntityLabel';

export type SettingsSection =
  | 'vendor'
  | 'address'
  | 'paymentMethods'
  | 'invoices'
  | 'usage'
  | 'limits'
  | 'subscription'
  | 'users'
  | 'user'
  | 'slack'
  | 'smtp';

const BILLING: SettingsSection[] = ['address', 'paymentMethods', 'invoices', 'usage', 'limits'];

const BUILT: Partial<Record<SettingsSection, (vendorId: number, id: number) => ReactNode>> = {
  vendor: (vendorId) => <VendorSettingsPage vendorId={vendorId} />,
  users: (vendorId) => <MembersPage vendorId={vendorId} />,
  user: (vendorId, id) => <MemberPage vendorId={vendorId} userId={id} />,
  slack: (vendorId) => <SlackSettingsPage vendorId={vendorId} />,
  smtp: (vendorId) => <SmtpSettingsPage vendorId={vendorId} />,
};

export function SettingsRoute({ section }: { section: SettingsSection }) {
  const { t } = useTranslation();
  const label = useEntityLabel();
  const { id } = useParams();
  const vendor = useCurrentVendor();
  const built = BUILT[section];
  if (built && vendor) {
    if (vendor.role !== 'owner') {
      return (
        <SettingsLayout title={t('pages.settings.title')}>
          <Alert color="gray" data-testid="settings-owners-only">
            {t('pages.settings.ownersOnly')}
          </Alert>
        </SettingsLayout>
      );
    }
    return <>{built(vendor.id, Number(id))}</>;
  }
  const crumbs: Crumb[] = [{ label: t('pages.settings.title'), to: '/settings/vendor' }];
  let title = t(`pages.settings.${section}`);
  if (BILLING.includes(section)) {
    crumbs.push({ label: t('pages.settings.billing'), to: '/settings/billing/address' });
  } else if (section === 'slack' || section === 'smtp') {
    crumbs.push({ label: t('pages.settings.integrations'), to: '/settings/integrations/slack' });
  } else if (section === 'user') {
    crumbs.push({ label: t('pages.settings.users'), to: '/settings/users' });
    title = `${t('pages.settings.user')} ${label(id)}`;
  }
  crumbs.push({ label: title });
  return <PlaceholderPage title={title} breadcrumbs={crumbs} />;
}
