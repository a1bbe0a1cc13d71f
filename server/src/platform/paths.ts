import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's directory, found upwards from this module: the same whether the server runs from
 * `src/` (tsx, tests) or from the bundle in `dist/` (`npm start`), so files beside the code (migrations,
 * the Lua worker, the web build) are found from either.
 */
function findServerRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === '@llmor/server')
      return dir;
    if (dirname(dir) === dir) throw new Error(`@llmor/server's package.json not found above ${from}`);
  }
}

export const SERVER_ROOT = findServerRoot(dirname(fileURLToPath(import.meta.url)));
