import {
  type ErrorBody,
  ErrorName,
  errorBodySchema,
  INVALID_ACCESS_TOKEN,
  idParam,
  type JsonInputProblem,
  jsonInputProblem,
  message,
} from '@llmor/contracts';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preParsingHookHandler,
  preValidationHookHandler,
} from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config';
import { databaseFaultError } from '../db/faults';
import { AppError, badRequest, notFound, tooManyRequests, unauthorized, validationError } from '../errors';
import type { RateLimiter } from '../rate-limit';
import { fieldErrors } from '../validate';
import { errorStatus, statusErrorName } from './errors';
import {
  type AppRow,
  type Identity,
  type MemberRole,
  type Outsider,
  type PipelinePorts,
  roleIn,
  type SignedIn,
  type VendorRow,
} from './identity';
import { localizeErrorBody, requestLocale } from './locale';
import type { Access, RouteSpec } from './route';
import { receiveUpload } from './upload-body';

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity | null;
    /** An outside caller (API client, embed) on routes that take them. */
    outsider: Outsider | null;
    tenant: { vendor: VendorRow; role: MemberRole } | null;
    /** The app the path names, on routes declaring `access.app` (resolved with the tenant). */
    ownedApp: AppRow | null;
    /** What a route's `vendorWith` read with the tenant, once the tenant was accepted. */
    vendorLoaded: unknown;
    /** The caller's rate limit, asked in onRequest and awaited before the body is parsed. */
    pendingLimit: Promise<void> | null;
    /** The vendor's read, started in onRequest and checked in preValidation (null: nothing to read). */
    pendingVendor: Promise<VendorRead> | null;
    /** The body as received, for routes declared with `rawBody: true` (signature checks). */
    rawBody?: string;
  }
  interface FastifyContextConfig {
    route?: RouteSpec;
  }
}

const FAILURE_TEXT = {
  missing: `${INVALID_ACCESS_TOKEN}: the X-AccessToken header is missing`,
  malformed: `${INVALID_ACCESS_TOKEN}: the X-AccessToken header cannot be decoded`,
  stale: `${INVALID_ACCESS_TOKEN}: the timestamp is outside the allowed window`,
  unknown: `${INVALID_ACCESS_TOKEN}: the session does not exist`,
  expired: `${INVALID_ACCESS_TOKEN}: the session has expired; sign in again`,
  signature: `${INVALID_ACCESS_TOKEN}: the signature does not match`,
} as const;

/** A request part (params, querystring, body) that failed its schema. */
class InputError extends Error {
  constructor(
    readonly part: string,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super('The request is invalid.');
  }
}

/** The vendor a request names, with what a route's `vendorWith` read beside it. */
interface VendorRead {
  vendor: VendorRow | null;
  loaded?: unknown;
}

/** Marks a promise awaited later as handled, so a request that ends before awaiting it leaves no unhandled rejection. */
function started<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

export interface PipelineOptions {
  config: Config;
  rateLimiter: RateLimiter;
  ports: PipelinePorts;
}

/**
 * The one request pipeline. Every route declared with `route()` and registered with `Pipeline.register`
 * runs, in this order:
 *   1. rate limit per address            (onRequest; declared `rateLimit.per: 'address'`)
 *   2. authenticate                      (onRequest; `access.auth`: signed session, user, superuser)
 *   3. rate limit per caller             (`rateLimit.per: 'caller'`: keyed by who called; asked in onRequest,
 *                                         its refusal answered in preParsing, before the body)
 *   4. resolve the vendor and the role   (`access.vendor`, `access.role`: read from onRequest on, beside the
 *      caller's rate limit; checked in preValidation), then the vendor-owned resources the path names
 *      (`access.app`): 404 unless the vendor owns them
 *   5. validate params, query and body   (Fastify validation with the contracts' zod schemas)
 *   6. run the handler                   (typed, authorized input)
 *   7. present                           (the response schema serializes the answer; unknown keys dropped)
 * Failures at any step are AppErrors, answered by the one error handler below. Steps 3 and 4 overlap their
 * round trips (the rate limiter's store and the vendor's read): a refused caller's request costs that read,
 * and a refusal is still answered in the order above (docs/adr/0051).
 */
export class Pipeline {
  /** Every declaration registered so far (the role matrix test walks them). */
  readonly routes: RouteSpec[] = [];

  constructor(private readonly opts: PipelineOptions) {}

