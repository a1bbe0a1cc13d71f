import { type ErrorBody, ErrorName, type FieldErrors } from '@llmor/contracts';

/** An error the API answers as-is: status + the CONTRACTS error body. Thrown by routes and services. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    override readonly name: string,
    message: string,
    readonly extra: { code?: number; errors?: ErrorBody['errors']; headers?: Record<string, string> } = {},
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
  new HttpError(400, ErrorName.BadRequest, message, { errors });
export const validationError = (errors: FieldErrors, message = 'The request is invalid.', code?: number) =>
  new HttpError(400, ErrorName.ValidationError, message, { errors, code });
export const unauthorized = (message: string) => new HttpError(401, ErrorName.Unauthorized, message);
export const forbidden = (message: string) => new HttpError(403, ErrorName.Forbidden, message);
export const notFound = (what = 'Resource') => new HttpError(404, ErrorName.NotFound, `${what} not found`);
export const conflict = (message: string, errors?: FieldErrors) =>
  new HttpError(409, ErrorName.Conflict, message, { errors });
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, ErrorName.TooManyRequests, 'Too many requests. Please try again later.', {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
