import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '@/shared/access';
import { hashPassword } from '@/features/auth/server/auth.passwords';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { PORTAL_CLAIM_LIMIT, type PortalAppointment, type PortalClaim } from '../portal.schema';

let t: TestApp;
let patient: SignedIn;
let mariaId: number;

async function sql<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T>(text, values)).rows;
}

beforeAll(async () => {
  t = await createTestApp();
  patient = await signInAs(t.app, 'patient');
  const [maria] = await sql<{ id: number }>(
    `select p.id from users u join patients p on p.id = u.patient_id where u.email = 'patient@healthcare.demo'`,
  );
  mariaId = maria?.id ?? 0;
});
afterAll(async () => {
  await t.close();
});

/** Signs in a user created for the test, through the same two steps as the demo accounts. */
async function signInWith(email: string, password: string): Promise<SignedIn> {
  const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const { challengeId, demoCode } = login.json<{ challengeId: string; demoCode: string }>();
  const mfa = await t.app.inject({ method: 'POST', url: '/api/auth/mfa', payload: { challengeId, code: demoCode } });
  const sessionId = mfa.cookies.find((c) => c.name === 'sid')?.value ?? '';
  const csrfToken = mfa.json<{ csrfToken: string }>().csrfToken;
  return {
    role: 'patient',
    sessionId,
    csrfToken,
    request: (options) =>
      t.app.inject({ ...options, cookies: { sid: sessionId }, headers: { 'x-csrf-token': csrfToken } }),
  };
}

describe('GET /api/portal/appointments', () => {
  it('shows the demo patient exactly her own visits, cancelled hidden, by date ascending', async () => {
    const res = await patient.request({ method: 'GET', url: '/api/portal/appointments' });
    expect(res.statusCode).toBe(200);
    const list = res.json<PortalAppointment[]>();
    const expected = await sql<{ id: number }>(
      `select id from appointments where patient_id = $1 and status <> 'Cancelled' order by date, time, id`,
      [mariaId],
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(list.map((a) => a.id)).toEqual(expected.map((r) => r.id));
    expect(list.some((a) => a.status === 'Cancelled')).toBe(false);
    const [cancelled] = await sql<{ n: number }>(
      `select count(*)::int as n from appointments where patient_id = $1 and status = 'Cancelled'`,
      [mariaId],
    );
    expect(cancelled?.n).toBeGreaterThan(0);
    const dates = list.map((a) => `${a.date} ${a.time}`);
    expect(dates).toEqual([...dates].sort());
    // Nothing identifies another patient, and the response does not carry patient ids at all.
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(['date', 'id', 'provider', 'reason', 'status', 'time']);
  });

  it('records the read as a PHI read of her own record', async () => {
    const before = await sql<{ n: number }>(`select count(*)::int as n from audit_log where action = 'portal.view'`);
    await patient.request({ method: 'GET', url: '/api/portal/appointments' });
    const [entry] = await sql<{ action: string; patient_id: number; actor: string; resource: string }>(
      'select action, patient_id, actor, resource from audit_log order by id desc limit 1',
    );
    expect(entry).toEqual({
      action: 'portal.view',
      patient_id: mariaId,
      actor: 'patient@healthcare.demo',
      resource: `patient/${mariaId}/appointments`,
    });
    const after = await sql<{ n: number }>(`select count(*)::int as n from audit_log where action = 'portal.view'`);
    expect((after[0]?.n ?? 0) - (before[0]?.n ?? 0)).toBe(1);
  });
});

describe('GET /api/portal/claims', () => {
  it('shows her 5 most recent claims, newest service date first', async () => {
    const res = await patient.request({ method: 'GET', url: '/api/portal/claims' });
    expect(res.statusCode).toBe(200);
    const list = res.json<PortalClaim[]>();
    const [total] = await sql<{ n: number }>('select count(*)::int as n from claims where patient_id = $1', [mariaId]);
    expect(total?.n).toBeGreaterThan(PORTAL_CLAIM_LIMIT);
    const expected = await sql<{ id: number }>(
      'select id from claims where patient_id = $1 order by service_date desc, id desc limit 5',
      [mariaId],
    );
    expect(list).toHaveLength(PORTAL_CLAIM_LIMIT);
    expect(list.map((c) => c.id)).toEqual(expected.map((r) => r.id));
    const dates = list.map((c) => c.serviceDate);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const claim of list) {
      // The stored claim, as the portal describes it: procedure code, provider, money in cents.
      const [stored] = await sql<{ procedure_code: string; billed_cents: number; status: string; provider: string }>(
        `select c.procedure_code, c.billed_cents, c.status, p.name as provider
         from claims c join providers p on p.id = c.provider_id where c.id = $1`,
        [claim.id],
      );
      expect(claim).toMatchObject({
        procedure: stored?.procedure_code,
        provider: stored?.provider,
        billedCents: stored?.billed_cents,
        status: stored?.status,
      });
      expect(claim.paidCents).toBeGreaterThanOrEqual(0);
      expect(Number.isInteger(claim.billedCents)).toBe(true);
    }
  });

  it("counts the patient's own payments on a claim as paid", async () => {
    const [claim] = await sql<{ id: number; paid_cents: number }>(
      'select id, paid_cents from claims where patient_id = $1 order by service_date desc, id desc limit 1',
      [mariaId],
    );
    if (!claim) throw new Error('Maria has no claims');
    const [own] = await sql<{ cents: number }>(
      `select coalesce(sum(amount_cents), 0)::int as cents from payments where claim_id = $1 and source <> 'payer'`,
      [claim.id],
    );
    await sql(
      `insert into payments (patient_id, claim_id, amount_cents, source, received_on) values ($1, $2, 1234, 'patient', '2026-11-20')`,
      [mariaId, claim.id],
    );
    const list = (await patient.request({ method: 'GET', url: '/api/portal/claims' })).json<PortalClaim[]>();
    expect(list.find((c) => c.id === claim.id)?.paidCents).toBe(claim.paid_cents + (own?.cents ?? 0) + 1234);
  });
});

