import type { FastifyRequest } from 'fastify';
import type { schema } from '../db';

export type UserRow = typeof schema.users.$inferSelect;
export type SessionRow = typeof schema.sessions.$inferSelect;
export type VendorRow = typeof schema.vendors.$inferSelect;
export type AppRow = typeof schema.apps.$inferSelect;

/** A person's role in one vendor (docs/reference/api.md "Organisations"); a superuser acts as owner everywhere. */
export type MemberRole = 'owner' | 'member';

/** Who signed the request: the session, its user if signed in, and the user's memberships. */
export interface Identity {
  /** The session token as presented (kept in memory only, to key caches). */
  token: string;
  session: SessionRow;
  user: UserRow | null;
  /** vendor id → role, for the vendors the user belongs to. */
  memberships: ReadonlyMap<number, MemberRole>;
}

export type SignedIn = Identity & { user: UserRow };

type VerifyFailure = 'missing' | 'malformed' | 'stale' | 'unknown' | 'expired' | 'signature';
export type VerifyResult = { ok: true; identity: Identity } | { ok: false; reason: VerifyFailure };

/** Verifies `X-AccessToken` headers (the auth module's SessionVerifier). */
export interface SessionPort {
  /** Answers without a promise when everything needed is in memory, else undefined. */
  verifyCached(header: string | undefined, method: string, target: string): VerifyResult | undefined;
  verify(header: string | undefined, method: string, target: string): Promise<VerifyResult>;
  /** The live identity of a session token already verified (a relay socket's), or null once it ended. */
  identityOf(token: string): Promise<Identity | null>;
}

/**
 * A caller from outside the console (an API client, a web embed), authenticated by the outside-caller
 * port instead of a session; it acts in one vendor. `id` keys its per-caller rate limits.
 */
export interface Outsider {
  vendor: VendorRow;
  id: string;
  /** Its own limit was applied when it was authenticated: routes' per-caller limits pass it through. */
  ownRateLimit: boolean;
}

/** Authenticates outside callers (the clients module). Failures are AppErrors (401, 403, 429). */
export interface OutsiderPort {
  /** From the request's headers (`X-VendorToken` + `X-Vendor`, `X-EmbedToken`); undefined when it carries none. */
  fromHeaders(request: FastifyRequest): Promise<Outsider | undefined>;
  /** From `Authorization: Bearer <token>`. */
  fromBearer(request: FastifyRequest): Promise<Outsider>;
}

/**
 * The ports the request pipeline authenticates and resolves tenants through. The composition root
 * (`app.ts`) provides them from the auth and vendors modules, so `platform/` knows no domain module.
 */
export interface PipelinePorts {
  sessions: SessionPort;
  vendors: {
    byId(id: number): Promise<VendorRow | null>;
    byKey(key: string): Promise<VendorRow | null>;
  };
  /** Without it, routes open to outside callers take console users only. */
  outsiders?: OutsiderPort;
  /** Vendor-owned resources a path names (routes declaring `access.app`); null when the vendor has none. */
  owned: {
    app(vendorId: number, appId: number): Promise<AppRow | null>;
  };
}

/** The role a signed-in user has in a vendor, or null when they may not act in it. */
export function roleIn(identity: SignedIn, vendorId: number): MemberRole | null {
  if (identity.user.isSu) return 'owner';
  return identity.memberships.get(vendorId) ?? null;
}
