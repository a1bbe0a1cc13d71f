import {
  dataEnvelopeSchema,
  messageResponseSchema,
  smtpTestBody,
  vendorPath,
  vendorSettingsBody,
  vendorSettingsSchema,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { inRequestLocale } from '../../platform/http/locale';
import { route } from '../../platform/http/route';
import { getSettings, sendTestMail, updateSettings } from './service';

const tags = ['settings'];
const access = { auth: 'user', vendor: 'path', role: 'owner' } as const;

/** Vendor settings (owners): name, currency, locale, the Slack configuration token, SMTP. */
export const settingsRoutes = (ctx: AppContext) => [
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/settings',
    summary: "The vendor's settings (secrets only say whether they are set)",
    tags,
    access,
    params: vendorPath,
    response: dataEnvelopeSchema(vendorSettingsSchema),
    handler: async ({ vendor }) => ({ data: await getSettings(ctx, vendor) }),
  }),
  route({
    method: 'PUT',
    url: '/v1/vendors/:vendorId/settings',
    summary: "Change the vendor's settings; secrets are write-only",
    tags,
    access,
    params: vendorPath,
    body: vendorSettingsBody,
    response: dataEnvelopeSchema(vendorSettingsSchema),
    handler: async ({ vendor, body }) => ({ data: await updateSettings(ctx, vendor, body) }),
  }),
  route({
    method: 'POST',
    url: '/v1/vendors/:vendorId/settings/smtp/test',
    summary: "Send a test mail through the vendor's SMTP server",
    tags,
    access,
    rateLimit: { bucket: 'settings:smtp-test', per: 'caller', limit: 10, windowSeconds: 60 },
    params: vendorPath,
    body: smtpTestBody,
    response: messageResponseSchema,
    errors: ['BadRequest'],
    handler: async ({ vendor, body, request }) => ({
      message: inRequestLocale(request, await sendTestMail(ctx, vendor, body.to)),
    }),
  }),
];
