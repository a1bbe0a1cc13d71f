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

const loadContainer = () => import('./ToastsContainer');
const ToastsContainer = lazy(() => loadContainer().then((m) => ({ default: m.ToastsContainer })));

// Fetched at the person's first interaction, not on the first screen: a write's toast must still show
// when the network is gone by the time it fails (an offline save, docs/adr/0028-console-data-layer.md).
const INTERACTIONS = ['pointerdown', 'keydown', 'input'] as const;
function preloadContainer() {
  for (const type of INTERACTIONS) window.removeEventListener(type, preloadContainer, true);
  void loadContainer();
}
for (const type of INTERACTIONS) window.addEventListener(type, preloadContainer, true);

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
