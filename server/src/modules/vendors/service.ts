import type { Vendor } from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { type MemberRole, roleIn, type SignedIn, type VendorRow } from '../../platform/http/identity';
import { findVendorByKey, listAllVendors, listVendorsByIds } from './repo';

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

/** Vendors a user may act in: their own active ones, or every active vendor for a superuser. */
export async function listVendorsOf(ctx: AppContext, identity: SignedIn): Promise<VendorRow[]> {
  const rows = identity.user.isSu
    ? await listAllVendors(ctx.db)
    : await listVendorsByIds(ctx.db, [...identity.memberships.keys()]);
  return rows.filter((v) => v.active);
}

/** The vendor selected by `X-Vendor: <key>`, or null when absent, inactive or not the user's. */
export async function vendorFromHeader(
  ctx: AppContext,
  identity: SignedIn,
  key: string | undefined,
): Promise<VendorRow | null> {
  if (!key) return null;
  const vendor = await findVendorByKey(ctx.db, key);
  return vendor?.active && roleIn(identity, vendor.id) !== null ? vendor : null;
}
