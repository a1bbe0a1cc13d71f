import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type BlockerFunction, useBlocker } from 'react-router';

const loadDialog = () => import('./UnsavedChangesDialog');
const UnsavedChangesDialog = lazy(() => loadDialog().then((m) => ({ default: m.UnsavedChangesDialog })));

interface UnsavedRegistry {
  /** Marks (or clears) one form's unsaved input. */
  set(id: string, dirty: boolean): void;
  /** The next navigation leaves without asking (a save that moves on, e.g. create → the new entity). */
  allowNextNavigation(): void;
  /**
   * Runs an action that drops the page's forms without a route change (switching vendor reloads the page):
   * asks first if any is dirty; once discarded, the browser's leave prompt does not ask a second time.
   */
  confirmDiscard(action: () => void): void;
}

const UnsavedContext = createContext<UnsavedRegistry | null>(null);

/**
 * The one guard for unsaved input (docs/adr/0029-unsaved-changes.md): every form reports its dirty
 * state here; while any is dirty, leaving the page inside the console asks in a dialog, and closing or
 * reloading the tab asks through the browser. A router allows one blocker at a time, so there is one
 * here for all the forms on a page.
 */
export function UnsavedChangesProvider({ children }: { children: ReactNode }) {
  const dirtyForms = useRef(new Set<string>());
  const allowOnce = useRef(false);
  const discarded = useRef(false);
  const [anyDirty, setAnyDirty] = useState(false);
  const [pendingAction, setPendingAction] = useState<(() => void) | null>(null);

  const registry = useMemo<UnsavedRegistry>(
    () => ({
      set(id, dirty) {
        if (dirty) {
          dirtyForms.current.add(id);
          discarded.current = false;
        } else dirtyForms.current.delete(id);
        setAnyDirty(dirtyForms.current.size > 0);
      },
      allowNextNavigation() {
        allowOnce.current = true;
      },
      confirmDiscard(action) {
        if (dirtyForms.current.size > 0) setPendingAction(() => action);
        else action();
      },
    }),
    [],
  );

  // Read at navigation time, so a form that just saved (and cleared its mark) is not asked about.
  const shouldBlock = useCallback<BlockerFunction>(({ currentLocation, nextLocation }) => {
    if (currentLocation.pathname === nextLocation.pathname) return false;
    if (allowOnce.current) {
      allowOnce.current = false;
      return false;
    }
    return dirtyForms.current.size > 0;
  }, []);
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!anyDirty) return;
    // The dialog's code comes with the first unsaved edit, so the question shows at once when it is asked.
    loadDialog().catch(() => undefined);
    const warn = (e: BeforeUnloadEvent) => {
      if (!discarded.current) e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    // The page says when the browser will ask (journeys wait for this state, not for time).
    document.documentElement.dataset.unsaved = 'true';
    return () => {
      window.removeEventListener('beforeunload', warn);
      delete document.documentElement.dataset.unsaved;
    };
  }, [anyDirty]);

  const stay = () => {
    setPendingAction(null);
    blocker.reset?.();
  };
  const leave = () => {
    if (pendingAction) {
      discarded.current = true;
      dirtyForms.current.clear();
      setAnyDirty(false);
      setPendingAction(null);
      pendingAction();
    } else blocker.proceed?.();
  };

  return (
    <UnsavedContext.Provider value={registry}>
      {children}
      {(blocker.state === 'blocked' || pendingAction !== null) && (
        <Suspense fallback={null}>
          <UnsavedChangesDialog onStay={stay} onLeave={leave} />
        </Suspense>
      )}
    </UnsavedContext.Provider>
  );
}

/**
 * Reports a form's unsaved input to the page's guard while `dirty`. The answer lets a save that navigates
 * away on success (create → the new entity's page) leave without being asked.
 */
export function useUnsavedChanges(dirty: boolean): { allowNextNavigation: () => void } {
  const registry = useUnsavedGuard();
  const id = useId();
  useEffect(() => {
    registry.set(id, dirty);
    return () => registry.set(id, false);
  }, [registry, id, dirty]);
  return registry;
}

/** The page's guard itself, for an action outside the forms that would drop them (`confirmDiscard`). */
export function useUnsavedGuard(): UnsavedRegistry {
  const registry = useContext(UnsavedContext);
  if (!registry) throw new Error('useUnsavedChanges needs an UnsavedChangesProvider above it');
  return registry;
}
