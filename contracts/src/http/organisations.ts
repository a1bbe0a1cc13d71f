/**
 * Organisations (docs/reference/api.md "Organisations"): vendors administered by superusers, a vendor's members with
 * roles and invitations, vendor settings (SMTP, Slack configuration token), and the single-use links that
 * invitations and password resets mail.
 *
 * | call | access | request | answer |
 * | --- | --- | --- | --- |
 * | GET /v1/admin/vendors | superuser | `adminVendorsQuery` | list of `AdminVendor` |
 * | POST /v1/admin/vendors | superuser | `adminVendorCreateBody` | 201 `AdminVendorCreated` (owner invited) |
 * | GET/PUT /v1/admin/vendors/{vendorId} | superuser | – / `adminVendorUpdateBody` | `{data: AdminVendor}` |
 * | GET /v1/admin/vendors/{vendorId}/subscriptions | superuser | – | list of `Subscription` (billing.ts) |
 * | GET /v1/vendors/{vendorId}/users | owner | `membersQuery` | list of `Member` |
 * | POST /v1/vendors/{vendorId}/users | owner | `memberInviteBody` | 201 `MemberInvited` |
 * | GET/PUT/DELETE /v1/vendors/{vendorId}/users/{userId} | owner | – / `memberUpdateBody` | `{data: Member}` / 204 |
 * | POST /v1/vendors/{vendorId}/users/{userId}/invitation | owner | – | `MemberInvited` (a new link) |
 * | GET /v1/account/invitations | user | – | `{data: PendingInvitation[]}` (the person's own) |
 * | POST /v1/account/invitations/{vendorId}/accept | user | – | `{data: PendingInvitation}`, joined |
 * | DELETE /v1/account/invitations/{vendorId} | user | – | 204, declined |
 * | GET/PUT /v1/vendors/{vendorId}/settings | owner | – / `vendorSettingsBody` | `{data: VendorSettings}` |
 * | POST /v1/vendors/{vendorId}/settings/smtp/test | owner | `smtpTestBody` | `{message}` or 400 with the server's error |
 * | GET /v1/auth/links/{token} | session | – | `{data: LinkInfo}` (what the link is for) |
 * | POST /v1/auth/invitations/accept | session | `invitationAcceptBody` | `{data: User}`: joined, the session signed in |
 * | POST /v1/auth/password/forgot | session | `passwordForgotBody` | 202 `{message}` (the same whether or not the address exists) |
 * | POST /v1/auth/password/reset | session | `passwordResetBody` | `{data: User}`, the session signed in |
 *
 * Membership needs consent: an invitation stays pending until the person accepts it — with a link that may
 * set their first password (`action: 'set_password'`), or signed in as that person. A vendor edits only the
 * membership (role, active); a person's names and password are their own (`/v1/account`, auth.ts).
 *
 * A member calling an owner route, or anyone but a superuser calling an admin route, gets 404. The last
 * owner of a vendor cannot be demoted, deactivated or removed (409). Unknown, used, expired or tampered
 * links answer 400 `This link is invalid or has expired.` and change nothing.
 */
import { z } from 'zod';
import { LOCALES } from '../constants';
import { ENGLISH, english } from '../messages-en';
import { listQuery } from './common';

export const MEMBER_ROLES = ['owner', 'member'] as const;

/** Invitation links are valid 7 days, reset links 1 hour. */
export const INVITATION_TTL_HOURS = 7 * 24;
export const PASSWORD_RESET_TTL_MINUTES = 60;
const PASSWORD_MIN_LENGTH = 8;
export const LINK_INVALID = ENGLISH.linkInvalid;
export const LAST_OWNER = ENGLISH.lastOwner;
export const ALREADY_MEMBER = ENGLISH.alreadyMember;
/** A link that may not set a password, used by someone not signed in as the person it invites. */
export const INVITATION_SIGN_IN = ENGLISH.invitationSignIn;
/** Answered to every forgot-password request, so it does not tell which addresses exist. */
export const PASSWORD_FORGOT_ANSWER = ENGLISH.resetRequested;

const email = z.email(ENGLISH.validEmail).max(320);
export const personName = z
  .string()
  .trim()
  .max(100, english('atMostCharacters', { limit: 100 }));
