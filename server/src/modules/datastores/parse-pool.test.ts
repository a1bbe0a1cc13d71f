/**
 * The parse pool's threads (ADR 0053), driven directly with real files: a thread out of memory or past
 * its time is ended and the next file is read; a vendor holds at most its share while another vendor's file
 * goes through; cancelling ends the thread; the bounded queue answers 429 with Retry-After.
 */
import { ErrorName } from '@llmor/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { UploadedBody } from '../../platform/http/upload-body';
import { pdfManyShowTexts } from '../../test/hostile-documents';
import { ParsePool, type ParsePoolOptions } from './parse-pool';

const LIMITS: ParsePoolOptions['limits'] = {
  maxDepth: 256,
  maxInflatedBytes: 64 << 20,
  maxInflateRatio: 100,
  maxPages: 10_000,
  maxParagraphs: 500_000,
  maxTextChars: 64 << 20,
};

let pool: ParsePool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const make = (options: Partial<ParsePoolOptions>) => {
  pool = new ParsePool({ queue: 8, timeoutMs: 60_000, memoryMb: 512, limits: LIMITS, ...options });
  return pool;
};

const text = (vendorId: number, words: string) => ({
  vendorId,
  mode: 'text_blob' as const,
  data: new TextEncoder().encode(words),
});

/** A PDF whose one page shows a letter 10,000,000 times: pdf.js reads it for far longer than any test. */
const slowPdf = (vendorId: number) => ({ vendorId, mode: 'pdf' as const, data: pdfManyShowTexts(1) });

/** A promise's state, without waiting for it. */
function watch<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  const done = promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error) => Object.assign(state, { settled: true, error }),
  );
  return { state, done };
}

async function until(condition: () => boolean, what: string, deadlineMs = 60_000) {
  const end = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the parse pool', { timeout: 120_000 }, () => {
  it("an upload's blocks move to the thread (nothing of them is left here) and are read in order", async () => {
    const p = make({ size: 1 });
    const blocks = ['The first block ends mid-', 'word; the second ', 'ends the sentence.'].map((part) =>
      new TextEncoder().encode(part),
    );
    const body = new UploadedBody(
      blocks,
      blocks.reduce((sum, block) => sum + block.byteLength, 0),
    );
    const documents = await p.parse({ vendorId: 1, mode: 'text_blob', data: body });
    expect(documents.map((d) => d.document)).toEqual([
      { text: 'The first block ends mid-word; the second ends the sentence.' },
    ]);
    expect(blocks.map((block) => block.byteLength)).toEqual([0, 0, 0]);
  });

  it('a thread out of memory is ended: 413 naming DOCUMENT_PARSE_MEMORY_MB, and the next file is read', async () => {
    const p = make({ size: 1, memoryMb: 16 });
    const words = Array.from({ length: 2_000_000 }, (_, i) => `w${i}`).join(' ');
    const err = (await p.parse(text(1, words)).catch((e) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.name).toBe(ErrorName.PayloadTooLarge);
    expect(err.message).toMatch(/more than 16 MiB of memory \(DOCUMENT_PARSE_MEMORY_MB\)/);
    const next = await p.parse(text(1, 'The next file is read by a new thread.'));
    expect(next.map((d) => d.document)).toEqual([{ text: 'The next file is read by a new thread.' }]);
    expect(p.counters).toEqual({ started: 2, ended: 1 });
  });

  it('data the structured clone cannot copy (nested 200,000 deep) → 400, and the thread reads the next file', async () => {
    const p = make({ size: 1 });
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    const err = (await p.parse({ vendorId: 1, mode: 'json', data: deep }).catch((e) => e)) as AppError;
    expect(err.name).toBe(ErrorName.BadRequest);
    expect(err.message).toMatch(/The data could not be read/);
    expect(await p.parse(text(1, 'Next.'))).toHaveLength(1);
  });

  it('a file past the time limit ends its thread: 413 naming DOCUMENT_PARSE_TIMEOUT_MS, the next file is read', async () => {
    const p = make({ size: 1, timeoutMs: 5_000 });
    const err = (await p.parse(slowPdf(1)).catch((e) => e)) as AppError;
    expect(err.name).toBe(ErrorName.PayloadTooLarge);
    expect(err.message).toMatch(/longer than 5000 ms \(DOCUMENT_PARSE_TIMEOUT_MS\)/);
    expect(p.stats()).toEqual({ busy: 0, threads: 0, queued: 0 });
    const next = await p.parse(text(1, 'Read after the stopped one.'));
    expect(next).toHaveLength(1);
    expect(p.counters).toEqual({ started: 2, ended: 1 });
  });

  it('a vendor holds at most its share: its next file waits while another vendor’s is read; cancelling ends the thread', async () => {
    const p = make({ size: 2, perVendor: 1 });
    const cancel = new AbortController();
    const slow = watch(p.parse(slowPdf(1), cancel.signal));
    const waiting = watch(p.parse(text(1, 'Vendor one, second file.')));
    await until(() => p.stats().busy === 1 && p.stats().queued === 1, 'the slow file read, the next queued');
    // Another vendor's file takes the free thread and is read while vendor 1's waits.
    const other = await p.parse(text(2, 'Vendor two goes through.'));
    expect(other).toHaveLength(1);
    expect(slow.state.settled).toBe(false);
    expect(waiting.state.settled).toBe(false);
    expect(p.stats()).toMatchObject({ busy: 1, queued: 1 });

    cancel.abort();
    await slow.done;
    expect((slow.state.error as AppError).message).toMatch(/cancelled/);
    await waiting.done;
    expect(waiting.state.value).toHaveLength(1);
    // The cancelled file's thread was ended, not left reading.
    expect(p.counters.ended).toBe(1);
    expect(p.stats().busy).toBe(0);
  });

  it('a waiting file that is cancelled leaves the queue', async () => {
    const p = make({ size: 1 });
    const running = new AbortController();
    const queued = new AbortController();
    const slow = watch(p.parse(slowPdf(1), running.signal));
    const next = watch(p.parse(text(1, 'Never read.'), queued.signal));
    await until(() => p.stats().queued === 1, 'the second file queued');
    queued.abort();
    await next.done;
    expect((next.state.error as AppError).message).toMatch(/cancelled/);
    expect(p.stats()).toMatchObject({ busy: 1, queued: 0 });
    running.abort();
    await slow.done;
  });

  it('the queue is bounded: a vendor past its half of it gets 429 with Retry-After', async () => {
    const p = make({ size: 1, queue: 2 });
    const cancel = new AbortController();
    const slow = watch(p.parse(slowPdf(1), cancel.signal));
    const queued = watch(p.parse(text(1, 'Waits its turn.')));
    await until(() => p.stats().queued === 1, 'one file queued');
    const refused = (await p.parse(text(1, 'One too many.')).catch((e) => e)) as AppError;
    expect(refused.name).toBe(ErrorName.TooManyRequests);
    expect(refused.message).toMatch(/DOCUMENT_PARSE_QUEUE/);
    expect(refused.extra.retryAfterSeconds).toBeGreaterThan(0);
    // Another vendor still has its half.
    const other = watch(p.parse(text(2, 'Another vendor queues.')));
    expect(p.stats().queued).toBe(2);
    cancel.abort();
    await Promise.all([slow.done, queued.done, other.done]);
    expect(queued.state.value).toHaveLength(1);
    expect(other.state.value).toHaveLength(1);
  });
});
