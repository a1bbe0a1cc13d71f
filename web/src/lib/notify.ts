import { type NotificationData, notifications } from '@mantine/notifications';

/** Where and how long a toast shows, and its title; unset: docs/reference/console.md (top-right, 5000 ms, on <Notifications/>). */
export type NotifyOptions = Pick<NotificationData, 'title' | 'position' | 'autoClose'>;

/** Toasts (docs/reference/console.md: top-right, 5000 ms, at most 20 — configured on <Notifications/>). */
export function notifySuccess(message: string, options?: NotifyOptions): void {
  notifications.show({ ...options, color: 'green', message });
}

export function notifyError(message: string, options?: NotifyOptions): void {
  notifications.show({ ...options, color: 'red', message });
}

/** Toasts of the app-settings, models and functions area: top-center, 7000 ms (docs/reference/console.md). */
export const SETTINGS_AREA_TOAST: NotifyOptions = { position: 'top-center', autoClose: 7000 };
