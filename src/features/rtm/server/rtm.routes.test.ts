import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirementListSchema, verificationSchema, type Verification } from '../rtm.schema';
import { withAuditEntryTampered } from '@/testing/audit-tamper';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { contrastRatio, customProperties, sharePercent } from './rtm.verify';

let t: TestApp;
let doctor: SignedIn;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await signInAs(t.app, 'doctor');
  admin = await signInAs(t.app, 'admin');
});
afterAll(async () => {
  await t.close();
});

async function verify(session: SignedIn, reqId: string): Promise<Verification> {
  const response = await session.request({ method: 'POST', url: `/api/rtm/verify/${encodeURIComponent(reqId)}` });
  expect(response.statusCode, response.body).toBe(200);
  return verificationSchema.parse(response.json());
}

async function clinicCounts() {
  const result = await t.database.db.execute(sql`select
    (select count(*)::int from patients) as patients, (select count(*)::int from sessions) as sessions,
    (select count(*)::int from claim_appeals) as appeals,
    (select string_agg(status, ',' order by id) from appointments) as appointment_statuses,
    (select string_agg(status, ',' order by id) from authorizations) as authorization_statuses,
    (select string_agg(status, ',' order by id) from claims) as claim_statuses,
    (select count(*)::int from sign_in_lockouts) as lockouts, (select count(*)::int from sign_in_challenges) as challenges`);
  return result.rows[0];
}

