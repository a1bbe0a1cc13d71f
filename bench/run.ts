/**
 * Runs every benchmark and prints markdown tables (paste the figures into README.md).
 * Usage: npm run bench            (all)
 *        npm run bench -- signing (one suite: signing, silicon, knowledge, conversation, reach, web, start,
 *                                  noisy-neighbour, hostile-documents)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runSigningBench } from './signing/run';

/**
 * Suites that print their own tables run as their own process: silicon (worker threads, native lua5.4),
 * knowledge, conversation, reach (outside callers), start (a whole server), web (the built console),
 * noisy-neighbour (the Lua pool shared between vendors), hostile-documents (a server in a child per file).
 */
function ownProcess(name: string): () => Promise<{ rows: string[][] }> {
  return async () => {
    const script = fileURLToPath(new URL(`./${name}/run.ts`, import.meta.url));
    const result = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`${name} bench failed (exit ${result.status})`);
    return { rows: [] };
  };
}

const suites: Record<string, () => Promise<{ rows: string[][] }>> = {
  signing: runSigningBench,
  silicon: ownProcess('silicon'),
  knowledge: ownProcess('knowledge'),
  conversation: ownProcess('conversation'),
  reach: ownProcess('reach'),
  web: ownProcess('web'),
  start: ownProcess('start'),
  'noisy-neighbour': ownProcess('noisy-neighbour'),
  'hostile-documents': ownProcess('hostile-documents'),
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
