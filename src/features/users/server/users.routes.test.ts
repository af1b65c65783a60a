import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/features/audit/server/audit.table';
import { cookieFrom, createTestApp, demoAccount, signInAs, type TestApp } from '@/testing/test-app';
import type { CreatedUser, ManagedUser } from '../users.schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Envelope = { error: { code: string; message: string; fields?: { field: string; message: string }[] } };
const fieldsOf = (body: unknown) => (body as Envelope).error.fields?.map((f) => f.field) ?? [];

/** Signs in with any email and password through both steps; null when the password step refuses. */
async function signInWith(app: FastifyInstance, email: string, password: string) {
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (login.statusCode !== 200) return null;
  const { challengeId, demoCode } = login.json<{ challengeId: string; demoCode: string }>();
  const mfa = await app.inject({ method: 'POST', url: '/api/auth/mfa', payload: { challengeId, code: demoCode } });
  expect(mfa.statusCode).toBe(200);
  const sid = cookieFrom(mfa) ?? '';
  const csrf = mfa.json<{ csrfToken: string }>().csrfToken;
  return {
    get: (url: string) => app.inject({ method: 'GET', url, cookies: { sid } }),
    post: (url: string, payload: unknown) =>
      app.inject({
        method: 'POST',
        url,
        payload: payload as object,
        cookies: { sid },
        headers: { 'x-csrf-token': csrf },
      }),
    patch: (url: string, payload: unknown) =>
      app.inject({
        method: 'PATCH',
        url,
        payload: payload as object,
        cookies: { sid },
        headers: { 'x-csrf-token': csrf },
      }),
  };
}

async function auditOf(action: string) {
  return t.database.db.select().from(auditLog).where(eq(auditLog.action, action));
}

