export { vendorsQueryOptions } from './api/getVendors';
export { VendorSwitcher } from './components/VendorSwitcher';
