import { z } from 'zod';
import { ENGLISH } from '../messages-en';
import { newPassword, personName } from './organisations';

/** `POST /v1/auth/session` → 201. */
export const sessionCreatedSchema = z.object({ token: z.string(), secret: z.string() });
export type SessionCreated = z.infer<typeof sessionCreatedSchema>;

export const signinBody = z.object({
  identifier: z.string().trim().min(1).max(320),
  secret: z.string().min(1).max(1024),
});
export type SigninBody = z.infer<typeof signinBody>;

export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  currency: z.string().nullable(),
  is_su: z.boolean(),
  active: z.boolean(),
  last_login: z.string().nullable(),
  created_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const vendorSchema = z.object({
  id: z.number().int(),
  key: z.string(),
  name: z.string(),
  currency: z.string(),
  created_at: z.string(),
  /** The signed-in user's role in this vendor (a superuser acts as owner everywhere). */
  role: z.enum(['owner', 'member']),
  /** Whether the signed-in person belongs to the vendor (a superuser acts in vendors they do not). */
  member: z.boolean(),
});
export type Vendor = z.infer<typeof vendorSchema>;

const appConfigSchema = z.object({
  currency_default: z.string(),
  default_locale: z.string(),
  version: z.string(),
  /** The instance has a mail server (SMTP_URL): password-reset links can be mailed. */
  instance_mail: z.boolean(),
});
export type AppConfig = z.infer<typeof appConfigSchema>;

export const sessionUserSchema = z.object({
  app: appConfigSchema,
  user: userSchema.nullable(),
  vendor: vendorSchema.nullable(),
  vendor_client: z.null(),
  authenticated: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

// ---------------------------------------------------------------------------------------------------
// The signed-in person's own account: names, password, sessions (GET/PUT /v1/account,
// POST /v1/account/password, GET /v1/account/sessions, POST /v1/account/sessions/signout-others).
// ---------------------------------------------------------------------------------------------------

export const CURRENT_PASSWORD_WRONG = ENGLISH.currentPasswordWrong;

export const accountUpdateBody = z.strictObject({
  firstname: personName.optional(),
  lastname: personName.optional(),
});
export type AccountUpdateBody = z.infer<typeof accountUpdateBody>;

/** A password change signs every other session of the person out. */
export const passwordChangeBody = z.object({
  current_password: z.string().min(1, 'Required').max(1024),
  password: newPassword,
});
export type PasswordChangeBody = z.infer<typeof passwordChangeBody>;

export const accountSessionSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  last_seen_at: z.string(),
  /** The session this request was signed with. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

/** How many other sessions were signed out. */
export const sessionsEndedSchema = z.object({ ended: z.number().int() });
export type SessionsEnded = z.infer<typeof sessionsEndedSchema>;
