import type { TFunction } from 'i18next';
import { isApiError } from '../../../lib/api/error';
import { notifyError } from '../../../lib/notify';

/**
 * A failed save (spec 02 §8): the server's field errors are returned for the form; its message is
 * shown as an error toast, else 'Saving the data failed: Unknown Error.'.
 */
export function handleSaveError(error: unknown, t: TFunction): Record<string, unknown> | null {
  const message = isApiError(error) ? error.serverMessage : undefined;
  notifyError(message ?? t('apps.details.saveFailed'));
  if (isApiError(error) && error.fieldErrors && typeof error.fieldErrors === 'object') {
    return error.fieldErrors as Record<string, unknown>;
  }
  return null;
}
