import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { TestProject } from 'vitest/node';
import { useAuditHmacKey } from '@/features/audit/server/audit.queries';
import { migrateDatabase, poolFor, startEmbeddedPostgres } from '@/server/db/client';
import { TEST_AUDIT_HMAC_KEY } from './api-setup';
import { seedDemoClinic } from '@/server/db/seed/demo-seed';
import { TEST_TODAY } from './test-clock';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of the migrated and seeded template database. */
    templateDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'clinic-test-pg-'));
  const log = { info: () => {}, error: (m: string) => console.error(m) };
  const server = process.env.TEST_DATABASE_URL
    ? { url: process.env.TEST_DATABASE_URL, stop: async () => {} }
    : await startEmbeddedPostgres(dir, log);
  // The template's entries are HMAC-chained with the key every test worker uses (api-setup.ts).
  useAuditHmacKey(TEST_AUDIT_HMAC_KEY);
  const pool = poolFor(server.url, 2);
  const db = drizzle(pool);
  await migrateDatabase(pool);
  await seedDemoClinic(db, { today: TEST_TODAY });
  // A template database must have no open connections when it is cloned.
  await pool.end();
  project.provide('templateDatabaseUrl', server.url);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
