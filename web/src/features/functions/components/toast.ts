import type { NotifyOptions } from '../../../lib/notify';

/** Toasts of the functions area: top-center, 7000 ms (spec 02 §9); pass to notifySuccess / notifyError. */
export const FUNCTIONS_TOAST: NotifyOptions = { position: 'top-center', autoClose: 7000 };
