// Messages between the pool (main thread) and worker.mjs. Keep in sync with worker.mjs.
import type { SiliconConsoleEntry, SiliconStatusCode } from './types';

export interface WorkerRunMessage {
  type: 'run';
  id: number;
  code: string;
  chunkName: string;
  entry: string;
  argsJson: string;
  argc: number;
  hostNames: string[];
  memoryBytes: number;
  maxResultBytes: number;
  consoleMaxEntries: number;
  consoleMaxChars: number;
}

interface WorkerDoneResult {
  status: SiliconStatusCode;
  took: number;
  memory: number;
  result?: unknown;
  error?: { message: string; line: number | null };
  debug?: { breakpoint: number; string: string };
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'console'; id: number; entries: SiliconConsoleEntry[] }
  | { type: 'schema'; id: number; argument_schema?: unknown; config_schema?: unknown }
  | { type: 'host'; id: number; callId: number; name: string; args: string; at: number }
  | { type: 'done'; id: number; result: WorkerDoneResult; recycle: boolean };

/** Posted on the reply port, then signalled through the shared control word. */
export type HostReply =
  | { callId: number; ok: true; json: string }
  | { callId: number; ok: false; error: string };

/** Layout of the shared control buffer: Int32 [0] host-reply flag, Float64 at byte 8 peak memory. */
export const CONTROL_BYTES = 16;
