import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// Each worker starts its own app server on E2E_PORT + its index (e2e/fixtures.ts); E2E_PORT lets two
// checkouts run side by side on one machine.
const PORT = Number(process.env.E2E_PORT ?? 5055);
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);

export default defineConfig({
  testDir: 'e2e',
  // A file's tests run in order on one worker; files are spread over the workers, each with its own server
  // and database.
  fullyParallel: false,
  workers: WORKERS,
  // No retries: a test that passes only on a second try is a failure to fix, not a pass.
  retries: 0,
  // A guard against hangs, not a speed limit: npm test runs these beside the unit and API tests on two shared
  // cores, where a screen's accessibility scan alone can take ten seconds, and on a slower 2-core machine (an
  // AMD EPYC at 2.1 GHz) a test with three scans went past 60 s.
  timeout: 120_000,
  // Also not a speed limit: on a CI runner busier than this machine, a screen's first load (its code chunk
  // and first query) took over the 5 s default while the unit and API tests ran beside it.
  expect: { timeout: 15_000 },
  outputDir: 'test-results/playwright',
  use: {
    ...devices['Desktop Chrome'],
    baseURL: `http://localhost:${PORT}`,
    launchOptions: {
      // Debian's Chromium (Playwright's own browser download does not work here): its headless shell when it is
      // installed, as `npm test` installs it (docs/adr/0005-headless-shell-for-tests.md), else the whole browser.
      executablePath:
        process.env.CHROMIUM_PATH ??
        (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium'),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
        // A test's page lives seconds: V8's optimizing compilers (Maglev, TurboFan) spent more CPU compiling the
        // app's code than the faster code saved (the renderers' CPU over three spec files: 59 -> 48-51 s). The
        // interpreter and the baseline compiler run the same code, so what the tests see does not change.
        '--js-flags=--no-opt --no-maglev',
        // Chromium refuses some ports outright (e.g. 5060/5061, SIP): let it reach every worker's server.
        `--explicitly-allowed-ports=${Array.from({ length: WORKERS }, (_, i) => PORT + i).join(',')}`,
      ],
    },
    // A failed test keeps a screenshot of the page as it failed, and npm test prints its locator, what was
    // received and the spec line. A trace (DOM snapshots, actions, network, console) is kept only when asked
    // for, with E2E_TRACE=1: recording one costs every test, passing or not, in the browser and in the
    // worker (two spec files: 159-170 -> 137-141 CPU s measured machine-wide), and a CI run's traces stay
    // on its runner. The screencast stays out even then: it was more than a third of the browser's CPU.
    trace: ['1', 'true', 'yes'].includes(process.env.E2E_TRACE ?? '')
      ? { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true }
      : 'off',
    screenshot: 'only-on-failure',
    // As a person who asked their system for less motion: the app then stills its spinners and placeholders
    // (src/client/styles.css), which the screens' behaviour does not depend on, and the browser draws no frames
    // for them (about 2% of the browser tests' CPU, measured machine-wide).
    reducedMotion: 'reduce',
  },
  projects: [{ name: 'chromium' }],
});
