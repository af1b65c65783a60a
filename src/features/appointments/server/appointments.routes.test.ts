import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { TEST_TODAY } from '@/testing/test-clock';
import { DEFAULT_PRACTICE_HOURS } from '@/features/settings/practice.schema';
import { maskText, rolesWith } from '@/shared/access';
import {
  APPOINTMENT_STATUSES,
  formatDay,
  formatTime12,
  type Appointment,
  type AppointmentPage,
  type CallListRow,
  type FreeSlots,
} from '../appointments.schema';

// TEST_TODAY (2026-11-22) is a Sunday; the test clock reads 15:00 UTC on it.
const MONDAY = '2026-11-23';
const TUESDAY = '2026-11-24';
const SATURDAY = '2026-11-28';
const FAR_MONDAY = '2027-03-01'; // beyond the seeded appointments: every slot is free
// Further free weekdays, each used by one group of tests below.
const FAR_TUESDAY = '2027-03-02';
const FAR_WEDNESDAY = '2027-03-03';
const FAR_THURSDAY = '2027-03-04';

interface ErrorBody {
  error: { code: string; message: string; fields?: { field: string; message: string }[] };
}

let t: TestApp;
let nurse: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  nurse = await signInAs(t.app, 'nurse_manager');
});
afterAll(async () => {
  await t.close();
});

async function sql<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T>(text, values)).rows;
}

async function auditCount(): Promise<number> {
  const [row] = await sql<{ n: number }>('select count(*)::int as n from audit_log');
  return row?.n ?? 0;
}

async function appointmentCount(): Promise<number> {
  const [row] = await sql<{ n: number }>('select count(*)::int as n from appointments');
  return row?.n ?? 0;
}

/** Runs a write and returns its response with the number of audit entries it added. */
async function write(s: SignedIn, options: Parameters<SignedIn['request']>[0]) {
  const before = await auditCount();
  const res = await s.request(options);
  return { res, audited: (await auditCount()) - before };
}

/** A seeded appointment on a future weekday that holds its slot. */
async function liveAppointmentOn(date: string, offset = 0) {
  const rows = await sql<{ id: number; provider_id: number; patient_id: number; time: string; status: string }>(
    `select id, provider_id, patient_id, time, status from appointments
     where date = $1 and status = 'Scheduled' order by id limit 1 offset $2`,
    [date, offset],
  );
  const row = rows[0];
  if (!row) throw new Error(`no scheduled appointment on ${date}`);
  return row;
}

async function providerName(id: number): Promise<string> {
  const [row] = await sql<{ name: string }>('select name from providers where id = $1', [id]);
  return row?.name ?? '';
}

