/**
 * Billing (docs/reference/api.md "Billing"): plans with limits, a vendor's subscriptions, invoices, the billing
 * address, usage against the limits, and Stripe (optional: without `STRIPE_SECRET_KEY` the operator
 * assigns plans in admin). Amounts are integer minor units end to end (`price_minor`, `amount_minor`).
 *
 * | call | access | request | answer |
 * | --- | --- | --- | --- |
 * | GET /v1/admin/plans | superuser | `plansQuery` | list of `AdminPlan` |
 * | POST /v1/admin/plans | superuser | `planBody` | 201 `{data: AdminPlan}` |
 * | GET/PUT /v1/admin/plans/{planId} | superuser | – / `planUpdateBody` | `{data: AdminPlan}` |
 * | GET /v1/admin/vendors/{vendorId}/subscriptions | superuser | – | list of `Subscription`, newest first |
 * | POST /v1/admin/vendors/{vendorId}/subscriptions | superuser | `subscriptionAssignBody` | 201 `{data: Subscription}` (active now, replaces the current one) |
 * | GET /v1/vendors/{vendorId}/billing/available_subs | owner | – | `{data: Plan[]}` (active plans) |
 * | POST /v1/vendors/{vendorId}/billing/to/checkout | owner | `checkoutBody` | `{data: {url}}` Stripe Checkout; 400 without Stripe |
 * | POST /v1/vendors/{vendorId}/billing/to/cancel | owner | `cancelBody` | `{data: Subscription}` (cancels at period end) |
 * | GET /v1/vendors/{vendorId}/billing/to/payment-method | owner | – | `{data: {url}}` Stripe's billing portal; 400 without Stripe |
 * | GET /v1/vendors/{vendorId}/billing/invoices | owner | `invoicesQuery` | list of `Invoice` |
 * | GET/PUT /v1/vendors/{vendorId}/billing/address | owner | – / `billingAddressBody` | `{data: BillingAddress}` |
 * | GET /v1/vendors/{vendorId}/billing/subscription_limits | owner | – | `{data: SubscriptionLimits}` |
 * | POST /v1/billing/stripe/webhook | Stripe-Signature | Stripe event | `{received: true}`; 400 bad signature |
 *
 * A vendor without a live subscription is on the plan marked `default` (unlimited without one). Limits
 * are per plan × quantity; `null` is unlimited. Requests and tokens count per period: the subscription's
 * current period, else the calendar month (UTC). Past them a send answers 402 code 60 (opening a conversation
 * too, so none is left empty); an app or member past `apps`/`members` answers 402 code 61.
 */
import { z } from 'zod';
import { COUNTRY_CODES } from '../constants';
import { ENGLISH } from '../messages-en';
import { idParam, listQuery } from './common';

export const PLAN_INTERVALS = ['month', 'year'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];
export const LIMIT_KEYS = ['requests', 'tokens', 'apps', 'members'] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** The 400 a checkout or portal call answers when the instance runs without Stripe. */
export const BILLING_NOT_CONFIGURED = ENGLISH.billingNotConfigured;

const currency = z
  .string()
  .trim()
  .regex(/^[A-Z]{3}$/, 'Use a three-letter ISO currency code, e.g. CHF');
const limitValue = z
  .number({ error: 'Enter a whole number or leave empty for unlimited' })
  .int('Enter a whole number')
  .min(0, 'At least 0')
  .max(Number.MAX_SAFE_INTEGER)
  .nullable();
const stripePriceId = z
  .string()
  .trim()
  .regex(/^price_[A-Za-z0-9]{1,120}$/, 'A Stripe price id starts with price_')
  .nullable();

const planLimitsSchema = z.object({
  requests: z.number().int().nullable(),
  tokens: z.number().int().nullable(),
  apps: z.number().int().nullable(),
  members: z.number().int().nullable(),
});
export type PlanLimits = z.infer<typeof planLimitsSchema>;

/** A plan as vendors see it (`available_subs`). */
export const planSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  price_minor: z.number().int(),
  currency: z.string(),
  interval: z.enum(PLAN_INTERVALS),
  limits: planLimitsSchema,
  /** Whether the plan can be bought through Stripe Checkout (it has a Stripe price). */
  purchasable: z.boolean(),
});
export type Plan = z.infer<typeof planSchema>;

/** A plan as the superuser edits it. */
export const adminPlanSchema = planSchema.extend({
  active: z.boolean(),
  default: z.boolean(),
  stripe_price_id: z.string().nullable(),
  created_at: z.string(),
});
export type AdminPlan = z.infer<typeof adminPlanSchema>;

export const plansQuery = listQuery(['name', 'price_minor', 'created_at']);
export type PlansQuery = z.input<typeof plansQuery>;

export const planBody = z.object({
  name: z.string({ error: 'Required' }).trim().min(1, 'Required').max(100, 'At most 100 characters'),
  description: z.string().trim().max(2000, 'At most 2000 characters').default(''),
  price_minor: z
    .number({ error: 'Enter an amount in minor units' })
    .int('Enter an amount in minor units (cents)')
    .min(0, 'At least 0')
    .max(Number.MAX_SAFE_INTEGER),
  currency,
  interval: z.enum(PLAN_INTERVALS, { error: 'Choose month or year' }),
  limits: z
    .object({
      requests: limitValue.default(null),
      tokens: limitValue.default(null),
      apps: limitValue.default(null),
      members: limitValue.default(null),
    })
    .default({ requests: null, tokens: null, apps: null, members: null }),
  active: z.boolean({ error: 'Must be true or false' }).default(true),
  default: z.boolean({ error: 'Must be true or false' }).default(false),
  stripe_price_id: stripePriceId.default(null),
});
export type PlanBody = z.input<typeof planBody>;

