import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowestFirstSequencer from './src/testing/vitest-sequencer';

const alias = { '@': fileURLToPath(new URL('./src', import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default is one worker per core but one: a single worker on a 2-core runner, which ran the
    // files one after another (~500 s). The API files spend much of their time waiting on PostgreSQL and
    // the crash test on restarts, so three workers keep both cores busy (~260 s).
    maxWorkers: 3,
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/shared/**/*.test.ts', 'src/client/**/*.test.ts', 'src/features/*/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'api',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/features/*/server/**/*.test.ts', 'src/testing/**/*.test.ts'],
          // One real PostgreSQL for the run; each test file clones a migrated, seeded template database.
          globalSetup: ['src/testing/global-setup.ts'],
          // The audit chain's HMAC key, as main.ts sets it at start.
          setupFiles: ['src/testing/api-setup.ts'],
          // A guard against hangs, not a speed limit: npm test runs these beside the browser tests, and on two
          // shared cores the heaviest (property tests, whole-registry walks) take two to three times longer.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'ui',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['src/testing/ui-setup.ts'],
          // user-event types key by key through jsdom; on a busy 2-core runner a long form takes over the 5 s default.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
