import { z } from 'zod';
import { ENGLISH } from './messages-en';

/**
 * The error registry: every error the API answers has a name, an HTTP status and, where clients
 * branch on it, a numeric code. Codes are stable; add new ones at the end of their range.
 */
export const ErrorCode = {
  /** Model install parameters failed the model's JSON schema; `errors.parameters` holds the schema to re-render. */
  MODEL_PARAMETER_VALIDATION_FAILED: 52,
  /** The vendor's plan allows no more requests or tokens this period (a send answers 402, no provider call). */
  USAGE_LIMIT_REACHED: 60,
  /** The vendor's plan allows no more apps or members. */
  PLAN_LIMIT_REACHED: 61,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ErrorName = {
  BadRequest: 'BadRequest',
  ValidationError: 'ValidationError',
  Unauthorized: 'Unauthorized',
  PaymentRequired: 'PaymentRequired',
  Forbidden: 'Forbidden',
  NotFound: 'NotFound',
  Conflict: 'Conflict',
  PayloadTooLarge: 'PayloadTooLarge',
  TooManyRequests: 'TooManyRequests',
  /** A model provider called while answering failed; the message is the provider's. */
  BadGateway: 'BadGateway',
  GatewayTimeout: 'GatewayTimeout',
  /** The database cannot be reached, or the process is stopping: retry after `Retry-After` (docs/reference). */
  ServiceUnavailable: 'ServiceUnavailable',
  /** The disk the database writes to is full: nothing was written, reads still work. */
  InsufficientStorage: 'InsufficientStorage',
  InternalServerError: 'InternalServerError',
} as const;
export type ErrorName = (typeof ErrorName)[keyof typeof ErrorName];

/** Field errors: a message or a list of messages per field; nested fields use dotted keys or nested maps. */
export type FieldErrors = { [field: string]: string | string[] | FieldErrors };

/** The body of every error answer. */
export const errorBodySchema = z.object({
  name: z.string(),
  message: z.string(),
  code: z.number().int().optional(),
  errors: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = Omit<z.infer<typeof errorBodySchema>, 'errors'> & {
  errors?: FieldErrors | Record<string, unknown>;
};

/** The text a 401 carries so clients know to drop their session (docs/reference/console.md). */
export const INVALID_ACCESS_TOKEN = 'Invalid access token';
export const INVALID_CREDENTIALS = ENGLISH.invalidCredentials;