describe('GET /api/rtm/requirements', () => {
  it('lists the fixed 20 requirements R 001 … R 020 with their fixed topics', async () => {
    const response = await doctor.request({ method: 'GET', url: '/api/rtm/requirements' });
    expect(response.statusCode).toBe(200);
    const list = requirementListSchema.parse(response.json());
    expect(list.map((r) => r.reqId)).toEqual(
      Array.from({ length: 20 }, (_, i) => `R ${String(i + 1).padStart(3, '0')}`),
    );
    const text = list.map((r) => r.description.toLowerCase()).join(' | ');
    for (const topic of [
      'data scope',
      'phi masking',
      'multi-factor',
      'session timeout',
      'audit logging',
      '12-hour',
      'high-contrast',
    ]) {
      expect(text).toContain(topic);
    }
    expect(new Set(list.map((r) => r.testId)).size).toBe(20);
  });

  it('is open to doctor, billing admin and admin only', async () => {
    for (const role of ['billing_admin', 'admin'] as const) {
      const session = await signInAs(t.app, role);
      expect((await session.request({ method: 'GET', url: '/api/rtm/requirements' })).statusCode).toBe(200);
    }
    for (const role of ['guest', 'nurse_manager', 'patient'] as const) {
      const session = await signInAs(t.app, role);
      expect((await session.request({ method: 'GET', url: '/api/rtm/requirements' })).statusCode, role).toBe(403);
      const verifyResponse = await session.request({ method: 'POST', url: '/api/rtm/verify/R%20001' });
      expect(verifyResponse.statusCode, role).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/rtm/requirements' })).statusCode).toBe(401);
  });
});

describe('POST /api/rtm/verify/:reqId on a healthy system', () => {
  it('verifies all 20 requirements for real, changing no clinic data, and audits each verification', async () => {
    const before = await clinicCounts();
    const results: Verification[] = [];
    for (let i = 1; i <= 20; i += 1) results.push(await verify(admin, `R ${String(i).padStart(3, '0')}`));
    const failed = results.filter((r) => !r.passed).map((r) => `${r.reqId} ${r.result}: ${r.detail}`);
    expect(failed).toEqual([]);
    expect(await clinicCounts()).toEqual(before);

    const byId = new Map(results.map((r) => [r.reqId, r]));
    expect(byId.get('R 001')?.result).toBe('0');
    expect(byId.get('R 002')?.result).toBe('100%');
    expect(byId.get('R 002')?.detail).toMatch(/^\d+ of \d+ \(role, patient, field\)/);
    expect(byId.get('R 004')?.result).toBe('15 min');
    expect(byId.get('R 007')?.detail).toContain("'1:30 PM'");
    expect(byId.get('R 008')?.result).toMatch(/^\d+(\.\d)?%$/);
    expect(byId.get('R 015')?.result).toBe('0');

    const audited = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_log where action = 'rtm.verify' and actor = 'admin@healthcare.demo'`,
    );
    expect(audited.rows[0]?.n).toBe(20);
  });

  it('keeps R 006, the full audit chain walk, to roles with audit:verify: doctor and billing admin get 403, audited', async () => {
    const billing = await signInAs(t.app, 'billing_admin');
    for (const [role, session] of [
      ['doctor', doctor],
      ['billing_admin', billing],
    ] as const) {
      const response = await session.request({ method: 'POST', url: '/api/rtm/verify/R%20006' });
      expect(response.statusCode, role).toBe(403);
      expect(response.json(), role).toMatchObject({ error: { code: 'FORBIDDEN' } });
      // Their other verifications still run.
      expect((await verify(session, 'R 005')).reqId, role).toBe('R 005');
    }
    const refused = await t.database.db.execute<{ actor: string }>(
      sql`select actor from audit_log where action = 'access.denied' and resource = 'POST /api/rtm/verify/R 006' order by id`,
    );
    expect(refused.rows.map((r) => r.actor)).toEqual(['doctor@healthcare.demo', 'billing.admin@healthcare.demo']);
    expect((await verify(admin, 'R 006')).passed).toBe(true);
  });

  it('answers 404 for an unknown requirement and 400 for a malformed id', async () => {
    expect((await doctor.request({ method: 'POST', url: '/api/rtm/verify/R%20099' })).statusCode).toBe(404);
    expect((await doctor.request({ method: 'POST', url: '/api/rtm/verify/nope' })).statusCode).toBe(400);
  });
});

describe('POST /api/rtm/verify/:reqId on a broken system', () => {
  it('fails R 006 when an audit entry was tampered with, naming the entry', async () => {
    const target = await t.database.db.execute<{ id: number }>(sql`select min(id) + 10 as id from audit_log`);
    const id = Number(target.rows[0]?.id);
    const result = await withAuditEntryTampered(
      t.database.ownerPool,
      id,
      { column: 'actor', value: 'someone-else' },
      () => verify(admin, 'R 006'),
    );
    expect(result.passed).toBe(false);
    expect(result.detail).toContain(`breaks at entry #${id} (modified)`);
    expect(result.result).not.toBe('100%');
    // Put back, the chain verifies again: the file's other tests see an intact system.
    expect((await verify(admin, 'R 006')).passed).toBe(true);
  });

  it('fails R 019 when an account holds a password that is not an argon2id hash', async () => {
    const guest = sql`email = 'guest@healthcare.demo'`;
    const saved = await t.database.db.execute<{ password_hash: string }>(
      sql`select password_hash from users where ${guest}`,
    );
    await t.database.db.execute(sql`update users set password_hash = 'plain-text' where ${guest}`);
    try {
      const result = await verify(doctor, 'R 019');
      expect(result.passed).toBe(false);
      expect(result.detail).toMatch(/^(\d+) of (\d+) accounts/);
      const [, good, total] = /^(\d+) of (\d+)/.exec(result.detail) ?? [];
      expect(Number(good)).toBe(Number(total) - 1);
    } finally {
      await t.database.db.execute(sql`update users set password_hash = ${saved.rows[0]?.password_hash} where ${guest}`);
    }
  });

  it('fails R 004 when the idle timeout is configured longer than 15 minutes', async () => {
    const loose = await createTestApp({ sessionIdleMinutes: 30 });
    try {
      const session = await signInAs(loose.app, 'admin');
      const result = await verify(session, 'R 004');
      expect(result).toMatchObject({ passed: false, result: '30 min' });
    } finally {
      await loose.close();
    }
  });
});

describe('measuring helpers', () => {
  it('never shows a share short of all as 100%', () => {
    expect(sharePercent(999, 1000)).toBe('99.9%');
    expect(sharePercent(1999, 2000)).toBe('99.9%');
    expect(sharePercent(20, 20)).toBe('100%');
    expect(sharePercent(0, 0)).toBe('n/a');
  });

  it('computes WCAG contrast ratios and reads theme variables from minified CSS', () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([0x47, 0x55, 0x69], [255, 255, 255])).toBeCloseTo(7.58, 1);
    const css = ':root,:host{--font:x}:root{--background:#fff;--foreground:#0f172a}.high-contrast{--foreground:#000}';
    expect(Object.fromEntries(customProperties(css, ':root'))).toEqual({ background: '#fff', foreground: '#0f172a' });
    expect(Object.fromEntries(customProperties(css, '.high-contrast'))).toEqual({ foreground: '#000' });
  });
});
