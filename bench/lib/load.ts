/** Closed-loop load and the figures the reply benchmarks print (reach, conversation). */

export interface Cell {
  calls: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** This process's CPU time (user + system) per call: the server's, the load generator's and the fake provider's. */
  cpuMs: number;
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : Number.NaN;

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/**
 * `callers` closed loops, each calling `call(worker, i)` back to back — for `seconds`, or `perCaller`
 * times each. A call answers false (or throws) when it failed; failures are counted, their time kept.
 */
export async function load(
  callers: number,
  call: (worker: number, i: number) => Promise<boolean>,
  until: { seconds: number } | { perCaller: number },
): Promise<Cell> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const deadline = 'seconds' in until ? started + until.seconds * 1000 : Number.POSITIVE_INFINITY;
  const perCaller = 'perCaller' in until ? until.perCaller : Number.POSITIVE_INFINITY;
  await Promise.all(
    Array.from({ length: callers }, async (_, worker) => {
      for (let i = 0; i < perCaller && performance.now() < deadline; i++) {
        const t0 = performance.now();
        const ok = await call(worker, i).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    cpuMs: (user + system) / 1000 / latencies.length,
  };
}

/** One JSON POST (fetch, keep-alive) read to its end; true on the expected status. */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  status = 200,
): Promise<boolean> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  await res.text();
  return res.status === status;
}

export const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

export function printTable(rows: string[][]): void {
  const [head, ...body] = rows;
  console.log(`| ${head!.join(' | ')} |`);
  console.log(`| ${head!.map(() => '---').join(' | ')} |`);
  for (const r of body) console.log(`| ${r.join(' | ')} |`);
}
