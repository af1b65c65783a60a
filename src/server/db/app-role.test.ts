import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordNow } from '@/features/audit/server/audit.queries';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { APP_ROLE, privilegesOfCurrentRole } from './app-role';
import { prepareDatabase } from './client';
import { clearClinicData } from './seed/demo-seed';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

/** The SQLSTATE a statement run as the app role fails with, or null when it succeeds. */
async function refusal(statement: string): Promise<string | null> {
  const client = await database.pool.connect();
  try {
    await client.query('begin');
    await client.query(statement);
    return null;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  } finally {
    await client.query('rollback');
    client.release();
  }
}

const INSUFFICIENT_PRIVILEGE = '42501';

describe('the role the app connects as', () => {
  it('is the app role, no superuser, and owns nothing', async () => {
    expect(await privilegesOfCurrentRole(database.pool)).toEqual({
      role: APP_ROLE,
      superuser: false,
      bypassesRowSecurity: false,
      ownedObjects: 0,
    });
  });

  it('cannot lift the audit trail’s append-only trigger, alter its table or skip triggers', async () => {
    expect(await refusal('alter table audit_log disable trigger audit_log_no_update_delete')).toBe(
      INSUFFICIENT_PRIVILEGE,
    );
    expect(await refusal('alter table audit_log disable trigger all')).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await refusal('drop trigger audit_log_no_update_delete on audit_log')).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await refusal("set session_replication_role = 'replica'")).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await refusal('create table public.anything (id int)')).toBe(INSUFFICIENT_PRIVILEGE);
    expect(
      await refusal(
        'create or replace function audit_log_refuse_change() returns trigger language plpgsql as $$ begin return new; end $$',
      ),
    ).toBe(INSUFFICIENT_PRIVILEGE);
  });

  it('may read and append to the audit trail but not change, delete or empty it', async () => {
    const before = await database.pool.query<{ n: string }>('select count(*) as n from audit_log');
    await recordNow(database.db, { actor: 'system', action: 'test.append', resource: 'audit_log', at: new Date() });
    const after = await database.pool.query<{ n: string }>('select count(*) as n from audit_log');
    expect(Number(after.rows[0]!.n)).toBe(Number(before.rows[0]!.n) + 1);

    // Refused by privilege, before the trigger is even reached.
    expect(await refusal("update audit_log set detail = 'x'")).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await refusal('delete from audit_log')).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await refusal('truncate audit_log')).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await refusal("select restart_identity_of('audit_log')")).toBe(INSUFFICIENT_PRIVILEGE);
  });

  it('restarts the ids of emptied tables only, and a rolled-back reset leaves the ids where they were', async () => {
    expect(await refusal("select restart_identity_of('claims')")).toBe('55000'); // not empty

    const maxClaimId = async () =>
      Number((await database.pool.query<{ id: string }>('select max(id) as id from claims')).rows[0]!.id);
    const idsBefore = await maxClaimId();
    await expect(
      database.db.transaction(async (tx) => {
        await clearClinicData(tx);
        const { rows } = await tx.execute<{ id: number }>(
          sql`select nextval(pg_get_serial_sequence('claims', 'id')) as id`,
        );
        expect(Number(rows[0]!.id)).toBe(1);
        throw new Error('abandon the reset');
      }),
    ).rejects.toThrow('abandon the reset');
    expect(await maxClaimId()).toBe(idsBefore);
    const { rows } = await database.pool.query<{ id: string }>(
      "select nextval(pg_get_serial_sequence('claims', 'id')) as id",
    );
    expect(Number(rows[0]!.id)).toBeGreaterThan(idsBefore);
  });
});

describe('preparing the database', () => {
  it('warns when the app would connect as the tables’ owner', async () => {
    // DATABASE_URL naming the owner, without MIGRATION_DATABASE_URL.
    expect(await prepareDatabase(database.ownerUrl, database.ownerUrl)).toMatch(
      /connects to PostgreSQL as "\w+", which (is a superuser|owns the tables).*MIGRATION_DATABASE_URL/,
    );
    expect(await prepareDatabase(database.ownerUrl, database.url)).toBeNull();
  });
});
