/**
 * Runs every benchmark and prints markdown tables (paste the figures into README.md).
 * Usage: npm run bench            (all)
 *        npm run bench -- signing (one suite)
 */
import { runSigningBench } from './signing/run';

const suites: Record<string, () => Promise<{ rows: string[][] }>> = {
  signing: runSigningBench,
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(suites)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n## ${name}\n`);
  const { rows } = await run();
  const [head, ...body] = rows;
  console.log(`| ${head!.join(' | ')} |`);
  console.log(`| ${head!.map(() => '---').join(' | ')} |`);
  for (const r of body) console.log(`| ${r.join(' | ')} |`);
}
