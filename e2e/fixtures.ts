import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { test as base } from '@playwright/test';
import pg from 'pg';
import { embeddedConnection } from '../src/server/db/client';

export { expect } from '@playwright/test';

/** The first worker's port; worker n serves on E2E_PORT + n (each run of two checkouts sets its own). */
export const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 5055);

/**
 * The day the browser tests' app servers believe it is. Each starts its clock at 10:00 of it in this
 * machine's zone (the servers' and the browser's), via TEST_CLOCK_START (src/server/app-clock.ts): a Tuesday
 * that is no holiday, so the demo practice is open, has had its morning's visits and has slots left, whatever
 * day and hour the tests run. The browser reads "now" from the server (the session answer's serverTime).
 */
export const E2E_TODAY = '2026-11-24';
const E2E_CLOCK_START = new Date(`${E2E_TODAY}T10:00:00`);

let workerServerUrl: string | null = null;

/** This worker's app server (one per worker process), for helpers that are not fixtures. */
export function appServerUrl(): string {
  if (!workerServerUrl) throw new Error("no app server yet: use the test from './fixtures'");
  return workerServerUrl;
}

interface AppServer {
  url: string;
  dataDir: string;
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app server exited (${child.exitCode}):\n${output()}`);
    if (Date.now() > deadline) throw new Error(`the app server did not answer within 120 s:\n${output()}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The worker's port must be free before its server starts: the server listens only after migrating and seeding,
 * and meanwhile another process answering there (a server left over from an earlier run, another checkout's)
 * would pass the health check, and the tests would run against its data and its clock.
 */
async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err) =>
      reject(
        new Error(
          `port ${port} is already in use (${err.message}): the browser tests would run against whatever serves ` +
            'there. Stop it, or set E2E_PORT to the first of two free ports.',
        ),
      ),
    );
    probe.listen(port, () => probe.close(() => resolve()));
  });
}

/**
 * The server that answers is this worker's, on the tests' clock: its "now" is E2E_CLOCK_START plus the few
 * minutes since it started, whatever the real date (docs/clock.md). A server on another clock fails here, at
 * once, rather than as a screen showing another "today".
 */
async function assertPinnedClock(url: string, startedAt: number): Promise<void> {
  const session = (await (await fetch(`${url}/api/auth/session`)).json()) as { serverTime?: string };
  const serverNow = Date.parse(session.serverTime ?? '');
  const expected = E2E_CLOCK_START.getTime() + (Date.now() - startedAt);
  if (!(Math.abs(serverNow - expected) < 5 * 60_000)) {
    throw new Error(
      `the app server at ${url} says it is ${session.serverTime ?? 'no time'}, not the tests' ${E2E_CLOCK_START.toISOString()}`,
    );
  }
}

/**
 * Each Playwright worker has its own app server on its own fresh, seeded embedded database, so workers run
 * side by side without seeing each other's rows (a file's tests still run in order, on one worker).
 */
export const test = base.extend<{ withDatabase: WithDatabase }, { appServer: AppServer }>({
  appServer: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const server = path.resolve('dist/server/main.js');
      if (!existsSync(server)) throw new Error('dist/ is missing: run `npm run build` before the browser tests');
      const port = E2E_BASE_PORT + workerInfo.parallelIndex;
      const dataDir = path.resolve('.e2e-data', `worker-${port}`);
      rmSync(dataDir, { recursive: true, force: true });
      await assertPortFree(port);
      const startedAt = Date.now();
      const child = spawn(process.execPath, [server], {
        env: {
          ...process.env,
          PORT: String(port),
          DATA_DIR: dataDir,
          DEMO_MODE: 'true',
          NODE_ENV: 'test',
          TEST_CLOCK_START: E2E_CLOCK_START.toISOString(),
          LOG_LEVEL: 'warn',
          // The sign-in tests sign in a dozen times within a minute from one address; the limit itself is
          // tested against the API (auth.sign-in-limits.test.ts).
          LOGIN_RATE_LIMIT_PER_MINUTE: '100',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const collect = (chunk: Buffer) => (output = `${output}${chunk.toString()}`.slice(-5000));
      child.stdout?.on('data', collect);
      child.stderr?.on('data', collect);
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      const url = `http://localhost:${port}`;
      try {
        await waitForHealth(url, child, () => output);
        await assertPinnedClock(url, startedAt);
        workerServerUrl = url;
        await use({ url, dataDir });
      } finally {
        // SIGTERM: the server finishes its requests and stops its PostgreSQL cleanly.
        child.kill('SIGTERM');
        await exited;
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 150_000 },
  ],
  baseURL: async ({ appServer }, use) => use(appServer.url),
  withDatabase: async ({ appServer }, use) => use((work) => queryDatabase(appServer.dataDir, work)),
});

export type WithDatabase = <T>(work: (client: pg.Client) => Promise<T>) => Promise<T>;

/**
 * This worker's database, for the few tests that find seeded data to drive a screen with or check what a
 * screen wrote.
 */
async function queryDatabase<T>(dataDir: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(embeddedConnection(dataDir));
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
