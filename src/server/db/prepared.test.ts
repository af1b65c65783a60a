/**
 * executePrepared: hot list reads as named statements that each connection plans once (docs/performance.md,
 * "Planning the hot reads once"). Read back from pg_prepared_statements on the one connection of a
 * single-connection pool: which statements it holds, and how many generic and custom plans each one ran.
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAppointmentsOn } from '@/features/appointments/server/appointments.queries';
import { appointmentDayQuerySchema } from '@/features/appointments/appointments.schema';
import { listOwnRecentClaims } from '@/features/claims/server/claims.portal.queries';
import { listAuthorizations } from '@/features/authorizations/server/authorizations.queries';
import { authorizationQuerySchema } from '@/features/authorizations/authorizations.schema';
import { getStaffStatement } from '@/features/billing/server/billing.queries';
import { getClaimDetail } from '@/features/claims/server/claims.detail.queries';
import { listClaims } from '@/features/claims/server/claims.queries';
import { claimListQuerySchema } from '@/features/claims/claims.schema';
import { pageOverdueFollowUps } from '@/features/worklist/server/worklist.queries';
import { worklistPageQuerySchema } from '@/features/worklist/worklist.schema';
import type { RequestContext } from '@/server/context';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { TEST_TODAY } from '@/testing/test-clock';
import { executePrepared, literalLimit, statementName } from './prepared';
import type { Db } from './types';

let database: TestDatabase;
let onePool: pg.Pool;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await onePool.end();
  await database.drop();
});

/** A fresh single connection for each test: pg_prepared_statements is per connection. */
async function oneConnection(): Promise<Db> {
  if (onePool) await onePool.end();
  onePool = new pg.Pool({ connectionString: database.url, max: 1 });
  db = drizzle(onePool);
  return db;
}

type PreparedRow = { name: string; statement: string; generic_plans: string; custom_plans: string };

async function preparedStatements(on: Db): Promise<PreparedRow[]> {
  return (
    await on.execute<PreparedRow>(
      sql`select name, statement, generic_plans::text, custom_plans::text from pg_prepared_statements`,
    )
  ).rows;
}

describe('executePrepared', () => {
  it('answers as db.execute does, dates and timestamps as text', async () => {
    const on = await oneConnection();
    const statement = sql`select id, dob, created_at as "createdAt" from patients order by id ${literalLimit(3)}`;
    const plain = (await on.execute(statement)).rows;
    const prepared = (await executePrepared(on, statement)).rows;
    expect(plain).toHaveLength(3);
    expect(prepared).toEqual(plain);
    expect(typeof (prepared[0] as { dob: unknown }).dob).toBe('string');
  });

  it('prepares one statement per text on a connection, named by its text, and reuses it', async () => {
    const on = await oneConnection();
    const byMrn = (mrn: string) => sql`select id from patients where mrn = ${mrn} ${literalLimit(1)}`;
    const [first] = (await on.execute<{ mrn: string }>(sql`select mrn from patients order by id limit 1`)).rows;
    for (let run = 0; run < 8; run += 1) {
      expect((await executePrepared(on, byMrn(first?.mrn ?? ''))).rows).toHaveLength(1);
    }
    await executePrepared(on, sql`select id from patients where mrn = ${'none'} ${literalLimit(2)}`);
    const held = await preparedStatements(on);
    expect(held).toHaveLength(2);
    const reused = held.find((s) => s.statement.includes('limit 1'));
    expect(reused?.name).toBe(statementName(reused?.statement ?? ''));
    // Eight runs of one statement: planned afresh for the first five, then its generic plan kept.
    expect(Number(reused?.custom_plans) + Number(reused?.generic_plans)).toBe(8);
    expect(Number(reused?.generic_plans)).toBeGreaterThan(0);
  });

  it('names different texts differently, in PostgreSQL’s 63-byte limit', () => {
    const a = statementName('select 1');
    expect(a).toMatch(/^p_[\w-]{27}$/);
    expect(statementName('select 1')).toBe(a);
    expect(statementName('select 2')).not.toBe(a);
  });

  it('writes only whole, non-negative numbers as a LIMIT', () => {
    expect(() => literalLimit(1.5)).toThrow(RangeError);
    expect(() => literalLimit(-1)).toThrow(RangeError);
    expect(() => literalLimit(Number.NaN)).toThrow(RangeError);
  });
});

async function adminContext(on: Db): Promise<RequestContext> {
  const [admin] = (
    await on.execute<{ id: number; email: string; name: string }>(
      sql`select id, email, name from users where role = 'admin' and active order by id limit 1`,
    )
  ).rows;
  if (!admin) throw new Error('the test database has no admin');
  return {
    user: { id: Number(admin.id), email: admin.email, name: admin.name, role: 'admin', patientId: null },
    now: new Date(`${TEST_TODAY}T12:00:00Z`),
  };
}

async function patientWithMostClaims(on: Db): Promise<number> {
  const [patient] = (
    await on.execute<{ id: number }>(sql`select patient_id as id from claims group by 1 order by count(*) desc limit 1`)
  ).rows;
  if (!patient) throw new Error('the test database has no claims');
  return Number(patient.id);
}

/**
 * Loads a page eight times on one connection (each answer equal to the first), then finds its prepared
 * statement by `marker`: its LIMIT is in its text, and PostgreSQL ran it on its generic plan.
 */
