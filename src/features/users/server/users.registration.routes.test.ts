import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, cookieFrom, signInAs, type TestApp } from '@/testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function scalar(query: string, params: unknown[] = []): Promise<number> {
  const result = await t.database.pool.query<{ n: string }>(query, params);
  return Number(result.rows[0]?.n ?? 0);
}

async function counts() {
  return {
    patients: await scalar('select count(*) as n from patients'),
    users: await scalar('select count(*) as n from users'),
    settings: await scalar('select count(*) as n from user_settings'),
    audit: await scalar("select count(*) as n from audit_log where action = 'auth.register'"),
  };
}

const valid = {
  name: 'Rosa Delgado',
  dob: '1988-09-17',
  phone: '(555) 412-9087',
  email: 'Rosa.Delgado@Example.com',
  password: 'a-long-enough-passphrase',
};

function register(payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/auth/register', payload });
}

async function signIn(email: string, password: string) {
  const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (login.statusCode !== 200) return { status: login.statusCode, user: null, sid: undefined };
  const { challengeId, demoCode } = login.json<{ challengeId: string; demoCode: string }>();
  const mfa = await t.app.inject({ method: 'POST', url: '/api/auth/mfa', payload: { challengeId, code: demoCode } });
  return {
    status: mfa.statusCode,
    user: mfa.json<{ user: { role: string; patientId: number; email: string } }>().user,
    sid: cookieFrom(mfa),
  };
}

describe('POST /api/auth/register', () => {
  it('creates a patient record and a linked patient user in one go; the account then signs in', async () => {
    const before = await counts();
    const res = await register(valid);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ email: 'rosa.delgado@example.com' });
    expect(await counts()).toEqual({
      patients: before.patients + 1,
      users: before.users + 1,
      settings: before.settings + 1,
      audit: before.audit + 1,
    });

    const { rows } = await t.database.pool.query<{
      role: string;
      password_hash: string;
      name: string;
      dob: string;
      phone: string;
      mrn: string;
      patient_email: string;
      patient_id: number;
    }>(
      `select u.role, u.password_hash, p.name, p.dob::text as dob, p.phone, p.mrn, p.email as patient_email, p.id as patient_id
       from users u join patients p on p.id = u.patient_id where u.email = 'rosa.delgado@example.com'`,
    );
    const row = rows[0]!;
    expect(row).toMatchObject({ role: 'patient', name: valid.name, dob: valid.dob, phone: valid.phone });
    expect(row.mrn).toMatch(/^MRN-W\d{8}$/);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(valid.password);
    const audited = await t.database.pool.query<{ actor: string; patient_id: number; detail: string }>(
      "select actor, patient_id, detail from audit_log where action = 'auth.register' order by id desc limit 1",
    );
    expect(audited.rows[0]).toMatchObject({ actor: 'rosa.delgado@example.com', patient_id: row.patient_id });
    expect(audited.rows[0]?.detail).not.toContain(valid.password);

    // Both sign-in steps work with the new account, in any letter case of the email.
    const session = await signIn('ROSA.DELGADO@example.com', valid.password);
    expect(session.status).toBe(200);
    expect(session.user).toMatchObject({ role: 'patient', patientId: row.patient_id });
    expect(session.sid).toBeTruthy();
  });

  it('refuses an email that is taken, in any letter case, with a neutral 409 naming email; nothing is written', async () => {
    const before = await counts();
    for (const email of ['ROSA.DELGADO@EXAMPLE.COM', 'admin@healthcare.demo']) {
      const res = await register({ ...valid, email });
      expect(res.statusCode).toBe(409);
      const body = res.json<{ error: { message: string; fields: { field: string; message: string }[] } }>();
      expect(body.error.fields.map((f) => f.field)).toEqual(['email']);
      expect(body.error.message).not.toMatch(/admin|patient|exists/i);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a password under 12 characters, naming the field; nothing is written', async () => {
    const before = await counts();
    const res = await register({ ...valid, email: 'short.pw@example.com', password: 'elevenchars' });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: { fields: { field: string; message: string }[] } }>();
    expect(body.error.fields).toEqual([{ field: 'password', message: 'must be at least 12 characters' }]);
    expect(await counts()).toEqual(before);
    expect((await signIn('short.pw@example.com', 'elevenchars')).status).toBe(401);
  });

  for (const field of ['name', 'dob', 'phone', 'email', 'password'] as const) {
    it(`refuses a registration without ${field}, naming it; nothing is written`, async () => {
      const before = await counts();
      const payload: Record<string, string> = { ...valid, email: `missing.${field}@example.com` };
      delete payload[field];
      const res = await register(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields.map((f) => f.field)).toEqual([field]);
      expect(await counts()).toEqual(before);
    });
  }

  it('refuses an email that is not an email and a date of birth in the future', async () => {
    const bad = await register({ ...valid, email: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('email');
    const future = await register({ ...valid, email: 'future@example.com', dob: '2999-01-01' });
    expect(future.statusCode).toBe(400);
    expect(future.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('dob');
  });

  it('works from the signed-in guest landing too (CSRF token sent), and the guest session stays a guest', async () => {
    const guest = await signInAs(t.app, 'guest');
    const res = await guest.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...valid, email: 'from.guest@example.com' },
    });
    expect(res.statusCode).toBe(201);
    const session = await guest.request({ method: 'GET', url: '/api/auth/session' });
    expect(session.json<{ user: { role: string } }>().user.role).toBe('guest');
    const detail = await t.database.pool.query<{ detail: string }>(
      "select detail from audit_log where action = 'auth.register' and actor = 'from.guest@example.com'",
    );
    expect(detail.rows[0]?.detail).toContain('guest');
  });
});
