import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { TestProject } from 'vitest/node';
import { useAuditHmacKey } from '@/features/audit/server/audit.queries';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { APP_ROLE, ensureAppRole, urlAs } from '@/server/db/app-role';
import { poolFor, prepareDatabase, startEmbeddedPostgres } from '@/server/db/client';
import { TEST_AUDIT_HMAC_KEY } from './api-setup';
import { seedDemoClinic } from '@/server/db/seed/demo-seed';
import { testClock, TEST_TODAY } from './test-clock';
import { registerPracticeClock } from '@/shared/practice-zone';
import { timeInZone } from '@/shared/practice-zone';
import { hashTestPassword } from './test-passwords';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of the migrated and seeded template database, as the owner of its tables. */
    templateDatabaseUrl: string;
    /** The same database as the app role, which owns nothing (src/server/db/app-role.ts). */
    templateAppDatabaseUrl: string;
  }
}

interface TemplateServer {
  url: string;
  appUrl: string;
  stop(): Promise<void>;
}

/**
 * Both API projects (api and api-isolated, vitest.config.ts) name this file, and Vitest loads it once for
 * each: they share one server and one template, kept on globalThis (the one thing both loads see) and
 * stopped when the last project's teardown runs.
 */
const shared = globalThis as typeof globalThis & {
  clinicTestTemplate?: { server: Promise<TemplateServer>; users: number };
};

export default async function setup(project: TestProject) {
  shared.clinicTestTemplate ??= { server: startTemplateServer(), users: 0 };
  const template = shared.clinicTestTemplate;
  template.users += 1;
  const server = await template.server;
  project.provide('templateDatabaseUrl', server.url);
  project.provide('templateAppDatabaseUrl', server.appUrl);
  return async () => {
    template.users -= 1;
    if (template.users > 0) return;
    shared.clinicTestTemplate = undefined;
    await server.stop();
  };
}

/**
 * The tests' server keeps nothing past the run, so it does not wait for the disk: no fsync, no flush of the
 * WAL at commit, no full-page images. PostgreSQL still commits, rolls back, locks and checks as it does in
 * production; what is given up is surviving a crash (the last commits of a PostgreSQL crash, the files on a
 * machine's). The crash test runs its own server with the production settings.
 */
const TEST_SERVER_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

async function startTemplateServer(): Promise<TemplateServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'clinic-test-pg-'));
  const log = { info: () => {}, error: (m: string) => console.error(m) };
  const server = process.env.TEST_DATABASE_URL
    ? await externalServer(process.env.TEST_DATABASE_URL)
    : await startEmbeddedPostgres(dir, log, undefined, [], TEST_SERVER_SETTINGS);
  // The template's entries are HMAC-chained with the key every test worker uses (api-setup.ts).
  useAuditHmacKey(TEST_AUDIT_HMAC_KEY);
  // As the app server does: migrated by the owner, the app role granted what the app needs.
  const warning = await prepareDatabase(server.url, server.appUrl);
  if (warning) throw new Error(warning);
  const pool = poolFor(server.url, 2);
  const db = drizzle(pool);
  // The template is seeded at the tests' clock, as a server seeds at its own: rows it writes are dated then.
  const clock = testClock();
  registerPracticeClock(clock);
  await seedDemoClinic(db, { today: TEST_TODAY, time: timeInZone(clock()), hashPassword: hashTestPassword });
  // A template database must have no open connections when it is cloned.
  await pool.end();
  return {
    url: server.url,
    appUrl: server.appUrl,
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** TEST_DATABASE_URL, a role that may create databases and roles, with the app role made beside it. */
async function externalServer(url: string) {
  const password = randomBytes(24).toString('hex');
  const owner = new pg.Client({ connectionString: url });
  await owner.connect();
  await ensureAppRole(owner, password);
  await owner.end();
  return { url, appUrl: urlAs(url, APP_ROLE, password), stop: async () => {} };
}