async function expectPlannedOnce<T>(on: Db, load: () => Promise<T>, marker: string, limit: number): Promise<T> {
  const first = await load();
  for (let run = 0; run < 7; run += 1) expect(await load()).toEqual(first);
  const page = (await preparedStatements(on)).find((s) => s.statement.includes(marker));
  expect(page?.statement).toContain(`limit ${limit}`);
  expect(Number(page?.generic_plans)).toBeGreaterThan(0);
  return first;
}

describe('the Claims list', () => {
  it('plans a page once per connection and then runs it on its generic plan', async () => {
    const on = await oneConnection();
    const ctx = await adminContext(on);
    const query = claimListQuerySchema.parse({ limit: '25' });
    await expectPlannedOnce(on, () => listClaims(on, ctx, query), 'page.*', 26);
  });

  it('plans a text search afresh each time (not prepared)', async () => {
    const on = await oneConnection();
    const ctx = await adminContext(on);
    await listClaims(on, ctx, claimListQuerySchema.parse({ limit: '25', search: '99213' }));
    expect((await preparedStatements(on)).filter((s) => s.statement.includes('page.*'))).toEqual([]);
  });
});

describe('a claim opened', () => {
  it('reads its header and lists in one named statement that lists its columns, on its generic plan', async () => {
    const on = await oneConnection();
    const ctx = await adminContext(on);
    const [claim] = (await on.execute<{ id: number }>(sql`select id from claims order by id limit 1`)).rows;
    const first = await getClaimDetail(on, ctx, Number(claim?.id));
    for (let run = 0; run < 7; run += 1) {
      const again = await getClaimDetail(on, ctx, Number(claim?.id));
      expect({ ...again, history: [] }).toEqual({ ...first, history: [] });
    }
    const held = await preparedStatements(on);
    // The header with its lines, scrubs, appeals, changes and submissions; the policies billed after it.
    expect(held.filter((s) => s.statement.includes('claim_lines'))).toHaveLength(1);
    // A prepared `select *` would fail ("cached plan must not change result type") after a migration adds a column.
    expect(held.filter((s) => /\*\s*,|\.\*/.test(s.statement))).toEqual([]);
    const header = held.find((s) => s.statement.includes('service_day'));
    expect(Number(header?.generic_plans)).toBeGreaterThan(0);
  });
});

describe('the Authorizations list', () => {
  const pagesHeld = async (on: Db) =>
    (await preparedStatements(on)).filter((s) => s.statement.includes('"authNumber"'));

  it('plans a page once per connection and then runs it on its generic plan', async () => {
    const on = await oneConnection();
    const ctx = await adminContext(on);
    const query = authorizationQuerySchema.parse({ limit: '20' });
    await expectPlannedOnce(on, () => listAuthorizations(on, ctx, query), '"authNumber"', 21);
  });

  it('plans a text search or a jump by offset afresh each time (not prepared)', async () => {
    const on = await oneConnection();
    const ctx = await adminContext(on);
    await listAuthorizations(on, ctx, authorizationQuerySchema.parse({ limit: '20', search: 'MRI' }));
    await listAuthorizations(on, ctx, authorizationQuerySchema.parse({ limit: '20', offset: '20' }));
    expect(await pagesHeld(on)).toEqual([]);
  });
});

describe('the overdue follow-ups worklist', () => {
  it('plans a page once per connection and then runs it on its generic plan', async () => {
    const on = await oneConnection();
    const ctx = await adminContext(on);
    const query = worklistPageQuerySchema.parse({ limit: '20' });
    const first = await expectPlannedOnce(on, () => pageOverdueFollowUps(on, ctx, query), '"encounterId"', 21);
    expect(first.items.length).toBeGreaterThan(0);
  });
});

describe('a billing statement', () => {
  it('reads its patient, claims, payments and letterhead in one named statement, on its generic plan', async () => {
    const on = await oneConnection();
    const ctx = await adminContext(on);
    const patientId = await patientWithMostClaims(on);
    const statement = await getStaffStatement(on, ctx, patientId, 'view');
    expect(statement.claims.length).toBeGreaterThan(0);
    for (let run = 0; run < 7; run += 1) {
      expect(await getStaffStatement(on, ctx, patientId, 'view')).toEqual(statement);
    }
    const held = (await preparedStatements(on)).filter((s) => s.statement.includes('json_agg'));
    expect(held).toHaveLength(1);
    expect(Number(held[0]?.generic_plans)).toBeGreaterThan(0);
  });
});

describe("a day's schedule", () => {
  it('plans a page once per connection and then runs it on its generic plan', async () => {
    const on = await oneConnection();
    const ctx = await adminContext(on);
    const [busiest] = (
      await on.execute<{ date: string }>(
        sql`select date::text as date from appointments group by date order by count(*) desc, date limit 1`,
      )
    ).rows;
    // The schedule is read within a year of the request's day (appointmentDayProblem).
    const query = appointmentDayQuerySchema.parse({ date: busiest?.date, limit: '20' });
    const page = await expectPlannedOnce(
      on,
      () => listAppointmentsOn(on, { ...ctx, now: new Date(`${query.date}T12:00:00Z`) }, query),
      '"providerId"',
      21,
    );
    expect(page.items.length).toBeGreaterThan(0);
  });
});

describe("the portal's claims", () => {
  it('plans its page once per connection and then runs it on its generic plan', async () => {
    const on = await oneConnection();
    const ctx = await adminContext(on);
    const own = { ...ctx, user: { ...ctx.user, role: 'patient' as const, patientId: await patientWithMostClaims(on) } };
    const claims = await expectPlannedOnce(on, () => listOwnRecentClaims(on, own, 5), 'patient_paid', 5);
    expect(claims.length).toBeGreaterThan(0);
  });
});
