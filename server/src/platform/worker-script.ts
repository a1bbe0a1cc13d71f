import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import { SERVER_ROOT } from './paths';

/** esbuild, loaded only when the server runs from sources (it is a build tool, not a dependency). */
export const esbuild = () => createRequire(import.meta.url)('esbuild') as typeof import('esbuild');

/**
 * A worker thread's script (ADR 0019, 0053). Built, it is `dist/<name>.js`. Run from sources (tests, dev,
 * benchmarks) it is TypeScript, which a worker thread cannot load on Node 20 (tsx's hooks do not reach it):
 * `compile` makes it JavaScript, kept in the cache under the hash of that code, so a changed source gets a
 * file of its own.
 */
export function workerScript(name: string, fromSources: boolean, compile: () => string | Uint8Array): URL {
  if (!fromSources) return pathToFileURL(join(SERVER_ROOT, 'dist', `${name}.js`));
  const code = compile();
  const key = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const compiled = join(SERVER_ROOT, '.cache', `${name}-${key}.mjs`);
  if (!existsSync(compiled)) {
    mkdirSync(dirname(compiled), { recursive: true });
    // Written aside and renamed: test files start workers in parallel.
    const partial = `${compiled}.${process.pid}.${threadId}`;
    writeFileSync(partial, code);
    renameSync(partial, compiled);
  }
  return pathToFileURL(compiled);
}
