import type Stripe from 'stripe';
import type { Config } from '../../platform/config';

/** Stripe's webhook tolerance: a signature older (or newer) than this is refused. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

let cached: { key: string; apiUrl: string | undefined; client: Stripe } | null = null;

/**
 * The official client for the configured key, or null without `STRIPE_SECRET_KEY` (billing runs
 * without Stripe). Loaded on first use; `STRIPE_API_URL` points it at another host (tests' fake).
 */
export async function stripeClient(config: Config): Promise<Stripe | null> {
  const key = config.STRIPE_SECRET_KEY;
  if (!key) return null;
  if (cached?.key === key && cached.apiUrl === config.STRIPE_API_URL) return cached.client;
  const { default: StripeSdk } = await import('stripe');
  const api = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null;
  const client = new StripeSdk(key, {
    maxNetworkRetries: 1,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
  cached = { key, apiUrl: config.STRIPE_API_URL, client };
  return client;
}

/** The `t=` of a `Stripe-Signature` header (seconds), or null. */
const signedAt = (signature: string): number | null => {
  const t = /(?:^|,)\s*t=(\d+)\s*(?:,|$)/.exec(signature)?.[1];
  return t === undefined ? null : Number(t);
};

/**
 * Verifies `Stripe-Signature` over the raw body (throws on a bad, forged or stale signature). The SDK
 * refuses signatures older than the tolerance only; one signed further in the future is refused here.
 */
export async function verifyWebhook(
  rawBody: string | Buffer,
  signature: string,
  secret: string,
  receivedAtMs: number,
): Promise<Stripe.Event> {
  const { default: StripeSdk } = await import('stripe');
  const event = StripeSdk.webhooks.constructEvent(
    rawBody,
    signature,
    secret,
    WEBHOOK_TOLERANCE_SECONDS,
    undefined,
    receivedAtMs,
  );
  const t = signedAt(signature);
  if (t === null || t - Math.floor(receivedAtMs / 1000) > WEBHOOK_TOLERANCE_SECONDS) {
    throw new Error('The signature is dated too far in the future.');
  }
  return event;
}

/** Stripe sends object references as ids or (expanded) objects. */
export const idOf = (ref: string | { id: string } | null | undefined): string | null =>
  ref == null ? null : typeof ref === 'string' ? ref : ref.id;

export const fromUnix = (seconds: number | null | undefined): Date | null =>
  seconds == null ? null : new Date(seconds * 1000);