  /** Compilers, body parser and error handling for the whole app: call once, before any route. */
  install(app: FastifyInstance): void {
    app.decorateRequest('identity', null);
    app.decorateRequest('outsider', null);
    app.decorateRequest('tenant', null);
    app.decorateRequest('ownedApp', null);
    app.decorateRequest('vendorLoaded', undefined);
    app.decorateRequest('pendingLimit', null);
    app.decorateRequest('pendingVendor', null);
    app.setValidatorCompiler<z.ZodType>(({ schema, httpPart }) => (data) => {
      // Fastify hands an absent body over as null: a bodiless call is an empty object.
      const result = schema.safeParse(httpPart === 'body' && data === null ? {} : data);
      return result.success
        ? { value: result.data }
        : { error: new InputError(httpPart ?? '', result.error.issues) };
    });
    app.setSerializerCompiler(serializerCompiler);

    // An empty body with a JSON content type (a bodiless POST) is no body, not a parse error.
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body as string;
      if (request.routeOptions.config.route?.rawBody) request.rawBody = text;
      if (text.trim() === '') return done(null, undefined);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return done(badRequest(message('requestNotJson')), undefined);
      }
      const problem = jsonInputProblem(parsed);
      if (problem) return done(inputRefused(problem), undefined);
      done(null, parsed);
    });
    // Uploaded files (a datastore import) arrive as they are, in blocks a worker thread can take over;
    // each route's `bodyLimit` bounds them.
    app.addContentTypeParser('application/octet-stream', (request, payload, done) =>
      receiveUpload(request, payload, done),
    );
    // Text that enters by the path, the query or the X-Vendor header is held to the same rule as bodies,
    // before anything is looked up (docs/adr/0022). A path value that cannot be stored names no resource.
    app.addHook('onRequest', async (request) => {
      if (jsonInputProblem(request.params)) throw notFound(request.routeOptions.config.route?.resource);
      const problem =
        jsonInputProblem(request.query) ?? jsonInputProblem({ 'X-Vendor': request.headers['x-vendor'] });
      if (problem) throw inputRefused(problem);
    });

    app.setErrorHandler((error: FastifyError | AppError | InputError, request, reply) =>
      this.answerError(error, request, reply),
    );
  }

  register(app: FastifyInstance, routes: readonly RouteSpec[]): void {
    for (const spec of routes) this.registerOne(app, spec);
    this.routes.push(...routes);
  }

  private registerOne(app: FastifyInstance, spec: RouteSpec): void {
    const status = spec.status ?? (spec.response ? 200 : 204);
    const onRequest: onRequestHookHandler[] = [];
    const preParsing: preParsingHookHandler[] = [];
    const preValidation: preValidationHookHandler[] = [];
    const limit = spec.rateLimit;
    if (limit?.per === 'address') onRequest.push(this.limiter(spec, (request) => request.ip));
    if (spec.access.auth !== 'none') onRequest.push(this.authenticate(spec));
    if (limit?.per === 'caller') {
      const ask = this.ask(spec, (request) => {
        const identity = request.identity;
        if (request.outsider) return request.outsider.ownRateLimit ? null : request.outsider.id;
        return identity?.user ? String(identity.user.id) : `session:${identity?.session.id ?? request.ip}`;
      });
      onRequest.push((request, _reply, done) => {
        const decided = ask(request);
        request.pendingLimit = decided && started(decided);
        done();
      });
      preParsing.push((request, _reply, payload, done) => {
        if (!request.pendingLimit) return done(null, payload);
        request.pendingLimit.then(() => done(null, payload), done);
      });
    }
    if ('vendor' in spec.access) {
      onRequest.push(this.startVendorRead(spec));
      preValidation.push(this.resolveVendor(spec));
    }

    app.route({
      method: spec.method,
      url: spec.url,
      config: { route: spec },
      ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
      schema: {
        summary: spec.summary,
        tags: spec.tags,
        ...(spec.access.auth === 'none' ? {} : { security: securityOf(spec.access) }),
        ...(spec.params ? { params: spec.params } : {}),
        ...(spec.query ? { querystring: spec.query } : {}),
        ...(spec.body ? { body: spec.body } : {}),
        response: {
          [status]: spec.response ?? (status === 204 ? z.null().describe('No content') : z.unknown()),
          ...Object.fromEntries(
            impliedErrors(spec).map((name) => [
              errorStatus(name),
              spec.errorShape?.schema ?? errorBodySchema,
            ]),
          ),
        },
      },
      onRequest,
      preParsing,
      preValidation,
      handler: async (request, reply) => {
        const output = await spec.handler({
          identity: request.identity,
          outsider: request.outsider,
          vendor: request.tenant?.vendor ?? request.outsider?.vendor,
          role: request.tenant?.role,
          app: request.ownedApp,
          loaded: request.vendorLoaded,
          params: request.params,
          query: request.query,
          body: request.body,
          request,
          reply,
        } as never);
        if (reply.sent) return reply;
        reply.code(status);
        return status === 204 ? reply.send() : output;
      },
    });
  }

  /** `keyOf` answers null for a caller the limit does not apply to. */
  private limiter(spec: RouteSpec, keyOf: (request: FastifyRequest) => string | null): onRequestHookHandler {
    const ask = this.ask(spec, keyOf);
    return async (request) => {
      await ask(request);
    };
  }

  /** The limit's decision for a request: rejects with 429 past it, null when it does not apply. */
  private ask(
    spec: RouteSpec,
    keyOf: (request: FastifyRequest) => string | null,
  ): (request: FastifyRequest) => Promise<void> | null {
    const limit = spec.rateLimit!;
    const max = typeof limit.limit === 'function' ? limit.limit(this.opts.config) : limit.limit;
    return (request) => {
      const key = keyOf(request);
      if (key === null) return null;
      return this.opts.rateLimiter.hit(`${limit.bucket}:${key}`, max, limit.windowSeconds).then((hit) => {
        if (!hit.allowed) throw tooManyRequests(hit.retryAfter);
      });
    };
  }

  private authenticate(spec: RouteSpec): onRequestHookHandler {
    const { outsiders } = this.opts.ports;
    const auth = spec.access.auth;
    if (auth === 'bearer') {
      return async (request) => {
        if (!outsiders) throw unauthorized(message('noOutsideCallers'));
        request.outsider = await outsiders.fromBearer(request);
      };
    }
    const bySession = this.authenticateSession(spec);
    if (!('outsiders' in spec.access) || !outsiders) return bySession;
    // A console user signs with X-AccessToken; a request without it may carry an outside caller's credential.
    return function (request, reply, done) {
      if (request.headers['x-accesstoken'] !== undefined) return bySession.call(this, request, reply, done);
      outsiders.fromHeaders(request).then((outsider) => {
        if (!outsider) return bySession.call(this, request, reply, done);
        request.outsider = outsider;
        done();
      }, done);
    };
  }

  private authenticateSession(spec: RouteSpec): onRequestHookHandler {
    const { sessions } = this.opts.ports;
    const auth = spec.access.auth;
    // A callback hook, not an async one: the cached path then costs no promise per request.
    return (request, _reply, done) => {
      const raw = request.headers['x-accesstoken'];
      const header = typeof raw === 'string' ? raw : undefined;
      const settle = (result: ReturnType<typeof sessions.verifyCached> & object) => {
        if (!result.ok) return done(unauthorized(FAILURE_TEXT[result.reason]));
        const identity = result.identity;
        if (auth !== 'session' && !identity.user?.active) {
          return done(unauthorized(message('signInRequired')));
        }
        if (auth === 'superuser' && !identity.user?.isSu) return done(notFound('Route'));
        request.identity = identity;
        done();
      };
      const cached = sessions.verifyCached(header, request.method, request.url);
      if (cached) return settle(cached);
      sessions.verify(header, request.method, request.url).then(settle, done);
    };
  }

  /** Starts the vendor's read for `resolveVendor`; a request it cannot name a vendor for reads nothing. */
  private startVendorRead(spec: RouteSpec): onRequestHookHandler {
    const access = spec.access as { vendor: 'path' | 'header' };
    const { vendors } = this.opts.ports;
    const read = (request: FastifyRequest): Promise<VendorRead> | null => {
      if (access.vendor === 'path') {
        const parsed = idParam.safeParse((request.params as Record<string, string>).vendorId);
        if (!parsed.success || roleIn(request.identity as SignedIn, parsed.data) === null) return null;
        return vendors.byId(parsed.data).then((vendor) => ({ vendor }));
      }
      const key = request.headers['x-vendor'];
      if (typeof key !== 'string' || key === '') return null;
      if (spec.vendorWith) return spec.vendorWith(key, request.params);
      return vendors.byKey(key).then((vendor) => ({ vendor }));
    };
    return (request, _reply, done) => {
      // An outside caller's vendor comes with its credential.
      if (!request.outsider) {
        const pending = read(request);
        request.pendingVendor = pending && started(pending);
      }
      done();
    };
  }

  private resolveVendor(spec: RouteSpec): preValidationHookHandler {
    const access = spec.access as { vendor: 'path' | 'header'; role?: MemberRole; app?: 'path' };
    const { owned } = this.opts.ports;
    return async (request) => {
      if (request.outsider) return;
      const identity = request.identity as SignedIn;
      if (access.vendor === 'header') {
        const key = request.headers['x-vendor'];
        if (typeof key !== 'string' || key === '') throw badRequest(message('vendorHeaderRequired'));
      }
      const read = await request.pendingVendor;
      const vendor = read?.vendor ?? null;
      const role = vendor?.active ? roleIn(identity, vendor.id) : null;
      if (!vendor || role === null) throw notFound('Vendor');
      if (access.role === 'owner' && role !== 'owner') throw notFound('Vendor');
      request.tenant = { vendor, role };
      // Handed over only once the vendor passed the same checks as without it.
      request.vendorLoaded = read!.loaded;
      if (access.app === 'path') {
        const appId = idParam.safeParse((request.params as Record<string, string>).appId);
        const app = appId.success ? await owned.app(vendor.id, appId.data) : null;
        if (!app) throw notFound('App');
        request.ownedApp = app;
      }
    };
  }

  private answerError(
    error: FastifyError | AppError | InputError,
    request: FastifyRequest,
    reply: FastifyReply,
  ): FastifyReply {
    const spec = request.routeOptions.config.route;
    const locale = requestLocale(request);
    const send = (status: number, answer: ErrorBody) => {
      const body = localizeErrorBody(answer, locale);
      return reply.code(status).send(spec?.errorShape ? spec.errorShape.present(body, status) : body);
    };
    if (error instanceof InputError) {
      if (error.part === 'params') return this.answerError(notFound(spec?.resource), request, reply);
      const errors =
        error.part === 'body' && spec?.bodyErrors
          ? spec.bodyErrors(error.issues, request.body)
          : fieldErrors(error.issues);
      return send(400, { name: ErrorName.ValidationError, message: error.message, errors });
    }
    if (error instanceof AppError) {
      if (error.extra.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(error.extra.retryAfterSeconds));
      return send(errorStatus(error.name), error.toBody());
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return send(status, {
        name: statusErrorName(status),
        message: status === 413 ? tooLargeText(request.routeOptions.bodyLimit) : error.message,
      });
    }
    // A database out of reach or out of disk is the caller's to retry, not a failure of the route (ADR 0054).
    const fault = databaseFaultError(error);
    if (fault) return this.answerError(fault, request, reply);
    request.log.error({ err: error }, 'request failed');
    return send(500, { name: ErrorName.InternalServerError, message: 'Internal server error' });
  }
}

