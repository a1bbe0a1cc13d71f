import type { Vendor } from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import type { AuthContext } from '../auth/sessions';
import { findVendorById, findVendorByKey, listAllVendors, listVendorsByIds, type VendorRow } from './repo';

type SignedIn = AuthContext & { user: NonNullable<AuthContext['user']> };

export function presentVendor(row: VendorRow): Vendor {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    currency: row.currency,
    created_at: row.createdAt.toISOString(),
  };
}

/** Vendors a user may act in: their own, or every vendor for a superuser. */
export async function listVendorsOf(ctx: AppContext, auth: SignedIn): Promise<VendorRow[]> {
  return auth.user.isSu ? listAllVendors(ctx.db) : listVendorsByIds(ctx.db, auth.vendorIds);
}

/**
 * The vendor a path's `{vendorId}` names, if the user may act in it. Anything else answers 404, so
 * another vendor's existence does not leak.
 */
export async function requireVendor(ctx: AppContext, auth: SignedIn, vendorId: number): Promise<VendorRow> {
  if (!auth.user.isSu && !auth.vendorIds.includes(vendorId)) throw notFound('Vendor');
  const vendor = await findVendorById(ctx.db, vendorId);
  if (!vendor?.active) throw notFound('Vendor');
  return vendor;
}

/** The vendor selected by `X-Vendor: <key>`, or null when absent or not the user's. */
export async function vendorFromHeader(
  ctx: AppContext,
  auth: SignedIn,
  key: string | undefined,
): Promise<VendorRow | null> {
  if (!key) return null;
  const vendor = await findVendorByKey(ctx.db, key);
  if (!vendor?.active) return null;
  return auth.user.isSu || auth.vendorIds.includes(vendor.id) ? vendor : null;
}
