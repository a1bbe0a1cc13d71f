import { Tabs } from '@mantine/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LoadingState } from '../../../components/LoadingState';
import '../i18n';

const BILLING_SECTIONS = [
  'subscription',
  'address',
  'payment-methods',
  'invoices',
  'usage',
  'limits',
] as const;
export type BillingSection = (typeof BILLING_SECTIONS)[number];

const SubscriptionPage = lazy(() => import('./SubscriptionPage'));
const AddressPage = lazy(() => import('./AddressPage'));
const PaymentMethodsPage = lazy(() => import('./PaymentMethodsPage'));
const InvoicesPage = lazy(() => import('./InvoicesPage'));
const UsagePage = lazy(() => import('./UsagePage'));
const LimitsPage = lazy(() => import('./LimitsPage'));

const PAGES: Record<BillingSection, (props: { vendorId: number }) => ReactNode> = {
  subscription: SubscriptionPage,
  address: AddressPage,
  'payment-methods': PaymentMethodsPage,
  invoices: InvoicesPage,
  usage: UsagePage,
  limits: LimitsPage,
};

/** Where each section lives: the subscription beside the billing pages, as docs/reference/console.md routes them. */
const billingPath = (section: BillingSection) =>
  section === 'subscription' ? '/settings/subscription' : `/settings/billing/${section}`;

/** The subscription and billing pages (owners), with tabs between them. */
export function BillingSettings({ vendorId, section }: { vendorId: number; section: BillingSection }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const Page = PAGES[section];
  return (
    <>
      <Tabs value={section} onChange={(v) => v && navigate(billingPath(v as BillingSection))} mb="lg">
        <Tabs.List aria-label={t('billing.tabs.tabs')}>
          {BILLING_SECTIONS.map((s) => (
            <Tabs.Tab key={s} value={s} data-testid={`billing-tab-${s}`}>
              {t(`billing.tabs.${s}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Suspense fallback={<LoadingState text="" testId="billing-page-loading" />}>
        <Page vendorId={vendorId} />
      </Suspense>
    </>
  );
}
