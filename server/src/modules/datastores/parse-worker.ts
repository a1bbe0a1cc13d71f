/**
 * A thread of the parse pool (ADR 0053): reads one file at a time with `parseImport` and answers its
 * documents or its refusal. Anything else that goes wrong while reading (a parser's own failure) is the
 * file's fault as far as the caller can tell: a 400 naming it, never a 500.
 */
import { parentPort } from 'node:worker_threads';
import { ErrorName } from '@llmor/contracts';
import { AppError } from '../../platform/errors';
import { parseImport } from './parse';
import type { ParseAnswer, ParseJob } from './parse-protocol';

const port = parentPort;
if (!port) throw new Error('parse-worker runs as a worker thread');

port.on('message', async (job: ParseJob) => {
  let answer: ParseAnswer;
  try {
    const input = job.blocks ? joined(job.blocks) : job.data;
    // Joined, the blocks are garbage: the file is held once while it is read, not twice.
    job.blocks = undefined;
    answer = { id: job.id, ok: true, documents: await parseImport(job.mode, input, job.file, job.limits) };
  } catch (err) {
    const error =
      err instanceof AppError
        ? err.toBody()
        : {
            name: ErrorName.ValidationError,
            message: `The file could not be read: ${(err as Error).message}`,
          };
    answer = { id: job.id, ok: false, error };
  }
  port.postMessage(answer);
});

/** An upload's blocks as one array, joined here, off the serving thread (a plain Uint8Array: pdf.js refuses a Buffer). */
function joined(blocks: Uint8Array[]): Uint8Array {
  if (blocks.length === 1) return blocks[0]!;
  const bytes = new Uint8Array(blocks.reduce((sum, block) => sum + block.byteLength, 0));
  let at = 0;
  for (const block of blocks) {
    bytes.set(block, at);
    at += block.byteLength;
  }
  return bytes;
}
