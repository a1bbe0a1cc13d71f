import type { Vendor } from '@llmor/contracts';
import { type MemberRole, roleIn, type SignedIn, type VendorRow } from '../../platform/http/identity';

function presentVendor(row: VendorRow, role: MemberRole, member: boolean): Vendor {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    currency: row.currency,
    created_at: row.createdAt.toISOString(),
    role,
    member,
  };
}

/** The vendor as the signed-in user sees it (with their role). */
export const presentVendorFor = (row: VendorRow, identity: SignedIn): Vendor =>
  presentVendor(row, roleIn(identity, row.id) ?? 'member', identity.memberships.has(row.id));
