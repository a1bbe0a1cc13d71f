// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/api/dataLayer';
import { useSaveClient } from './saveClient';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it.each([
  ['a new client (POST)', null],
  ['an existing client (PUT)', 7],
])('aborts the save of %s when the screen that started it unmounts', async (_what, clientId) => {
  const calls: RequestInit[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init: RequestInit) => {
      calls.push(init);
      return new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }),
  );
  const client = createQueryClient(() => undefined);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result, unmount } = renderHook(() => useSaveClient(1, '2', clientId), { wrapper });
  act(() => result.current.mutate({ name: 'CLI' }));
  await waitFor(() => expect(calls).toHaveLength(1));
  unmount();
  expect(calls[0]?.signal?.aborted).toBe(true);
});
