import { notifications } from '@mantine/notifications';

/** Toasts of the functions area: top-center, 7000 ms (spec 02 §9). */
const AREA = { position: 'top-center', autoClose: 7000 } as const;

export function toastSuccess(message: string): void {
  notifications.show({ ...AREA, color: 'green', message });
}

export function toastError(message: string): void {
  notifications.show({ ...AREA, color: 'red', message });
}
