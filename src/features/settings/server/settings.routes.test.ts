import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TODAY } from '@/testing/test-clock';
import { createTestApp, signInAs, type TestApp } from '@/testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('user settings', () => {
  it('starts from the defaults', async () => {
    const s = await signInAs(t.app, 'guest');
    const res = await s.request({ method: 'GET', url: '/api/settings' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ highContrast: false, fontSize: 'medium', mfaEnabled: false });
  });

  it('saves a change and returns it on a new sign-in', async () => {
    const first = await signInAs(t.app, 'doctor');
    const patch = await first.request({
      method: 'PATCH',
      url: '/api/settings',
      payload: { highContrast: true, fontSize: 'large' },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json()).toMatchObject({ highContrast: true, fontSize: 'large' });
    await first.request({ method: 'POST', url: '/api/auth/logout' });

    const second = await signInAs(t.app, 'doctor');
    const res = await second.request({ method: 'GET', url: '/api/settings' });
    expect(res.json()).toMatchObject({ highContrast: true, fontSize: 'large' });
  });

  it('keeps each user to their own settings', async () => {
    const nurse = await signInAs(t.app, 'nurse_manager');
    const res = await nurse.request({ method: 'GET', url: '/api/settings' });
    expect(res.json()).toMatchObject({ highContrast: false, fontSize: 'medium' });
  });

  it('refuses bad values with the field named, and writes nothing', async () => {
    const s = await signInAs(t.app, 'admin');
    const bad = await s.request({ method: 'PATCH', url: '/api/settings', payload: { fontSize: 'huge' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('fontSize');
    const unknown = await s.request({ method: 'PATCH', url: '/api/settings', payload: { id: 99, role: 'admin' } });
    expect(unknown.statusCode).toBe(400);
    const after = await s.request({ method: 'GET', url: '/api/settings' });
    expect(after.json()).toMatchObject({ fontSize: 'medium' });
  });
});

type Envelope = { error: { code: string; message: string; fields?: { field: string; message: string }[] } };
const fieldsOf = (body: unknown) => (body as Envelope).error.fields?.map((f) => f.field) ?? [];

/** A second app on the same database: what a restarted server would read. */
async function restartedApp() {
  const { buildApp } = await import('@/server/app');
  const { DEFAULT_CONFIG } = await import('@/server/context');
  const app = await buildApp({
    db: t.database.db,
    clock: t.clock,
    config: { ...DEFAULT_CONFIG, loginRateLimitPerMinute: 10_000 },
  });
  await app.ready();
  return app;
}

async function auditActions(action: string) {
  const { auditLog } = await import('@/features/audit/server/audit.table');
  const { eq } = await import('drizzle-orm');
  return t.database.db.select().from(auditLog).where(eq(auditLog.action, action));
}

describe('practice, notification and integration settings', () => {
  it('starts from the practice defaults', async () => {
    const s = await signInAs(t.app, 'nurse_manager');
    const practice = await s.request({ method: 'GET', url: '/api/settings/practice' });
    expect(practice.json()).toEqual({
      appointmentMinutes: 30,
      bufferMinutes: 10,
      workdayStart: '08:00',
      workdayEnd: '17:00',
      workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
    });
    const notifications = await s.request({ method: 'GET', url: '/api/settings/notifications' });
    expect(notifications.json()).toEqual({
      scope: 'practice',
      settings: { email: true, sms: true, push: false, emailReminderHours: 24, smsReminderHours: 1 },
    });
    const integrations = await s.request({ method: 'GET', url: '/api/settings/integrations' });
    expect(integrations.json()).toEqual({
      paymentGateway: true,
      accounting: true,
      sms: false,
      calendar: false,
      chat: true,
      crm: false,
    });
  });

  it('saves practice, notification and integration settings that survive a restart, each audited', async () => {
    const admin = await signInAs(t.app, 'admin');
    const practice = await admin.request({
      method: 'PUT',
      url: '/api/settings/practice',
      payload: {
        appointmentMinutes: 45,
        bufferMinutes: 15,
        workdayStart: '07:30',
        workdayEnd: '18:00',
        workingDays: ['Sat', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
      },
    });
    expect(practice.statusCode).toBe(200);
    expect(practice.json()).toMatchObject({ workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] });
    const notifications = await admin.request({
      method: 'PUT',
      url: '/api/settings/notifications',
      payload: { email: false, sms: true, push: true, emailReminderHours: 48, smsReminderHours: 2 },
    });
    expect(notifications.statusCode).toBe(200);
    const crm = await admin.request({
      method: 'PUT',
      url: '/api/settings/integrations/crm',
      payload: { connected: true },
    });
    expect(crm.statusCode).toBe(200);
    expect(crm.json()).toMatchObject({ crm: true, chat: true });

    const restarted = await restartedApp();
    try {
      const doctor = await signInAs(restarted, 'doctor');
      expect((await doctor.request({ method: 'GET', url: '/api/settings/practice' })).json()).toEqual({
        appointmentMinutes: 45,
        bufferMinutes: 15,
        workdayStart: '07:30',
        workdayEnd: '18:00',
        workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
      });
      expect((await doctor.request({ method: 'GET', url: '/api/settings/notifications' })).json()).toMatchObject({
        settings: { email: false, push: true, emailReminderHours: 48, smsReminderHours: 2 },
      });
      expect((await doctor.request({ method: 'GET', url: '/api/settings/integrations' })).json()).toMatchObject({
        crm: true,
      });
      // Appointments read the same hours: the booking form offers them.
      expect((await doctor.request({ method: 'GET', url: '/api/appointments/practice-hours' })).json()).toMatchObject({
        appointmentMinutes: 45,
        workdayEnd: '18:00',
      });
    } finally {
      await restarted.close();
    }

    const [practiceAudit] = await auditActions('settings.practice.update');
    expect(practiceAudit?.detail).toBe(
      '30 min visits, 10 min buffer, 08:00-17:00, Mon/Tue/Wed/Thu/Fri -> 45 min visits, 15 min buffer, 07:30-18:00, Mon/Tue/Wed/Thu/Fri/Sat',
    );
    expect(practiceAudit?.actor).toBe('admin@healthcare.demo');
    expect((await auditActions('settings.notifications.update')).length).toBe(1);
    const [integrationAudit] = await auditActions('settings.integrations.update');
    expect(integrationAudit?.detail).toBe('CRM: disconnected -> connected');

    // Put the practice back as it was for the other tests of this file.
    await admin.request({
      method: 'PUT',
      url: '/api/settings/practice',
      payload: {
        appointmentMinutes: 30,
        bufferMinutes: 10,
        workdayStart: '08:00',
        workdayEnd: '17:00',
        workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
      },
    });
  });

  it('refuses invalid practice settings with the field named, and writes nothing', async () => {
    const admin = await signInAs(t.app, 'admin');
    const base = {
      appointmentMinutes: 30,
      bufferMinutes: 10,
      workdayStart: '08:00',
      workdayEnd: '17:00',
      workingDays: ['Mon'],
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ appointmentMinutes: 20 }, 'appointmentMinutes'],
      [{ bufferMinutes: 7 }, 'bufferMinutes'],
      [{ workdayStart: '25:00' }, 'workdayStart'],
      [{ workdayStart: '17:00', workdayEnd: '08:00' }, 'workdayEnd'],
      [{ workingDays: [] }, 'workingDays'],
      [{ workingDays: ['Funday'] }, 'workingDays.0'],
    ];
    for (const [change, field] of cases) {
      const res = await admin.request({
        method: 'PUT',
        url: '/api/settings/practice',
        payload: { ...base, ...change },
      });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(fieldsOf(res.json())).toContain(field);
    }
    const notifications = await admin.request({
      method: 'PUT',
      url: '/api/settings/notifications',
      payload: { email: true, sms: true, push: false, emailReminderHours: 12, smsReminderHours: 1 },
    });
    expect(notifications.statusCode).toBe(400);
    expect(fieldsOf(notifications.json())).toEqual(['emailReminderHours']);
    const unknownIntegration = await admin.request({
      method: 'PUT',
      url: '/api/settings/integrations/fax',
      payload: { connected: true },
    });
    expect(unknownIntegration.statusCode).toBe(400);
    expect(fieldsOf(unknownIntegration.json())).toEqual(['key']);
    const after = await admin.request({ method: 'GET', url: '/api/settings/practice' });
    expect(after.json()).toMatchObject({ appointmentMinutes: 30, workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'] });
  });

  it('refuses practice and integration settings to patient and guest (403)', async () => {
    for (const role of ['patient', 'guest'] as const) {
      const s = await signInAs(t.app, role);
      for (const [method, url, payload] of [
        ['GET', '/api/settings/practice', undefined],
        ['PUT', '/api/settings/practice', { appointmentMinutes: 15 }],
        ['GET', '/api/settings/integrations', undefined],
        ['PUT', '/api/settings/integrations/crm', { connected: true }],
      ] as const) {
        const res = await s.request({ method, url, payload });
        expect(res.statusCode, `${role} ${method} ${url}`).toBe(403);
      }
    }
  });

  it("keeps a patient's notification preferences to themself, leaving the practice's unchanged", async () => {
    const patient = await signInAs(t.app, 'patient');
    const mine = await patient.request({ method: 'GET', url: '/api/settings/notifications' });
    expect(mine.json()).toMatchObject({ scope: 'personal', settings: { email: true, sms: true, push: false } });
    const saved = await patient.request({
      method: 'PUT',
      url: '/api/settings/notifications',
      payload: { email: true, sms: false, push: false, emailReminderHours: 168, smsReminderHours: 24 },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ scope: 'personal', settings: { sms: false, emailReminderHours: 168 } });

    const again = await signInAs(t.app, 'patient');
    expect((await again.request({ method: 'GET', url: '/api/settings/notifications' })).json()).toMatchObject({
      settings: { sms: false, emailReminderHours: 168 },
    });
    const guest = await signInAs(t.app, 'guest');
    expect((await guest.request({ method: 'GET', url: '/api/settings/notifications' })).json()).toMatchObject({
      scope: 'personal',
      settings: { sms: true, emailReminderHours: 24 },
    });
    const staff = await signInAs(t.app, 'billing_admin');
    const practice = (await staff.request({ method: 'GET', url: '/api/settings/notifications' })).json<{
      scope: string;
      settings: { emailReminderHours: number };
    }>();
    expect(practice.scope).toBe('practice');
    expect(practice.settings.emailReminderHours).not.toBe(168);
  });
});

describe('the practice time zone', () => {
  afterAll(async () => {
    const { processTimeZone, setPracticeTimeZone } = await import('@/shared/practice-zone');
    setPracticeTimeZone(processTimeZone());
    t.clock.set(new Date(`${TEST_TODAY}T15:00:00Z`));
  });

  it("keeps every today in the practice's zone: the dashboard's day turns over at the practice's midnight", async () => {
    // 10:03 PM on Tuesday 24 November in Los Angeles; already Wednesday in UTC and Tokyo.
    t.clock.set(new Date('2026-11-25T06:03:00Z'));
    const admin = await signInAs(t.app, 'admin');
    const la = await admin.request({
      method: 'PUT',
      url: '/api/settings/practice/time-zone',
      payload: { timeZone: 'America/Los_Angeles' },
    });
    expect(la.statusCode).toBe(200);
    expect(la.json()).toEqual({ timeZone: 'America/Los_Angeles', chosen: true, today: '2026-11-24' });
    const dashboard = await admin.request({ method: 'GET', url: '/api/dashboard/summary' });
    expect(dashboard.json<{ today: string }>().today).toBe('2026-11-24');
    const session = await admin.request({ method: 'GET', url: '/api/auth/session' });
    expect(session.json<{ timeZone: string }>().timeZone).toBe('America/Los_Angeles');

    await admin.request({
      method: 'PUT',
      url: '/api/settings/practice/time-zone',
      payload: { timeZone: 'Asia/Tokyo' },
    });
    expect(
      (await admin.request({ method: 'GET', url: '/api/dashboard/summary' })).json<{ today: string }>().today,
    ).toBe('2026-11-25');
    const [entry] = (await auditActions('settings.practice_time_zone.update')).slice(-1);
    expect(entry?.detail).toBe('America/Los_Angeles -> Asia/Tokyo');
  });

  it('is read back by a restarted server', async () => {
    const { setPracticeTimeZone, currentPracticeTimeZone } = await import('@/shared/practice-zone');
    setPracticeTimeZone('UTC');
    const app = await restartedApp();
    expect(currentPracticeTimeZone()).toBe('Asia/Tokyo');
    await app.close();
  });

  it('refuses a zone that does not exist, naming the field, and keeps the one it had', async () => {
    const admin = await signInAs(t.app, 'admin');
    const bad = await admin.request({
      method: 'PUT',
      url: '/api/settings/practice/time-zone',
      payload: { timeZone: 'Mars/Olympus_Mons' },
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad.json())).toEqual(['timeZone']);
    const now = await admin.request({ method: 'GET', url: '/api/settings/practice/time-zone' });
    expect(now.json<{ timeZone: string }>().timeZone).toBe('Asia/Tokyo');
    const patient = await signInAs(t.app, 'patient');
    const refused = await patient.request({
      method: 'PUT',
      url: '/api/settings/practice/time-zone',
      payload: { timeZone: 'UTC' },
    });
    expect(refused.statusCode).toBe(403);
  });
});
