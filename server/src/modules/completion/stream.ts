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
 * (the iterator is then asked to return, without waiting for it).
 */
export async function* abortable<T>(iterable: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const iterator = iterable[Symbol.asyncIterator]();
  const aborted = abortPromise(signal);
  let finished = false;
  try {
    for (;;) {
      const step = await Promise.race([iterator.next(), aborted.promise]);
      if (step.done) {
        finished = true;
        return;
      }
      yield step.value;
    }
  } finally {
    aborted.dispose();
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}
