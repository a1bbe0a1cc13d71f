export { AdminPlansPage } from './components/AdminPlansPage';
export { type BillingSection, BillingSettings } from './components/BillingSettings';
export { VendorSubscriptions } from './components/VendorSubscriptions';
export type { BillingMessages } from './i18n';