describe('portal scope', () => {
  it('ignores any patient id the request carries', async () => {
    const [other] = await sql<{ id: number }>('select id from patients where id <> $1 order by id limit 1', [mariaId]);
    const own = {
      appointments: (await patient.request({ method: 'GET', url: '/api/portal/appointments' })).body,
      claims: (await patient.request({ method: 'GET', url: '/api/portal/claims' })).body,
    };
    for (const url of [
      `/api/portal/appointments?patientId=${other?.id}`,
      `/api/portal/appointments?patient=${other?.id}&patient_id=${other?.id}`,
      `/api/portal/claims?patientId=${other?.id}`,
      `/api/portal/claims?patient=${other?.id}`,
    ]) {
      const res = await patient.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(url.includes('claims') ? own.claims : own.appointments);
    }
    for (const url of [`/api/portal/claims/${other?.id}`, `/api/portal/appointments/${other?.id}`]) {
      const res = await patient.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('refuses every staff role and the guest (403) and callers without a session (401)', async () => {
    for (const role of ROLES.filter((r) => r !== 'patient')) {
      const s = await signInAs(t.app, role);
      for (const url of ['/api/portal/appointments', '/api/portal/claims']) {
        expect((await s.request({ method: 'GET', url })).statusCode, `${role} ${url}`).toBe(403);
      }
    }
    for (const url of ['/api/portal/appointments', '/api/portal/claims']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });

  it('gives a new patient user with no visits or claims empty lists', async () => {
    const [record] = await sql<{ id: number }>(
      `insert into patients (name, mrn, dob, phone) values ('Nadia Brooks', 'MRN-NEW-001', '1990-05-01', '(555) 300-1000') returning id`,
    );
    await sql(`insert into users (email, name, password_hash, role, patient_id) values ($1, $2, $3, 'patient', $4)`, [
      'nadia.brooks@example.com',
      'Nadia Brooks',
      await hashPassword('a long enough password'),
      record?.id,
    ]);
    const nadia = await signInWith('nadia.brooks@example.com', 'a long enough password');
    const appointments = await nadia.request({ method: 'GET', url: '/api/portal/appointments' });
    const claims = await nadia.request({ method: 'GET', url: '/api/portal/claims' });
    expect(appointments.statusCode).toBe(200);
    expect(appointments.json()).toEqual([]);
    expect(claims.statusCode).toBe(200);
    expect(claims.json()).toEqual([]);
  });
});
