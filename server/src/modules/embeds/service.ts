import {
  EMBED_DEFAULT_APPEARANCE,
  type Embed,
  type EmbedCode,
  type EmbedsQuery,
  type embedBody,
  type embedUpdateBody,
  type ListEnvelope,
} from '@llmor/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { randomToken } from '../../platform/crypto';
import { notFound } from '../../platform/errors';
import { presentEmbed } from './present';
import * as repo from './repo';

/** 32 random bytes (256 bits), base64url: the token is the embed's only credential. */
const EMBED_TOKEN_BYTES = 32;

async function requireEmbed(ctx: AppContext, vendorId: number, appId: number, id: number) {
  const row = await repo.findEmbed(ctx.db, vendorId, appId, id);
  if (!row) throw notFound('Embed');
  return row;
}

export async function listEmbeds(
  ctx: AppContext,
  vendorId: number,
  appId: number,
  q: EmbedsQuery,
): Promise<ListEnvelope<Embed>> {
  const page = Number(q.page ?? 0);
  const pageSize = Number(q.page_size ?? 20);
  const [rows, total] = await Promise.all([
    repo.listEmbeds(ctx.db, vendorId, appId, {
      order: q.order ?? 'created_at',
      dir: q.order_dir ?? (q.order === 'name' ? 'asc' : 'desc'),
      offset: page * pageSize,
      limit: pageSize,
    }),
    repo.countEmbeds(ctx.db, vendorId, appId),
  ]);
  return { data: rows.map((row) => presentEmbed(row)), total_count: total, filter_count: total };
}

export async function getEmbed(ctx: AppContext, vendorId: number, appId: number, id: number): Promise<Embed> {
  return presentEmbed(await requireEmbed(ctx, vendorId, appId, id));
}

export async function createEmbed(
  ctx: AppContext,
  vendorId: number,
  appId: number,
  userId: number,
  body: z.output<typeof embedBody>,
): Promise<Embed> {
  const row = await repo.insertEmbed(ctx.db, vendorId, {
    vendorAppId: appId,
    name: body.name,
    allowedOrigins: body.allowed_origins,
    appearance: { ...EMBED_DEFAULT_APPEARANCE, ...body.appearance },
    token: randomToken(EMBED_TOKEN_BYTES),
    createdBy: userId,
  });
  return presentEmbed(row, 'full');
}

export async function updateEmbed(
  ctx: AppContext,
  vendorId: number,
  appId: number,
  id: number,
  body: z.output<typeof embedUpdateBody>,
): Promise<Embed> {
  const row = await repo.updateEmbed(ctx.db, vendorId, appId, id, {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.allowed_origins === undefined ? {} : { allowedOrigins: body.allowed_origins }),
    ...(body.appearance === undefined
      ? {}
      : { appearance: { ...EMBED_DEFAULT_APPEARANCE, ...body.appearance } }),
  });
  if (!row) throw notFound('Embed');
  // Pages whose origin is no longer allowed stop listening: every socket rejoins under the new list.
  if (body.allowed_origins !== undefined) ctx.relay.evict('embed', [row.id]);
  return presentEmbed(row);
}

export async function deleteEmbed(
  ctx: AppContext,
  vendorId: number,
  appId: number,
  id: number,
): Promise<void> {
  if (!(await repo.deleteEmbed(ctx.db, vendorId, appId, id))) throw notFound('Embed');
  ctx.relay.evict('embed', [id]);
}

/** The token in full and where its script is, for the console's copy and Embed Code actions. */
export async function embedCode(
  ctx: AppContext,
  vendorId: number,
  appId: number,
  id: number,
  publicOrigin: string,
): Promise<EmbedCode> {
  const row = await requireEmbed(ctx, vendorId, appId, id);
  return { token: row.token, script_url: `${publicOrigin}/embed/js/${row.token}` };
}
