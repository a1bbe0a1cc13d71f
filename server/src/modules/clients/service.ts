import {
  type ApiClient,
  type ApiClientCreated,
  CLIENT_TOKEN_PREFIX,
  CLIENT_TOKEN_TAIL,
  type clientBody,
  type clientsQuery,
  type ListEnvelope,
} from '@llmor/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { randomToken, sha256Hex } from '../../platform/crypto';
import { notFound } from '../../platform/errors';
import { presentClient } from './present';
import * as repo from './repo';

type ClientInput = z.output<typeof clientBody>;

/** 32 random bytes (256 bits) after the prefix. */
const TOKEN_BYTES = 32;

/** The stored form of a client token: only its SHA-256 is kept (it has 256 random bits; no slow hash needed). */
export const clientTokenHash = (token: string) => sha256Hex(token);

const settingsOf = (body: ClientInput): repo.ClientSettings => ({
  name: body.name,
  active: body.active,
  requestRateLimit: body.request_rate_limit,
  requestRateInterval: body.request_rate_interval,
});

export async function listClients(
  ctx: AppContext,
  vendorId: number,
  appId: number,
  query: z.output<typeof clientsQuery>,
): Promise<ListEnvelope<ApiClient>> {
  const { rows, total } = await repo.listClients(ctx.db, vendorId, appId, {
    order: query.order ?? 'created_at',
    dir: query.order_dir ?? 'desc',
    page: query.page,
    pageSize: query.page_size,
  });
  return { data: rows.map(presentClient), total_count: total, filter_count: total };
}

export async function getClient(
  ctx: AppContext,
  vendorId: number,
  appId: number,
  clientId: number,
): Promise<ApiClient> {
  const row = await repo.findClient(ctx.db, vendorId, appId, clientId);
  if (!row) throw notFound('Client');
  return presentClient(row);
}

/** Issues the token: answered once in full, stored as its hash and its last characters. */
export async function createClient(
  ctx: AppContext,
  vendorId: number,
  appId: number,
  userId: number,
  body: ClientInput,
): Promise<ApiClientCreated> {
  const token = `${CLIENT_TOKEN_PREFIX}${randomToken(TOKEN_BYTES)}`;
  const row = await repo.insertClient(ctx.db, vendorId, {
    ...settingsOf(body),
    vendorAppId: appId,
    tokenHash: clientTokenHash(token),
    tokenTail: token.slice(-CLIENT_TOKEN_TAIL),
    createdBy: userId,
  });
  return { ...presentClient(row), full_token: token };
}

/** The shared rate limiter's key of a client's request window (callers.ts counts in it). */
export const clientRateKey = (clientId: number) => `api-client:${clientId}`;

export async function updateClient(
  ctx: AppContext,
  vendorId: number,
  appId: number,
  clientId: number,
  body: ClientInput,
): Promise<ApiClient> {
  const before = await repo.findClient(ctx.db, vendorId, appId, clientId);
  if (!before) throw notFound('Client');
  const settings = settingsOf(body);
  const row = await repo.updateClient(ctx.db, vendorId, appId, clientId, settings);
  if (!row) throw notFound('Client');
  // A changed limit holds from now: the window counted under the old one is dropped (on every instance).
  if (
    before.requestRateLimit !== settings.requestRateLimit ||
    before.requestRateInterval !== settings.requestRateInterval
  ) {
    await ctx.rateLimiter.reset(clientRateKey(row.id));
  }
  // A client turned off stops listening at once, on every instance.
  if (!row.active) ctx.relay.evict('client', [row.id]);
  return presentClient(row);
}
