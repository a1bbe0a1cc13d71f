import {
  type AccountSession,
  type AccountUpdateBody,
  CURRENCY_APP_DEFAULT,
  CURRENT_PASSWORD_WRONG,
  DEFAULT_LOCALE,
  INVALID_CREDENTIALS,
  message,
  type PasswordChangeBody,
  type PasswordResetBody,
  type SessionCreated,
  type SessionUser,
  type SigninBody,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import {
  DUMMY_PASSWORD_HASH,
  hashPassword,
  randomToken,
  sha256Hex,
  verifyPassword,
} from '../../platform/crypto';
import { forbidden, tooManyRequests, unauthorized, validationError } from '../../platform/errors';
import type { Identity, SignedIn } from '../../platform/http/identity';
import { job } from '../../platform/queue';
import { instanceMailer, vendorLocale } from '../settings/service';
import { presentVendorFor } from '../vendors/present';
import { vendorFromHeader } from '../vendors/service';
import { issueLink, spendLink } from './links';
import { presentUser } from './present';
import {
  attachUser,
  deleteExpiredSessions,
  deleteOtherSessions,
  deleteSession,
  findUserByEmail,
  findUserById,
  insertSession,
  listUserSessions,
  type UserRow,
  updateUser,
} from './repo';
import type { SessionVerifier } from './sessions';

/**
 * Sign-in throttling (docs/adr/0023-identity-across-tenants.md). Only failures count, and addresses are the
 * socket's unless TRUST_PROXY names the proxies:
 * - per identifier and address: after `freeFailures`, each further try waits twice as long as the last
 *   (from 1 s up to `maxDelaySeconds`) — a guesser at one address gets a handful of tries an hour;
 * - per address: `perAddress` failures over any identifiers stop that address (password spraying);
 * - per identifier: past `perIdentifier` failures from anywhere, only addresses this person signed in from
 *   before may try — a correct password from a known address always passes, so nobody can lock a person
 *   out from elsewhere.
 */
export const SIGNIN_LIMITS = {
  freeFailures: 5,
  maxDelaySeconds: 15 * 60,
  perAddress: 50,
  perIdentifier: 100,
  windowSeconds: 60 * 60,
  knownAddressSeconds: 30 * 24 * 3600,
};

const waitText = (seconds: number) =>
  seconds < 90
    ? message('signinWaitSeconds', { count: seconds })
    : message('signinWaitMinutes', { count: Math.ceil(seconds / 60) });

/** The rate limiter's keys of one sign-in attempt. */
function signinKeys(identifier: string, address: string) {
  return {
    pairFailures: `signin:fail:${identifier}:${address}`,
    pairWait: `signin:wait:${identifier}:${address}`,
    addressFailures: `signin:fail-address:${address}`,
    identifierFailures: `signin:fail-identifier:${identifier}`,
    knownAddress: `signin:known:${identifier}:${address}`,
  };
}

/** Refuses the attempt (429) while a limit holds for this identifier at this address. */
async function throttleSignin(ctx: AppContext, keys: ReturnType<typeof signinKeys>): Promise<void> {
  const [perAddress, wait, perIdentifier] = await Promise.all([
    ctx.rateLimiter.peek(keys.addressFailures),
    ctx.rateLimiter.peek(keys.pairWait),
    ctx.rateLimiter.peek(keys.identifierFailures),
  ]);
  if (perAddress.count >= SIGNIN_LIMITS.perAddress) {
    throw tooManyRequests(perAddress.retryAfter, waitText(perAddress.retryAfter));
  }
  if (wait.count > 0) throw tooManyRequests(wait.retryAfter, waitText(wait.retryAfter));
  if (perIdentifier.count >= SIGNIN_LIMITS.perIdentifier) {
    const known = await ctx.rateLimiter.peek(keys.knownAddress);
    if (known.count === 0)
      throw tooManyRequests(perIdentifier.retryAfter, waitText(perIdentifier.retryAfter));
  }
}

async function recordFailedSignin(ctx: AppContext, keys: ReturnType<typeof signinKeys>): Promise<void> {
  const { windowSeconds } = SIGNIN_LIMITS;
  await ctx.rateLimiter.hit(keys.addressFailures, SIGNIN_LIMITS.perAddress, windowSeconds);
  await ctx.rateLimiter.hit(keys.identifierFailures, SIGNIN_LIMITS.perIdentifier, windowSeconds);
  await ctx.rateLimiter.hit(keys.pairFailures, SIGNIN_LIMITS.freeFailures, windowSeconds);
  const failures = (await ctx.rateLimiter.peek(keys.pairFailures)).count;
  if (failures >= SIGNIN_LIMITS.freeFailures) {
    const delay = Math.min(2 ** (failures - SIGNIN_LIMITS.freeFailures), SIGNIN_LIMITS.maxDelaySeconds);
    await ctx.rateLimiter.reset(keys.pairWait);
    await ctx.rateLimiter.hit(keys.pairWait, 1, delay);
  }
}

async function recordSignin(ctx: AppContext, keys: ReturnType<typeof signinKeys>): Promise<void> {
  await Promise.all([ctx.rateLimiter.reset(keys.pairFailures), ctx.rateLimiter.reset(keys.pairWait)]);
  await ctx.rateLimiter.hit(keys.knownAddress, 1, SIGNIN_LIMITS.knownAddressSeconds);
}

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
  const keys = signinKeys(identifier, address);
  await throttleSignin(ctx, keys);
  const user = await findUserByEmail(ctx.db, identifier);
  // Hash even for unknown users so response time does not reveal which emails exist.
  const valid = await verifyPassword(body.secret, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !valid) {
    await recordFailedSignin(ctx, keys);
    throw unauthorized(INVALID_CREDENTIALS);
  }
  await recordSignin(ctx, keys);
  if (!user.active) throw forbidden(message('userInactive'));
  await attachUser(ctx.db, auth.session.id, user.id);
  await sessions.evict(auth.token);
  return user;
}

