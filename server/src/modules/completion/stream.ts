/** Rejects with the signal's reason once it aborts, so nothing awaits a stuck provider or tool forever. */
export function abortPromise(signal: AbortSignal): { promise: Promise<never>; dispose(): void } {
  let onAbort = () => {};
  const promise = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => {});
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

export async function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  const aborted = abortPromise(signal);
  try {
    return await Promise.race([work, aborted.promise]);
  } finally {
    aborted.dispose();
  }
}

/**
 * Iterates a provider stream but gives up as soon as the signal aborts, even if the stream ignores it
 * (the iterator is then asked to return, without waiting for it). Once per stream, not per chunk, it
 * listens to the signal: a chunk costs one promise, and nothing piles up on a promise that never settles
 * (a `Promise.race` per chunk against the abort would add a reaction to it each time).
 */
export async function* abortable<T>(iterable: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  signal.throwIfAborted();
  const iterator = iterable[Symbol.asyncIterator]();
  let fail: ((reason: unknown) => void) | null = null;
  const onAbort = () => fail?.(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let finished = false;
  try {
    for (;;) {
      const step = await new Promise<IteratorResult<T>>((resolve, reject) => {
        fail = reject;
        iterator.next().then(resolve, reject);
      });
      fail = null;
      if (step.done) {
        finished = true;
        return;
      }
      yield step.value;
      signal.throwIfAborted();
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}
