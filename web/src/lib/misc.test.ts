import { describe, expect, it, vi } from 'vitest';
import { ApiError, describeError } from './api/error';
import { createEventBus } from './events';
import { withMinDuration } from './minDuration';

describe('describeError', () => {
  it('uses the server name and message', () => {
    const e = new ApiError(404, { name: 'NotFound', message: 'App not found' });
    expect(describeError(e)).toEqual({ title: 'NotFound', message: 'App not found' });
  });
  it('falls back to defaults (null → translated default)', () => {
    expect(describeError(new ApiError(500, 'oops'))).toEqual({ title: null, message: 'HTTP 500' });
    expect(describeError(new Error('plain'))).toEqual({ title: null, message: 'plain' });
    expect(describeError('weird')).toEqual({ title: null, message: null });
  });
});

describe('event bus', () => {
  it('delivers to listeners until unsubscribed', () => {
    const bus = createEventBus<{ ping: number; bare: undefined }>();
    const seen: number[] = [];
    const off = bus.on('ping', (n) => seen.push(n));
    bus.emit('ping', 1);
    off();
    bus.emit('ping', 2);
    expect(seen).toEqual([1]);
    const bare = vi.fn();
    bus.on('bare', bare);
    bus.emit('bare');
    expect(bare).toHaveBeenCalledOnce();
  });
});

describe('withMinDuration', () => {
  it('waits at least the minimum, also on failure', async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      const p = withMinDuration(Promise.resolve(7), 400).then((v) => {
        done = true;
        return v;
      });
      await vi.advanceTimersByTimeAsync(399);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await p).toBe(7);
      const failing = withMinDuration(Promise.reject(new Error('no')), 400);
      const assertion = expect(failing).rejects.toThrow('no');
      await vi.advanceTimersByTimeAsync(400);
      await assertion;
    } finally {
      vi.useRealTimers();
    }
  });
});
