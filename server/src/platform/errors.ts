import { type ErrorBody, ErrorName, type FieldErrors, MESSAGES } from '@llmor/contracts';

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
export const notFound = (what = 'Resource') => new AppError(ErrorName.NotFound, `${what} not found`);
export const conflict = (message: string, errors?: FieldErrors) =>
  new AppError(ErrorName.Conflict, message, { errors });
export const tooManyRequests = (
  retryAfterSeconds: number,
  message: string = MESSAGES.tooManyRequests.en_US,
) => new AppError(ErrorName.TooManyRequests, message, { retryAfterSeconds });
/** An outside service the call depends on failed; `message` says which and why (never a secret). */
export const badGateway = (message: string) => new AppError(ErrorName.BadGateway, message);
export const timedOut = (message: string) => new AppError(ErrorName.GatewayTimeout, message);