/** Every page of a day's schedule, following nextCursor (small pages, so paging is exercised). */
async function dayPages(date: string, limit = 7): Promise<AppointmentPage[]> {
  const found: AppointmentPage[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/api/appointments?date=${date}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await nurse.request({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<AppointmentPage>();
    found.push(page);
    cursor = page.nextCursor;
    expect(found.length).toBeLessThan(500);
  } while (cursor);
  return found;
}

async function day(date: string): Promise<Appointment[]> {
  return (await dayPages(date)).flatMap((p) => p.items);
}

/** Work done as a nurse manager signed in on MONDAY at a clinic time (UTC, as the test clock), then back. */
async function onMonday<T>(time: string, work: (staff: SignedIn) => Promise<T>): Promise<T> {
  const start = t.clock();
  t.clock.set(new Date(`${MONDAY}T${time}:00Z`));
  try {
    return await work(await signInAs(t.app, 'nurse_manager'));
  } finally {
    t.clock.set(start);
  }
}

function fieldsOf(res: { json: <T>() => T }): string[] {
  return (res.json<ErrorBody>().error.fields ?? []).map((f) => f.field);
}

describe('GET /api/appointments', () => {
  it("lists today's appointments (the server clock's day) by time, a page at a time", async () => {
    // TEST_TODAY is a Sunday, when the practice is closed; on Monday morning the day's visits are listed.
    const closed = await nurse.request({ method: 'GET', url: '/api/appointments' });
    expect(closed.json<AppointmentPage>().total).toBe(0);
    const page = await onMonday('09:00', async (staff) => {
      const res = await staff.request({ method: 'GET', url: '/api/appointments' });
      expect(res.statusCode).toBe(200);
      return res.json<AppointmentPage>();
    });
    const [expected] = await sql<{ n: number }>('select count(*)::int as n from appointments where date = $1', [
      MONDAY,
    ]);
    expect(page.total).toBe(expected?.n);
    expect(page.items.length).toBe(Math.min(50, expected?.n ?? 0));
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((a) => a.date === MONDAY)).toBe(true);
    const times = page.items.map((a) => a.time);
    expect(times).toEqual([...times].sort());
    expect(page.items[0]?.patient).not.toBe('');
    expect(page.items[0]?.provider).toMatch(/^Dr\. /);
  });

  it('lists the chosen date, and names a malformed date', async () => {
    const list = await day(MONDAY);
    const [expected] = await sql<{ n: number }>('select count(*)::int as n from appointments where date = $1', [
      MONDAY,
    ]);
    expect(list.length).toBe(expected?.n);
    expect(list.every((a) => a.date === MONDAY)).toBe(true);

    const bad = await nurse.request({ method: 'GET', url: '/api/appointments?date=2026-13-40' });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toEqual(['date']);
  });

  it('pages a day by (time, id): every appointment once, ties on a time kept apart, total on page 1 only', async () => {
    // Several bookings at one time (different providers) make ties on the time that the id must break: the
    // week's day with the most bookings at one time.
    const [busiest] = await sql<{ date: string; n: number }>(
      `select date::text as date, count(*)::int as n from appointments where date between $1 and $1::date + 4
        group by date, time order by n desc, date, time limit 1`,
      [MONDAY],
    );
    expect(busiest?.n).toBeGreaterThan(1);
    const day = busiest?.date ?? MONDAY;
    for (const limit of [1, 2, 5]) {
      const found = await dayPages(day, limit);
      expect(found[0]?.total).toBeGreaterThan(limit);
      expect(found.slice(1).every((p) => p.total === null)).toBe(true);
      expect(found.slice(0, -1).every((p) => p.items.length === limit)).toBe(true);
      const rows = found.flatMap((p) => p.items);
      const ids = rows.map((a) => a.id);
      expect(new Set(ids).size).toBe(ids.length);
      const expected = await sql<{ id: number }>('select id from appointments where date = $1 order by time, id', [
        day,
      ]);
      expect(ids).toEqual(expected.map((r) => r.id));
      expect(found[0]?.total).toBe(expected.length);
    }
    const counted = await nurse.request({ method: 'GET', url: `/api/appointments?date=${MONDAY}&count=false` });
    expect(counted.json<AppointmentPage>().total).toBeNull();
  });

  it('refuses a cursor of another day, another list or a forged one, naming the cursor', async () => {
    const first = await nurse.request({ method: 'GET', url: `/api/appointments?date=${MONDAY}&limit=2` });
    const cursor = first.json<AppointmentPage>().nextCursor;
    expect(cursor).not.toBeNull();
    const otherList = Buffer.from(JSON.stringify(['name', 'asc', 'Ana', 3])).toString('base64url');
    for (const [url, message] of [
      [`/api/appointments?date=${TUESDAY}&cursor=${cursor}`, 'cursor: was issued for another day'],
      [
        `/api/appointments?date=${MONDAY}&cursor=${otherList}`,
        'cursor: is not a cursor this server issued for this sort',
      ],
      [`/api/appointments?date=${MONDAY}&cursor=forged`, 'cursor: is not a cursor this server issued for this sort'],
    ] as const) {
      const res = await nurse.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(fieldsOf(res)).toEqual(['cursor']);
      expect(res.json<ErrorBody>().error.message).toBe(message);
    }
  });

  it('offers the practice hours the booking form uses', async () => {
    const res = await nurse.request({ method: 'GET', url: '/api/appointments/practice-hours' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ workdayStart: '08:00', workdayEnd: '17:00', appointmentMinutes: 30 });
  });
});

describe('PATCH /api/appointments/:id — status', () => {
  it('changes a visit that has started to any of the five values from any other, each change audited once', async () => {
    // A past visit with no other visit of its provider (with the buffer) or its patient near it: bringing it
    // back from Cancelled must not clash with a seeded neighbour.
    const [appt] = await sql<{ id: number; patient_id: number; date: string; time: string; status: string }>(
      `select a.id, a.patient_id, a.date::text as date, a.time, a.status from appointments a
       where a.date < $1 and not exists (
         select 1 from appointments b where b.id <> a.id and b.date = a.date
           and (b.provider_id = a.provider_id or b.patient_id = a.patient_id)
           and abs((split_part(b.time, ':', 1)::int * 60 + split_part(b.time, ':', 2)::int)
                 - (split_part(a.time, ':', 1)::int * 60 + split_part(a.time, ':', 2)::int)) < 40)
       order by a.date desc, a.id limit 1`,
      [TEST_TODAY],
    );
    if (!appt) throw new Error('the seed has no isolated past visit');
    let previous = appt.status;
    for (const from of APPOINTMENT_STATUSES) {
      for (const to of APPOINTMENT_STATUSES) {
        if (from === to) continue;
        for (const status of [from, to]) {
          if (status === previous) continue;
          const { res, audited } = await write(nurse, {
            method: 'PATCH',
            url: `/api/appointments/${appt.id}`,
            payload: { status },
          });
          expect(res.statusCode, `${previous} → ${status}`).toBe(200);
          expect(res.json<Appointment>()).toMatchObject({ id: appt.id, status, date: appt.date, time: appt.time });
          expect(audited).toBe(1);
          previous = status;
        }
      }
    }
    const [entry] = await sql<{ action: string; detail: string; actor: string; patient_id: number }>(
      `select action, detail, actor, patient_id from audit_log where resource = $1 order by id desc limit 1`,
      [`appointment/${appt.id}`],
    );
    expect(entry).toMatchObject({
      action: 'appointment.update',
      detail: 'status Rescheduled → No-Show',
      actor: 'nurse.manager@healthcare.demo',
      patient_id: appt.patient_id,
    });
  });

  it('refuses Completed and No-Show before the visit starts (422 naming status), and allows the rest', async () => {
    const [patient] = await sql<{ id: number }>('select id from patients order by id limit 1 offset 5');
    const [provider] = await sql<{ id: number }>('select id from providers order by id desc limit 1');
    const booked = await nurse.request({
      method: 'POST',
      url: '/api/appointments',
      payload: {
        patientId: patient?.id,
        providerId: provider?.id,
        reason: 'Check-up',
        date: FAR_THURSDAY,
        time: '15:00',
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const { id } = booked.json<Appointment>();
    for (const status of ['Completed', 'No-Show']) {
      const { res, audited } = await write(nurse, {
        method: 'PATCH',
        url: `/api/appointments/${id}`,
        payload: { status },
      });
      expect(res.statusCode, status).toBe(422);
      expect(res.json<ErrorBody>().error).toMatchObject({
        code: 'VISIT_NOT_STARTED',
        fields: [{ field: 'status', message: `cannot be ${status} before the visit starts (Mar 4, 2027 at 3:00 PM)` }],
      });
      expect(audited).toBe(0);
    }
    for (const status of ['Cancelled', 'Scheduled', 'Rescheduled', 'Scheduled']) {
      const res = await nurse.request({ method: 'PATCH', url: `/api/appointments/${id}`, payload: { status } });
      expect(res.statusCode, status).toBe(200);
    }
    const [row] = await sql<{ status: string }>('select status from appointments where id = $1', [id]);
    expect(row?.status).toBe('Scheduled');
  });

  it("takes Completed and No-Show from the visit's start time on the day itself", async () => {
    // On Monday at 15:00 (TEST_TODAY, a Sunday, has no visits).
    const visits = await sql<{ id: number; time: string; status: string }>(
      `select id, time, status from appointments where date = $1 and status = 'Scheduled' order by time`,
      [MONDAY],
    );
    const started = visits.find((v) => v.time <= '15:00');
    const later = visits.find((v) => v.time > '15:00');
    if (!started || !later) throw new Error(`the seed has no visit before and after 15:00 on ${MONDAY}`);
    await onMonday('15:00', async (staff) => {
      // No-Show gives the slot back, so no neighbour of the visit can stand in the way.
      const done = await staff.request({
        method: 'PATCH',
        url: `/api/appointments/${started.id}`,
        payload: { status: 'No-Show' },
      });
      expect(done.statusCode, done.body).toBe(200);
      const early = await staff.request({
        method: 'PATCH',
        url: `/api/appointments/${later.id}`,
        payload: { status: 'No-Show' },
      });
      expect(early.statusCode).toBe(422);
    });
  });

  it('refuses an unknown status, naming the field, and writes nothing', async () => {
    const appt = await liveAppointmentOn(TUESDAY, 1);
    const { res, audited } = await write(nurse, {
      method: 'PATCH',
      url: `/api/appointments/${appt.id}`,
      payload: { status: 'Lost' },
    });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res)).toEqual(['status']);
    expect(audited).toBe(0);
  });

  it('answers 404 for an unknown appointment', async () => {
    const { res, audited } = await write(nurse, {
      method: 'PATCH',
      url: '/api/appointments/987654',
      payload: { status: 'Completed' },
    });
    expect(res.statusCode).toBe(404);
    expect(audited).toBe(0);
    const reschedule = await nurse.request({
      method: 'PATCH',
      url: '/api/appointments/987654',
      payload: { date: FAR_MONDAY, time: '09:00' },
    });
    expect(reschedule.statusCode).toBe(404);
  });

  it('does not bring a cancelled visit back into a slot someone else now holds', async () => {
    const appt = await liveAppointmentOn(MONDAY, 2);
    await nurse.request({ method: 'PATCH', url: `/api/appointments/${appt.id}`, payload: { status: 'Cancelled' } });
    const [patient] = await sql<{ id: number }>('select id from patients where id <> $1 order by id limit 1', [
      appt.patient_id,
    ]);
    const rebook = await nurse.request({
      method: 'POST',
      url: '/api/appointments',
      payload: {
        patientId: patient?.id,
        providerId: appt.provider_id,
        reason: 'Back pain',
        date: MONDAY,
        time: appt.time,
      },
    });
    expect(rebook.statusCode).toBe(201);
    const { res, audited } = await write(nurse, {
      method: 'PATCH',
      url: `/api/appointments/${appt.id}`,
      payload: { status: 'Scheduled' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<ErrorBody>().error.message).toContain(await providerName(appt.provider_id));
    expect(audited).toBe(0);
  });
});

describe('PATCH /api/appointments/:id — reschedule', () => {
  it('moves the date and time and keeps the status, audited once', async () => {
    const appt = await liveAppointmentOn(MONDAY, 3);
    await nurse.request({ method: 'PATCH', url: `/api/appointments/${appt.id}`, payload: { status: 'Rescheduled' } });
    const { res, audited } = await write(nurse, {
      method: 'PATCH',
      url: `/api/appointments/${appt.id}`,
      payload: { date: FAR_MONDAY, time: '10:30' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Appointment>()).toMatchObject({
      id: appt.id,
      date: FAR_MONDAY,
      time: '10:30',
      status: 'Rescheduled',
    });
    expect(audited).toBe(1);
    const [row] = await sql<{ date: string; time: string; status: string }>(
      `select date::text, time, status from appointments where id = $1`,
      [appt.id],
    );
    expect(row).toEqual({ date: FAR_MONDAY, time: '10:30', status: 'Rescheduled' });
    expect((await day(MONDAY)).some((a) => a.id === appt.id)).toBe(false);
  });

  it('needs both a new date and a new time, naming the missing one', async () => {
    const appt = await liveAppointmentOn(MONDAY, 4);
    const noTime = await write(nurse, {
      method: 'PATCH',
      url: `/api/appointments/${appt.id}`,
      payload: { date: FAR_MONDAY },
    });
    expect(noTime.res.statusCode).toBe(400);
    expect(fieldsOf(noTime.res)).toEqual(['time']);
    expect(noTime.res.json<ErrorBody>().error.message).toBe('time: is required');
    const noDate = await write(nurse, {
      method: 'PATCH',
      url: `/api/appointments/${appt.id}`,
      payload: { time: '09:00' },
    });
    expect(noDate.res.statusCode).toBe(400);
    expect(fieldsOf(noDate.res)).toEqual(['date']);
    expect(noTime.audited + noDate.audited).toBe(0);
  });

  it('refuses a status together with a new date', async () => {
    const appt = await liveAppointmentOn(MONDAY, 4);
    const { res, audited } = await write(nurse, {
      method: 'PATCH',
      url: `/api/appointments/${appt.id}`,
      payload: { status: 'Completed', date: FAR_MONDAY, time: '09:00' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().error.message).toContain('either a status or a new date and time');
    expect(audited).toBe(0);
  });

  it('refuses a slot outside the practice hours, in the past, or already taken', async () => {
    // A Monday visit, and a Tuesday slot its own provider already holds.
    const [pair] = await sql<{ id: number; taken_time: string }>(
      `select a.id, b.time as taken_time from appointments a
       join appointments b on b.provider_id = a.provider_id and b.date = $2 and b.status = 'Scheduled'
       where a.date = $1 and a.status = 'Scheduled' order by a.id desc, b.time limit 1`,
      [MONDAY, TUESDAY],
    );
    if (!pair) throw new Error('no provider works on both days');
    const appt = { id: pair.id };
    const taken = { time: pair.taken_time };
    const cases = [
      { payload: { date: SATURDAY, time: '09:00' }, status: 400, field: 'time' },
      { payload: { date: FAR_MONDAY, time: '17:00' }, status: 400, field: 'time' },
      { payload: { date: '2026-11-20', time: '09:00' }, status: 400, field: 'date' },
      { payload: { date: TUESDAY, time: taken.time }, status: 409, field: 'time' },
    ];
    for (const c of cases) {
      const { res, audited } = await write(nurse, {
        method: 'PATCH',
        url: `/api/appointments/${appt.id}`,
        payload: c.payload,
      });
      expect(res.statusCode, JSON.stringify(c.payload)).toBe(c.status);
      expect(fieldsOf(res)).toEqual([c.field]);
      expect(audited).toBe(0);
    }
  });
});

describe('POST /api/appointments', () => {
  async function someIds() {
    const [patient] = await sql<{ id: number }>(`select id from patients order by id desc limit 1`);
    const [provider] = await sql<{ id: number; name: string }>(`select id, name from providers order by id limit 1`);
    if (!patient || !provider) throw new Error('seed has no patients or providers');
    return { patientId: patient.id, providerId: provider.id, providerName: provider.name };
  }

  it('books a visit as Scheduled, audited once', async () => {
    const { patientId, providerId, providerName: name } = await someIds();
    const before = await appointmentCount();
    const { res, audited } = await write(nurse, {
      method: 'POST',
      url: '/api/appointments',
      payload: { patientId, providerId, reason: 'Hypertension check', date: FAR_MONDAY, time: '08:00' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<Appointment>()).toMatchObject({
      patientId,
      providerId,
      provider: name,
      reason: 'Hypertension check',
      date: FAR_MONDAY,
      time: '08:00',
      status: 'Scheduled',
    });
    expect(audited).toBe(1);
    expect(await appointmentCount()).toBe(before + 1);
    const [entry] = await sql<{ action: string; patient_id: number }>(
      'select action, patient_id from audit_log order by id desc limit 1',
    );
    expect(entry).toEqual({ action: 'appointment.create', patient_id: patientId });

    // The answer is the appointment as the day's schedule then shows it.
    const day = await nurse.request({ method: 'GET', url: `/api/appointments?date=${FAR_MONDAY}&limit=200` });
    const listed = day.json<{ items: Appointment[] }>().items.find((a) => a.id === res.json<Appointment>().id);
    // The day's list adds the primary policy's eligibility for the day (appointments.eligibility.queries.ts).
    const { eligibility, ...rest } = listed ?? ({} as Appointment);
    expect(rest).toEqual(res.json<Appointment>());
    expect(eligibility?.state).toBeDefined();
  });

  it('refuses a closed day or a time outside working hours, naming the rule', async () => {
    const { patientId, providerId } = await someIds();
    const before = await appointmentCount();
    const closed = await write(nurse, {
      method: 'POST',
      url: '/api/appointments',
      payload: { patientId, providerId, reason: 'Back pain', date: SATURDAY, time: '09:00' },
    });
    expect(closed.res.statusCode).toBe(400);
    expect(fieldsOf(closed.res)).toEqual(['time']);
    expect(closed.res.json<ErrorBody>().error.message).toMatch(/closed on Sat/);
    for (const time of ['07:30', '16:45', '17:00']) {
      const late = await write(nurse, {
        method: 'POST',
        url: '/api/appointments',
        payload: { patientId, providerId, reason: 'Back pain', date: FAR_MONDAY, time },
      });
      expect(late.res.statusCode, time).toBe(400);
      expect(fieldsOf(late.res)).toEqual(['time']);
      expect(late.res.json<ErrorBody>().error.message).toMatch(/must start between 8:00 AM and 5:00 PM/);
      expect(late.audited).toBe(0);
    }
    expect(closed.audited).toBe(0);
    expect(await appointmentCount()).toBe(before);
  });

  it('refuses a date in the past and a time already gone today', async () => {
    const { patientId, providerId } = await someIds();
    const past = await nurse.request({
      method: 'POST',
      url: '/api/appointments',
      payload: { patientId, providerId, reason: 'Back pain', date: '2026-11-20', time: '09:00' },
    });
    expect(past.statusCode).toBe(400);
    expect(fieldsOf(past)).toEqual(['date']);
    const earlierToday = await nurse.request({
      method: 'POST',
      url: '/api/appointments',
      payload: { patientId, providerId, reason: 'Back pain', date: TEST_TODAY, time: '09:00' },
    });
    expect(earlierToday.statusCode).toBe(400);
    expect(fieldsOf(earlierToday)).toEqual(['time']);
  });

  it('refuses a double booking with the provider named, and writes nothing', async () => {
    const taken = await liveAppointmentOn(TUESDAY, 3);
    const name = await providerName(taken.provider_id);
    const { patientId } = await someIds();
    const before = await appointmentCount();
    const { res, audited } = await write(nurse, {
      method: 'POST',
      url: '/api/appointments',
      payload: { patientId, providerId: taken.provider_id, reason: 'Flu symptoms', date: TUESDAY, time: taken.time },
    });
    expect(res.statusCode).toBe(409);
    const body = res.json<ErrorBody>();
    expect(body.error.code).toBe('PROVIDER_BUSY');
    expect(body.error.message).toContain(`${name} already has an appointment from ${formatTime12(taken.time)} to `);
    expect(body.error.message).toContain(`on ${formatDay(TUESDAY)}`);
    expect(body.error.fields?.[0]?.field).toBe('time');
    expect(audited).toBe(0);
    expect(await appointmentCount()).toBe(before);
  });

  it('lets only one of two simultaneous bookings of a slot win', async () => {
    const { patientId, providerId, providerName: name } = await someIds();
    const payload = { patientId, providerId, reason: 'Annual physical', date: FAR_MONDAY, time: '11:00' };
    const before = await auditCount();
    const answers = await Promise.all([
      nurse.request({ method: 'POST', url: '/api/appointments', payload }),
      nurse.request({ method: 'POST', url: '/api/appointments', payload }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    const loser = answers.find((a) => a.statusCode === 409);
    expect(loser?.json<ErrorBody>().error.message).toContain(name);
    expect((await auditCount()) - before).toBe(1);
  });

  it('refuses an unknown patient or provider, naming the field', async () => {
    const { patientId, providerId } = await someIds();
    const base = { reason: 'Back pain', date: FAR_MONDAY, time: '13:00' };
    const noPatient = await write(nurse, {
      method: 'POST',
      url: '/api/appointments',
      payload: { ...base, patientId: 999_999, providerId },
    });
    expect(noPatient.res.statusCode).toBe(400);
    expect(fieldsOf(noPatient.res)).toEqual(['patientId']);
    const noProvider = await write(nurse, {
      method: 'POST',
      url: '/api/appointments',
      payload: { ...base, patientId, providerId: 999_999 },
    });
    expect(noProvider.res.statusCode).toBe(400);
    expect(fieldsOf(noProvider.res)).toEqual(['providerId']);
    await sql('update providers set active = false where id = $1', [providerId]);
    const inactive = await write(nurse, {
      method: 'POST',
      url: '/api/appointments',
      payload: { ...base, patientId, providerId },
    }).finally(() => sql('update providers set active = true where id = $1', [providerId]));
    expect(inactive.res.statusCode).toBe(400);
    expect(fieldsOf(inactive.res)).toEqual(['providerId']);
    expect(noPatient.audited + noProvider.audited + inactive.audited).toBe(0);
  });

  it('names every missing field', async () => {
    const res = await nurse.request({ method: 'POST', url: '/api/appointments', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res)).toEqual(['patientId', 'providerId', 'reason', 'date', 'time']);
  });
});

describe('call list export', () => {
  it("returns the whole day's appointments (not a page), in the screen's order, and records the export once", async () => {
    const shown = await day(MONDAY);
    const { res, audited } = await write(nurse, {
      method: 'POST',
      url: '/api/appointments/call-list-export',
      payload: { date: MONDAY },
    });
    expect(res.statusCode).toBe(200);
    const phones = new Map(
      (await sql<{ id: number; phone: string }>('select id, phone from patients')).map((p) => [p.id, p.phone]),
    );
    expect(res.json<CallListRow[]>()).toEqual(
      shown.map(({ eligibility: _eligibility, ...a }) => ({ ...a, phone: phones.get(a.patientId) })),
    );
    expect(audited).toBe(1);
    const [entry] = await sql<{ action: string; resource: string; detail: string }>(
      'select action, resource, detail from audit_log order by id desc limit 1',
    );
    expect(entry).toEqual({
      action: 'appointment.export',
      resource: `call_list_${MONDAY}.csv`,
      detail: `exported the call list for ${MONDAY} (${shown.length} appointments)`,
    });
  });

  it("gives each line the patient's phone, masked as the caller's role requires", async () => {
    const phones = new Map(
      (await sql<{ id: number; phone: string }>('select id, phone from patients')).map((p) => [p.id, p.phone]),
    );
    for (const role of rolesWith('appointments:read')) {
      const res = await (
        await signInAs(t.app, role)
      ).request({
        method: 'POST',
        url: '/api/appointments/call-list-export',
        payload: { date: MONDAY },
      });
      expect(res.statusCode, role).toBe(200);
      const rows = res.json<CallListRow[]>();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.phone, role).toBe(maskText('phone', phones.get(row.patientId)!, role));
    }
  });
});

describe('who may use appointments', () => {
  it('lets the doctor and the admin in too', async () => {
    for (const role of ['doctor', 'admin'] as const) {
      const s = await signInAs(t.app, role);
      expect((await s.request({ method: 'GET', url: '/api/appointments' })).statusCode).toBe(200);
      expect((await s.request({ method: 'GET', url: '/api/providers' })).statusCode).toBe(200);
    }
  });

  it('refuses billing_admin, patient and guest (403) and callers without a session (401)', async () => {
    const appt = await liveAppointmentOn(TUESDAY, 5);
    const calls = [
      { method: 'GET' as const, url: '/api/appointments' },
      { method: 'GET' as const, url: '/api/providers' },
      { method: 'GET' as const, url: '/api/appointments/practice-hours' },
      { method: 'POST' as const, url: '/api/appointments/call-list-export', payload: { date: MONDAY } },
      {
        method: 'POST' as const,
        url: '/api/appointments',
        payload: {
          patientId: appt.patient_id,
          providerId: appt.provider_id,
          reason: 'x',
          date: FAR_MONDAY,
          time: '15:00',
        },
      },
      { method: 'PATCH' as const, url: `/api/appointments/${appt.id}`, payload: { status: 'Cancelled' } },
    ];
    const before = await appointmentCount();
    for (const role of ['billing_admin', 'patient', 'guest'] as const) {
      const s = await signInAs(t.app, role);
      for (const call of calls) {
        const res = await s.request(call);
        expect(res.statusCode, `${role} ${call.method} ${call.url}`).toBe(403);
      }
    }
    for (const call of calls) {
      const res = await t.app.inject(call);
      expect(res.statusCode, `no session ${call.method} ${call.url}`).toBe(401);
    }
    expect(await appointmentCount()).toBe(before);
    const [row] = await sql<{ status: string }>('select status from appointments where id = $1', [appt.id]);
    expect(row?.status).toBe('Scheduled');
  });
});

describe('scheduling rules: visit length, buffer, one visit at a time per patient', () => {
  async function twoPatientsAndProviders() {
    const pts = await sql<{ id: number; name: string }>('select id, name from patients order by id limit 2 offset 10');
    const prs = await sql<{ id: number; name: string }>(
      'select id, name from providers where active order by id limit 2',
    );
    const [p1, p2] = pts;
    const [a, b] = prs;
    if (!p1 || !p2 || !a || !b) throw new Error('seed has too few patients or providers');
    return { p1, p2, a, b };
  }
  const book = (patientId: number, providerId: number, date: string, time: string) =>
    write(nurse, {
      method: 'POST',
      url: '/api/appointments',
      payload: { patientId, providerId, reason: 'Visit', date, time },
    });

  it("refuses a start inside the provider's visit or its buffer, naming the visit, and keeps each visit's length", async () => {
    const { p1, p2, a } = await twoPatientsAndProviders();
    const admin = await signInAs(t.app, 'admin');
    const practice = (body: object) => admin.request({ method: 'PUT', url: '/api/settings/practice', payload: body });
    expect((await practice({ ...DEFAULT_PRACTICE_HOURS, appointmentMinutes: 15, bufferMinutes: 10 })).statusCode).toBe(
      200,
    );
    try {
      const first = await book(p1.id, a.id, FAR_TUESDAY, '10:30');
      expect(first.res.statusCode, first.res.body).toBe(201);
      const before = await appointmentCount();
      // 10:30–10:45, then 10 minutes before the next visit may start.
      for (const time of ['10:45', '10:35', '10:10', '10:50']) {
        const { res, audited } = await book(p2.id, a.id, FAR_TUESDAY, time);
        expect(res.statusCode, time).toBe(409);
        const body = res.json<ErrorBody>();
        expect(body.error.code).toBe('PROVIDER_BUSY');
        expect(body.error.fields?.[0]?.message).toBe(
          `${a.name} already has an appointment from 10:30 AM to 10:45 AM on ${formatDay(FAR_TUESDAY)} ` +
            '(visits need 10 minutes between them)',
        );
        expect(fieldsOf(res)).toEqual(['time']);
        expect(audited).toBe(0);
      }
      expect(await appointmentCount()).toBe(before);
      expect((await book(p2.id, a.id, FAR_TUESDAY, '10:55')).res.statusCode).toBe(201);
      expect((await book(p2.id, a.id, FAR_TUESDAY, '10:05')).res.statusCode).toBe(201);

      // Visits keep the length they were booked with: 30-minute visits from now on, the 15-minute ones stay.
      expect((await practice({ ...DEFAULT_PRACTICE_HOURS, appointmentMinutes: 30, bufferMinutes: 0 })).statusCode).toBe(
        200,
      );
      expect((await book(p2.id, a.id, FAR_TUESDAY, '11:10')).res.statusCode).toBe(201);
      const clash = await book(p1.id, a.id, FAR_TUESDAY, '11:35');
      expect(clash.res.statusCode).toBe(409);
      expect(clash.res.json<ErrorBody>().error.fields?.[0]?.message).toBe(
        `${a.name} already has an appointment from 11:10 AM to 11:40 AM on ${formatDay(FAR_TUESDAY)}`,
      );
    } finally {
      await practice(DEFAULT_PRACTICE_HOURS);
    }
  });

  it('refuses a patient two overlapping visits, with any providers, naming the other visit', async () => {
    const { p1, a, b } = await twoPatientsAndProviders();
    expect((await book(p1.id, a.id, FAR_WEDNESDAY, '09:00')).res.statusCode).toBe(201);
    for (const time of ['09:00', '09:15', '08:40']) {
      const { res, audited } = await book(p1.id, b.id, FAR_WEDNESDAY, time);
      expect(res.statusCode, time).toBe(409);
      expect(res.json<ErrorBody>().error).toMatchObject({
        code: 'PATIENT_BUSY',
        message: `time: ${p1.name} already has an appointment with ${a.name} from 9:00 AM to 9:30 AM on ${formatDay(FAR_WEDNESDAY)}`,
      });
      expect(audited).toBe(0);
    }
    // Straight after the first visit, with another provider: no buffer applies to the patient.
    expect((await book(p1.id, b.id, FAR_WEDNESDAY, '09:30')).res.statusCode).toBe(201);
  });

  it('applies the same rules to a reschedule, the visit not clashing with its own old time', async () => {
    const { p1, p2, a } = await twoPatientsAndProviders();
    const first = await book(p1.id, a.id, FAR_WEDNESDAY, '14:00');
    const second = await book(p2.id, a.id, FAR_WEDNESDAY, '15:00');
    expect([first.res.statusCode, second.res.statusCode]).toEqual([201, 201]);
    const id = second.res.json<Appointment>().id;
    const move = (time: string) =>
      write(nurse, { method: 'PATCH', url: `/api/appointments/${id}`, payload: { date: FAR_WEDNESDAY, time } });
    const refused = await move('14:35');
    expect(refused.res.statusCode).toBe(409);
    expect(refused.res.json<ErrorBody>().error.code).toBe('PROVIDER_BUSY');
    expect(refused.audited).toBe(0);
    expect((await move('15:10')).res.statusCode).toBe(200);
  });

  it('lets only one of two simultaneous overlapping bookings win', async () => {
    const { p1, p2, b } = await twoPatientsAndProviders();
    const answers = await Promise.all([
      book(p1.id, b.id, FAR_THURSDAY, '10:00'),
      book(p2.id, b.id, FAR_THURSDAY, '10:15'),
    ]);
    expect(answers.map((a) => a.res.statusCode).sort()).toEqual([201, 409]);
  });

  it('offers only free start times, for a new visit or for moving one', async () => {
    const { p1, p2, a, b } = await twoPatientsAndProviders();
    const slots = async (query: string) => {
      const res = await nurse.request({ method: 'GET', url: `/api/appointments/free-slots?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<FreeSlots>().times;
    };
    const day = '2027-03-05';
    const empty = await slots(`date=${day}&providerId=${a.id}`);
    expect(empty.slice(0, 3)).toEqual(['08:00', '08:40', '09:20']);
    const booked = await book(p1.id, a.id, day, '08:40');
    expect(booked.res.statusCode).toBe(201);
    // Provider a: 08:40–09:10 booked, so nothing starts from 08:01 to 09:19 (30 minutes + 10 either side).
    const forA = await slots(`date=${day}&providerId=${a.id}`);
    expect(forA.filter((t) => t > '08:00' && t < '09:20')).toEqual([]);
    expect(forA).toContain('08:00');
    expect(forA).toContain('09:20');
    // Patient p1 with provider b: p1's own visit (no buffer) is what blocks.
    const forP1 = await slots(`date=${day}&providerId=${b.id}&patientId=${p1.id}`);
    expect(forP1.filter((t) => t > '08:10' && t < '09:10')).toEqual([]);
    expect(forP1).toContain('09:10');
    // Every time offered books.
    expect((await book(p2.id, a.id, day, forA[1] ?? '')).res.statusCode).toBe(201);
    // Moving the visit: its own time is free for it.
    const id = booked.res.json<Appointment>().id;
    expect(await slots(`date=${day}&appointmentId=${id}`)).toContain('08:40');

    const bad = await nurse.request({ method: 'GET', url: `/api/appointments/free-slots?date=${day}` });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toEqual(['providerId']);
  });
});
