import { accessTokenHeader, SIGNATURE_MAX_SKEW_SECONDS, signingMessage } from '@llmor/contracts';
import { hmacSha256Hex, safeEqualHex, sha256Hex } from '../../platform/crypto';
import type { Db } from '../../platform/db';
import { findSessionWithUser, type SessionRow, type UserRow } from './repo';

export interface AuthContext {
  session: SessionRow;
  user: UserRow | null;
  /** Vendors the user belongs to (a superuser may act in any vendor besides these). */
  vendorIds: number[];
}

export type VerifyFailure = 'missing' | 'malformed' | 'stale' | 'unknown' | 'signature';

const CACHE_TTL_MS = 5_000;
const CACHE_MAX = 10_000;

/**
 * Verifies `X-AccessToken` headers. Sessions are cached for a few seconds so a signed request costs
 * one HMAC, not a database round trip; sign-in and sign-out evict their entry at once, and other
 * instances see the change within the TTL.
 */
export class SessionVerifier {
  private readonly cache = new Map<string, { ctx: AuthContext | null; expiresAt: number }>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  async verify(
    header: string | undefined,
    method: string,
    pathWithQuery: string,
  ): Promise<{ ok: true; ctx: AuthContext } | { ok: false; reason: VerifyFailure }> {
    if (!header) return { ok: false, reason: 'missing' };
    const decoded = decodeHeader(header);
    if (!decoded) return { ok: false, reason: 'malformed' };
    const nowSeconds = Math.floor(this.now() / 1000);
    if (Math.abs(nowSeconds - decoded.timestamp) > SIGNATURE_MAX_SKEW_SECONDS)
      return { ok: false, reason: 'stale' };
    const ctx = await this.load(sha256Hex(decoded.token));
    if (!ctx) return { ok: false, reason: 'unknown' };
    const expected = hmacSha256Hex(
      ctx.session.secret,
      signingMessage(method, pathWithQuery, decoded.timestamp),
    );
    if (!safeEqualHex(expected, decoded.signature)) return { ok: false, reason: 'signature' };
    return { ok: true, ctx };
  }

  /** Drops a session from the cache after it changed (sign-in, sign-out). */
  evict(tokenHash: string): void {
    this.cache.delete(tokenHash);
  }

  private async load(tokenHash: string): Promise<AuthContext | null> {
    const now = this.now();
    const hit = this.cache.get(tokenHash);
    if (hit && hit.expiresAt > now) return hit.ctx;
    const ctx = await findSessionWithUser(this.db, tokenHash);
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(tokenHash, { ctx, expiresAt: now + CACHE_TTL_MS });
    return ctx;
  }
}

function decodeHeader(header: string) {
  if (header.length > 2048) return null;
  try {
    const parsed = accessTokenHeader.safeParse(JSON.parse(Buffer.from(header, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
