import {
  type ErrorBody,
  ErrorName,
  type FieldErrors,
  MESSAGES,
  type MessageCode,
  message,
} from '@llmor/contracts';

/**
 * A failure a caller can act on, raised by services and the request pipeline alike. It carries the
 * docs/reference/api.md error name (not an HTTP status): `platform/http/errors.ts` maps names to statuses in one
 * place, so services know nothing of HTTP.
 */
export class AppError extends Error {
  constructor(
    override readonly name: ErrorName,
    message: string,
    readonly extra: { code?: number; errors?: ErrorBody['errors']; retryAfterSeconds?: number } = {},
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { name: this.name, message: this.message };
    if (this.extra.code !== undefined) body.code = this.extra.code;
    if (this.extra.errors !== undefined) body.errors = this.extra.errors;
    return body;
  }
}

export const badRequest = (message: string, errors?: FieldErrors) =>
  new AppError(ErrorName.BadRequest, message, { errors });
export const validationError = (
  errors: FieldErrors,
  message: string = MESSAGES.requestInvalid.en_US,
  code?: number,
) => new AppError(ErrorName.ValidationError, message, { errors, code });
export const unauthorized = (message: string) => new AppError(ErrorName.Unauthorized, message);
/** Past a plan's limit: code 60 (requests, tokens) or 61 (apps, members), see contracts' ErrorCode. */
export const paymentRequired = (message: string, code: number) =>
  new AppError(ErrorName.PaymentRequired, message, { code });
export const forbidden = (message: string) => new AppError(ErrorName.Forbidden, message);
/** What a 404 names, each with its own catalogue text (docs/adr/0030). */
const NOT_FOUND = {
  App: 'appNotFound',
  Client: 'clientNotFound',
  Conversation: 'conversationNotFound',
  Datastore: 'datastoreNotFound',
  Document: 'documentNotFound',
  Embed: 'embedNotFound',
  Function: 'functionNotFound',
  Icon: 'iconNotFound',
  Invitation: 'invitationNotFound',
  Model: 'modelNotFound',
  Plan: 'planNotFound',
  Route: 'routeNotFound',
  Run: 'runNotFound',
  'Slack integration': 'slackIntegrationNotFound',
  Subscription: 'subscriptionNotFound',
  User: 'userNotFound',
  Vendor: 'vendorNotFound',
  Resource: 'resourceNotFound',
} as const satisfies Record<string, MessageCode>;
export type NotFoundThing = keyof typeof NOT_FOUND;

/** 404 `App not found` and the like (English on the wire, the request's locale through the catalogue). */
export const notFound = (what: NotFoundThing = 'Resource') =>
  new AppError(ErrorName.NotFound, message(NOT_FOUND[what]));
export const conflict = (message: string, errors?: FieldErrors) =>
  new AppError(ErrorName.Conflict, message, { errors });
export const tooManyRequests = (
  retryAfterSeconds: number,
  message: string = MESSAGES.tooManyRequests.en_US,
) => new AppError(ErrorName.TooManyRequests, message, { retryAfterSeconds });
/** An outside service the call depends on failed; `message` says which and why (never a secret). */
export const badGateway = (message: string) => new AppError(ErrorName.BadGateway, message);
export const timedOut = (message: string) => new AppError(ErrorName.GatewayTimeout, message);
/** The database is out of reach or the process is stopping: 503 with `Retry-After` (docs/reference/api.md, Conventions). */
export const serviceUnavailable = (
  retryAfterSeconds: number,
  message: string = MESSAGES.databaseUnavailable.en_US,
) => new AppError(ErrorName.ServiceUnavailable, message, { retryAfterSeconds });
/** The database's disk is full: 507, nothing written. */
export const insufficientStorage = (message: string = MESSAGES.diskFull.en_US) =>
  new AppError(ErrorName.InsufficientStorage, message);