const currency = z
  .string()
  .trim()
  .regex(/^[A-Z]{3}$/, ENGLISH.currencyCode);
const vendorName = z
  .string()
  .trim()
  .min(1, ENGLISH.required)
  .max(200, english('atMostCharacters', { limit: 200 }));
export const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `At least ${PASSWORD_MIN_LENGTH} characters`)
  .max(1024, english('atMostCharacters', { limit: 1024 }));
const linkToken = z.string().regex(/^[A-Za-z0-9_-]{20,128}$/, LINK_INVALID);

// ---------------------------------------------------------------------------------------------------
// Admin: vendors
// ---------------------------------------------------------------------------------------------------

const ADMIN_VENDOR_ORDER_COLUMNS = ['name', 'key', 'created_at', 'member_count', 'app_count'] as const;
export const adminVendorsQuery = listQuery(ADMIN_VENDOR_ORDER_COLUMNS).extend({
  search: z.string().trim().max(200).optional(),
});
export type AdminVendorsQuery = z.input<typeof adminVendorsQuery>;

export const adminVendorCreateBody = z.object({
  key: z
    .string({ error: ENGLISH.required })
    .trim()
    .regex(/^[a-z0-9][a-z0-9_-]{1,49}$/, ENGLISH.vendorKeyShape),
  name: vendorName,
  currency,
  owner_email: email,
});
export type AdminVendorCreateBody = z.input<typeof adminVendorCreateBody>;

export const adminVendorUpdateBody = z.object({
  name: vendorName.optional(),
  currency: currency.optional(),
  active: z.boolean({ error: 'Must be true or false' }).optional(),
});
export type AdminVendorUpdateBody = z.input<typeof adminVendorUpdateBody>;

export const adminVendorSchema = z.object({
  id: z.number().int(),
  key: z.string(),
  name: z.string(),
  currency: z.string(),
  active: z.boolean(),
  created_at: z.string(),
  member_count: z.number().int(),
  app_count: z.number().int(),
  /** The name of the plan in force (the subscription's, else the default plan), null without one. */
  plan: z.string().nullable(),
});
export type AdminVendor = z.infer<typeof adminVendorSchema>;

/** `invite_url` only when no mail server could send the invitation (shown once to the inviter). */
export const adminVendorCreatedSchema = z.object({
  data: adminVendorSchema,
  invite_url: z.string().optional(),
});
export type AdminVendorCreated = z.infer<typeof adminVendorCreatedSchema>;

// ---------------------------------------------------------------------------------------------------
// Members
// ---------------------------------------------------------------------------------------------------

const MEMBER_ORDER_COLUMNS = ['email', 'firstname', 'lastname', 'role', 'created_at', 'last_login'] as const;
export const membersQuery = listQuery(MEMBER_ORDER_COLUMNS).extend({
  search: z.string().trim().max(200).optional(),
});
export type MembersQuery = z.input<typeof membersQuery>;

export const memberInviteBody = z.object({
  email,
  firstname: personName.optional(),
  lastname: personName.optional(),
  role: z.enum(MEMBER_ROLES, { error: ENGLISH.chooseRole }),
});
export type MemberInviteBody = z.input<typeof memberInviteBody>;

/** A vendor changes only the membership; the person's names are theirs (`PUT /v1/account`). */
export const memberUpdateBody = z.strictObject({
  role: z.enum(MEMBER_ROLES, { error: ENGLISH.chooseRole }).optional(),
  active: z.boolean({ error: 'Must be true or false' }).optional(),
});
export type MemberUpdateBody = z.input<typeof memberUpdateBody>;

export const memberSchema = z.object({
  id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  role: z.enum(MEMBER_ROLES),
  active: z.boolean(),
  /**
   * True while the invitation is pending; then the names are those the inviter typed and `last_login` is
   * null, so an invitation tells nothing about the account behind the address.
   */
  invited: z.boolean(),
  last_login: z.string().nullable(),
  created_at: z.string(),
});
export type Member = z.infer<typeof memberSchema>;

