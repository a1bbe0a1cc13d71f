/**
 * Builds the web embed's widget with the console (`vite build`, `npm run build -w web`): after the
 * console's bundle is written, one self-contained script (IIFE, socket.io-client and all) goes to
 * `<outDir>/embed/widget.js`, which the server serves as `/embed/js/{token}`, handing it the embed's
 * configuration. Runs in Node (vite.config.ts), not in the browser.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'vite';
// Not '@llmor/contracts': Vite leaves its config's package imports to Node, which does not load the
// contracts' TypeScript (wire.ts holds pinned copies).
import { EMBED_CONFIG_NAME, EMBED_WIDGET_FILE } from './wire';

export function embedWidget(): Plugin {
  let outDir = '';
  let root = '';
  return {
    name: 'llmor-embed-widget',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const file = join(outDir, EMBED_WIDGET_FILE);
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        publicDir: false,
        define: { 'process.env.NODE_ENV': '"production"' },
        build: {
          outDir: join(outDir, 'embed'),
          emptyOutDir: false,
          copyPublicDir: false,
          sourcemap: false,
          minify: true,
          target: 'es2020',
          lib: {
            entry: resolve(root, 'src/embed/main.ts'),
            formats: ['iife'],
            name: 'llmorEmbed',
            fileName: () => 'widget.js',
          },
        },
      });
      // The server hands each embed's configuration in by this name: a widget without it would be dead.
      if (!readFileSync(file, 'utf8').includes(EMBED_CONFIG_NAME))
        throw new Error(`${file} does not read its configuration (${EMBED_CONFIG_NAME}).`);
    },
  };
}
