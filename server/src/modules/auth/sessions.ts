import { SIGNATURE_MAX_SKEW_SECONDS, signingMessage } from '@llmor/contracts';
import { hmacSha256Hex, safeEqualHex, sha256Hex } from '../../platform/crypto';
import type { Db } from '../../platform/db';
import { findSessionWithUser, type SessionRow, type UserRow } from './repo';

export interface AuthContext {
  /** The session token as presented (kept in memory only, to key the cache). */
  token: string;
  session: SessionRow;
  user: UserRow | null;
  /** Vendors the user belongs to (a superuser may act in any vendor besides these). */
  vendorIds: number[];
}

export type VerifyFailure = 'missing' | 'malformed' | 'stale' | 'unknown' | 'signature';
export type VerifyResult = { ok: true; ctx: AuthContext } | { ok: false; reason: VerifyFailure };

const SESSION_TTL_MS = 5_000;
const CACHE_MAX = 10_000;

interface DecodedHeader {
  token: string;
  timestamp: number;
  signature: string;
}

/**
 * Verifies `X-AccessToken` headers (CONTRACTS.md). This runs on every call, so it is kept lean:
 * - sessions are cached for a few seconds by token (no database round trip per request); sign-in and
 *   sign-out evict their entry at once, other instances see a change within the TTL;
 * - a header already verified for the same method and target is remembered until its timestamp
 *   leaves the window, so a client's burst within one second costs one HMAC, not one per request.
 *   The memo never outlives the session's cache entry: revocation still takes effect.
 */
export class SessionVerifier {
  private readonly sessions = new Map<string, { ctx: AuthContext | null; expiresAt: number }>();
  private readonly verified = new Map<
    string,
    { token: string; method: string; target: string; expiresAt: number }
  >();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Answers without a promise when everything needed is in memory (the common case), else
   * undefined: then call `verify`, which may read the session from the database.
   */
  verifyCached(header: string | undefined, method: string, target: string): VerifyResult | undefined {
    if (!header) return { ok: false, reason: 'missing' };
    const now = this.now();
    const memo = this.verified.get(header);
    if (memo && memo.expiresAt >= now && memo.method === method && memo.target === target) {
      const ctx = this.cachedSession(memo.token, now);
      if (ctx) return { ok: true, ctx };
    }
    const decoded = decodeHeader(header);
    if (!decoded) return { ok: false, reason: 'malformed' };
    if (Math.abs(Math.floor(now / 1000) - decoded.timestamp) > SIGNATURE_MAX_SKEW_SECONDS) {
      return { ok: false, reason: 'stale' };
    }
    const cached = this.sessions.get(decoded.token);
    if (!cached || cached.expiresAt <= now) return undefined;
    return this.check(decoded, cached.ctx, method, target, header);
  }

  async verify(header: string | undefined, method: string, target: string): Promise<VerifyResult> {
    const fromMemory = this.verifyCached(header, method, target);
    if (fromMemory) return fromMemory;
    const decoded = decodeHeader(header!)!; // verifyCached returned undefined: the header decoded fine
    const ctx = await this.load(decoded.token);
    return this.check(decoded, ctx, method, target, header!);
  }

  private check(
    decoded: DecodedHeader,
    ctx: AuthContext | null,
    method: string,
    target: string,
    header: string,
  ): VerifyResult {
    if (!ctx) return { ok: false, reason: 'unknown' };
    const expected = hmacSha256Hex(ctx.session.secret, signingMessage(method, target, decoded.timestamp));
    if (!safeEqualHex(expected, decoded.signature)) return { ok: false, reason: 'signature' };
    if (this.verified.size >= CACHE_MAX) this.verified.clear();
    this.verified.set(header, {
      token: decoded.token,
      method,
      target,
      expiresAt: (decoded.timestamp + SIGNATURE_MAX_SKEW_SECONDS) * 1000,
    });
    return { ok: true, ctx };
  }

  private cachedSession(token: string, now: number): AuthContext | null {
    const cached = this.sessions.get(token);
    return cached && cached.expiresAt > now ? cached.ctx : null;
  }

  /** Drops a session from memory after it changed (sign-in, sign-out). */
  evict(token: string): void {
    this.sessions.delete(token);
  }

  private async load(token: string): Promise<AuthContext | null> {
    const now = this.now();
    const hit = this.sessions.get(token);
    if (hit && hit.expiresAt > now) return hit.ctx;
    const found = await findSessionWithUser(this.db, sha256Hex(token));
    const ctx = found ? { ...found, token } : null;
    if (this.sessions.size >= CACHE_MAX) this.sessions.clear();
    this.sessions.set(token, { ctx, expiresAt: now + SESSION_TTL_MS });
    return ctx;
  }
}

const SIGNATURE = /^[0-9a-f]{64}$/;

function decodeHeader(header: string): DecodedHeader | null {
  if (header.length > 2048) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { token, timestamp, signature } = value as Record<string, unknown>;
  if (typeof token !== 'string' || token.length === 0 || token.length > 200) return null;
  if (typeof timestamp !== 'number' || !Number.isInteger(timestamp)) return null;
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return null;
  return { token, timestamp, signature };
}
