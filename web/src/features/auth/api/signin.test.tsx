// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/api/dataLayer';
import { ApiError } from '../../../lib/api/error';
import { useSignin } from './signin';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('leaves a refused sign-in to the form: the failure is not reported as an error banner', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify({ name: 'Unauthorized', message: 'Wrong email or password.' }), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        }),
      ),
    ),
  );
  const reported: unknown[] = [];
  const client = createQueryClient((error) => reported.push(error));
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(() => useSignin(), { wrapper });
  const failure = await act(() =>
    result.current.mutateAsync({ identifier: 'a@example.com', secret: 'wrong' }).catch((e: unknown) => e),
  );
  expect(failure).toBeInstanceOf(ApiError);
  expect((failure as ApiError).status).toBe(401);
  expect(reported).toEqual([]);
});
