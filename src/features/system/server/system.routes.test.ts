import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/features/audit/server/audit.table';
import { verifyChain } from '@/features/audit/server/audit.queries';
import { createTestApp, signInAs, type TestApp } from '@/testing/test-app';
import type { DatabasePoolResponse, ResetResponse, SeedResponse } from '../system.schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function counts() {
  const result = await t.database.db.execute<Record<string, string>>(sql`select
    (select count(*) from patients) as patients,
    (select count(*) from providers) as providers,
    (select count(*) from payers) as payers,
    (select count(*) from appointments) as appointments,
    (select count(*) from claims) as claims,
    (select count(*) from payments) as payments,
    (select count(*) from authorizations) as authorizations,
    (select count(*) from encounters) as encounters,
    (select count(*) from users) as users,
    (select count(*) from user_settings) as user_settings,
    (select count(*) from practice_settings) as practice_settings,
    (select count(*) from compliance_gaps) as compliance_gaps,
    (select count(*) from audit_log) as audit_log`);
  return Object.fromEntries(Object.entries(result.rows[0] ?? {}).map(([k, v]) => [k, Number(v)]));
}

const SEED = { confirm: 'SEED' };

async function auditOf(action: string) {
  return t.database.db.select().from(auditLog).where(eq(auditLog.action, action));
}

