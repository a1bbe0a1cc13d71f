import { ErrorName } from '@llmor/contracts';

/** The HTTP status of each error name: the one place domain errors become HTTP. */
const STATUS: Record<ErrorName, number> = {
  [ErrorName.BadRequest]: 400,
  [ErrorName.ValidationError]: 400,
  [ErrorName.Unauthorized]: 401,
  [ErrorName.PaymentRequired]: 402,
  [ErrorName.Forbidden]: 403,
  [ErrorName.NotFound]: 404,
  [ErrorName.Conflict]: 409,
  [ErrorName.PayloadTooLarge]: 413,
  [ErrorName.TooManyRequests]: 429,
  [ErrorName.InternalServerError]: 500,
  [ErrorName.BadGateway]: 502,
  [ErrorName.GatewayTimeout]: 504,
  [ErrorName.ServiceUnavailable]: 503,
  [ErrorName.InsufficientStorage]: 507,
};

export const errorStatus = (name: ErrorName): number => STATUS[name] ?? 500;

/** The name of a client error Fastify raised itself (413 body too large, 415 unsupported type, …). */
export function statusErrorName(status: number): ErrorName {
  if (status === 413) return ErrorName.PayloadTooLarge;
  const known = Object.entries(STATUS).find(([, s]) => s === status && status !== 400);
  return (known?.[0] as ErrorName | undefined) ?? ErrorName.BadRequest;
}
