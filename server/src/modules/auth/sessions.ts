import { SIGNATURE_MAX_SKEW_SECONDS, signingMessage } from '@llmor/contracts';
import { LRUCache } from 'lru-cache';
import type { Broadcast } from '../../platform/broadcast';
import { hmacSha256Hex, safeEqualHex, sha256Hex } from '../../platform/crypto';
import type { Db } from '../../platform/db';
import type { Identity, SessionPort, VerifyResult } from '../../platform/http/identity';
import type { RelayHub } from '../../platform/relay/hub';
import { findSessionWithUser, touchSession } from './repo';

/** How often a session's last use is written (the idle lifetime is minutes to hours: a minute is exact enough). */
const TOUCH_EVERY_MS = 60_000;

export interface SessionLifetimes {
  /** A session unused this long has ended. */
  idleMs: number;
  /** A session this old has ended, however busy. */
  maxMs: number;
  /** How long a verified session is trusted from memory before the database is asked again. */
  cacheMs: number;
}
const REVOKE_CHANNEL = 'sessions:revoke';
const CACHE_MAX = 10_000;

interface DecodedHeader {
  token: string;
  timestamp: number;
  signature: string;
}

/**
 * Verifies `X-AccessToken` headers (docs/reference/api.md). This runs on every call, so it is kept lean:
 * - sessions are cached for a few seconds by token (no database round trip per request); sign-in,
 *   sign-out, deactivating a user and changing their memberships evict the entries at once, on every
 *   instance (the broadcast is Redis pub/sub when `REDIS_URL` is set);
 * - a header already verified for the same method and target is remembered until its timestamp
 *   leaves the window, so a client's burst within one second costs one HMAC, not one per request.
 *   The memo never outlives the session's cache entry: revocation still takes effect.
 */
export class SessionVerifier implements SessionPort {
  private readonly sessions = new LRUCache<string, { identity: Identity | null; expiresAt: number }>({
    max: CACHE_MAX,
  });
  private readonly verified = new LRUCache<
    string,
    { token: string; method: string; target: string; expiresAt: number }
  >({ max: CACHE_MAX });

  constructor(
    private readonly db: Db,
    private readonly broadcast: Broadcast,
    private readonly lifetimes: SessionLifetimes,
    private readonly relay: Pick<RelayHub, 'evict'>,
    private readonly now: () => number = Date.now,
  ) {
    broadcast.subscribe(REVOKE_CHANNEL, (message) => this.dropCached(message));
  }

  /**
   * Answers without a promise when everything needed is in memory (the common case), else
   * undefined: then call `verify`, which may read the session from the database.
   */
  verifyCached(header: string | undefined, method: string, target: string): VerifyResult | undefined {
    if (!header) return { ok: false, reason: 'missing' };
    const now = this.now();
    const memo = this.verified.get(header);
    if (memo && memo.expiresAt >= now && memo.method === method && memo.target === target) {
      const identity = this.cachedSession(memo.token, now);
      if (identity) return { ok: true, identity: identity };
    }
    const decoded = decodeHeader(header);
    if (!decoded) return { ok: false, reason: 'malformed' };
    if (Math.abs(Math.floor(now / 1000) - decoded.timestamp) > SIGNATURE_MAX_SKEW_SECONDS) {
      return { ok: false, reason: 'stale' };
    }
    const cached = this.sessions.get(decoded.token);
    if (!cached || cached.expiresAt <= now) return undefined;
    return this.check(decoded, cached.identity, method, target, header);
  }

  async verify(header: string | undefined, method: string, target: string): Promise<VerifyResult> {
    const fromMemory = this.verifyCached(header, method, target);
    if (fromMemory) return fromMemory;
    const decoded = decodeHeader(header!)!; // verifyCached returned undefined: the header decoded fine
    const identity = await this.load(decoded.token);
    return this.check(decoded, identity, method, target, header!);
  }

