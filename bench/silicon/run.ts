// Silicon (Lua sandbox) benchmark: npx tsx bench/silicon/run.ts
// Measures cold and warm run latency, pool throughput, and CPU-bound speed against native lua5.4.
import { spawnSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import { SiliconPool } from '@llmor/server/silicon/index';

const TRIVIAL = 'function run(args) return { ok = true, n = args.n } end';
const FIB = `local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end`;
const FIB_N = 27;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function expectOk(pool: SiliconPool, code: string, args?: unknown[]) {
  const r = await pool.run({ code, args, host: { now: () => performance.now() } });
  if (r.status !== 1) throw new Error(`benchmark run failed: ${JSON.stringify(r.error ?? r.status)}`);
  return r;
}

async function coldStart(): Promise<{ ready: number; firstRun: number }> {
  const samples: Array<{ ready: number; firstRun: number }> = [];
  for (let i = 0; i < 3; i += 1) {
    const t0 = performance.now();
    const pool = new SiliconPool({ size: 1, spares: 0 });
    await pool.ready();
    const t1 = performance.now();
    await pool.close();
    const t2 = performance.now();
    const fresh = new SiliconPool({ size: 1, spares: 0 });
    await expectOk(fresh, TRIVIAL, [{ n: 1 }, {}]);
    const t3 = performance.now();
    await fresh.close();
    samples.push({ ready: t1 - t0, firstRun: t3 - t2 });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[1] ?? Number.NaN;
  return { ready: median(samples.map((s) => s.ready)), firstRun: median(samples.map((s) => s.firstRun)) };
}

async function warmLatency(pool: SiliconPool, runs: number) {
  for (let i = 0; i < 20; i += 1) await expectOk(pool, TRIVIAL, [{ n: i }, {}]);
  const roundTrips: number[] = [];
  const took: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    const r = await expectOk(pool, TRIVIAL, [{ n: i }, {}]);
    roundTrips.push(performance.now() - t0);
    took.push(r.took);
  }
  roundTrips.sort((a, b) => a - b);
  took.sort((a, b) => a - b);
  return {
    p50: percentile(roundTrips, 50),
    p95: percentile(roundTrips, 95),
    max: percentile(roundTrips, 100),
    tookP50: percentile(took, 50),
  };
}

async function throughput(pool: SiliconPool, total: number): Promise<number> {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: total }, (_, i) => expectOk(pool, TRIVIAL, [{ n: i }, {}])));
  return total / ((performance.now() - t0) / 1000);
}

/** fib(N) inside the sandbox, timed with a host clock around the call (best of 5, ms). */
async function sandboxFib(pool: SiliconPool): Promise<number> {
  const code = `${FIB}\nfunction run(n) local t0 = now() local v = fib(n) local t1 = now() return { v = v, ms = t1 - t0 } end`;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i += 1) {
    const r = await expectOk(pool, code, [FIB_N]);
    const { v, ms } = r.result as { v: number; ms: number };
    if (v !== 196418) throw new Error(`fib(${FIB_N}) returned ${v}`);
    best = Math.min(best, ms);
  }
  return best;
}

/** fib(N) in native lua5.4 (best of 5, ms), or null when lua5.4 is not installed. */
function nativeFib(): number | null {
  const script = `${FIB}\nlocal best = math.huge\nfor _ = 1, 5 do local t0 = os.clock() fib(${FIB_N}) local t = (os.clock() - t0) * 1000 if t < best then best = t end end\nio.write(string.format("%.3f", best))`;
  const out = spawnSync('lua5.4', ['-e', script], { encoding: 'utf8' });
  if (out.error || out.status !== 0) return null;
  return Number.parseFloat(out.stdout);
}

async function main(): Promise<void> {
  const cores = availableParallelism();
  console.log(
    `silicon bench — ${new Date().toISOString()} — ${cores} cores (${cpus()[0]?.model ?? 'unknown cpu'}), node ${process.version}\n`,
  );

  const cold = await coldStart();
  const pool = new SiliconPool({ size: Math.max(1, Math.min(cores, 4)), spares: 1, maxQueue: 5000 });
  await pool.ready();
  const warm = await warmLatency(pool, 200);
  const rps = await throughput(pool, 1000);
  const fib = await sandboxFib(pool);
  await pool.close();
  const native = nativeFib();

  const rows: Array<[string, string]> = [
    ['worker start (spawn → ready, median of 3)', fmt(cold.ready)],
    ['cold run (new pool → first result, median of 3)', fmt(cold.firstRun)],
    ['warm run round trip p50 (200 runs)', fmt(warm.p50)],
    ['warm run round trip p95', fmt(warm.p95)],
    ['warm run round trip max', fmt(warm.max)],
    ['warm run `took` p50 (worker side, whole ms rounded up)', `${warm.tookP50} ms`],
    [`throughput (1000 runs, pool size ${Math.max(1, Math.min(cores, 4))})`, `${rps.toFixed(0)} runs/s`],
    [`fib(${FIB_N}) in the sandbox (best of 5)`, fmt(fib)],
    [
      `fib(${FIB_N}) in native lua5.4 (best of 5)`,
      native === null ? 'lua5.4 not found — apt-get install -y lua5.4' : fmt(native),
    ],
    ['sandbox / native', native === null ? 'n/a' : `${(fib / native).toFixed(2)}×`],
  ];
  console.log('| measure | value |');
  console.log('| --- | --- |');
  for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
  if (native === null) console.log('\nlua5.4 is not installed: the native comparison was skipped.');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
