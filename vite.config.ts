import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

const apiPort = process.env.PORT ?? '5000';
const outDir = process.env.VITE_OUT_DIR ?? fileURLToPath(new URL('./dist/client', import.meta.url));

/**
 * Writes a .br and a .gz beside every script, style sheet and index.html, once at build time, so the
 * server (@fastify/static preCompressed) sends compressed bytes without compressing on each request.
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    closeBundle() {
      const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' });
      for (const file of files.filter((f) => /\.(js|css|html|svg|json)$/.test(f) && !f.includes('.vite'))) {
        const full = path.join(outDir, file);
        const content = readFileSync(full);
        writeFileSync(`${full}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${full}.br`,
          brotliCompressSync(content, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length },
          }),
        );
      }
    },
  };
}

export default defineConfig({
  root: 'src/client',
  publicDir: false,
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: process.env.VITE_SOURCEMAP === '1',
    // The manifest tells the bundle-size check (e2e/client-weight.spec.ts) and `npm run bench` which files
    // the entry loads before any screen.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // A group keeps only what it matches: their shared dependencies (React) stay where the entry has them.
          includeDependenciesRecursively: false,
          // Chart.js and TanStack Table/Virtual get chunks of their own, loaded only by the screens that
          // draw a chart or a table (checked by e2e/client-weight.spec.ts).
          groups: [
            { name: 'charts', test: /node_modules[\\/](chart\.js|react-chartjs-2|@kurkle)[\\/]/ },
            {
              name: 'tables',
              test: /node_modules[\\/]@tanstack[\\/](react-table|table-core|react-virtual|virtual-core)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    // In `npm run dev` the API runs on PORT and Vite proxies to it, so cookies stay same-origin.
    proxy: { '/api': { target: `http://localhost:${apiPort}`, changeOrigin: false } },
  },
});