  private check(
    decoded: DecodedHeader,
    identity: Identity | null,
    method: string,
    target: string,
    header: string,
  ): VerifyResult {
    if (!identity) return { ok: false, reason: 'unknown' };
    if (this.expired(identity)) return { ok: false, reason: 'expired' };
    const expected = hmacSha256Hex(
      identity.session.secret,
      signingMessage(method, target, decoded.timestamp),
    );
    if (!safeEqualHex(expected, decoded.signature)) return { ok: false, reason: 'signature' };
    this.verified.set(header, {
      token: decoded.token,
      method,
      target,
      expiresAt: (decoded.timestamp + SIGNATURE_MAX_SKEW_SECONDS) * 1000,
    });
    return { ok: true, identity: identity };
  }

  private cachedSession(token: string, now: number): Identity | null {
    const cached = this.sessions.get(token);
    return cached && cached.expiresAt > now && !this.expired(cached.identity) ? cached.identity : null;
  }

  /** Past its idle or absolute lifetime (the periodic sweep deletes it later). */
  private expired(identity: Identity | null): boolean {
    if (!identity) return false;
    const now = this.now();
    return (
      now - identity.session.lastSeenAt.getTime() > this.lifetimes.idleMs ||
      now - identity.session.createdAt.getTime() > this.lifetimes.maxMs
    );
  }

  /** The live identity of a session token (from memory when fresh), or null when it ended or never was. */
  async identityOf(token: string): Promise<Identity | null> {
    const identity = await this.load(token);
    return identity && !this.expired(identity) ? identity : null;
  }

  /** Drops a session from memory after it changed (sign-in, sign-out), here and on every instance. */
  async evict(token: string): Promise<void> {
    this.sessions.delete(token);
    await this.broadcast.publish(REVOKE_CHANNEL, `token:${sha256Hex(token)}`);
  }

  /**
   * Drops every cached session of a user (deactivated, removed from a vendor, role or names changed),
   * everywhere; with `sockets` (the default) their relay sockets are disconnected too, so they rejoin only
   * what they may still open.
   */
  async revokeUser(userId: number, opts: { sockets?: boolean } = {}): Promise<void> {
    this.dropCached(`user:${userId}`);
    await this.broadcast.publish(REVOKE_CHANNEL, `user:${userId}`);
    if (opts.sockets !== false) this.relay.evict('user', [userId]);
  }

  /** Ended sessions (signed out, signed out elsewhere): dropped from every instance's cache, sockets closed. */
  async revokeSessions(sessionIds: readonly number[]): Promise<void> {
    for (const id of sessionIds) {
      this.dropCached(`session:${id}`);
      await this.broadcast.publish(REVOKE_CHANNEL, `session:${id}`);
    }
    this.relay.evict('session', sessionIds);
  }

  /** `user:<id>`, `session:<id>` or `token:<sha256>`: tokens never leave the process, only their hashes. */
  private dropCached(message: string): void {
    const [kind, value] = message.split(':');
    for (const [token, entry] of this.sessions.entries()) {
      const match =
        kind === 'user'
          ? entry.identity?.user?.id === Number(value)
          : kind === 'session'
            ? entry.identity?.session.id === Number(value)
            : kind === 'token' && sha256Hex(token) === value;
      if (match) this.sessions.delete(token);
    }
  }

  private async load(token: string): Promise<Identity | null> {
    const now = this.now();
    const hit = this.sessions.get(token);
    if (hit && hit.expiresAt > now) return hit.identity;
    const found = await findSessionWithUser(this.db, sha256Hex(token));
    const identity = found ? { ...found, token } : null;
    if (identity && !this.expired(identity) && now - identity.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      const at = new Date(now);
      await touchSession(this.db, identity.session.id, at);
      identity.session = { ...identity.session, lastSeenAt: at };
    }
    this.sessions.set(token, { identity, expiresAt: now + this.lifetimes.cacheMs });
    return identity;
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
