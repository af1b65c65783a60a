import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/features/audit/server/audit.table';
import { createTestApp, signInAs, type TestApp } from '@/testing/test-app';
import type { PayerRecord } from '../payers.schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const auditOf = (action: string) => t.database.db.select().from(auditLog).where(eq(auditLog.action, action));

describe('payers maintained by the admin', () => {
  it('lists the payers with their timely-filing limits; creates, edits and deactivates, each audited', async () => {
    const admin = await signInAs(t.app, 'admin');
    const list = (await admin.request({ method: 'GET', url: '/api/admin/payers' })).json<{ items: PayerRecord[] }>();
    expect(list.items.map((p) => p.name)).toContain('Aetna');
    expect(list.items.every((p) => p.timelyFilingDays > 0)).toBe(true);
    // X12 claim filing indicators (SBR09) of the payers the practice started with.
    const indicator = (name: string) => list.items.find((p) => p.name === name)?.claimFilingIndicator;
    expect([indicator('Medicare'), indicator('Medicaid'), indicator('Aetna'), indicator('Self-Pay')]).toEqual([
      'MB',
      'MC',
      'CI',
      '09',
    ]);

    const created = await admin.request({
      method: 'POST',
      url: '/api/admin/payers',
      payload: { name: 'Molina Healthcare', payerId: 'mol01', timelyFilingDays: 120 },
    });
    expect(created.statusCode).toBe(201);
    const molina = created.json<PayerRecord>();
    expect(molina).toMatchObject({ name: 'Molina Healthcare', payerId: 'MOL01', timelyFilingDays: 120, active: true });

    const edited = await admin.request({
      method: 'PATCH',
      url: `/api/admin/payers/${molina.id}`,
      payload: { timelyFilingDays: 180, claimFilingIndicator: 'MC', active: false },
    });
    expect(edited.json<PayerRecord>()).toMatchObject({
      timelyFilingDays: 180,
      claimFilingIndicator: 'MC',
      active: false,
    });
    const badIndicator = await admin.request({
      method: 'PATCH',
      url: `/api/admin/payers/${molina.id}`,
      payload: { claimFilingIndicator: 'XX' },
    });
    expect(badIndicator.statusCode).toBe(400);
    expect(badIndicator.body).toContain('claimFilingIndicator');
    // The name is what claims store: it cannot be changed.
    const rename = await admin.request({
      method: 'PATCH',
      url: `/api/admin/payers/${molina.id}`,
      payload: { name: 'M' },
    });
    expect(rename.statusCode).toBe(400);

    expect((await auditOf('payer.create')).map((e) => e.detail)).toEqual([
      'added Molina Healthcare (payer id MOL01, timely filing 120 days, appeals 180 days, status request after 30 days, filing indicator CI)',
    ]);
    expect((await auditOf('payer.update')).map((e) => e.detail)).toEqual([
      'Molina Healthcare: timely filing 120 -> 180 days, filing indicator CI -> MC, deactivated',
    ]);
  });

  it('refuses a duplicate name or payer id, a limit out of range, and every role but admin', async () => {
    const admin = await signInAs(t.app, 'admin');
    const dupName = await admin.request({
      method: 'POST',
      url: '/api/admin/payers',
      payload: { name: 'Aetna', timelyFilingDays: 90 },
    });
    expect(dupName.statusCode).toBe(409);
    const dupId = await admin.request({
      method: 'POST',
      url: '/api/admin/payers',
      payload: { name: 'Another Aetna', payerId: '60054', timelyFilingDays: 90 },
    });
    expect(dupId.statusCode).toBe(409);
    expect(dupId.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('payerId');
    const zero = await admin.request({
      method: 'POST',
      url: '/api/admin/payers',
      payload: { name: 'Zero Days', timelyFilingDays: 0 },
    });
    expect(zero.statusCode).toBe(400);
    expect(zero.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('timelyFilingDays');
    const billing = await signInAs(t.app, 'billing_admin');
    expect((await billing.request({ method: 'GET', url: '/api/admin/payers' })).statusCode).toBe(403);
  });

  it('sets, turns off and refuses out of range the days before a claim status request', async () => {
    const admin = await signInAs(t.app, 'admin');
    const list = (await admin.request({ method: 'GET', url: '/api/admin/payers' })).json<{ items: PayerRecord[] }>();
    const aetna = list.items.find((p) => p.name === 'Aetna')!;
    expect(aetna.claimStatusAfterDays).toBe(30);
    const off = await admin.request({
      method: 'PATCH',
      url: `/api/admin/payers/${aetna.id}`,
      payload: { claimStatusAfterDays: null },
    });
    expect(off.json<PayerRecord>().claimStatusAfterDays).toBeNull();
    for (const bad of [0, 366, 1.5, '30']) {
      const refused = await admin.request({
        method: 'PATCH',
        url: `/api/admin/payers/${aetna.id}`,
        payload: { claimStatusAfterDays: bad },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe(
        'claimStatusAfterDays',
      );
    }
    const on = await admin.request({
      method: 'PATCH',
      url: `/api/admin/payers/${aetna.id}`,
      payload: { claimStatusAfterDays: 45 },
    });
    expect(on.json<PayerRecord>().claimStatusAfterDays).toBe(45);
    expect((await auditOf('payer.update')).map((e) => e.detail)).toEqual(
      expect.arrayContaining([
        'Aetna: status request after 30 days -> no status requests',
        'Aetna: no status requests -> status request after 45 days',
      ]),
    );
  });
});
