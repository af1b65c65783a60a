import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTRICTED, can, rolesWith, ROLES } from '@/shared/access';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { PatientBillingDetails } from '../patients.schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function sql<T extends object>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T>(text, params)).rows;
}

type Refusal = { error: { code: string; fields?: { field: string; message: string }[] } };

/** The seed's patients with a whole address, lowest ids first; each test takes its own. */
async function patientsWithAddress(n: number, offset: number): Promise<number[]> {
  const rows = await sql<{ id: number }>(
    `select id from patients where address_line1 is not null and city is not null and state is not null
       and zip is not null order by id limit $1 offset $2`,
    [n, offset],
  );
  if (rows.length < n) throw new Error(`the seed has fewer than ${n + offset} patients with an address`);
  return rows.map((r) => r.id);
}

async function stored(patientId: number) {
  const [row] = await sql<{
    sex: string;
    address_line1: string | null;
    city: string | null;
    state: string | null;
    zip: string | null;
  }>('select sex, address_line1, city, state, zip from patients where id = $1', [patientId]);
  return row;
}

async function auditedUpdates(patientId: number) {
  return sql<{ detail: string; actor_role: string }>(
    `select detail, actor_role from audit_log where action = 'patient.billing_details.update' and patient_id = $1
     order by id`,
    [patientId],
  );
}

function put(who: SignedIn, patientId: number, payload: object) {
  return who.request({ method: 'PUT', url: `/api/patients/${patientId}/billing-details`, payload });
}

const springfield = { sex: 'F', addressLine1: '42 Elm Street', city: 'Springfield', state: 'il', zip: '62704-1234' };

describe('GET /api/patients/:id/billing-details', () => {
  it('shows sex and address, the street and ZIP whole only to those who register insurance, and audits each read', async () => {
    const [patientId] = await patientsWithAddress(1, 0);
    const row = await stored(patientId!);
    for (const role of rolesWith('coverage:read')) {
      const who = await signInAs(t.app, role);
      const res = await who.request({ method: 'GET', url: `/api/patients/${patientId}/billing-details` });
      expect(res.statusCode, res.body).toBe(200);
      const details = res.json<PatientBillingDetails>();
      expect(details).toMatchObject({
        patientId,
        sex: row!.sex,
        city: row!.city,
        state: row!.state,
        addressComplete: true,
      });
      const whole = can(role, 'coverage:write');
      expect(details.addressLine1, role).toBe(whole ? row!.address_line1 : RESTRICTED);
      expect(details.zip, role).toBe(whole ? row!.zip : RESTRICTED);
    }
    const [audited] = await sql<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'patient.billing_details.view' and patient_id = $1`,
      [patientId],
    );
    expect(audited?.n).toBe(rolesWith('coverage:read').length);
  });

  it('is refused to the roles that do not read insurance, and answers 404 for an unknown patient', async () => {
    for (const role of ROLES.filter((r) => !can(r, 'coverage:read'))) {
      const who = await signInAs(t.app, role);
      const res = await who.request({ method: 'GET', url: '/api/patients/1/billing-details' });
      expect(res.statusCode, role).toBe(403);
    }
    const admin = await signInAs(t.app, 'admin');
    const res = await admin.request({ method: 'GET', url: '/api/patients/999999999/billing-details' });
    expect(res.statusCode).toBe(404);
  });
});

describe('PUT /api/patients/:id/billing-details', () => {
  it('stores the address with the state in capitals and the ZIP as digits, and audits which parts changed but not where', async () => {
    const [patientId] = await patientsWithAddress(1, 1);
    const biller = await signInAs(t.app, 'billing_admin');
    const res = await put(biller, patientId!, springfield);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PatientBillingDetails>()).toEqual({
      patientId,
      sex: 'F',
      addressLine1: '42 Elm Street',
      city: 'Springfield',
      state: 'IL',
      zip: '627041234',
      addressComplete: true,
    });
    expect(await stored(patientId!)).toEqual({
      sex: 'F',
      address_line1: '42 Elm Street',
      city: 'Springfield',
      state: 'IL',
      zip: '627041234',
    });
    const [entry] = await auditedUpdates(patientId!);
    expect(entry?.actor_role).toBe('billing_admin');
    expect(entry?.detail).toMatch(/address changed \(/);
    expect(entry?.detail).not.toContain('Elm');
    expect(entry?.detail).not.toContain('62704');

    // Saving the same again changes nothing, and says so.
    expect((await put(biller, patientId!, springfield)).statusCode).toBe(200);
    expect((await auditedUpdates(patientId!)).at(-1)?.detail).toBe('no change');
  });

  it('clears an address when every part is left blank: the patient is then known to have none on file', async () => {
    const [patientId] = await patientsWithAddress(1, 2);
    const nurse = await signInAs(t.app, 'nurse_manager');
    const res = await put(nurse, patientId!, { sex: 'U', addressLine1: '', city: ' ', state: null, zip: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PatientBillingDetails>()).toMatchObject({
      sex: 'U',
      addressLine1: null,
      city: null,
      state: null,
      zip: null,
      addressComplete: false,
    });
    expect(await stored(patientId!)).toEqual({ sex: 'U', address_line1: null, city: null, state: null, zip: null });
  });

  it.each([
    ['a partial address, naming each missing part', { ...springfield, city: '', zip: null }, ['city', 'zip']],
    ['an unknown state', { ...springfield, state: 'XX' }, ['state']],
    ['a ZIP of 6 digits', { ...springfield, zip: '627045' }, ['zip']],
    ['a street longer than N301 allows', { ...springfield, addressLine1: 'x'.repeat(56) }, ['addressLine1']],
    ['a one-letter city', { ...springfield, city: 'S' }, ['city']],
    ['a sex payers do not take', { ...springfield, sex: 'X' }, ['sex']],
    ['no sex at all', { addressLine1: null, city: null, state: null, zip: null }, ['sex']],
    ['a field the form does not have', { ...springfield, county: 'Sangamon' }, []],
  ])('refuses %s with 400, writing nothing', async (_case, payload, fields) => {
    const [patientId] = await patientsWithAddress(1, 3);
    const before = await stored(patientId!);
    const admin = await signInAs(t.app, 'admin');
    const res = await put(admin, patientId!, payload);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<Refusal>();
    expect(body.error.code).toBe('VALIDATION_FAILED');
    for (const field of fields) expect(body.error.fields?.map((f) => f.field)).toContain(field);
    expect(await stored(patientId!)).toEqual(before);
    expect(await auditedUpdates(patientId!)).toEqual([]);
  });

  it('is refused to the roles that do not register insurance, and answers 404 for an unknown patient', async () => {
    const [patientId] = await patientsWithAddress(1, 4);
    const before = await stored(patientId!);
    for (const role of ROLES.filter((r) => !can(r, 'coverage:write'))) {
      const who = await signInAs(t.app, role);
      expect((await put(who, patientId!, springfield)).statusCode, role).toBe(403);
    }
    expect(await stored(patientId!)).toEqual(before);
    const admin = await signInAs(t.app, 'admin');
    expect((await put(admin, 999999999, springfield)).statusCode).toBe(404);
  });
});