/** 400 naming the field (dotted path) that breaks the JSON input rules. */
function inputRefused(problem: JsonInputProblem): AppError {
  return validationError({ [problem.path.join('.') || '_']: problem.message }, problem.message);
}

function tooLargeText(limit: number | undefined): string {
  if (!limit) return message('requestTooLarge');
  const mib = limit / (1024 * 1024);
  const size = mib >= 1 ? `${Math.round(mib * 10) / 10} MiB` : `${Math.round(limit / 1024)} KiB`;
  return message('requestTooLargeAtMost', { size });
}

/** The OpenAPI security requirements of a route's access rule (alternatives). */
function securityOf(access: Access): Record<string, string[]>[] {
  if (access.auth === 'bearer') return [{ bearer: [] }];
  if ('outsiders' in access) return [{ accessToken: [] }, { vendorToken: [] }, { embedToken: [] }];
  return [{ accessToken: [] }];
}

/** The errors a route can answer: those its declaration implies, plus the ones it names. */
function impliedErrors(spec: RouteSpec): ErrorName[] {
  const names = new Set<ErrorName>(spec.errors ?? []);
  if (spec.access.auth !== 'none') names.add(ErrorName.Unauthorized);
  if ('outsiders' in spec.access) names.add(ErrorName.Forbidden).add(ErrorName.TooManyRequests);
  if (spec.access.auth === 'bearer') names.add(ErrorName.TooManyRequests);
  if (spec.access.auth === 'superuser' || 'vendor' in spec.access || spec.params)
    names.add(ErrorName.NotFound);
  // Any route refuses a query or X-Vendor header that breaks the input rules, and a body that is not JSON;
  // any route but GET parses a body, within its limit.
  names.add(ErrorName.ValidationError);
  if (spec.method !== 'GET') names.add(ErrorName.PayloadTooLarge);
  if (spec.rateLimit) names.add(ErrorName.TooManyRequests);
  // Any route may meet the database out of reach; any write, its disk full (ADR 0054).
  names.add(ErrorName.ServiceUnavailable);
  if (spec.method !== 'GET') names.add(ErrorName.InsufficientStorage);
  return [...names];
}
