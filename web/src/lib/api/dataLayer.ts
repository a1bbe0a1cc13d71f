import {
  MutationCache,
  QueryCache,
  QueryClient,
  type UseMutationOptions,
  useMutation,
} from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { events } from '../events';
import { isApiError } from './error';

/** What a query or mutation tells the data layer (its `meta`). */
export interface DataMeta extends Record<string, unknown> {
  /** The screen shows this call's failure itself (an inline error, a field error, its own toast). */
  localError?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: DataMeta;
    mutationMeta: DataMeta;
  }
}

/** `meta` of a call whose screen handles its failure itself: the default report is skipped. */
export const LOCAL_ERROR: DataMeta = { localError: true };

/** The default report of a failed call: an error banner above the page (components/ErrorBanners). */
const reportError = (error: unknown) => events.emit('client-did-receive-error', error);

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/** A client error (4xx) will not change by asking again; a network failure or 5xx may. */
const worthRetrying = (failureCount: number, error: unknown) =>
  failureCount < 1 && !(isApiError(error) && error.status >= 400 && error.status < 500);

/**
 * The console's one query client (docs/adr/0028-console-data-layer.md): every failed call is reported
 * once, by the caches, unless its `meta` says the screen handles it; requests run whatever the browser
 * thinks of the network (offline they fail at once, see the API client) and writes are never retried,
 * so nothing is sent later on the user's behalf.
 */
export function createQueryClient(report: (error: unknown) => void = reportError): QueryClient {
  const reportUnlessLocal = (error: unknown, meta: DataMeta | undefined) => {
    if (!meta?.localError && !isAbort(error)) report(error);
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => reportUnlessLocal(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => reportUnlessLocal(error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
        networkMode: 'always',
        // Mode 'always' would turn this off; stale data still refreshes when the network returns.
        refetchOnReconnect: true,
        retry: worthRetrying,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { networkMode: 'always', retry: false },
    },
  });
}

/** The variables of a write that takes none (`mutate()`). */
// biome-ignore lint/suspicious/noConfusingVoidType: react-query makes `mutate`'s argument optional only for void.
export type NoVariables = void;

type ApiMutationOptions<TData, TVariables> = Omit<
  UseMutationOptions<TData, Error, TVariables>,
  'mutationFn'
> & {
  mutationFn: (variables: TVariables, signal: AbortSignal) => Promise<TData>;
};

/**
 * A write bound to the screen that started it: when the screen unmounts (the user navigated away),
 * the request still in flight is aborted, so an edit the user left behind is never committed later.
 */
export function useApiMutation<TData, TVariables = void>(options: ApiMutationOptions<TData, TVariables>) {
  const inFlight = useRef(new Set<AbortController>());
  useEffect(() => {
    const controllers = inFlight.current;
    return () => {
      for (const controller of controllers) controller.abort();
    };
  }, []);
  const { mutationFn } = options;
  return useMutation<TData, Error, TVariables>({
    ...options,
    mutationFn: async (variables) => {
      const controller = new AbortController();
      inFlight.current.add(controller);
      try {
        return await mutationFn(variables, controller.signal);
      } finally {
        inFlight.current.delete(controller);
      }
    },
  });
}
