/**
 * Fake Stripe API for the billing tests: a real HTTP server on 127.0.0.1 speaking Stripe's wire format
 * for exactly the calls llmor makes through the official `stripe` package (point `STRIPE_API_URL` at
 * `fake.url`):
 *
 * - `POST /v1/customers`, `POST /v1/customers/{id}` (create, update: name, address, metadata)
 * - `POST /v1/checkout/sessions` (mode `subscription`, one price line, success/cancel URLs)
 * - `GET/POST/DELETE /v1/subscriptions/{id}` (retrieve, `cancel_at_period_end`, cancel now)
 * - `POST /v1/billing_portal/sessions`
 *
 * Requests are `application/x-www-form-urlencoded` with bracket keys (`line_items[0][price]`) and carry
 * `Authorization: Bearer <key>`; answers are Stripe JSON objects, errors Stripe's
 * `{error: {type, message, code, param}}` (a wrong key 401, an unknown id 404 `resource_missing`: the
 * real protocol, not failures). Anything else — an unknown route, a parameter this fake does not know,
 * a JSON body — answers 500 and is recorded in `failures` (`expectNoFailures()`).
 *
 * State: customers, prices (`addPrice`), sessions and subscriptions live in memory. `completeCheckout`
 * turns a session into an active subscription the way Stripe does when the customer pays; `event()`
 * wraps an object as an Event and `signed()` signs it with the SDK's `generateTestHeaderString`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

type Obj = Record<string, unknown>;
type Form = { [key: string]: string | Form | Form[] | string[] };

export interface FakeRequest {
  method: string;
  path: string;
  params: Form;
}

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;

/** `a[b][0][c]=v&…` → nested objects and arrays, as Stripe reads them. */
function parseStripeForm(body: string): Form {
  const root: Form = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Obj = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      if (last) {
        node[part] = value;
        return;
      }
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Obj;
    });
  }
  return root;
}

function stripeError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  code?: string,
  param?: string,
) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
  res.end(
    JSON.stringify({ error: { type, message, ...(code ? { code } : {}), ...(param ? { param } : {}) } }),
  );
}

const ADDRESS_KEYS = ['line1', 'line2', 'postal_code', 'city', 'state', 'country'];

export class FakeStripe {
  readonly requests: FakeRequest[] = [];
  readonly failures: string[] = [];
  readonly customers = new Map<string, Obj>();
  readonly prices = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  url = '';
  private server!: Server;

