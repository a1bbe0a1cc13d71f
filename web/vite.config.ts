import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const API = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    proxy: {
      '/v1': { target: API, changeOrigin: false },
      '/stream': { target: API, ws: true, changeOrigin: false },
      '/icons.json': { target: API, changeOrigin: false },
    },
  },
});
