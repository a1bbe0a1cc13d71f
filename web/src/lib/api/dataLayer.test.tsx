// @vitest-environment happy-dom
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, cleanup, render, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './client';
import { createQueryClient, LOCAL_ERROR, useApiMutation } from './dataLayer';
import { ApiError } from './error';

const notFound = () => new ApiError(404, { name: 'NotFound', message: 'No such thing.' });

/** A fetch whose answer never comes unless the request is aborted; it records the calls. */
function hangingFetch() {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }),
  );
  return calls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function setup() {
  const reported: unknown[] = [];
  const client = createQueryClient((error) => reported.push(error));
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return { reported, client, wrapper };
}

describe('the data layer reports a failed call once, unless the screen handles it', () => {
  it('reports a failed load once, however many components show it', async () => {
    const { reported, wrapper } = setup();
    const queryFn = vi.fn(() => Promise.reject(notFound()));
    const useThing = () => useQuery({ queryKey: ['thing'], queryFn });
    render(
      <>
        <Probe use={useThing} />
        <Probe use={useThing} />
      </>,
      { wrapper },
    );
    await waitFor(() => expect(reported).toHaveLength(1));
    // A 4xx is not asked again.
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('leaves a load with meta.localError to its screen', async () => {
    const { reported, wrapper } = setup();
    const { result } = renderHook(
      () => useQuery({ queryKey: ['local'], queryFn: () => Promise.reject(notFound()), meta: LOCAL_ERROR }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(reported).toEqual([]);
  });

  it('reports a failed write once and never sends it again', async () => {
    const { reported, wrapper } = setup();
    const mutationFn = vi.fn(() => Promise.reject(notFound()));
    const { result } = renderHook(() => useApiMutation({ mutationFn }), { wrapper });
    await act(() => result.current.mutateAsync().catch(() => undefined));
    expect(mutationFn).toHaveBeenCalledTimes(1);
    expect(reported).toHaveLength(1);
  });
});

describe('offline, and leaving a screen', () => {
  it('refreshes stale data when the network returns', async () => {
    const { wrapper } = setup();
    const queryFn = vi.fn(() => Promise.resolve('fresh'));
    const { result } = renderHook(() => useQuery({ queryKey: ['stale'], queryFn, staleTime: 0 }), {
      wrapper,
    });
    await waitFor(() => expect(result.current.data).toBe('fresh'));
    act(() => {
      window.dispatchEvent(new Event('offline'));
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(queryFn).toHaveBeenCalledTimes(2));
  });

  it('fails a request at once while the browser is offline, as a network error, and never sends it later', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    vi.stubGlobal(
      'fetch',
      vi.fn((_url: string, init: RequestInit) =>
        init.signal?.aborted
          ? Promise.reject(new DOMException('aborted', 'AbortError'))
          : Promise.reject(new Error('sent while offline')),
      ),
    );
    const failure = await apiRequest('/v1/things', { method: 'PUT', body: {} }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(0);
  });

  it('fails a request in flight when the browser goes offline', async () => {
    const calls = hangingFetch();
    const pending = apiRequest('/v1/things', { method: 'PUT', body: {} }).catch((e: unknown) => e);
    await waitFor(() => expect(calls).toHaveLength(1));
    window.dispatchEvent(new Event('offline'));
    const failure = await pending;
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(0);
  });

  it('aborts a write in flight when its screen unmounts, without reporting it', async () => {
    const { reported, client, wrapper } = setup();
    const calls = hangingFetch();
    const { result, unmount } = renderHook(
      () =>
        useApiMutation({
          mutationFn: (_: undefined, signal) =>
            apiRequest('/v1/things/1', { method: 'PUT', body: {}, signal }),
        }),
      { wrapper },
    );
    act(() => result.current.mutate(undefined));
    await waitFor(() => expect(calls).toHaveLength(1));
    unmount();
    expect(calls[0]?.init.signal?.aborted).toBe(true);
    await waitFor(() => expect(client.getMutationCache().getAll()[0]?.state.status).toBe('error'));
    expect(reported).toEqual([]);
  });
});

function Probe({ use }: { use: () => unknown }) {
  use();
  return null;
}
