import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTestsResponseSchema, type RunTestsResponse } from '../selftest.schema';
import { withAuditEntryTampered } from '@/testing/audit-tamper';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t.app, 'admin');
});
afterAll(async () => {
  await t.close();
});

async function run(testType: 'unit' | 'integration'): Promise<RunTestsResponse> {
  const response = await admin.request({ method: 'POST', url: '/api/run-tests', payload: { testType } });
  expect(response.statusCode).toBe(200);
  return runTestsResponseSchema.parse(response.json());
}

function failuresOf(result: RunTestsResponse) {
  return result.tests.filter((test) => test.status !== 'PASS').map((test) => `${test.testId}: ${test.message}`);
}

describe('POST /api/run-tests on a healthy system', () => {
  it('runs the unit checks for real and they all pass', async () => {
    const result = await run('unit');
    expect(failuresOf(result)).toEqual([]);
    expect(result.success).toBe(true);
    expect(result.error).toBeNull();
    expect(result.summary).toEqual({ total: result.tests.length, passed: result.tests.length, failed: 0 });
    expect(result.tests.length).toBeGreaterThanOrEqual(8);
    expect(result.tests.map((test) => test.testId)).toContain('UT-008');
    for (const test of result.tests) {
      expect(test.testId).toMatch(/^UT-\d{3}$/);
      expect(test.module).not.toBe('');
      expect(test.description).not.toBe('');
    }
  });

  it('runs the integration checks over HTTP and they all pass, leaving no session or clinic change behind', async () => {
    const before = await t.database.db.execute<{ sessions: number; patients: number; claims: number }>(
      sql`select (select count(*)::int from sessions) as sessions, (select count(*)::int from patients) as patients,
          (select count(*)::int from claims) as claims`,
    );
    const result = await run('integration');
    expect(failuresOf(result)).toEqual([]);
    expect(result.success).toBe(true);
    expect(result.summary.total).toBeGreaterThanOrEqual(8);
    expect(result.tests.every((test) => /^IT-\d{3}$/.test(test.testId))).toBe(true);
    const after = await t.database.db.execute(
      sql`select (select count(*)::int from sessions) as sessions, (select count(*)::int from patients) as patients,
          (select count(*)::int from claims) as claims`,
    );
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it('leaves the KPI fixture nowhere: the temporary tables and rows are rolled back', async () => {
    await run('unit');
    const fixture = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from claims where account_number like 'SELFTEST-%'`,
    );
    expect(fixture.rows[0]?.n).toBe(0);
  });

  it('audits each run with its counts', async () => {
    await run('unit');
    const entries = await t.database.db.execute<{ detail: string; actor: string }>(
      sql`select detail, actor from audit_log where action = 'selftest.run' order by id desc limit 1`,
    );
    expect(entries.rows[0]?.actor).toBe('admin@healthcare.demo');
    expect(entries.rows[0]?.detail).toMatch(/^unit tests: (\d+)\/\1 passed, 0 failed$/);
  });
});

describe('POST /api/run-tests access', () => {
  it('refuses every other role (403) and callers without a session (401)', async () => {
    for (const role of ['guest', 'nurse_manager', 'doctor', 'billing_admin', 'patient'] as const) {
      const session = await signInAs(t.app, role);
      const response = await session.request({ method: 'POST', url: '/api/run-tests', payload: { testType: 'unit' } });
      expect(response.statusCode, role).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/run-tests', payload: { testType: 'unit' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 400 for an unknown test type', async () => {
    const response = await admin.request({ method: 'POST', url: '/api/run-tests', payload: { testType: 'e2e' } });
    expect(response.statusCode).toBe(400);
  });
});

describe('POST /api/run-tests on a broken system', () => {
  it('reports a failed integration check when an audit entry is tampered with in SQL', async () => {
    // As the database owner a tamperer can switch the append-only trigger off; the hash chain still tells.
    const fourth = await t.database.db.execute<{ id: number }>(sql`select min(id) + 3 as id from audit_log`);
    const result = await withAuditEntryTampered(
      t.database.ownerPool,
      Number(fourth.rows[0]?.id),
      { column: 'detail', value: 'nothing to see here' },
      () => run('integration'),
    );
    expect(result.success).toBe(false);
    expect(result.error).toBeNull();
    const audit = result.tests.find((test) => test.testId === 'IT-009');
    expect(audit?.status).toBe('FAIL');
    expect(audit?.message).toMatch(/the audit chain breaks at entry #\d+ \(position 4\): modified/);
    expect(result.summary.failed).toBe(1);
    expect(result.summary.passed).toBe(result.summary.total - 1);
  });

  it('reports a failed per-role check when a demo account it needs is deactivated', async () => {
    await t.database.db.execute(sql`update users set active = false where email = 'nurse.manager@healthcare.demo'`);
    try {
      const result = await run('integration');
      expect(result.success).toBe(false);
      const perRole = result.tests.find((test) => test.testId === 'IT-003');
      expect(perRole?.status).toBe('FAIL');
      expect(perRole?.message).toContain('nurse.manager@healthcare.demo (nurse_manager) is deactivated');
    } finally {
      await t.database.db.execute(sql`update users set active = true where email = 'nurse.manager@healthcare.demo'`);
    }
  });

  it('reports a failed unit check when the KPI inputs change under the formulas (a column default altered)', async () => {
    // The fixture relies on the claims table's defaults (clean_submission defaults to true); a schema
    // drift that changes them changes what the KPI queries compute, and the self-test must notice.
    await t.database.ownerDb.execute(sql`alter table claims alter column clean_submission set default false`);
    try {
      const result = await run('unit');
      expect(result.success).toBe(false);
      const kpis = result.tests.find((test) => test.testId === 'UT-008');
      expect(kpis?.status).toBe('FAIL');
      expect(kpis?.message).toContain(
        'cleanClaimRate: expected 75, got 0; firstPassResolutionRate: expected 66.7, got 0',
      );
    } finally {
      await t.database.ownerDb.execute(sql`alter table claims alter column clean_submission set default true`);
    }
  });
});
