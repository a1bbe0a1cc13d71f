/**
 * API clients (docs/reference/api.md "Reaching an app from outside", docs/reference/console.md "App settings: API clients"): tokens
 * that let programs outside the console talk to one app — through the conversation calls with
 * `X-VendorToken` + `X-Vendor`, or through the OpenAI-compatible endpoint with `Authorization: Bearer`.
 *
 * | call | request | answer |
 * | --- | --- | --- |
 * | GET /v1/vendors/{vendorId}/apps/{appId}/clients | `clientsQuery` | list of `ApiClient` |
 * | POST /v1/vendors/{vendorId}/apps/{appId}/clients | `clientBody` | 201 `{data: ApiClientCreated}` (`full_token` once) |
 * | GET/PUT /v1/vendors/{vendorId}/apps/{appId}/clients/{clientId} | – / `clientBody` | `{data: ApiClient}` |
 *
 * The full token (`llmor_` + 32 random bytes, base64url) is answered once; the server keeps its SHA-256
 * and its last 8 characters (`token`).
 */
import { z } from 'zod';
import { CLIENT_TOKEN_TAIL } from '../constants';
import { idParam, listQuery } from './common';

export { CLIENT_TOKEN_TAIL };
export const CLIENT_TOKEN_PREFIX = 'llmor_';
const CLIENT_ORDER_COLUMNS = ['last_used', 'requets_count', 'created_at'] as const;
export type ClientOrderColumn = (typeof CLIENT_ORDER_COLUMNS)[number];
/** Bounds of the per-client rate limit: calls per interval, interval in seconds (≤ 1 day). */
const CLIENT_RATE_LIMIT_MAX = 1_000_000;
const CLIENT_RATE_INTERVAL_MAX = 86_400;
const CLIENT_RATE_PAIR = 'Give both the limit and the interval, or neither.';

export const clientsPath = z.object({ vendorId: idParam, appId: idParam });
export const clientPath = clientsPath.extend({ clientId: idParam });

export const clientsQuery = listQuery(CLIENT_ORDER_COLUMNS);
export type ClientsQuery = z.input<typeof clientsQuery>;

const optionalPositive = (max: number) =>
  z
    .number({ error: 'Must be a whole number' })
    .int('Must be a whole number')
    .min(1, 'At least 1')
    .max(max, `At most ${max}`)
    .nullable()
    .default(null);

/** POST and PUT: a limit needs its interval (and the other way round). */
export const clientBody = z
  .object(
    {
      name: z.string({ error: 'Required' }).trim().min(1, 'Required').max(200, 'At most 200 characters'),
      active: z.boolean({ error: 'Must be true or false' }).default(true),
      request_rate_limit: optionalPositive(CLIENT_RATE_LIMIT_MAX),
      /** Seconds. */
      request_rate_interval: optionalPositive(CLIENT_RATE_INTERVAL_MAX),
    },
    { error: 'Must be an object' },
  )
  .superRefine((body, issue) => {
    if ((body.request_rate_limit === null) === (body.request_rate_interval === null)) return;
    const path = body.request_rate_limit === null ? 'request_rate_limit' : 'request_rate_interval';
    issue.addIssue({ code: 'custom', path: [path], message: CLIENT_RATE_PAIR });
  });
export type ClientBody = z.input<typeof clientBody>;

export const apiClientSchema = z.object({
  id: z.number().int(),
  vendor_id: z.number().int(),
  vendor_app_id: z.number().int(),
  active: z.boolean(),
  name: z.string().nullable(),
  /** The token's last 8 characters. */
  token: z.string(),
  last_used: z.string().nullable(),
  /** Spelt as the API spells it (docs/reference/api.md). */
  requets_count: z.number().int(),
  request_rate_limit: z.number().int().nullable(),
  request_rate_interval: z.number().int().nullable(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  modified_at: z.string().nullable(),
});
export type ApiClient = z.infer<typeof apiClientSchema>;

/** The answer of POST: the only time the full token is shown. */
export const apiClientCreatedSchema = apiClientSchema.extend({ full_token: z.string() });
export type ApiClientCreated = z.infer<typeof apiClientCreatedSchema>;
