/** Events carried by the local event bus (docs/reference/api.md). */
export interface AppEvents {
  /** A failed call whose screen does not handle it itself (the data layer's default report). */
  'client-did-receive-error': unknown;
  /** The user signed in: the application initialises again. */
  'user-did-sign-in': undefined;
  /** A conversation was created for an app. */
  'conversation-created': { conversation: unknown; appId: number | string };
}

type Listener<T> = (payload: T) => void;

/** A tiny typed event bus; no DOM needed so it works in unit tests too. */
export function createEventBus<E extends object>() {
  const listeners = new Map<keyof E, Set<Listener<never>>>();
  return {
    on<K extends keyof E>(name: K, listener: Listener<E[K]>): () => void {
      let set = listeners.get(name);
      if (!set) {
        set = new Set();
        listeners.set(name, set);
      }
      set.add(listener as Listener<never>);
      return () => {
        set.delete(listener as Listener<never>);
      };
    },
    emit<K extends keyof E>(name: K, ...payload: E[K] extends undefined ? [] : [E[K]]): void {
      const set = listeners.get(name);
      if (!set) return;
      for (const listener of [...set]) (listener as Listener<E[K] | undefined>)(payload[0]);
    },
  };
}

export const events = createEventBus<AppEvents>();
