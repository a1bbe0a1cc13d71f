import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { type Crumb, PageHeader } from '../../components/PageHeader';
import { PlaceholderPage } from '../../components/PlaceholderPage';
import { type BillingSection, BillingSettings } from '../../features/billing';
import {
  MemberPage,
  MembersPage,
  SettingsLayout,
  SlackSettingsPage,
  SmtpSettingsPage,
  VendorSettingsPage,
} from '../../features/settings';
import { useCurrentVendor } from '../../lib/appState';
import { NotFoundRoute } from './NotFoundRoute';
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
  subscription: (vendorId) => <BillingPage vendorId={vendorId} section="subscription" page="subscription" />,
  address: (vendorId) => <BillingPage vendorId={vendorId} section="address" page="address" />,
  paymentMethods: (vendorId) => (
    <BillingPage vendorId={vendorId} section="paymentMethods" page="payment-methods" />
  ),
  invoices: (vendorId) => <BillingPage vendorId={vendorId} section="invoices" page="invoices" />,
  usage: (vendorId) => <BillingPage vendorId={vendorId} section="usage" page="usage" />,
  limits: (vendorId) => <BillingPage vendorId={vendorId} section="limits" page="limits" />,
  vendor: (vendorId) => <VendorSettingsPage vendorId={vendorId} />,
  users: (vendorId) => <MembersPage vendorId={vendorId} />,
  user: (vendorId, id) => <MemberPage vendorId={vendorId} userId={id} />,
  slack: (vendorId) => <SlackSettingsPage vendorId={vendorId} />,
  smtp: (vendorId) => <SmtpSettingsPage vendorId={vendorId} />,
};

/** The billing feature's pages inside the settings layout, under the Billing crumb (but the subscription). */
function BillingPage({
  vendorId,
  section,
  page,
}: {
  vendorId: number;
  section: SettingsSection;
  page: BillingSection;
}) {
  const { t } = useTranslation();
  const crumbs: Crumb[] = BILLING.includes(section)
    ? [{ label: t('pages.settings.billing'), to: '/settings/billing/address' }]
    : [];
  return (
    <SettingsLayout title={t(`pages.settings.${section}`)} crumbs={crumbs}>
      <BillingSettings vendorId={vendorId} section={page} />
    </SettingsLayout>
  );
}

export function SettingsRoute({ section }: { section: SettingsSection }) {
  const { t } = useTranslation();
  const label = useEntityLabel();
  const { id } = useParams();
  const vendor = useCurrentVendor();
  const built = BUILT[section];
  if (built && vendor) {
    if (vendor.role !== 'owner') {
      // No sub-navigation: every settings page is the owners', so a member has nothing there to go to.
      return (
        <>
          <PageHeader
            title={t('pages.settings.title')}
            breadcrumbs={[{ label: t('pages.settings.title') }]}
          />
          <Alert color="gray" data-testid="settings-owners-only">
            {t('pages.settings.ownersOnly')}
          </Alert>
        </>
      );
    }
    // A member's page needs a numeric id; anything else is no page at all (and asks the server nothing).
    if (section === 'user' && !/^\d+$/.test(id ?? '')) return <NotFoundRoute />;
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
