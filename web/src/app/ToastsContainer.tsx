import { Notifications } from '@mantine/notifications';
import { TOASTS } from './Toasts';
import classes from './ToastsContainer.module.css';

/** The toasts' container (a chunk of its own, see Toasts), placed below a dialog's title. */
export function ToastsContainer() {
  return <Notifications {...TOASTS} classNames={{ root: classes.root }} />;
}
