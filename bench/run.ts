/**
 * Runs every benchmark and prints markdown tables (paste the figures into README.md).
 * Usage: npm run bench            (all)
 *        npm run bench -- signing (one suite)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runSigningBench } from './signing/run';

/** The silicon suite prints its own tables; it runs as its own process (worker threads, native lua5.4). */
async function runSiliconBench(): Promise<{ rows: string[][] }> {
  const script = fileURLToPath(new URL('./silicon/run.ts', import.meta.url));
  const result = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`silicon bench failed (exit ${result.status})`);
  return { rows: [] };
}

const suites: Record<string, () => Promise<{ rows: string[][] }>> = {
  signing: runSigningBench,
  silicon: runSiliconBench,
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(suites)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n## ${name}\n`);
  const { rows } = await run();
  if (rows.length === 0) continue;
  const [head, ...body] = rows;
  console.log(`| ${head!.join(' | ')} |`);
  console.log(`| ${head!.map(() => '---').join(' | ')} |`);
  for (const r of body) console.log(`| ${r.join(' | ')} |`);
}
