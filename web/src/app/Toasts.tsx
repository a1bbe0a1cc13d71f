import { notificationsStore, useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

/** Toasts: top-right, 5000 ms, at most 20 (docs/reference/console.md). */
export const TOASTS = { position: 'top-right', autoClose: 5000, limit: 20 } as const;

// The container (portal, transitions) is a chunk loaded with the first toast, not on every first screen;
// until then the store keeps the toasts, placed and limited as the container will.
notificationsStore.updateState((state) => ({
  ...state,
  defaultPosition: TOASTS.position,
  limit: TOASTS.limit,
}));

const ToastsContainer = lazy(() => import('./ToastsContainer').then((m) => ({ default: m.ToastsContainer })));

export function Toasts() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastsContainer />
    </Suspense>
  );
}