export const memberInvitedSchema = z.object({
  data: memberSchema,
  /**
   * Only when the instance's mail server did not carry the invitation: the link, shown once to the inviter.
   * Such a link may create a new account only; for an address that has one, it accepts while signed in.
   */
  invite_url: z.string().optional(),
});
export type MemberInvited = z.infer<typeof memberInvitedSchema>;

// ---------------------------------------------------------------------------------------------------
// Vendor settings
// ---------------------------------------------------------------------------------------------------

const smtpSettingsSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  secure: z.boolean(),
  user: z.string(),
  from: z.string(),
  /** Whether a password is stored (it is never sent back). */
  password_set: z.boolean(),
  /** Whether mail goes through this server (a host and a from address are set). */
  configured: z.boolean(),
});
export type SmtpSettings = z.infer<typeof smtpSettingsSchema>;

export const vendorSettingsSchema = z.object({
  name: z.string(),
  currency: z.string(),
  locale: z.enum(LOCALES),
  slack: z.object({ configured: z.boolean() }),
  smtp: smtpSettingsSchema,
});
export type VendorSettings = z.infer<typeof vendorSettingsSchema>;

/** The SMTP part of vendor settings (also the Mail form's own schema): fields left out keep their value. */
export const smtpSettingsBody = z.object({
  host: z
    .string()
    .trim()
    .max(253)
    .regex(/^[A-Za-z0-9.-]*$/, 'Enter a host name')
    .optional(),
  port: z.number({ error: 'Enter a port' }).int().min(1).max(65535).optional(),
  secure: z.boolean().optional(),
  user: z.string().max(320).optional(),
  password: z.string().max(1024).nullable().optional(),
  from: z.union([z.literal(''), email], { error: ENGLISH.validEmail }).optional(),
});

/**
 * PUT …/settings: fields left out keep their value. Secrets (`slack.config_token`, `smtp.password`) are
 * write-only: a string replaces the stored one, `null` removes it.
 */
export const vendorSettingsBody = z.object({
  name: vendorName.optional(),
  currency: currency.optional(),
  locale: z.enum(LOCALES, { error: ENGLISH.unknownLocale }).optional(),
  slack: z.object({ config_token: z.string().trim().min(1).max(500).nullable().optional() }).optional(),
  smtp: smtpSettingsBody.optional(),
});
export type VendorSettingsBody = z.input<typeof vendorSettingsBody>;

export const smtpTestBody = z.object({ to: email });
export type SmtpTestBody = z.input<typeof smtpTestBody>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

// ---------------------------------------------------------------------------------------------------
// Links: invitations and password resets
// ---------------------------------------------------------------------------------------------------

const LINK_PURPOSES = ['invite', 'reset'] as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[number];

export const linkTokenParam = z.object({ token: linkToken });

/** What using a link does: choose a password (a reset, a new account's invitation) or accept signed in. */
const LINK_ACTIONS = ['set_password', 'sign_in'] as const;

export const linkInfoSchema = z.object({
  purpose: z.enum(LINK_PURPOSES),
  action: z.enum(LINK_ACTIONS),
  email: z.string(),
  /** Prefilled names: the person's own, or for a new account those the inviter typed. */
  firstname: z.string(),
  lastname: z.string(),
  /** The vendor an invitation is for. */
  vendor_name: z.string().nullable(),
});
export type LinkInfo = z.infer<typeof linkInfoSchema>;

/**
 * Accepts an invitation: signed in as the invited person, the token alone; otherwise, for a link whose
 * action is `set_password`, the new password (and names) too.
 */
export const invitationAcceptBody = z.object({
  token: linkToken,
  password: newPassword.optional(),
  firstname: personName.optional(),
  lastname: personName.optional(),
});
export type InvitationAcceptBody = z.input<typeof invitationAcceptBody>;

export const pendingInvitationSchema = z.object({
  vendor_id: z.number().int(),
  vendor_name: z.string(),
  role: z.enum(MEMBER_ROLES),
  created_at: z.string(),
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;

export const passwordForgotBody = z.object({ email });
export type PasswordForgotBody = z.input<typeof passwordForgotBody>;

export const passwordResetBody = z.object({ token: linkToken, password: newPassword });
export type PasswordResetBody = z.input<typeof passwordResetBody>;
