import { isApiError } from './api/error';
import { type NotifyOptions, notifyError } from './notify';

/** A form's server field errors: field → message, list of messages or nested map (spec 02 §5). */
export type FieldErrors = Record<string, unknown>;

/**
 * A failed save (spec 02 §8): the server's message is shown as an error toast, else `fallback`; the
 * server's field errors are returned for the form (null when it sent none).
 */
export function handleSaveError(error: unknown, fallback: string, toast?: NotifyOptions): FieldErrors | null {
  const message = isApiError(error) ? error.serverMessage : undefined;
  notifyError(message ?? fallback, toast);
  if (isApiError(error) && error.fieldErrors && typeof error.fieldErrors === 'object') {
    return error.fieldErrors as FieldErrors;
  }
  return null;
}
