import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/features/audit/server/audit.table';
import { createTestApp, signInAs, type TestApp } from '@/testing/test-app';
import type { ManagedProvider } from '../providers.schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const auditOf = (action: string) => t.database.db.select().from(auditLog).where(eq(auditLog.action, action));

describe('providers maintained by the admin', () => {
  it('are listed, created, edited, deactivated and reactivated, each change audited', async () => {
    const admin = await signInAs(t.app, 'admin');
    const list = await admin.request({ method: 'GET', url: '/api/admin/providers' });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ items: ManagedProvider[] }>().items.length).toBeGreaterThan(0);

    const created = await admin.request({
      method: 'POST',
      url: '/api/admin/providers',
      payload: { name: '  Dr. Lena Hart ', specialty: 'Dermatology' },
    });
    expect(created.statusCode).toBe(201);
    const lena = created.json<ManagedProvider>();
    expect(lena).toMatchObject({ name: 'Dr. Lena Hart', specialty: 'Dermatology', active: true });
    const bookable = async () =>
      (await admin.request({ method: 'GET', url: '/api/providers' })).json<{ id: number }[]>().map((p) => p.id);
    expect(await bookable()).toContain(lena.id);

    const renamed = await admin.request({
      method: 'PATCH',
      url: `/api/admin/providers/${lena.id}`,
      payload: { name: 'Dr. Lena Hart-Ruiz' },
    });
    expect(renamed.json<ManagedProvider>().name).toBe('Dr. Lena Hart-Ruiz');

    const off = await admin.request({
      method: 'PATCH',
      url: `/api/admin/providers/${lena.id}`,
      payload: { active: false },
    });
    expect(off.json<ManagedProvider>().active).toBe(false);
    // Not offered for new bookings, and a booking naming them is refused.
    expect(await bookable()).not.toContain(lena.id);
    const booking = await admin.request({
      method: 'POST',
      url: '/api/appointments',
      payload: { patientId: 1, providerId: lena.id, reason: 'Skin check', date: '2026-12-02', time: '10:00' },
    });
    expect(booking.statusCode).toBe(400);
    expect(booking.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('providerId');
    // Still listed for the admin, who can bring them back.
    const all = (await admin.request({ method: 'GET', url: '/api/admin/providers' })).json<{
      items: ManagedProvider[];
    }>();
    expect(all.items.find((p) => p.id === lena.id)).toMatchObject({ active: false });
    await admin.request({ method: 'PATCH', url: `/api/admin/providers/${lena.id}`, payload: { active: true } });
    expect(await bookable()).toContain(lena.id);

    expect((await auditOf('provider.create')).map((e) => e.detail)).toEqual(['added Dr. Lena Hart (Dermatology)']);
    expect((await auditOf('provider.update')).map((e) => e.detail)).toEqual([
      'Dr. Lena Hart-Ruiz: name Dr. Lena Hart -> Dr. Lena Hart-Ruiz',
      'Dr. Lena Hart-Ruiz: deactivated',
      'Dr. Lena Hart-Ruiz: reactivated',
    ]);
  });

  it("keeps each provider's NPI and NUCC taxonomy, checking the NPI's check digit and that no one else has it", async () => {
    const admin = await signInAs(t.app, 'admin');
    const created = await admin.request({
      method: 'POST',
      url: '/api/admin/providers',
      payload: { name: 'Dr. Noor Haddad', specialty: 'Pediatrics', npi: ' 1234567893 ', taxonomyCode: '208000000x' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const noor = created.json<ManagedProvider>();
    expect(noor).toMatchObject({ npi: '1234567893', taxonomyCode: '208000000X' });
    const listed = (await admin.request({ method: 'GET', url: '/api/admin/providers' })).json<{
      items: ManagedProvider[];
    }>();
    expect(listed.items.find((p) => p.id === noor.id)).toMatchObject({ npi: '1234567893', taxonomyCode: '208000000X' });

    const refusals: [object, string, number][] = [
      [{ npi: '1234567890' }, 'npi', 400],
      [{ npi: '12345' }, 'npi', 400],
      [{ taxonomyCode: '2080000000' }, 'taxonomyCode', 400],
    ];
    for (const [payload, field, status] of refusals) {
      const res = await admin.request({ method: 'PATCH', url: `/api/admin/providers/${noor.id}`, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe(field);
    }
    const badNew = await admin.request({
      method: 'POST',
      url: '/api/admin/providers',
      payload: { name: 'Dr. Check Digit', specialty: 'Pediatrics', npi: '1234567890' },
    });
    expect(badNew.statusCode).toBe(400);
    expect(badNew.json<{ error: { fields: { field: string; message: string }[] } }>().error.fields).toEqual([
      { field: 'npi', message: 'must be a valid NPI: 10 digits with a correct check digit' },
    ]);

    // Another provider's NPI: one NPI per person (CMS).
    const [other] = await t.database.pool
      .query<{ npi: string }>('select npi from providers where npi is not null and id <> $1 limit 1', [noor.id])
      .then((r) => r.rows);
    if (!other) throw new Error('the seed gave no provider an NPI');
    const duplicateNew = await admin.request({
      method: 'POST',
      url: '/api/admin/providers',
      payload: { name: 'Dr. Twin', specialty: 'Pediatrics', npi: other.npi },
    });
    const duplicateEdit = await admin.request({
      method: 'PATCH',
      url: `/api/admin/providers/${noor.id}`,
      payload: { npi: other.npi },
    });
    for (const duplicate of [duplicateNew, duplicateEdit]) {
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('npi');
    }

    const cleared = await admin.request({
      method: 'PATCH',
      url: `/api/admin/providers/${noor.id}`,
      payload: { npi: '1245319599', taxonomyCode: '' },
    });
    expect(cleared.json<ManagedProvider>()).toMatchObject({ npi: '1245319599', taxonomyCode: null });
    const entries = (await auditOf('provider.create'))
      .concat(await auditOf('provider.update'))
      .filter((e) => e.resource === `provider/${noor.id}`)
      .map((e) => e.detail);
    expect(entries).toEqual([
      'added Dr. Noor Haddad (Pediatrics, NPI 1234567893, taxonomy 208000000X)',
      'Dr. Noor Haddad: NPI 1234567893 -> 1245319599, taxonomy 208000000X -> none',
    ]);
    expect((await auditOf('provider.create')).some((e) => /Twin|Check Digit/.test(e.detail ?? ''))).toBe(false);
  });

  it('refuses a duplicate name, a blank field, an unknown id, and every role but admin', async () => {
    const admin = await signInAs(t.app, 'admin');
    const [first] = (await admin.request({ method: 'GET', url: '/api/admin/providers' })).json<{
      items: ManagedProvider[];
    }>().items;
    const dup = await admin.request({
      method: 'POST',
      url: '/api/admin/providers',
      payload: { name: first?.name, specialty: 'Anything' },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('name');
    const blank = await admin.request({
      method: 'POST',
      url: '/api/admin/providers',
      payload: { name: 'X', specialty: ' ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('specialty');
    const missing = await admin.request({
      method: 'PATCH',
      url: '/api/admin/providers/99999',
      payload: { active: false },
    });
    expect(missing.statusCode).toBe(404);
    for (const role of ['doctor', 'nurse_manager', 'billing_admin'] as const) {
      const s = await signInAs(t.app, role);
      expect((await s.request({ method: 'GET', url: '/api/admin/providers' })).statusCode).toBe(403);
      const post = await s.request({
        method: 'POST',
        url: '/api/admin/providers',
        payload: { name: 'Y', specialty: 'Z' },
      });
      expect(post.statusCode).toBe(403);
    }
  });
});
