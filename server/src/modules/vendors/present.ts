import type { Vendor } from '@llmor/contracts';
import { type MemberRole, roleIn, type SignedIn, type VendorRow } from '../../platform/http/identity';

export function presentVendor(row: VendorRow, role: MemberRole): Vendor {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    currency: row.currency,
    created_at: row.createdAt.toISOString(),
    role,
  };
}

/** The vendor as the signed-in user sees it (with their role). */
export const presentVendorFor = (row: VendorRow, identity: SignedIn): Vendor =>
  presentVendor(row, roleIn(identity, row.id) ?? 'member');
