import { Notifications } from '@mantine/notifications';
import { TOASTS } from './Toasts';

/** The toasts' container (a chunk of its own, see Toasts). */
export function ToastsContainer() {
  return <Notifications {...TOASTS} />;
}
