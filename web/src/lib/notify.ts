import { notifications } from '@mantine/notifications';

/** Toasts (spec 01 §9: top-right, 5000 ms, at most 20 — configured on <Notifications/>). */
export function notifySuccess(message: string, title?: string): void {
  notifications.show({ color: 'green', message, title });
}

export function notifyError(message: string, title?: string): void {
  notifications.show({ color: 'red', message, title });
}
