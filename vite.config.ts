import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';

const apiPort = process.env.PORT ?? '5000';

export default defineConfig({
  root: 'src/client',
  publicDir: false,
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: { outDir: '../../dist/client', emptyOutDir: true, sourcemap: false },
  server: {
    port: 5173,
    // In `npm run dev` the API runs on PORT and Vite proxies to it, so cookies stay same-origin.
    proxy: { '/api': { target: `http://localhost:${apiPort}`, changeOrigin: false } },
  },
});
