export { vendorsQueryOptions } from './api/getVendors';
