import { Notifications } from '@mantine/notifications';
import { TOASTS } from './Toasts';

/**
 * The toasts' container (a chunk of its own, see Toasts). Top right, but below where a dialog's title sits
 * (a modal starts 5dvh from the top; its header is under 64 px), so a toast never hides what a dialog is.
 */
export function ToastsContainer() {
  return <Notifications {...TOASTS} style={{ top: 'calc(5dvh + 64px)' }} />;
}
