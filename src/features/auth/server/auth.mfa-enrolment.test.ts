import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { auditLog } from '@/features/audit/server/audit.table';
import { createTestApp, cookieFrom, demoAccount, signInAs, type TestApp } from '@/testing/test-app';
import { mfaRecoveryCodes, users } from './auth.table';
import { totpAt } from './auth.totp';

// Demo mode off: the seeded demo accounts have no authenticator yet, as a fresh production account.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoMode: false });
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, payload: object, cookies?: Record<string, string>) =>
  t.app.inject({ method: 'POST', url, payload, ...(cookies ? { cookies } : {}) });

async function password(role: Parameters<typeof demoAccount>[0]) {
  const account = demoAccount(role);
  const res = await post('/api/auth/login', { email: account.email, password: account.password });
  expect(res.statusCode).toBe(200);
  return res.json<{ challengeId: string; demoCode?: string; enrolmentRequired?: boolean }>();
}

/** Password, enrolment start and confirm: the secret and recovery codes the account now has. */
async function enrol(role: Parameters<typeof demoAccount>[0]) {
  const { challengeId } = await password(role);
  const start = await post('/api/auth/mfa/enrol/start', { challengeId });
  expect(start.statusCode).toBe(200);
  const { secret } = start.json<{ secret: string }>();
  const confirm = await post('/api/auth/mfa/enrol/confirm', { challengeId, code: totpAt(secret, t.clock()) });
  expect(confirm.statusCode).toBe(200);
  return { secret, recoveryCodes: confirm.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

async function userRow(email: string) {
  const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row;
}

async function lastAudit(action: string) {
  const [row] = await t.database.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

describe('TOTP enrolment at first sign-in (demo mode off)', () => {
  it('asks an account without an authenticator to enrol, shows the secret once as URI and QR code, and refuses a wrong code', async () => {
    const first = await password('doctor');
    expect(first.enrolmentRequired).toBe(true);
    expect(first.demoCode).toBeUndefined();
    // No code was shown: the code step refuses until the account enrols.
    const code = await post('/api/auth/mfa', { challengeId: first.challengeId, code: '123456' });
    expect(code.statusCode).toBe(409);
    expect(code.json<{ error: { code: string; message: string } }>().error.code).toBe('ENROLMENT_REQUIRED');

    const start = await post('/api/auth/mfa/enrol/start', { challengeId: first.challengeId });
    expect(start.statusCode).toBe(200);
    const body = start.json<{ secret: string; otpauthUri: string; qrSvg: string }>();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauthUri).toBe(
      `otpauth://totp/Healthcare%20RCM%3Adoctor%40healthcare.demo?secret=${body.secret}&issuer=Healthcare+RCM&algorithm=SHA1&digits=6&period=30`,
    );
    expect(body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const right = totpAt(body.secret, t.clock());
    const wrong = right === '000000' ? '111111' : '000000';
    const refused = await post('/api/auth/mfa/enrol/confirm', { challengeId: first.challengeId, code: wrong });
    expect(refused.statusCode).toBe(401);
    expect(refused.json<{ error: { code: string; message: string } }>().error.code).toBe('INVALID_CODE');
    expect((await userRow('doctor@healthcare.demo')).mfaSecret).toBeNull();

    const confirmed = await post('/api/auth/mfa/enrol/confirm', { challengeId: first.challengeId, code: right });
    expect(confirmed.statusCode).toBe(200);
    const session = confirmed.json<{ user: { email: string }; recoveryCodes: string[] }>();
    expect(session.user.email).toBe('doctor@healthcare.demo');
    expect(session.recoveryCodes).toHaveLength(10);
    expect(new Set(session.recoveryCodes).size).toBe(10);
    expect(cookieFrom(confirmed)).toBeTruthy();
    expect((await lastAudit('auth.mfa.enrolled'))?.resource).toMatch(/^user\/\d+$/);

    // Enrolled now: the next sign-in asks for the app's code, and the password alone cannot re-enrol.
    const next = await password('doctor');
    expect(next.enrolmentRequired).toBe(false);
    const again = await post('/api/auth/mfa/enrol/start', { challengeId: next.challengeId });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: { code: string; message: string } }>().error.code).toBe('ALREADY_ENROLLED');
  });

  it('stores the secret encrypted: the database column holds neither the base32 secret nor its bytes in plain text', async () => {
    const { secret } = await enrol('billing_admin');
    const row = await userRow('billing.admin@healthcare.demo');
    expect(row.mfaSecret).toBeTruthy();
    expect(row.mfaSecret).not.toContain(secret);
    expect(row.mfaSecret?.toUpperCase()).not.toContain(secret);
    expect(row.mfaSecret).toMatch(/^v1\./);
    // Only hashes of the recovery codes are kept.
    const codes = await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, row.id));
    expect(codes).toHaveLength(10);
  });
});

