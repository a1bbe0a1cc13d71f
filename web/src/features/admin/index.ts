export { AdminNav } from './components/AdminNav';
export { AdminQueuePage } from './components/AdminQueuePage';
export {
  AdminVendorPage,
  type AdminVendorSection,
} from './components/AdminVendorPage';
export { AdminVendorsPage } from './components/AdminVendorsPage';
export type { AdminMessages } from './i18n';
