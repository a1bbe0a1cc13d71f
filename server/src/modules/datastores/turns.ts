/**
 * Long work on the thread that serves HTTP, done a slice at a time so the event loop turns in between
 * (ADR 0042, "Amended 2026-11-25 (2)": `GET /healthz` during a 100,000-document import or a 53 MB PDF).
 */

/** Lets the event loop serve what waits (I/O, timers) before going on. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Bytes copied between two turns: a few milliseconds of memcpy. */
const COPY_SLICE = 4 << 20;

/** A copy of `bytes` made a slice at a time (53 MB in one go held the event loop for 40–100 ms). */
export async function copyInSlices(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Uint8Array(bytes.length);
  for (let at = 0; at < bytes.length; at += COPY_SLICE) {
    if (at > 0) await nextTurn();
    out.set(bytes.subarray(at, at + COPY_SLICE), at);
  }
  return out;
}
