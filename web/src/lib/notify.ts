import { type NotificationData, notifications } from '@mantine/notifications';

/** Where and how long a toast shows, and its title; unset: spec 01 §9 (top-right, 5000 ms, on <Notifications/>). */
export type NotifyOptions = Pick<NotificationData, 'title' | 'position' | 'autoClose'>;

/** Toasts (spec 01 §9: top-right, 5000 ms, at most 20 — configured on <Notifications/>). */
export function notifySuccess(message: string, options?: NotifyOptions): void {
  notifications.show({ ...options, color: 'green', message });
}

export function notifyError(message: string, options?: NotifyOptions): void {
  notifications.show({ ...options, color: 'red', message });
}

/** Toasts of the app-settings, models and functions area: top-center, 7000 ms (spec 02 §9). */
export const SETTINGS_AREA_TOAST: NotifyOptions = { position: 'top-center', autoClose: 7000 };
