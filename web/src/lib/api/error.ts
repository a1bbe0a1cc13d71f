import type { ErrorBody } from '@llmor/contracts';

/** An API answer with status ≥ 300 (or a network failure, status 0), with its parsed JSON body. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: Partial<ErrorBody> | null;

  constructor(status: number, body: unknown, fallbackMessage?: string) {
    const parsed = typeof body === 'object' && body !== null ? (body as Partial<ErrorBody>) : null;
    super(typeof parsed?.message === 'string' ? parsed.message : (fallbackMessage ?? `HTTP ${status}`));
    this.status = status;
    this.body = parsed;
    this.name = typeof parsed?.name === 'string' && parsed.name ? parsed.name : 'ApiError';
  }

  /**
   * The server's message, if it sent one. A network failure (status 0) has none: its text is the
   * browser's ("Failed to fetch"), so callers show their own words instead.
   */
  get serverMessage(): string | undefined {
    if (this.status === 0) return undefined;
    return typeof this.body?.message === 'string' && this.body.message ? this.body.message : undefined;
  }

  get fieldErrors(): ErrorBody['errors'] | undefined {
    return this.body?.errors;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Title and message for an error banner (docs/reference/console.md); `null` means "use the translated default". */
export function describeError(error: unknown): { title: string | null; message: string | null } {
  if (error instanceof ApiError) {
    return { title: error.body?.name || null, message: error.serverMessage ?? (error.message || null) };
  }
  if (error instanceof Error) {
    return {
      title: error.name && error.name !== 'Error' ? error.name : null,
      message: error.message || null,
    };
  }
  return { title: null, message: null };
}