/** PUT: fields left out keep their value; `limits` replaces the limits it names. */
export const planUpdateBody = z.object({
  name: planBody.shape.name.optional(),
  description: z.string().trim().max(2000, 'At most 2000 characters').optional(),
  price_minor: planBody.shape.price_minor.optional(),
  currency: currency.optional(),
  interval: planBody.shape.interval.optional(),
  limits: z
    .object({
      requests: limitValue.optional(),
      tokens: limitValue.optional(),
      apps: limitValue.optional(),
      members: limitValue.optional(),
    })
    .optional(),
  active: z.boolean({ error: 'Must be true or false' }).optional(),
  default: z.boolean({ error: 'Must be true or false' }).optional(),
  stripe_price_id: stripePriceId.optional(),
});
export type PlanUpdateBody = z.input<typeof planUpdateBody>;

export const planPath = z.object({ planId: idParam });

const SUBSCRIPTION_STATUSES = [
  'active',
  'trialing',
  'past_due',
  'incomplete',
  'incomplete_expired',
  'unpaid',
  'paused',
  'canceled',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const subscriptionSchema = z.object({
  id: z.number().int(),
  plan_id: z.number().int(),
  /** The plan's name. */
  plan: z.string(),
  quantity: z.number().int(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** `stripe` when Stripe bills it, `operator` when assigned in admin. */
  managed_by: z.enum(['stripe', 'operator']),
  current_period_start: z.string().nullable(),
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  created_at: z.string(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionAssignBody = z.object({
  plan_id: z.number({ error: 'Choose a plan' }).int().positive(),
  quantity: z.number({ error: 'Enter a quantity' }).int('Enter a whole number').min(1).max(10_000).default(1),
});
export type SubscriptionAssignBody = z.input<typeof subscriptionAssignBody>;

/** `subscription_id` names the plan to buy (docs/reference/api.md). */
export const checkoutBody = z.object({
  subscription_id: z.number({ error: 'Choose a plan' }).int().positive(),
  quantity: z.number({ error: 'Enter a quantity' }).int('Enter a whole number').min(1).max(10_000).default(1),
});
export type CheckoutBody = z.input<typeof checkoutBody>;

/** `subscription_id` names the vendor's subscription to cancel at the end of its period. */
export const cancelBody = z.object({
  subscription_id: z.number({ error: 'Choose a subscription' }).int().positive(),
});
export type CancelBody = z.input<typeof cancelBody>;

export const redirectUrlSchema = z.object({ url: z.string() });
export type RedirectUrl = z.infer<typeof redirectUrlSchema>;

export const invoiceSchema = z.object({
  id: z.number().int(),
  number: z.string().nullable(),
  amount_minor: z.number().int(),
  currency: z.string(),
  status: z.string(),
  period_start: z.string().nullable(),
  period_end: z.string().nullable(),
  pdf_url: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoicesQuery = listQuery(['created_at']);
export type InvoicesQuery = z.input<typeof invoicesQuery>;

export const billingAddressSchema = z.object({
  name: z.string(),
  line1: z.string(),
  line2: z.string(),
  postal_code: z.string(),
  city: z.string(),
  state: z.string(),
  /** ISO 3166-1 alpha-2, e.g. CH. */
  country: z.string(),
});
export type BillingAddress = z.infer<typeof billingAddressSchema>;

const addressLine = (max: number) => z.string().trim().max(max, `At most ${max} characters`);
export const billingAddressBody = z.object({
  name: addressLine(200).min(1, 'Required'),
  line1: addressLine(200).min(1, 'Required'),
  line2: addressLine(200).default(''),
  postal_code: addressLine(20).min(1, 'Required'),
  city: addressLine(100).min(1, 'Required'),
  state: addressLine(100).default(''),
  country: z
    .string({ error: 'Required' })
    .trim()
    .refine((code) => COUNTRY_CODES.includes(code), ENGLISH.countryCode),
});
export type BillingAddressBody = z.input<typeof billingAddressBody>;

/** One limit and what was used: `period_*` for requests and tokens, null for apps and members (totals). */
const limitUsageSchema = z.object({
  limit: z.number().int().nullable(),
  used: z.number().int(),
  period_start: z.string().nullable(),
  period_end: z.string().nullable(),
});
export type LimitUsage = z.infer<typeof limitUsageSchema>;

export const subscriptionLimitsSchema = z.object({
  /** The plan in force (the subscription's, else the default plan); null: unlimited, no plan. */
  plan: planSchema.nullable(),
  subscription: subscriptionSchema.nullable(),
  period_start: z.string(),
  period_end: z.string(),
  /** Whether checkout and the billing portal are available (the instance has Stripe). */
  stripe: z.boolean(),
  limits: z.object({
    requests: limitUsageSchema,
    tokens: limitUsageSchema,
    apps: limitUsageSchema,
    members: limitUsageSchema,
  }),
});
export type SubscriptionLimits = z.infer<typeof subscriptionLimitsSchema>;

export const webhookAckSchema = z.object({ received: z.boolean() });
