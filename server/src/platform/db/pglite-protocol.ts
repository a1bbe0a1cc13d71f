/** Messages between the server and the embedded database's thread (`pglite-worker.ts`, ADR 0019). */
import type { Results, RowMode } from '@electric-sql/pglite';

export interface PgliteWorkerData {
  /** The data directory; undefined for an in-memory database. */
  pgDir?: string;
  /** A cluster tarball to load into an in-memory database (the template). */
  tarball?: string;
}

interface RequestBase {
  id: number;
  /** The open transaction the statement belongs to. */
  tx?: number;
}

export type PgliteRequest = RequestBase &
  (
    | {
        op: 'query';
        sql: string;
        params?: unknown[];
        rowMode?: RowMode;
        /** PGlite's own parsers for dates (drizzle reads them as text and is the thread's default). */
        defaultParsers: boolean;
      }
    | { op: 'exec'; sql: string }
    | { op: 'begin' }
    | { op: 'end'; commit: boolean }
    | { op: 'close' }
  );

/** A database error's plain fields (code, detail, constraint…): an Error's own properties do not cross threads. */
export type SerializedError = { message: string; name?: string } & Record<string, unknown>;

export type PgliteResponse =
  | { id: number; ok: true; result?: Results | Results[] | number }
  | { id: number; ok: false; error: SerializedError };