  constructor(readonly apiKey = 'sk_test_fake') {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  expectNoFailures(): void {
    if (this.failures.length) throw new Error(`fake Stripe failures:\n  ${this.failures.join('\n  ')}`);
  }

  /** A recurring price the fake knows (Checkout refuses others like Stripe does). */
  addPrice(opts: {
    id?: string;
    unitAmount: number;
    currency?: string;
    interval?: 'month' | 'year';
  }): string {
    const id = opts.id ?? newId('price');
    this.prices.set(id, {
      id,
      object: 'price',
      active: true,
      billing_scheme: 'per_unit',
      created: now(),
      currency: (opts.currency ?? 'chf').toLowerCase(),
      livemode: false,
      lookup_key: null,
      metadata: {},
      nickname: null,
      product: newId('prod'),
      recurring: {
        interval: opts.interval ?? 'month',
        interval_count: 1,
        meter: null,
        usage_type: 'licensed',
      },
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: 'recurring',
      unit_amount: opts.unitAmount,
      unit_amount_decimal: String(opts.unitAmount),
    });
    return id;
  }

  /**
   * What Stripe does when the customer pays a session: an active subscription with the session's price
   * and metadata (one period from now), and the session completed. Answers both objects.
   */
  completeCheckout(sessionId: string): { session: Obj; subscription: Obj } {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`FakeStripe: no session ${sessionId}`);
    const line = (session._line_items as { price: string; quantity: number }[])[0]!;
    const price = this.prices.get(line.price)!;
    const start = now();
    const end = start + ((price.recurring as Obj).interval === 'year' ? 365 : 30) * 86_400;
    const id = newId('sub');
    const subscription: Obj = {
      id,
      object: 'subscription',
      billing_cycle_anchor: start,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      collection_method: 'charge_automatically',
      created: start,
      currency: price.currency,
      customer: session.customer,
      default_payment_method: null,
      ended_at: null,
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            created: start,
            current_period_start: start,
            current_period_end: end,
            metadata: {},
            price,
            quantity: line.quantity,
            subscription: id,
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      latest_invoice: newId('in'),
      livemode: false,
      metadata: (session._subscription_metadata as Obj) ?? {},
      start_date: start,
      status: 'active',
      trial_end: null,
      trial_start: null,
    };
    this.subscriptions.set(id, subscription);
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: id });
    return { session: this.publicSession(session), subscription };
  }

  /** A Stripe invoice of a subscription, as `invoice.*` events carry it. */
  invoiceFor(subscription: Obj, opts: { status?: 'open' | 'paid'; number?: string } = {}): Obj {
    const item = ((subscription.items as Obj).data as Obj[])[0]!;
    const price = item.price as Obj;
    const amount = (price.unit_amount as number) * (item.quantity as number);
    const id = newId('in');
    const paid = (opts.status ?? 'paid') === 'paid';
    return {
      id,
      object: 'invoice',
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      amount_remaining: paid ? 0 : amount,
      billing_reason: 'subscription_create',
      collection_method: 'charge_automatically',
      created: now(),
      currency: price.currency,
      customer: subscription.customer,
      hosted_invoice_url: `https://invoice.stripe.com/i/${id}`,
      invoice_pdf: `https://pay.stripe.com/invoice/${id}/pdf`,
      lines: {
        object: 'list',
        data: [
          {
            id: newId('il'),
            object: 'line_item',
            amount,
            currency: price.currency,
            period: { start: item.current_period_start, end: item.current_period_end },
            quantity: item.quantity,
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/invoices/${id}/lines`,
      },
      livemode: false,
      metadata: {},
      number: opts.number ?? `LLM-${String(Math.floor(Math.random() * 9999)).padStart(4, '0')}`,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { metadata: subscription.metadata, subscription: subscription.id },
      },
      period_end: item.current_period_start,
      period_start: item.current_period_start,
      status: paid ? 'paid' : 'open',
      subtotal: amount,
      total: amount,
    };
  }

  /**
   * An Event wrapping `object` (Stripe's envelope; `id` given to replay one, `created` in seconds for an
   * event that happened earlier than it is delivered).
   */
  event(type: string, object: Obj, id = newId('evt'), created = now()): Obj {
    return {
      id,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created,
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  /** The raw body and `Stripe-Signature` header Stripe would send (`timestamp` in seconds, default now). */
  signed(event: Obj, secret: string, timestamp?: number): { payload: string; signature: string } {
    const payload = JSON.stringify(event, null, 2);
    return {
      payload,
      signature: Stripe.webhooks.generateTestHeaderString({
        payload,
        secret,
        ...(timestamp !== undefined ? { timestamp } : {}),
      }),
    };
  }

  private publicSession(session: Obj): Obj {
    return Object.fromEntries(Object.entries(session).filter(([k]) => !k.startsWith('_')));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0]!;
    const method = req.method ?? '';
    const route = `${method} ${path}`;
    if (raw && !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return this.fail(res, `${route}: body is not form-encoded`);
    }
    const params = parseStripeForm(raw);
    this.requests.push({ method, path, params });
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) {
      return stripeError(res, 401, 'invalid_request_error', 'Invalid API Key provided: sk_****');
    }
    try {
      const answer = this.route(method, path, params, res);
      if (answer === undefined) return;
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': newId('req') });
      res.end(JSON.stringify(answer));
    } catch (err) {
      this.fail(res, `${route}: ${(err as Error).message}`);
    }
  }

  /** Answers the object, or undefined when it already wrote an error. Throws on anything unexpected. */
  private route(method: string, path: string, p: Form, res: ServerResponse): Obj | undefined {
    const only = (allowed: string[]) => {
      const unknown = Object.keys(p).filter((k) => !allowed.includes(k));
      if (unknown.length) throw new Error(`unexpected parameters ${unknown.join(', ')}`);
    };
    const missing = (what: string, id: string, param?: string) => {
      stripeError(res, 404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing', param);
      return undefined;
    };
    const customerPath = /^\/v1\/customers\/(\w+)$/.exec(path);
    const subscriptionPath = /^\/v1\/subscriptions\/(\w+)$/.exec(path);
    if (method === 'POST' && path === '/v1/customers') {
      only(['name', 'email', 'metadata', 'address']);
      const customer = this.customer(newId('cus'), p);
      this.customers.set(customer.id as string, customer);
      return customer;
    }
    if (method === 'POST' && customerPath) {
      const id = customerPath[1]!;
      only(['name', 'email', 'metadata', 'address']);
      const existing = this.customers.get(id);
      if (!existing) return missing('customer', id);
      const updated = this.customer(id, p, existing);
      this.customers.set(id, updated);
      return updated;
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      only([
        'mode',
        'customer',
        'client_reference_id',
        'line_items',
        'success_url',
        'cancel_url',
        'metadata',
        'subscription_data',
      ]);
      if (p.mode !== 'subscription') throw new Error(`mode ${String(p.mode)}`);
      if (!this.customers.has(p.customer as string))
        return missing('customer', p.customer as string, 'customer');
      const lines = (p.line_items as Form[]).map((l) => ({
        price: l.price as string,
        quantity: Number(l.quantity),
      }));
      for (const l of lines)
        if (!this.prices.has(l.price)) return missing('price', l.price, 'line_items[0][price]');
      const id = `cs_test_${randomBytes(24).toString('hex')}`;
      const session: Obj = {
        id,
        object: 'checkout.session',
        cancel_url: p.cancel_url,
        client_reference_id: p.client_reference_id ?? null,
        created: now(),
        currency: this.prices.get(lines[0]!.price)!.currency,
        customer: p.customer,
        expires_at: now() + 86_400,
        livemode: false,
        metadata: p.metadata ?? {},
        mode: 'subscription',
        payment_status: 'unpaid',
        status: 'open',
        subscription: null,
        success_url: p.success_url,
        url: `https://checkout.stripe.com/c/pay/${id}`,
        _line_items: lines,
        _subscription_metadata: (p.subscription_data as Form | undefined)?.metadata ?? {},
      };
      this.sessions.set(id, session);
      return this.publicSession(session);
    }
    if (subscriptionPath) {
      const id = subscriptionPath[1]!;
      const sub = this.subscriptions.get(id);
      if (method === 'GET') {
        only([]);
        return sub ?? missing('subscription', id);
      }
      if (method === 'POST') {
        only(['cancel_at_period_end']);
        if (!sub) return missing('subscription', id);
        sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
        return sub;
      }
      if (method === 'DELETE') {
        only([]);
        if (!sub) return missing('subscription', id);
        Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
        return sub;
      }
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      only(['customer', 'return_url']);
      if (!this.customers.has(p.customer as string))
        return missing('customer', p.customer as string, 'customer');
      const id = newId('bps');
      return {
        id,
        object: 'billing_portal.session',
        configuration: newId('bpc'),
        created: now(),
        customer: p.customer,
        flow: null,
        livemode: false,
        locale: null,
        on_behalf_of: null,
        return_url: p.return_url,
        url: `https://billing.stripe.com/p/session/test_${id}`,
      };
    }
    throw new Error('unexpected request');
  }

  private customer(id: string, p: Form, existing: Obj = {}): Obj {
    const address = p.address as Form | undefined;
    if (address) {
      const unknown = Object.keys(address).filter((k) => !ADDRESS_KEYS.includes(k));
      if (unknown.length) throw new Error(`unexpected address fields ${unknown.join(', ')}`);
    }
    return {
      id,
      object: 'customer',
      balance: 0,
      created: now(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: null,
      discount: null,
      email: null,
      invoice_prefix: id.slice(4, 12).toUpperCase(),
      invoice_settings: {
        custom_fields: null,
        default_payment_method: null,
        footer: null,
        rendering_options: null,
      },
      livemode: false,
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
      ...existing,
      name: (p.name as string | undefined) ?? existing.name ?? null,
      metadata: { ...((existing.metadata as Obj) ?? {}), ...((p.metadata as Obj) ?? {}) },
      address: address
        ? Object.fromEntries(ADDRESS_KEYS.map((k) => [k, (address[k] as string | undefined) || null]))
        : (existing.address ?? null),
    };
  }

  private fail(res: ServerResponse, message: string): void {
    this.failures.push(message);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    stripeError(res, 500, 'api_error', `fake Stripe: ${message}`);
  }
}
