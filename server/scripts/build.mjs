// Builds the server once into dist/main.js, so `npm start` runs plain Node (no TypeScript compiler at run
// time). Our code and @llmor/contracts (TypeScript sources) are bundled; every npm dependency stays
// external and is loaded from node_modules as usual (native and wasm packages find their files there).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const external = [
  ...Object.keys(manifest.dependencies),
  ...Object.keys(manifest.optionalDependencies),
].filter((name) => !name.startsWith('@llmor/'));

await build({
  absWorkingDir: new URL('.', root).pathname,
  entryPoints: {
    main: 'src/main.ts',
    // PGlite's thread (ADR 0019), loaded by main.js from beside it to import an older embedded directory (ADR 0036).
    'pglite-worker': 'src/platform/db/pglite-worker.ts',
    // The parse pool's thread (ADR 0053), loaded by main.js from beside it.
    'document-parse-worker': 'src/modules/datastores/parse-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  // Modules the server imports lazily (the AI SDK layer) stay out of main.js until first used.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [...external, 'pg-native'],
  sourcemap: 'linked',
  logLevel: 'warning',
});
