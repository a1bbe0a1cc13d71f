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
