import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { users } from '@/features/auth/server/auth.table';
import { loadMfaKey } from '@/features/auth/server/auth.mfa-crypto';
import { runUserCreate } from '@/features/users/server/users.cli';
import { TEST_TODAY } from '@/testing/test-clock';
import { migrateDatabase, poolFor } from './db/client';
import type { Db } from './db/types';
import { demoModeExposureWarning, seedOnFirstStart, warnIfDemoModeExposed } from './startup';

// A brand-new database with the migrations only: what a first start outside demo mode finds.
let pool: pg.Pool;
let db: Db;
let adminUrl: URL;
const name = `startup_${process.pid}_${Date.now()}`;
beforeAll(async () => {
  adminUrl = new URL(inject('templateDatabaseUrl'));
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  pool = poolFor(url.toString(), 2);
  await migrateDatabase(pool);
  db = drizzle(pool);
});
afterAll(async () => {
  await pool.end();
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

const quietLog = () => {
  const lines: { level: 'info' | 'warn'; message: string }[] = [];
  return {
    lines,
    info: (message: string) => lines.push({ level: 'info', message }),
    warn: (message: string) => lines.push({ level: 'warn', message }),
  };
};

describe('first start outside demo mode', () => {
  it('seeds no demo accounts; npm run user:create makes the first admin with a 72-hour temporary password', async () => {
    const log = quietLog();
    expect(await seedOnFirstStart(db, { demoMode: false, now: new Date(`${TEST_TODAY}T09:00:00Z`), log })).toBeNull();
    const [before] = await db.select({ n: count() }).from(users);
    expect(before?.n).toBe(0);
    expect(log.lines[0]?.message).toContain('npm run user:create -- --role admin --email');

    const now = new Date(`${TEST_TODAY}T09:00:00Z`);
    await expect(runUserCreate(db, ['--role', 'admin'], now)).rejects.toThrow('--email: is required');
    await expect(runUserCreate(db, ['--role', 'patient', '--email', 'p@clinic.example'], now)).rejects.toThrow(
      '--role: cannot be patient',
    );
    const created = await runUserCreate(db, ['--role', 'admin', '--email', 'Owner@Clinic.example'], now);
    expect(created.temporaryPassword).toMatch(/^[A-Za-z0-9]{4}(-[A-Za-z0-9]{4}){3}$/);
    const [admin] = await db.select().from(users);
    expect(admin).toMatchObject({ email: 'owner@clinic.example', role: 'admin', active: true, mfaSecret: null });
    expect(admin?.temporaryPasswordExpiresAt?.toISOString()).toBe('2026-11-25T09:00:00.000Z');
    // Once an account exists nothing is seeded on later starts either.
    expect(await seedOnFirstStart(db, { demoMode: true, now: new Date(`${TEST_TODAY}T09:00:00Z`), log })).toBeNull();
  });
});

describe('demo mode reachable from other machines', () => {
  it('logs a warning when demo mode is on and HOST is not loopback', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'clinic.example']) {
      const log = quietLog();
      warnIfDemoModeExposed(log, true, host);
      expect(log.lines.map((l) => l.level)).toEqual(['warn']);
      expect(log.lines[0]?.message).toContain('DEMO MODE IS ON');
      expect(log.lines[0]?.message).toContain(host);
    }
    for (const host of ['127.0.0.1', '::1', 'localhost']) expect(demoModeExposureWarning(true, host)).toBeNull();
    expect(demoModeExposureWarning(false, '0.0.0.0')).toBeNull();
  });
});

describe('the MFA encryption key', () => {
  it('comes from MFA_ENCRYPTION_KEY, or is created once in the data folder readable by its owner only', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mfa-key-'));
    const fromEnv = Buffer.alloc(32, 7).toString('base64');
    expect((await loadMfaKey({ MFA_ENCRYPTION_KEY: fromEnv }, dir)).key).toEqual(Buffer.alloc(32, 7));
    await expect(loadMfaKey({ MFA_ENCRYPTION_KEY: 'c2hvcnQ=' }, dir)).rejects.toThrow(
      'MFA_ENCRYPTION_KEY must be 32 bytes in base64',
    );
    const first = await loadMfaKey({}, dir);
    const file = path.join(dir, 'mfa-encryption.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(first.key).toHaveLength(32);
    expect((await loadMfaKey({}, dir)).key).toEqual(first.key);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.key.toString('base64'));
  });
});
