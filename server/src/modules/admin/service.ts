import type {
  AdminVendor,
  AdminVendorCreateBody,
  AdminVendorCreated,
  AdminVendorsQuery,
  AdminVendorUpdateBody,
  ListEnvelope,
} from '@llmor/contracts';
import { message } from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { conflict, notFound } from '../../platform/errors';
import { inviteMember } from '../members/service';
import { findVendorByKey, insertVendor, updateVendor } from '../vendors/repo';
import { type AdminVendorRow, countAdminVendors, findAdminVendor, listAdminVendors } from './repo';

function presentAdminVendor(row: AdminVendorRow): AdminVendor {
  return {
    id: row.vendor.id,
    key: row.vendor.key,
    name: row.vendor.name,
    currency: row.vendor.currency,
    active: row.vendor.active,
    created_at: row.vendor.createdAt.toISOString(),
    member_count: row.memberCount,
    app_count: row.appCount,
    plan: row.plan,
  };
}

export async function listVendors(ctx: AppContext, q: AdminVendorsQuery): Promise<ListEnvelope<AdminVendor>> {
  const page = Number(q.page ?? 0);
  const pageSize = Number(q.page_size ?? 20);
  const search = q.search || undefined;
  const [rows, filtered, total] = await Promise.all([
    listAdminVendors(ctx.db, {
      search,
      order: q.order ?? 'name',
      dir: q.order_dir ?? 'asc',
      offset: page * pageSize,
      limit: pageSize,
    }),
    countAdminVendors(ctx.db, search),
    countAdminVendors(ctx.db),
  ]);
  return { data: rows.map(presentAdminVendor), total_count: total, filter_count: filtered };
}

export async function getVendor(ctx: AppContext, id: number): Promise<AdminVendor> {
  const row = await findAdminVendor(ctx.db, id);
  if (!row) throw notFound('Vendor');
  return presentAdminVendor(row);
}

/** Creates the vendor and invites its first owner. */
export async function createVendor(
  ctx: AppContext,
  superuserId: number,
  body: AdminVendorCreateBody,
): Promise<AdminVendorCreated> {
  if (await findVendorByKey(ctx.db, body.key)) {
    throw conflict(message('keyTaken'), { key: message('keyTaken') });
  }
  const vendor = await insertVendor(ctx.db, { key: body.key, name: body.name, currency: body.currency });
  const invited = await inviteMember(ctx, vendor, superuserId, { email: body.owner_email, role: 'owner' });
  return {
    data: await getVendor(ctx, vendor.id),
    ...(invited.invite_url ? { invite_url: invited.invite_url } : {}),
  };
}

/** Name, currency, active: an inactive vendor can no longer be selected by its members. */
export async function editVendor(
  ctx: AppContext,
  id: number,
  body: AdminVendorUpdateBody,
): Promise<AdminVendor> {
  const updated = await updateVendor(ctx.db, id, body);
  if (!updated) throw notFound('Vendor');
  if (!updated.active) ctx.relay.evict('vendor', [id]);
  return getVendor(ctx, id);
}
