import { vendorsKey } from '../../../lib/entities/vendors';

/** Query keys of the vendors feature (the key is shared: admin and settings refresh the list). */
export const vendorKeys = {
  all: vendorsKey,
};
