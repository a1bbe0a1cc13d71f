import {
  CURRENCY_APP_DEFAULT,
  DEFAULT_LOCALE,
  INVALID_CREDENTIALS,
  type SessionCreated,
  type SessionUser,
  type SigninBody,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { DUMMY_PASSWORD_HASH, randomToken, sha256Hex, verifyPassword } from '../../platform/crypto';
import { forbidden, tooManyRequests, unauthorized } from '../../platform/errors';
import type { Identity } from '../../platform/http/identity';
import { mailerFor } from '../settings/service';
import { presentVendorFor, vendorFromHeader } from '../vendors/service';
import { issueLink } from './links';
import { presentUser } from './present';
import {
  attachUser,
  deleteSession,
  findUserByEmail,
  insertSession,
  membershipsOfUser,
  type UserRow,
} from './repo';
import type { SessionVerifier } from './sessions';

/**
 * Failed sign-ins allowed per window: per identifier from one address, and per address. Only failures
 * count, and the identifier's counter is per address, so nobody can lock a person out from elsewhere.
 */
export const SIGNIN_LIMITS = { perIdentifier: 10, perAddress: 50, windowSeconds: 15 * 60 };

const waitText = (seconds: number) =>
  `Too many failed sign-ins. Try again in ${seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`}.`;

export async function createSession(ctx: AppContext): Promise<SessionCreated> {
  const token = randomToken();
  const secret = randomToken();
  await insertSession(ctx.db, sha256Hex(token), secret);
  return { token, secret };
}

export async function signin(
  ctx: AppContext,
  sessions: SessionVerifier,
  auth: Identity,
  body: SigninBody,
  address: string,
): Promise<UserRow> {
  const identifier = body.identifier.toLowerCase();
  const counters = [
    [`signin:fail:${address}:${identifier}`, SIGNIN_LIMITS.perIdentifier],
    [`signin:fail:${address}`, SIGNIN_LIMITS.perAddress],
  ] as const;
  for (const [key, limit] of counters) {
    const seen = await ctx.rateLimiter.peek(key);
    if (seen.count >= limit) throw tooManyRequests(seen.retryAfter, waitText(seen.retryAfter));
  }
  const user = await findUserByEmail(ctx.db, identifier);
  // Hash even for unknown users so response time does not reveal which emails exist.
  const valid = await verifyPassword(body.secret, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !valid) {
    for (const [key, limit] of counters) await ctx.rateLimiter.hit(key, limit, SIGNIN_LIMITS.windowSeconds);
    throw unauthorized(INVALID_CREDENTIALS);
  }
  if (!user.active) throw forbidden('This user is not active.');
  await attachUser(ctx.db, auth.session.id, user.id);
  await sessions.evict(auth.token);
  return user;
}

export async function signout(ctx: AppContext, sessions: SessionVerifier, auth: Identity): Promise<void> {
  await deleteSession(ctx.db, auth.session.id);
  await sessions.evict(auth.token);
}

export async function sessionUser(
  ctx: AppContext,
  auth: Identity,
  vendorKey: string | undefined,
): Promise<SessionUser> {
  const app = {
    currency_default: CURRENCY_APP_DEFAULT,
    default_locale: DEFAULT_LOCALE,
    version: ctx.version,
  };
  const user = auth.user?.active ? auth.user : null;
  if (!user) return { app, user: null, vendor: null, vendor_client: null, authenticated: false };
  const vendor = await vendorFromHeader(ctx, { ...auth, user }, vendorKey);
  return {
    app,
    user: presentUser(user),
    vendor: vendor ? presentVendorFor(vendor, { ...auth, user }) : null,
    vendor_client: null,
    authenticated: true,
  };
}

/** Reset requests per address are limited by the route; per email here, so one inbox is not flooded. */
const RESET_MAILS_PER_HOUR = 3;

/**
 * Mails a reset link when the address belongs to an active account (through the mail server of the
 * person's first vendor, else the instance's). The caller answers the same either way.
 */
export async function forgotPassword(ctx: AppContext, email: string, requestOrigin: string): Promise<void> {
  const address = email.trim().toLowerCase();
  const hit = await ctx.rateLimiter.hit(`password:reset:${address}`, RESET_MAILS_PER_HOUR, 3600);
  if (!hit.allowed) return;
  const user = await findUserByEmail(ctx.db, address);
  if (!user?.active) return;
  const [vendorId] = (await membershipsOfUser(ctx.db, user.id)).keys();
  const mailer = await mailerFor(ctx, vendorId ?? null);
  if (!mailer) {
    ctx.log.warn({ user: user.id }, 'a password reset was asked for, but no mail server is set up');
    return;
  }
  const url = await issueLink(ctx, {
    userId: user.id,
    vendorId: null,
    purpose: 'reset',
    createdBy: null,
    origin: requestOrigin,
  });
  await mailer
    .send({
      to: user.email,
      subject: 'Reset your llmor password',
      text:
        `Open this link within an hour to choose a new password:\n${url}\n\n` +
        'If you did not ask for this, ignore this mail: your password stays as it is.',
    })
    .catch((err: unknown) => ctx.log.warn({ err }, 'the reset mail could not be sent'));
}
