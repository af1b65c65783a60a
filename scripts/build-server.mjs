// Bundles the server's own code into dist/server/main.js; npm packages stay external (node_modules).
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server/main.ts'],
  outfile: 'dist/server/main.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  alias: { '@': './src' },
  logLevel: 'warning',
});
