import { SETTINGS_AREA_TOAST } from '../../../lib/notify';

/** Toasts of the functions area (docs/reference/console.md); pass to notifySuccess / notifyError. */
export const FUNCTIONS_TOAST = SETTINGS_AREA_TOAST;
