import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { inject } from 'vitest';
import { poolFor } from '@/server/db/client';
import type { Db } from '@/server/db/types';

export interface TestDatabase {
  /** As the app role, which owns nothing: what the app server connects as. */
  db: Db;
  pool: pg.Pool;
  url: string;
  /** As the tables' owner, for what the app may not do (lifting the audit trail's trigger to tamper). */
  ownerPool: pg.Pool;
  ownerDb: Db;
  ownerUrl: string;
  drop(): Promise<void>;
}

/** A private copy of the seeded template database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const templateUrl = new URL(inject('templateDatabaseUrl'));
  const template = templateUrl.pathname.slice(1);
  const name = `test_${randomBytes(6).toString('hex')}`;
  const adminUrl = new URL(templateUrl);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  // FILE_COPY copies the template's files; the default (WAL_LOG, since PostgreSQL 15, which the strategy
  // option also needs) writes every block of it through the WAL, which for the 21 MB template took two to
  // four times as long. FILE_COPY's checkpoint is what makes it costly on a busy production server, and the
  // tests' server does not wait for the disk (global-setup.ts).
  await admin.query(`create database ${name} template ${template} strategy file_copy`);
  await admin.end();
  const url = new URL(inject('templateAppDatabaseUrl'));
  url.pathname = `/${name}`;
  const ownerUrl = new URL(templateUrl);
  ownerUrl.pathname = `/${name}`;
  const pool = poolFor(url.toString(), 5);
  const ownerPool = poolFor(ownerUrl.toString(), 2);
  return {
    db: drizzle(pool),
    pool,
    url: url.toString(),
    ownerPool,
    ownerDb: drizzle(ownerPool),
    ownerUrl: ownerUrl.toString(),
    drop: async () => {
      await pool.end();
      await ownerPool.end();
      const client = new pg.Client({ connectionString: adminUrl.toString() });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
