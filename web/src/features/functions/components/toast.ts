import { SETTINGS_AREA_TOAST } from '../../../lib/notify';

/** Toasts of the functions area (spec 02 §9); pass to notifySuccess / notifyError. */
export const FUNCTIONS_TOAST = SETTINGS_AREA_TOAST;
