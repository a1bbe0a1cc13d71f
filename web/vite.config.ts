import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { embedWidget } from './src/embed/build';

const API = 'http://127.0.0.1:3000';

export default defineConfig({
  // Hashed assets are precompressed (brotli and gzip) at build; the server picks the variant per request.
  plugins: [
    react(),
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|svg|json)$/ }),
    // The web embed's widget, a script of its own (served per token by the server, which compresses it).
    embedWidget(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      // The contracts build their zod schemas at module level (`export const x = z.object(…)`); zod
      // schemas have no side effects, so a schema nothing reads is dropped, and zod with it where no
      // schema is read (the shell imports the contracts' constants and error names only).
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
  server: {
    proxy: {
      '/v1': { target: API, changeOrigin: false },
      '/stream': { target: API, ws: true, changeOrigin: false },
      '/icons.json': { target: API, changeOrigin: false },
    },
  },
});
