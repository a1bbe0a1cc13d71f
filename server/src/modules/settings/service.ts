import {
  asLocale,
  DEFAULT_LOCALE,
  LOCALES,
  type Locale,
  message,
  type SmtpSettings,
  type VendorSettings,
  type VendorSettingsBody,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { badRequest, notFound } from '../../platform/errors';
import type { VendorRow } from '../../platform/http/identity';
import { OutboundRefused } from '../../platform/outbound/guard';
import { Mailer, type MailServer } from '../mail/mailer';
import { updateVendor } from '../vendors/repo';
import { readSetting, writeSetting } from './repo';

interface GeneralSetting {
  locale: Locale;
}
interface SlackSetting {
  configTokenSealed: string;
}
interface SmtpSetting {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  from: string;
  passwordSealed: string;
}

const SMTP_DEFAULTS = { host: '', port: 587, secure: false, user: '', from: '' };

function presentSmtp(stored: Partial<SmtpSetting>): SmtpSettings {
  const smtp = { ...SMTP_DEFAULTS, ...stored };
  return {
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    user: smtp.user,
    from: smtp.from,
    password_set: Boolean(stored.passwordSealed),
    configured: Boolean(smtp.host && smtp.from),
  };
}

/** The vendor's default language: its mails, and the console's for members who never chose one. */
export async function vendorLocale(ctx: AppContext, vendorId: number): Promise<Locale> {
  const general = await readSetting<GeneralSetting>(ctx.db, vendorId, 'general');
  return asLocale(general.locale) ?? DEFAULT_LOCALE;
}

export async function getSettings(ctx: AppContext, vendor: VendorRow): Promise<VendorSettings> {
  const [general, slack, smtp] = await Promise.all([
    readSetting<GeneralSetting>(ctx.db, vendor.id, 'general'),
    readSetting<SlackSetting>(ctx.db, vendor.id, 'slack'),
    readSetting<SmtpSetting>(ctx.db, vendor.id, 'smtp'),
  ]);
  return {
    name: vendor.name,
    currency: vendor.currency,
    locale: general.locale && LOCALES.includes(general.locale) ? general.locale : DEFAULT_LOCALE,
    slack: { configured: Boolean(slack.configTokenSealed) },
    smtp: presentSmtp(smtp),
  };
}

/** Applies the fields sent; secrets are sealed, `null` removes one, leaving one out keeps it. */
export async function updateSettings(
  ctx: AppContext,
  vendor: VendorRow,
  body: VendorSettingsBody,
): Promise<VendorSettings> {
  const updated = await updateVendor(ctx.db, vendor.id, {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.currency !== undefined ? { currency: body.currency } : {}),
  });
  if (!updated) throw notFound('Vendor');
  if (body.locale !== undefined) await writeSetting(ctx.db, vendor.id, 'general', { locale: body.locale });
  const token = body.slack?.config_token;
  if (token !== undefined) {
    await writeSetting(
      ctx.db,
      vendor.id,
      'slack',
      token === null ? {} : { configTokenSealed: ctx.secretBox.seal(token) },
    );
  }
  if (body.smtp) {
    const { password, ...fields } = body.smtp;
    const stored = await readSetting<SmtpSetting>(ctx.db, vendor.id, 'smtp');
    const next: Partial<SmtpSetting> = { ...SMTP_DEFAULTS, ...stored };
    for (const [key, value] of Object.entries(fields))
      if (value !== undefined) Object.assign(next, { [key]: value });
    if (password === null) delete next.passwordSealed;
    else if (password !== undefined) next.passwordSealed = ctx.secretBox.seal(password);
    await writeSetting(ctx.db, vendor.id, 'smtp', next);
  }
  return getSettings(ctx, updated);
}

/** The vendor's Slack configuration token (it creates and updates Slack apps), or null when unset. */
export async function slackConfigToken(ctx: AppContext, vendorId: number): Promise<string | null> {
  const slack = await readSetting<SlackSetting>(ctx.db, vendorId, 'slack');
  return slack.configTokenSealed ? ctx.secretBox.open(slack.configTokenSealed) : null;
}

async function vendorMailServer(
  ctx: AppContext,
  vendorId: number,
): Promise<Extract<MailServer, { host: string }> | null> {
  const stored = await readSetting<SmtpSetting>(ctx.db, vendorId, 'smtp');
  const smtp = { ...SMTP_DEFAULTS, ...stored };
  if (!smtp.host || !smtp.from) return null;
  return { ...smtp, password: stored.passwordSealed ? ctx.secretBox.open(stored.passwordSealed) : null };
}

/**
 * The instance's own mail server (`SMTP_URL`), or null. Only it carries links that set a password: the
 * operator runs it, no vendor can read what it sends (docs/adr/0023-identity-across-tenants.md).
 */
export function instanceMailer(ctx: AppContext): Mailer | null {
  return ctx.config.SMTP_URL
    ? new Mailer({ url: ctx.config.SMTP_URL, from: ctx.config.MAIL_FROM }, ctx.outbound)
    : null;
}

/** The vendor's own SMTP settings, or null: for that vendor's notifications only. */
export async function vendorMailer(ctx: AppContext, vendorId: number): Promise<Mailer | null> {
  const server = await vendorMailServer(ctx, vendorId);
  return server ? new Mailer(server, ctx.outbound) : null;
}

/** nodemailer's codes for an SMTP reply the server gave to our login, envelope or message. */
const SMTP_REFUSALS = new Set(['EAUTH', 'EENVELOPE', 'EMESSAGE']);

/**
 * Sends a test mail through the vendor's own SMTP settings. A refusal answers 400 with the server's
 * words; anything else (no SMTP server there, a closed destination) without what the other end sent,
 * so the test is no way to read other services' banners (ADR 0020).
 */
export async function sendTestMail(ctx: AppContext, vendor: VendorRow, to: string): Promise<string> {
  const server = await vendorMailServer(ctx, vendor.id);
  if (!server) throw badRequest(message('smtpNotSet'));
  try {
    await new Mailer(server, ctx.outbound).send({
      to,
      subject: `llmor: test mail for ${vendor.name}`,
      text: `This test mail was sent through ${server.host}:${server.port} for ${vendor.name}. Mail works.`,
    });
  } catch (err) {
    if (err instanceof OutboundRefused) throw badRequest(err.message);
    const { code, message: refusal } = err as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && SMTP_REFUSALS.has(code)) {
      throw badRequest(message('smtpRefused', { reason: String(refusal) }));
    }
    throw badRequest(message('smtpUnreachable', { host: `${server.host}:${server.port}` }));
  }
  return message('smtpTestSent', { to });
}