export async function signout(ctx: AppContext, sessions: SessionVerifier, auth: Identity): Promise<void> {
  await deleteSession(ctx.db, auth.session.id);
  // Dropped from every instance's cache by its id, and its relay sockets closed.
  await sessions.revokeSessions([auth.session.id]);
}

export async function sessionUser(
  ctx: AppContext,
  auth: Identity,
  vendorKey: string | undefined,
): Promise<SessionUser> {
  const app = {
    currency_default: CURRENCY_APP_DEFAULT,
    default_locale: DEFAULT_LOCALE as string,
    version: ctx.version,
    instance_mail: ctx.config.SMTP_URL !== undefined,
  };
  const user = auth.user?.active ? auth.user : null;
  if (!user) return { app, user: null, vendor: null, vendor_client: null, authenticated: false };
  const vendor = await vendorFromHeader(ctx, { ...auth, user }, vendorKey);
  // Members who never chose a language get the selected vendor's default (Settings → Vendor).
  if (vendor) app.default_locale = await vendorLocale(ctx, vendor.id);
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
 * Mails a reset link when the address belongs to an active account — only through the instance's own mail
 * server: a link that sets a password never travels through a vendor's SMTP settings, which the vendor
 * controls. The caller answers the same either way.
 */
export async function forgotPassword(ctx: AppContext, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  const hit = await ctx.rateLimiter.hit(`password:reset:${address}`, RESET_MAILS_PER_HOUR, 3600);
  if (!hit.allowed) return;
  const user = await findUserByEmail(ctx.db, address);
  if (!user?.active) return;
  const mailer = instanceMailer(ctx);
  if (!mailer) {
    ctx.log.warn({ user: user.id }, 'a password reset was asked for, but the instance has no mail server');
    return;
  }
  const url = await issueLink(ctx, {
    userId: user.id,
    vendorId: null,
    purpose: 'reset',
    createdBy: null,
    setsPassword: true,
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

/**
 * Signs a person out everywhere but `keepSessionId` (null: everywhere): the sessions are deleted, every
 * instance drops them from its cache, and their relay sockets are disconnected.
 */
export async function signOutOtherSessions(
  ctx: AppContext,
  sessions: SessionVerifier,
  userId: number,
  keepSessionId: number | null,
): Promise<number> {
  const ended = await deleteOtherSessions(ctx.db, userId, keepSessionId);
  await sessions.revokeSessions(ended);
  return ended.length;
}

/** Sets a new password with a reset link, signs this session in and every other session of the person out. */
export async function resetPassword(
  ctx: AppContext,
  sessions: SessionVerifier,
  identity: Identity,
  body: PasswordResetBody,
): Promise<UserRow> {
  const passwordHash = await hashPassword(body.password);
  const person = await spendLink(ctx, body.token, 'reset', async (_link, person, tx) => {
    await updateUser(tx, person.id, { passwordHash });
    await attachUser(tx, identity.session.id, person.id);
    return person;
  });
  await sessions.evict(identity.token);
  await signOutOtherSessions(ctx, sessions, person.id, identity.session.id);
  return (await findUserById(ctx.db, person.id)) ?? person;
}

/** The signed-in person's own names (a vendor never changes them). */
export async function updateAccount(
  ctx: AppContext,
  sessions: SessionVerifier,
  identity: SignedIn,
  body: AccountUpdateBody,
): Promise<UserRow> {
  await updateUser(ctx.db, identity.user.id, body);
  await sessions.revokeUser(identity.user.id, { sockets: false });
  return (await findUserById(ctx.db, identity.user.id)) ?? identity.user;
}

/** Changes the password (the current one proves it is the person) and signs every other session out. */
export async function changePassword(
  ctx: AppContext,
  sessions: SessionVerifier,
  identity: SignedIn,
  body: PasswordChangeBody,
): Promise<number> {
  if (!(await verifyPassword(body.current_password, identity.user.passwordHash))) {
    throw validationError({ current_password: CURRENT_PASSWORD_WRONG }, CURRENT_PASSWORD_WRONG);
  }
  await updateUser(ctx.db, identity.user.id, { passwordHash: await hashPassword(body.password) });
  return signOutOtherSessions(ctx, sessions, identity.user.id, identity.session.id);
}

export async function listAccountSessions(ctx: AppContext, identity: SignedIn): Promise<AccountSession[]> {
  const rows = await listUserSessions(ctx.db, identity.user.id);
  return rows.map((row) => ({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    current: row.id === identity.session.id,
  }));
}

/** Expired sessions are deleted by a periodic job, so the table holds only live ones. */
export const sessionJobs = (ctx: AppContext) => [
  job({
    name: 'session-sweep',
    cron: '17 * * * *',
    retryLimit: 0,
    handler: async () => {
      const now = Date.now();
      const deleted = await deleteExpiredSessions(
        ctx.db,
        new Date(now - ctx.config.SESSION_IDLE_MINUTES * 60_000),
        new Date(now - ctx.config.SESSION_MAX_DAYS * 86_400_000),
      );
      return { deleted };
    },
  }),
];