describe('user management', () => {
  it('lists every account with its role and status, for admins only', async () => {
    const admin = await signInAs(t.app, 'admin');
    const res = await admin.request({ method: 'GET', url: '/api/users' });
    expect(res.statusCode).toBe(200);
    const items = res.json<{ items: ManagedUser[] }>().items;
    expect(items.map((u) => u.email)).toEqual(
      expect.arrayContaining(['admin@healthcare.demo', 'nurse.manager@healthcare.demo']),
    );
    expect(items.find((u) => u.email === 'doctor@healthcare.demo')).toMatchObject({
      name: 'Dr. Priya Raman',
      role: 'doctor',
      status: 'Active',
    });
    for (const role of ['doctor', 'nurse_manager', 'billing_admin', 'patient', 'guest'] as const) {
      const s = await signInAs(t.app, role);
      expect((await s.request({ method: 'GET', url: '/api/users' })).statusCode).toBe(403);
      const create = await s.request({
        method: 'POST',
        url: '/api/users',
        payload: { name: 'X', email: `x-${role}@example.com`, role: 'admin' },
      });
      expect(create.statusCode).toBe(403);
      expect((await s.request({ method: 'PATCH', url: '/api/users/1', payload: { active: false } })).statusCode).toBe(
        403,
      );
    }
    const [adminRow] = (await admin.request({ method: 'GET', url: '/api/users' }))
      .json<{ items: ManagedUser[] }>()
      .items.filter((u) => u.email === 'admin@healthcare.demo');
    expect(adminRow?.status).toBe('Active');
  });

  it('creates an account whose temporary password signs in with the MFA step; audited without it', async () => {
    const admin = await signInAs(t.app, 'admin');
    const res = await admin.request({
      method: 'POST',
      url: '/api/users',
      payload: { name: 'Alex Chen', email: 'Alex.Chen@Clinic.Example', role: 'billing_admin' },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<CreatedUser>();
    expect(created.user).toMatchObject({ email: 'alex.chen@clinic.example', role: 'billing_admin', status: 'Active' });
    expect(created.temporaryPassword.length).toBeGreaterThanOrEqual(12);

    const alex = await signInWith(t.app, 'alex.chen@clinic.example', created.temporaryPassword);
    expect(alex).not.toBeNull();
    const session = await alex!.get('/api/auth/session');
    expect(session.json()).toMatchObject({
      user: { email: 'alex.chen@clinic.example', role: 'billing_admin' },
      passwordChangeRequired: true,
    });
    // Nothing but a new password until the temporary one is replaced.
    expect((await alex!.get('/api/claims')).statusCode).toBe(403);
    const changed = await alex!.post('/api/account/password', {
      currentPassword: created.temporaryPassword,
      newPassword: 'alex chooses a passphrase',
    });
    expect(changed.statusCode).toBe(200);
    expect((await alex!.get('/api/claims')).statusCode).toBe(200);

    const [entry] = await auditOf('user.create');
    expect(entry?.detail).toContain('alex.chen@clinic.example as billing_admin');
    expect(entry?.detail).not.toContain(created.temporaryPassword);
  });

  it('refuses a duplicate email (409 naming email), a patient role and bad fields (400)', async () => {
    const admin = await signInAs(t.app, 'admin');
    const duplicate = await admin.request({
      method: 'POST',
      url: '/api/users',
      payload: { name: 'Another Doctor', email: 'DOCTOR@healthcare.demo', role: 'doctor' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(fieldsOf(duplicate.json())).toEqual(['email']);
    const patient = await admin.request({
      method: 'POST',
      url: '/api/users',
      payload: { name: 'Pat', email: 'pat@example.com', role: 'patient' },
    });
    expect(patient.statusCode).toBe(400);
    expect(fieldsOf(patient.json())).toEqual(['role']);
    const bad = await admin.request({
      method: 'POST',
      url: '/api/users',
      payload: { name: '', email: 'not-an-email', role: 'superuser' },
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad.json()).sort()).toEqual(['email', 'name', 'role']);
    const empty = await admin.request({ method: 'PATCH', url: '/api/users/2', payload: {} });
    expect(empty.statusCode).toBe(400);
  });

  it('changes a role and ends that user’s sessions; the new role applies at the next sign-in', async () => {
    const admin = await signInAs(t.app, 'admin');
    const created = (
      await admin.request({
        method: 'POST',
        url: '/api/users',
        payload: { name: 'Role Change', email: 'role.change@example.com', role: 'nurse_manager' },
      })
    ).json<CreatedUser>();
    const person = await signInWith(t.app, 'role.change@example.com', created.temporaryPassword);
    expect((await person!.get('/api/auth/session')).json()).toMatchObject({ user: { role: 'nurse_manager' } });

    const res = await admin.request({
      method: 'PATCH',
      url: `/api/users/${created.user.id}`,
      payload: { role: 'doctor' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ role: 'doctor', status: 'Active' });
    expect((await person!.get('/api/auth/session')).json()).toMatchObject({ user: null });
    const again = await signInWith(t.app, 'role.change@example.com', created.temporaryPassword);
    expect((await again!.get('/api/auth/session')).json()).toMatchObject({ user: { role: 'doctor' } });
    const entries = await auditOf('user.update');
    expect(entries.at(-1)?.detail).toBe('role.change@example.com: role nurse_manager -> doctor; 1 session(s) ended');
  });

  it('deactivation ends the sessions and blocks sign-in; reactivation lets the person back in', async () => {
    const admin = await signInAs(t.app, 'admin');
    const nurse = await signInAs(t.app, 'nurse_manager');
    const list = (await admin.request({ method: 'GET', url: '/api/users' })).json<{ items: ManagedUser[] }>().items;
    const nurseId = list.find((u) => u.email === 'nurse.manager@healthcare.demo')!.id;

    const off = await admin.request({ method: 'PATCH', url: `/api/users/${nurseId}`, payload: { active: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ status: 'Deactivated' });
    expect((await nurse.request({ method: 'GET', url: '/api/patients' })).statusCode).toBe(401);
    const account = demoAccount('nurse_manager');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password },
    });
    expect(login.statusCode).toBe(401);

    const on = await admin.request({ method: 'PATCH', url: `/api/users/${nurseId}`, payload: { active: true } });
    expect(on.json()).toMatchObject({ status: 'Active' });
    await expect(signInAs(t.app, 'nurse_manager')).resolves.toBeTruthy();
  });

  it('never demotes or deactivates the last active admin, even at their own request', async () => {
    const admin = await signInAs(t.app, 'admin');
    const list = (await admin.request({ method: 'GET', url: '/api/users' })).json<{ items: ManagedUser[] }>().items;
    const adminId = list.find((u) => u.email === 'admin@healthcare.demo')!.id;
    const demote = await admin.request({ method: 'PATCH', url: `/api/users/${adminId}`, payload: { role: 'doctor' } });
    expect(demote.statusCode).toBe(409);
    expect(demote.json<Envelope>().error.code).toBe('LAST_ADMIN');
    expect(fieldsOf(demote.json())).toEqual(['role']);
    const deactivate = await admin.request({
      method: 'PATCH',
      url: `/api/users/${adminId}`,
      payload: { active: false },
    });
    expect(deactivate.statusCode).toBe(409);
    expect(fieldsOf(deactivate.json())).toEqual(['active']);
    expect((await admin.request({ method: 'GET', url: '/api/users' })).statusCode).toBe(200);

    // With a second admin, the first may step down; then the second is the last one.
    const second = (
      await admin.request({
        method: 'POST',
        url: '/api/users',
        payload: { name: 'Second Admin', email: 'second.admin@example.com', role: 'admin' },
      })
    ).json<CreatedUser>();
    const stepDown = await admin.request({
      method: 'PATCH',
      url: `/api/users/${adminId}`,
      payload: { role: 'doctor' },
    });
    expect(stepDown.statusCode).toBe(200);
    const secondSession = await signInWith(t.app, 'second.admin@example.com', second.temporaryPassword);
    await secondSession!.post('/api/account/password', {
      currentPassword: second.temporaryPassword,
      newPassword: 'the second admin passphrase',
    });
    expect((await secondSession!.get('/api/users')).statusCode).toBe(200);
    // The demo admin's own session ended with the demotion.
    expect((await admin.request({ method: 'GET', url: '/api/users' })).statusCode).toBe(401);
    const selfDemote = await secondSession!.patch(`/api/users/${second.user.id}`, { active: false });
    expect(selfDemote.statusCode).toBe(409);
  });
});

describe('password change', () => {
  it('is refused (403) to the shared guest account, whose Settings have no Security tab', async () => {
    for (const role of ['guest'] as const) {
      const caller = await signInAs(t.app, role);
      const attempt = await caller.request({
        method: 'POST',
        url: '/api/account/password',
        payload: { currentPassword: role, newPassword: 'a-long-enough-passphrase' },
      });
      expect(attempt.statusCode).toBe(403);
    }
  });

  it('refuses a wrong current password (400 naming currentPassword) and a short new one', async () => {
    const doctor = await signInAs(t.app, 'doctor');
    const wrong = await doctor.request({
      method: 'POST',
      url: '/api/account/password',
      payload: { currentPassword: 'not-my-password', newPassword: 'a-long-enough-passphrase' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(fieldsOf(wrong.json())).toEqual(['currentPassword']);
    const short = await doctor.request({
      method: 'POST',
      url: '/api/account/password',
      payload: { currentPassword: 'doctor', newPassword: 'short' },
    });
    expect(short.statusCode).toBe(400);
    expect(fieldsOf(short.json())).toEqual(['newPassword']);
    const same = await doctor.request({
      method: 'POST',
      url: '/api/account/password',
      payload: { currentPassword: 'same-password-12', newPassword: 'same-password-12' },
    });
    expect(same.statusCode).toBe(400);
    expect(fieldsOf(same.json())).toEqual(['newPassword']);
    const email = await doctor.request({
      method: 'POST',
      url: '/api/account/password',
      payload: { currentPassword: 'doctor', newPassword: 'DOCTOR@healthcare.demo' },
    });
    expect(email.statusCode).toBe(400);
    expect(fieldsOf(email.json())).toEqual(['newPassword']);
    const failures = await auditOf('auth.password.change.failure');
    expect(failures.length).toBe(1);
  });

  it('changes the password: other sessions end, this one stays, the new password signs in', async () => {
    const other = await signInAs(t.app, 'billing_admin');
    const current = await signInAs(t.app, 'billing_admin');
    const newPassword = 'correct horse battery staple';
    const res = await current.request({
      method: 'POST',
      url: '/api/account/password',
      payload: { currentPassword: 'billing_admin', newPassword },
    });
    expect(res.statusCode).toBe(200);
    // The other session, and any left from earlier tests of this file.
    const { endedSessions } = res.json<{ endedSessions: number }>();
    expect(endedSessions).toBeGreaterThanOrEqual(1);
    expect((await other.request({ method: 'GET', url: '/api/claims' })).statusCode).toBe(401);
    expect((await current.request({ method: 'GET', url: '/api/claims' })).statusCode).toBe(200);

    expect(await signInWith(t.app, 'billing.admin@healthcare.demo', 'billing_admin')).toBeNull();
    const fresh = await signInWith(t.app, 'billing.admin@healthcare.demo', newPassword);
    expect((await fresh!.get('/api/claims')).statusCode).toBe(200);

    const entry = (await auditOf('auth.password.change')).find((e) => e.actor === 'billing.admin@healthcare.demo');
    expect(entry).toMatchObject({
      actor: 'billing.admin@healthcare.demo',
      detail: `password changed; ${endedSessions} other session(s) ended`,
    });
    expect(JSON.stringify(entry)).not.toContain(newPassword);
  });

  it('needs a session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      payload: { currentPassword: 'x', newPassword: 'y'.repeat(12) },
    });
    expect(res.statusCode).toBe(401);
  });
});
