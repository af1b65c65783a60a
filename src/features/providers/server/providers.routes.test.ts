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