describe('sign-in with the TOTP code', () => {
  let secret: string;
  beforeAll(async () => {
    ({ secret } = await enrol('nurse_manager'));
    t.clock.advance(60_000); // past the step the enrolment code used
  });

  it('accepts the current code once; the same code again, a wrong one and an expired one are refused', async () => {
    const first = await password('nurse_manager');
    const code = totpAt(secret, t.clock());
    const ok = await post('/api/auth/mfa', { challengeId: first.challengeId, code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<{ user: { role: string } }>().user.role).toBe('nurse_manager');

    const replay = await password('nurse_manager');
    const reused = await post('/api/auth/mfa', { challengeId: replay.challengeId, code });
    expect(reused.statusCode).toBe(401);
    expect(reused.json<{ error: { code: string; message: string } }>().error.code).toBe('INVALID_CODE');

    const wrong = code === '000000' ? '111111' : '000000';
    expect((await post('/api/auth/mfa', { challengeId: replay.challengeId, code: wrong })).statusCode).toBe(401);

    // A code two steps old is outside the ±1 step window.
    t.clock.advance(30_000);
    const expired = totpAt(secret, t.clock(), -2);
    expect((await post('/api/auth/mfa', { challengeId: replay.challengeId, code: expired })).statusCode).toBe(401);
    // One step of drift either side is accepted.
    const drifted = totpAt(secret, t.clock(), 1);
    expect((await post('/api/auth/mfa', { challengeId: replay.challengeId, code: drifted })).statusCode).toBe(200);
  });

  it('takes a recovery code in place of a code, once only', async () => {
    const { recoveryCodes } = await enrol('admin');
    const code = recoveryCodes[0] ?? '';
    const first = await password('admin');
    const ok = await post('/api/auth/mfa', { challengeId: first.challengeId, recoveryCode: code.toLowerCase() });
    expect(ok.statusCode).toBe(200);
    expect((await lastAudit('auth.login.success'))?.detail).toBe('signed in with MFA (a recovery code)');

    const second = await password('admin');
    const reused = await post('/api/auth/mfa', { challengeId: second.challengeId, recoveryCode: code });
    expect(reused.statusCode).toBe(401);
    expect(reused.json<{ error: { code: string; message: string } }>().error.code).toBe('INVALID_CODE');
    const other = await post('/api/auth/mfa', { challengeId: second.challengeId, recoveryCode: recoveryCodes[1] });
    expect(other.statusCode).toBe(200);
  });
});

describe("an admin's MFA reset", () => {
  it('is for admins only, is audited, and makes the user enrol again at next sign-in', async () => {
    // Staff other than admins are refused (signed in with the demo mode's on-screen code, on a second app).
    const demo = await createTestApp();
    try {
      const doctor = await signInAs(demo.app, 'doctor');
      const refused = await doctor.request({ method: 'POST', url: '/api/users/1/mfa-reset' });
      expect(refused.statusCode).toBe(403);
      const admin = await signInAs(demo.app, 'admin');
      const [demoPatient] = await demo.database.db
        .select()
        .from(users)
        .where(eq(users.email, 'patient@healthcare.demo'));
      await demo.database.db
        .update(users)
        .set({ mfaSecret: 'v1.x.y.z' })
        .where(eq(users.id, demoPatient?.id ?? 0));
      const listed = await admin.request({ method: 'GET', url: '/api/users' });
      const shown = (body: { items: { id: number; mfaEnrolled: boolean }[] }) =>
        body.items.find((u) => u.id === demoPatient?.id)?.mfaEnrolled;
      expect(shown(listed.json())).toBe(true);
      const reset = await admin.request({ method: 'POST', url: `/api/users/${demoPatient?.id}/mfa-reset` });
      expect(reset.statusCode).toBe(200);
      expect(reset.json<{ mfaEnrolled: boolean }>().mfaEnrolled).toBe(false);
      const [after] = await demo.database.db
        .select()
        .from(users)
        .where(eq(users.id, demoPatient?.id ?? 0));
      expect(after?.mfaSecret).toBeNull();
      const [entry] = await demo.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'user.mfa.reset'), eq(auditLog.resource, `user/${demoPatient?.id}`)));
      expect(entry?.actor).toBe('admin@healthcare.demo');
      expect(entry?.detail).toContain('enrols again at next sign-in');
    } finally {
      await demo.close();
    }
  });
});
