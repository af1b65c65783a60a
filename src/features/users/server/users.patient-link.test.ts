import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '@/shared/access';
import { createTestApp, cookieFrom, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';

/**
 * An account's link to a patient record: registration never shares an address with a record, re-seeds and
 * resets never link by email nor undo an admin's deactivation, and staff link an account (audited, admin only).
 */
let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t.app, 'admin');
});
afterAll(async () => {
  await t.close();
});

const PASSWORD = 'a-long-enough-passphrase';

function register(email: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: 'Sam Taylor', dob: '1985-02-03', phone: '(555) 300-1000', email, password: PASSWORD },
  });
}

/** The account's session user, or the status of the refused sign-in. */
async function signIn(email: string, password = PASSWORD) {
  const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (login.statusCode !== 200) return { status: login.statusCode, patientId: null };
  const { challengeId, demoCode } = login.json<{ challengeId: string; demoCode: string }>();
  const mfa = await t.app.inject({ method: 'POST', url: '/api/auth/mfa', payload: { challengeId, code: demoCode } });
  if (mfa.statusCode !== 200) return { status: mfa.statusCode, patientId: null };
  const sid = cookieFrom(mfa);
  const statement = await t.app.inject({ method: 'GET', url: '/api/portal/claims', cookies: { sid: sid ?? '' } });
  return {
    status: mfa.statusCode,
    patientId: mfa.json<{ user: { patientId: number | null } }>().user.patientId,
    portal: statement.statusCode,
  };
}

async function account(email: string) {
  const { rows } = await t.database.pool.query<{ id: number; active: boolean; patient_id: number | null }>(
    'select id, active, patient_id from users where email = $1',
    [email],
  );
  return rows[0];
}

async function seed() {
  expect((await admin.request({ method: 'POST', url: '/api/seed', payload: { confirm: 'SEED' } })).statusCode).toBe(
    200,
  );
}

async function reset() {
  const res = await admin.request({ method: 'POST', url: '/api/system/reset', payload: { confirm: 'RESET' } });
  expect(res.statusCode).toBe(200);
}

/** A seeded record's address and id (the seed is deterministic: the same after every re-seed). */
async function seededRecordWithEmail() {
  const { rows } = await t.database.pool.query<{ id: number; email: string; mrn: string }>(
    "select id, email, mrn from patients where email like '%@example.com' order by id limit 1",
  );
  return rows[0]!;
}

describe('patient account links', () => {
  it("refuses to register a patient record's email with the answer any refused address gets; nothing is written", async () => {
    const record = await seededRecordWithEmail();
    const taken = await register('admin@healthcare.demo');
    expect(taken.statusCode).toBe(409);
    const counts = async () =>
      (
        await t.database.pool.query<{ u: string; p: string }>(
          'select (select count(*) from users) u, (select count(*) from patients) p',
        )
      ).rows[0];
    const before = await counts();
    for (const email of [record.email, record.email.toUpperCase()]) {
      const res = await register(email);
      expect(res.statusCode, email).toBe(409);
      expect(res.json(), email).toEqual(taken.json());
    }
    expect(await counts()).toEqual(before);
  });

  it('a re-seed never links an account to a record by its email: it stays without a record and signed out', async () => {
    // After a reset no record holds the address the seed will give a patient, so registration takes it.
    const record = await seededRecordWithEmail();
    await reset();
    expect((await register(record.email)).statusCode).toBe(201);
    const own = await account(record.email);
    expect(own?.patient_id).not.toBeNull();
    await seed();
    expect(await account(record.email)).toMatchObject({ active: false, patient_id: null });
    expect((await signIn(record.email)).status).toBe(401);
    await seed();
    expect(await account(record.email)).toMatchObject({ active: false, patient_id: null });
  });

  it("keeps an admin's deactivation through resets and re-seeds; the demo patient comes back otherwise", async () => {
    const demo = await account('patient@healthcare.demo');
    expect(demo?.active).toBe(true);

    const off = await admin.request({ method: 'PATCH', url: `/api/users/${demo?.id}`, payload: { active: false } });
    expect(off.statusCode).toBe(200);
    await seed();
    expect((await account('patient@healthcare.demo'))?.active).toBe(false);
    await reset();
    await seed();
    expect(await account('patient@healthcare.demo')).toMatchObject({ active: false, patient_id: 1 });
    await expect(signInAs(t.app, 'patient')).rejects.toThrow(/401/);

    const on = await admin.request({ method: 'PATCH', url: `/api/users/${demo?.id}`, payload: { active: true } });
    expect(on.statusCode).toBe(200);
    await reset();
    await seed();
    expect(await account('patient@healthcare.demo')).toMatchObject({ active: true, patient_id: 1 });
    await expect(signInAs(t.app, 'patient')).resolves.toBeTruthy();
  });

  it('staff link an account to a record by MRN: admin only, audited, the account then sees that record', async () => {
    const email = 'link.me@example.org';
    expect((await register(email)).statusCode).toBe(201);
    await seed();
    const linked = await account(email);
    expect(linked).toMatchObject({ active: false, patient_id: null });
    const { rows } = await t.database.pool.query<{ id: number; mrn: string }>(
      "select id, mrn from patients where id not in (select patient_id from users where patient_id is not null) and mrn <> 'MRN-100001' order by id limit 1",
    );
    const target = rows[0]!;
    const url = `/api/users/${linked?.id}/patient-link`;

    for (const role of ROLES.filter((r) => r !== 'admin')) {
      const session = await signInAs(t.app, role).catch(() => null);
      if (!session) continue; // the demo patient may be signed out by an earlier test
      const res = await session.request({ method: 'PUT', url, payload: { mrn: target.mrn } });
      expect(res.statusCode, role).toBe(403);
    }
    expect((await t.app.inject({ method: 'PUT', url, payload: { mrn: target.mrn } })).statusCode).toBe(401);
    expect((await account(email))?.patient_id).toBeNull();

    // A record that already has an account, or none at all: the same 404 naming the field.
    for (const mrn of ['MRN-100001', 'MRN-NOPE']) {
      const res = await admin.request({ method: 'PUT', url, payload: { mrn } });
      expect(res.statusCode, mrn).toBe(404);
      expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields.map((f) => f.field)).toEqual(['mrn']);
    }
    const staff = await account('doctor@healthcare.demo');
    const notPatient = await admin.request({
      method: 'PUT',
      url: `/api/users/${staff?.id}/patient-link`,
      payload: { mrn: target.mrn },
    });
    expect(notPatient.statusCode).toBe(400);
    const badMrn = await admin.request({ method: 'PUT', url, payload: { mrn: "x' or 1=1" } });
    expect(badMrn.statusCode).toBe(400);

    const res = await admin.request({ method: 'PUT', url, payload: { mrn: target.mrn } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email, status: 'Active' });
    expect(await signIn(email)).toMatchObject({ status: 200, patientId: target.id, portal: 200 });
    const audit = await t.database.pool.query<{ actor: string; resource: string; patient_id: number }>(
      "select actor, resource, patient_id from audit_log where action = 'user.patient_link'",
    );
    expect(audit.rows).toEqual([
      { actor: 'admin@healthcare.demo', resource: `user/${linked?.id}`, patient_id: target.id },
    ]);
  });
});
