import type { ErrorBody, ErrorName, FieldErrors } from '@llmor/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../config';
import type { NotFoundThing } from '../errors';
import type { AppRow, Identity, MemberRole, Outsider, SignedIn, VendorRow } from './identity';

/**
 * Who may call a route:
 * - `none`: public; `session`: a signed session (signed in or not); `user`: a signed-in user;
 *   `superuser`: a signed-in superuser (anyone else: 404, so admin routes do not leak).
 * - `vendor`: the route acts in one vendor, named by the path's `:vendorId` or the `X-Vendor` header;
 *   the user must belong to it (a superuser may act in any), else 404. `role: 'owner'` also refuses
 *   members with 404. `app: 'path'`: the path's `:appId` names an app of that vendor, resolved before
 *   validation like the vendor; the handler gets its row as `app`, and any other id answers 404 `App not found`.
 * - `outsiders: true`: outside callers (API clients, embeds; `PipelinePorts.outsiders`) may call it too,
 *   in the vendor their credential belongs to; the handler gets `outsider` (else `identity`).
 * - `bearer`: outside callers only, by `Authorization: Bearer <token>` (the OpenAI-compatible endpoint).
 */
export type Access =
  | { auth: 'none' | 'session' | 'user' | 'superuser' }
  | { auth: 'user'; vendor: 'path' | 'header'; role?: MemberRole; app?: 'path' }
  | { auth: 'user'; vendor: 'header'; outsiders: true }
  | { auth: 'bearer' };

/**
 * A fixed-window limit. `per: 'address'` runs before authentication (public calls such as sign-in);
 * `per: 'caller'` runs right after it, keyed by the signed-in user (else the session).
 */
export interface RateLimit {
  bucket: string;
  per: 'address' | 'caller';
  limit: number | ((config: Config) => number);
  windowSeconds: number;
}

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;
type Answer<R> = R extends Schema ? z.output<R> : unknown;

type Who<A extends Access> = A extends { outsiders: true }
  ? { identity: SignedIn | null; outsider: Outsider | null }
  : A['auth'] extends 'bearer'
    ? { identity: null; outsider: Outsider }
    : A['auth'] extends 'none'
      ? { identity: null }
      : A['auth'] extends 'session'
        ? { identity: Identity }
        : { identity: SignedIn };
type Tenancy<A extends Access> = A extends { outsiders: true }
  ? { vendor: VendorRow; role: MemberRole | null }
  : A extends { vendor: 'path' | 'header' }
    ? { vendor: VendorRow; role: MemberRole } & (A extends { app: 'path' } ? { app: AppRow } : unknown)
    : unknown;

/** What a handler receives: typed, validated and authorized input. */
type RouteInput<A extends Access, P, Q, B> = Who<A> &
  Tenancy<A> & {
    params: Out<P>;
    query: Out<Q>;
    body: Out<B>;
    request: FastifyRequest;
    reply: FastifyReply;
  };

type SuccessStatus = 200 | 201 | 202 | 204;

export interface RouteSpec<
  A extends Access = Access,
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  R extends Schema | undefined = Schema | undefined,
  L = unknown,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** One line for the API reference. */
  summary: string;
  tags: string[];
  access: A;
  rateLimit?: RateLimit;
  params?: P;
  query?: Q;
  body?: B;
  /** Which thing an unparseable path id names: `/apps/abc` answers 404 `App not found`. */
  resource?: NotFoundThing;
  /** Success status (default 200, or 204 when there is no response schema). */
  status?: SuccessStatus;
  response?: R;
  /** Errors beyond those the pipeline implies (401, 404 for tenancy, 400 for input, 429 for limits). */
  errors?: ErrorName[];
  /** Maps body validation issues to the documented field-error keys (docs/reference/rules.md) where they are not the plain paths. */
  bodyErrors?: (issues: readonly z.core.$ZodIssue[], body: unknown) => FieldErrors;
  /**
   * Errors in another wire shape than `{name, message, code?, errors?}` (the OpenAI-compatible endpoint):
   * its schema for the API reference, and how a standard error body becomes it.
   */
  errorShape?: { schema: z.ZodType; present(body: ErrorBody, status: number): unknown };
  /** Keep the raw request body (`request.rawBody`) for signature checks. */
  rawBody?: boolean;
  /** Largest body in bytes (default the server's 1 MiB); a larger one answers 413 naming the limit. */
  bodyLimit?: number;
  /**
   * Answers that are not JSON, by media type with the statuses that come in it (the API reference):
   * `{'text/event-stream': [200]}` for a streamed answer.
   */
  mediaTypes?: Record<string, number[]>;
  /**
   * With `access.vendor: 'header'`: reads the `X-Vendor` vendor by its key together with what the handler
   * reads first (one statement instead of two, docs/adr/0046); `params` are not validated yet. The
   * pipeline checks the vendor exactly as without it (active, the user's membership and role, else 404)
   * and only then hands `loaded` to the handler. An outside caller's vendor comes with its credential:
   * its handler gets `loaded: undefined` and reads for itself.
   */
  vendorWith?: (key: string, params: unknown) => Promise<{ vendor: VendorRow | null; loaded: L }>;
  /** Answers the response schema's output; a route without one answers its value as-is (or 204). */
  handler: (input: RouteInput<A, P, Q, B> & { loaded: L | undefined }) => Promise<Answer<R>> | Answer<R>;
}

/**
 * Declares a route: `route({...})` keeps the declaration's literal types so the handler's input is
 * typed from its access rule and schemas. Register a module's list with `Pipeline.register`.
 */
export function route<
  const A extends Access,
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Schema | undefined = undefined,
  L = undefined,
>(spec: RouteSpec<A, P, Q, B, R, L>): RouteSpec {
  return spec as unknown as RouteSpec;
}