describe('seed and reset', () => {
  it('refuses both to every role but admin, and changes nothing', async () => {
    const before = await counts();
    for (const role of ['doctor', 'nurse_manager', 'billing_admin', 'patient', 'guest'] as const) {
      const s = await signInAs(t.app, role);
      expect((await s.request({ method: 'POST', url: '/api/seed', payload: SEED })).statusCode).toBe(403);
      const reset = await s.request({ method: 'POST', url: '/api/system/reset', payload: { confirm: 'RESET' } });
      expect(reset.statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/seed', payload: SEED })).statusCode).toBe(401);
    const after = await counts();
    // Only the denials (and the sign-ins) were added to the trail.
    expect({ ...after, audit_log: 0 }).toEqual({ ...before, audit_log: 0 });
    expect(await auditOf('system.seed')).toEqual([]);
    expect(await auditOf('system.reset')).toEqual([]);
  });

  it('refuses a reset without the confirmation', async () => {
    const admin = await signInAs(t.app, 'admin');
    const res = await admin.request({ method: 'POST', url: '/api/system/reset', payload: { confirm: 'yes' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('confirm');
    expect((await counts()).patients).toBeGreaterThan(0);
  });

  it('refuses a re-seed without the confirmation, and changes nothing', async () => {
    const admin = await signInAs(t.app, 'admin');
    const before = await counts();
    for (const payload of [undefined, {}, { confirm: 'yes' }]) {
      const res = await admin.request({ method: 'POST', url: '/api/seed', payload });
      expect(res.statusCode).toBe(400);
    }
    const res = await admin.request({ method: 'POST', url: '/api/seed', payload: { confirm: 'yes' } });
    expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('confirm');
    expect({ ...(await counts()), audit_log: 0 }).toEqual({ ...before, audit_log: 0 });
    expect(await auditOf('system.seed')).toEqual([]);
  });

  it('re-seeds the clinic deterministically; users, settings, compliance and the audit trail stay', async () => {
    const admin = await signInAs(t.app, 'admin');
    const patient = await signInAs(t.app, 'patient');
    // A change that the re-seed must undo, and settings it must keep.
    await admin.request({
      method: 'POST',
      url: '/api/patients',
      payload: { name: 'Temporary Person', dob: '1990-01-01', phone: '(555) 000-1111', mrn: 'MRN-TEMP-1' },
    });
    await admin.request({ method: 'PUT', url: '/api/settings/integrations/crm', payload: { connected: true } });
    const before = await counts();

    const res = await admin.request({ method: 'POST', url: '/api/seed', payload: SEED });
    expect(res.statusCode).toBe(200);
    const { summary } = res.json<SeedResponse>();
    expect(summary).toMatchObject({ providers: 8, patients: 200, authorizations: 150, patientAccountsRelinked: 1 });
    const after = await counts();
    expect(after).toMatchObject({
      patients: 200,
      providers: summary.providers,
      appointments: summary.appointments,
      claims: summary.claims,
      payments: summary.payments,
      authorizations: summary.authorizations,
      encounters: summary.encounters,
      users: before.users,
      user_settings: before.user_settings,
      practice_settings: 1,
      compliance_gaps: before.compliance_gaps,
    });
    expect(after.audit_log).toBeGreaterThan(before.audit_log ?? 0);

    // Deterministic: a second re-seed gives the same counts.
    const again = await admin.request({ method: 'POST', url: '/api/seed', payload: SEED });
    expect(again.json<SeedResponse>().summary).toEqual(summary);

    const [entry] = await auditOf('system.seed');
    expect(entry?.actor).toBe('admin@healthcare.demo');
    expect(entry?.detail).toContain(`patients=200`);
    expect(entry?.detail).toContain(`claims=${summary.claims}`);
    expect((await verifyChain(t.database.db)).ok).toBe(true);

    // The admin's session and settings survive; the patient is linked to Maria Lopez's record again.
    expect((await admin.request({ method: 'GET', url: '/api/settings/integrations' })).json()).toMatchObject({
      crm: true,
    });
    const portal = await patient.request({ method: 'GET', url: '/api/auth/session' });
    expect(portal.json()).toMatchObject({ user: { email: 'patient@healthcare.demo', patientId: 1 } });
    const maria = await t.database.db.execute<{ name: string }>(sql`select name from patients where id = 1`);
    expect(maria.rows[0]?.name).toBe('Maria Lopez');
    for (const role of ['admin', 'doctor', 'patient', 'guest'] as const) {
      await expect(signInAs(t.app, role)).resolves.toBeTruthy();
    }
  });

  it('resets: clinic records cleared, staff sign in, patient accounts deactivated and signed out', async () => {
    const admin = await signInAs(t.app, 'admin');
    const patient = await signInAs(t.app, 'patient');
    const before = await counts();
    const res = await admin.request({ method: 'POST', url: '/api/system/reset', payload: { confirm: 'RESET' } });
    expect(res.statusCode).toBe(200);
    expect(res.json<ResetResponse>().cleared).toEqual(expect.arrayContaining(['patients', 'claims', 'appointments']));
    expect(await counts()).toMatchObject({
      patients: 0,
      // The providers and payers stay: the clinic can book and bill again at once.
      providers: before.providers,
      payers: before.payers,
      appointments: 0,
      claims: 0,
      payments: 0,
      authorizations: 0,
      encounters: 0,
      users: before.users,
      user_settings: before.user_settings,
      practice_settings: 1,
      compliance_gaps: before.compliance_gaps,
    });
    const [entry] = await auditOf('system.reset');
    expect(entry?.detail).toContain('patients=200');
    expect(entry?.detail).toContain('patient accounts deactivated=1');
    expect((await verifyChain(t.database.db)).ok).toBe(true);

    expect((await patient.request({ method: 'GET', url: '/api/portal/claims' })).statusCode).toBe(401);
    await expect(signInAs(t.app, 'patient')).rejects.toThrow(/401/);
    for (const role of ['admin', 'doctor', 'nurse_manager', 'billing_admin', 'guest'] as const) {
      await expect(signInAs(t.app, role)).resolves.toBeTruthy();
    }
    expect((await admin.request({ method: 'GET', url: '/api/patients' })).statusCode).toBe(200);

    // After the reset a new patient can be booked with a kept provider and billed through an import.
    const created = await admin.request({
      method: 'POST',
      url: '/api/patients',
      payload: { name: 'Ada Newcomer', dob: '1985-04-02', phone: '(555) 010-2030', mrn: 'MRN-NEW-1' },
    });
    expect(created.statusCode).toBe(201);
    const patientId = created.json<{ id: number }>().id;
    const providers = (await admin.request({ method: 'GET', url: '/api/providers' })).json<
      { id: number; name: string }[]
    >();
    expect(providers.length).toBe(before.providers);
    const provider = providers[0];
    const booked = await admin.request({
      method: 'POST',
      url: '/api/appointments',
      payload: { patientId, providerId: provider?.id, reason: 'New patient visit', date: '2026-12-01', time: '09:00' },
    });
    expect(booked.statusCode).toBe(201);
    const imported = await admin.request({
      method: 'POST',
      url: '/api/claims/import',
      payload: {
        csv: `accountNumber,patientMrn,procedureCode,provider,payer,serviceDate,billedAmount\nACC-AFTER-RESET-1,MRN-NEW-1,99203,${provider?.name},Aetna,2026-11-20,165.00\n`,
      },
    });
    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toEqual({ imported: 1, warnings: [] });

    // A re-seed brings the patient account back with its record.
    const seed = await admin.request({ method: 'POST', url: '/api/seed', payload: SEED });
    expect(seed.json<SeedResponse>().summary).toMatchObject({ patientAccountsRelinked: 1 });
    await expect(signInAs(t.app, 'patient')).resolves.toBeTruthy();
  });
});

describe('the database pool', () => {
  it("reports the server's connections and the time callers waited for one; only to an admin", async () => {
    const admin = await signInAs(t.app, 'admin');
    const read = async () =>
      (await admin.request({ method: 'GET', url: '/api/system/database-pool' })).json<DatabasePoolResponse>();
    const before = await read();
    // Two more sleepers than the test pool has connections (5): two of them wait for one to come back.
    await Promise.all(Array.from({ length: 7 }, () => t.database.db.execute(sql`select pg_sleep(0.2)`)));
    const after = await read();
    expect(after.checkouts - before.checkouts).toBeGreaterThanOrEqual(7);
    expect(after.longestWaitMs).toBeGreaterThanOrEqual(150);
    expect(after.waitedMs - before.waitedMs).toBeGreaterThanOrEqual(2 * 150);
    expect(after.open).toBeLessThanOrEqual(5);
    expect(after.waitingNow).toBe(0);

    const billing = await signInAs(t.app, 'billing_admin');
    expect((await billing.request({ method: 'GET', url: '/api/system/database-pool' })).statusCode).toBe(403);
  });
});
