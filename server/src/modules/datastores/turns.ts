/**
 * Long work on the thread that serves HTTP, done a slice at a time so the event loop turns in between
 * (ADR 0042, "Amended 2026-11-25 (2)": `GET /healthz` during a 100,000-document import or a 53 MB PDF).
 */

/** Lets the event loop serve what waits (I/O, timers) before going on. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
