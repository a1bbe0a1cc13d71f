/**
 * The outside-caller port of the request pipeline (ADR 0012): turns an API client's or a web embed's
 * credential into a conversation caller, or refuses it.
 * - `X-VendorToken: <full token>` + `X-Vendor: <vendor key>`, or `Authorization: Bearer <full token>`
 *   (OpenAI-compatible endpoint): the token's SHA-256 finds the client (unique index), compared again in
 *   constant time; unknown, inactive, of an inactive vendor or of another vendor than `X-Vendor` → 401.
 *   Past `request_rate_limit` calls per `request_rate_interval` seconds → 429 with `Retry-After` (the
 *   shared rate limiter: Redis when configured). Each accepted call counts (`requets_count`, `last_used`):
 *   in the lookup's own statement for clients without a rate limit (docs/adr/0046 "Amended 2026-11-25").
 * - `X-EmbedToken: <token>`: the embed; unknown → 401; when its `allowed_origins` is not empty the
 *   request's `Origin` must be one of them, else 403.
 */
import {
  CLIENT_TOKEN_PREFIX,
  EMBED_ORIGIN_REFUSED,
  ErrorName,
  embedAllowsOrigin,
  message,
} from '@llmor/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context';
import { safeEqualHex, sha256Hex } from '../../platform/crypto';
import { AppError, forbidden, tooManyRequests, unauthorized } from '../../platform/errors';
import { type OutsiderPort, roleIn } from '../../platform/http/identity';
import { type ClientCaller, type EmbedCaller, userCaller } from '../conversations/access';
import type { RelayCallerPort } from '../conversations/ports';
import { findEmbedByToken } from '../embeds/repo';
import { findVendorById } from '../vendors/repo';
import { findClientByTokenHash, recordClientUse } from './repo';
import { clientRateKey, clientTokenHash } from './service';

const INVALID_CLIENT_TOKEN = 'Invalid API client token.';
const INACTIVE_CLIENT = 'This API client is inactive.';
const VENDOR_MISMATCH = 'X-Vendor must name the vendor this API client belongs to.';
const INVALID_EMBED_TOKEN = 'Invalid embed token.';
const BEARER_REQUIRED = 'Send the API client token as "Authorization: Bearer <token>".';

/** A token as issued: the prefix and 43 base64url characters; anything else is refused without a query. */
const CLIENT_TOKEN_SHAPE = new RegExp(`^${CLIENT_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);
const EMBED_TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * `vendorKey` undefined: the credential alone names the vendor (Bearer). `counted`: an HTTP request, held
 * to the client's rate limit and recorded as a use (a relay join is neither).
 */
async function clientCaller(
  ctx: AppContext,
  token: string,
  vendorKey: string | undefined | null,
  counted = true,
): Promise<ClientCaller> {
  if (!CLIENT_TOKEN_SHAPE.test(token)) throw unauthorized(INVALID_CLIENT_TOKEN);
  const hash = clientTokenHash(token);
  const found = await findClientByTokenHash(ctx.db, hash, counted ? { vendorKey } : null);
  if (!found || !safeEqualHex(found.client.tokenHash, hash)) throw unauthorized(INVALID_CLIENT_TOKEN);
  const { client, vendor } = found;
  if (!client.active) throw unauthorized(INACTIVE_CLIENT);
  if (!vendor.active) throw unauthorized(INVALID_CLIENT_TOKEN);
  if (vendorKey !== undefined && vendorKey !== vendor.key) throw unauthorized(VENDOR_MISMATCH);
  if (counted && client.requestRateLimit !== null && client.requestRateInterval !== null) {
    const hit = await ctx.rateLimiter.hit(
      clientRateKey(client.id),
      client.requestRateLimit,
      client.requestRateInterval,
    );
    if (!hit.allowed) {
      throw tooManyRequests(
        hit.retryAfter,
        message('clientRateLimited', {
          limit: client.requestRateLimit,
          seconds: client.requestRateInterval,
          count: hit.retryAfter,
        }),
      );
    }
  }
  // A client without a rate limit was counted by the lookup; one with a limit is counted once it passed it.
  if (counted && !found.counted) await recordClientUse(ctx.db, vendor.id, client.id);
  return {
    kind: 'client',
    vendor,
    id: `api-client:${client.id}`,
    ownRateLimit: true,
    appId: client.vendorAppId,
    clientId: client.id,
  };
}

async function embedCaller(
  ctx: AppContext,
  token: string,
  origin: string | undefined,
  address: string,
): Promise<EmbedCaller> {
  const embed = EMBED_TOKEN_SHAPE.test(token) ? await findEmbedByToken(ctx.db, token) : null;
  if (!embed || !safeEqualHex(sha256Hex(embed.token), sha256Hex(token)))
    throw unauthorized(INVALID_EMBED_TOKEN);
  const vendor = await findVendorById(ctx.db, embed.vendorId);
  if (!vendor?.active) throw unauthorized(INVALID_EMBED_TOKEN);
  const allowed = Array.isArray(embed.allowedOrigins) ? (embed.allowedOrigins as string[]) : [];
  if (!embedAllowsOrigin(allowed, origin)) {
    throw forbidden(
      origin
        ? `This embed may not be used from ${origin}: that origin is not among its allowed origins.`
        : 'This embed may only be used from its allowed origins, and the request named no Origin.',
    );
  }
  return {
    kind: 'embed',
    vendor,
    // Many visitors share one embed: per-caller limits count each address on its own.
    id: `embed:${embed.id}:${address}`,
    ownRateLimit: false,
    appId: embed.vendorAppId,
    embedId: embed.id,
  };
}

export function outsideCallers(ctx: AppContext): OutsiderPort {
  return {
    fromHeaders: async (request) => {
      const vendorToken = header(request, 'x-vendortoken');
      if (vendorToken !== undefined)
        return clientCaller(ctx, vendorToken, header(request, 'x-vendor') ?? null);
      const embedToken = header(request, 'x-embedtoken');
      if (embedToken !== undefined)
        return embedCaller(ctx, embedToken, header(request, 'origin'), request.ip);
      return undefined;
    },
    fromBearer: async (request) => {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header(request, 'authorization') ?? '');
      if (!match) throw unauthorized(BEARER_REQUIRED);
      return clientCaller(ctx, match[1]!, undefined);
    },
  };
}

/** The relay's callers (conversations/relay.ts): the same checks as the HTTP pipeline's, on every join. */
export function relayCallers(ctx: AppContext): RelayCallerPort {
  return {
    user: async (identity, vendorId) => {
      if (!identity.user?.active) return null;
      const signedIn = { ...identity, user: identity.user };
      const vendor = roleIn(signedIn, vendorId) ? await findVendorById(ctx.db, vendorId) : null;
      return vendor?.active ? userCaller(vendor, signedIn) : null;
    },
    client: (token, vendorKey) => clientCaller(ctx, token, vendorKey, false),
    // The widget shows the same refusal as the HTTP calls' CORS answer.
    embed: (token, origin, address) =>
      embedCaller(ctx, token, origin, address).catch((err: unknown) => {
        throw err instanceof AppError && err.name === ErrorName.Forbidden
          ? forbidden(EMBED_ORIGIN_REFUSED)
          : err;
      }),
  };
}
