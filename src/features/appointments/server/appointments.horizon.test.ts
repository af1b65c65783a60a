import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';

// The test clock reads 2026-11-22 (a Sunday); the schedule reaches two years either way of it.
const LAST_BOOKABLE = '2028-11-22'; // a Wednesday
const FIRST_TOO_FAR = '2028-11-23';
const FIRST_LISTED = '2024-11-22';
const LAST_TOO_OLD = '2024-11-21';

interface ErrorBody {
  error: { code: string; message: string; fields?: { field: string; message: string }[] };
}

let t: TestApp;
let nurse: SignedIn;
let ids: { patientId: number; providerId: number };

beforeAll(async () => {
  t = await createTestApp();
  nurse = await signInAs(t.app, 'nurse_manager');
  const { rows } = await t.database.pool.query<{ patient_id: number; provider_id: number }>(
    'select (select max(id) from patients) as patient_id, (select min(id) from providers) as provider_id',
  );
  ids = { patientId: rows[0]!.patient_id, providerId: rows[0]!.provider_id };
});
afterAll(async () => {
  await t.close();
});

async function counts(): Promise<number[]> {
  const { rows } = await t.database.pool.query<{ a: number; l: number }>(
    'select (select count(*)::int from appointments) as a, (select count(*)::int from audit_log) as l',
  );
  return [rows[0]!.a, rows[0]!.l];
}

describe('appointments reach two years from the server’s day', () => {
  it.each([FIRST_TOO_FAR, '9999-12-31'])(
    'refuses to book on %s with a 400 naming date, writing nothing',
    async (date) => {
      const before = await counts();
      const res = await nurse.request({
        method: 'POST',
        url: '/api/appointments',
        payload: { ...ids, reason: 'Horizon', date, time: '09:00' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<ErrorBody>().error).toEqual({
        code: 'TOO_FAR_AHEAD',
        message: 'date: cannot be more than 2 years ahead',
        fields: [{ field: 'date', message: 'cannot be more than 2 years ahead' }],
      });
      expect(await counts()).toEqual(before);
    },
  );

  it('books exactly two years ahead, and refuses to move that visit further', async () => {
    const res = await nurse.request({
      method: 'POST',
      url: '/api/appointments',
      payload: { ...ids, reason: 'Horizon', date: LAST_BOOKABLE, time: '09:00' },
    });
    expect(res.statusCode).toBe(201);
    const before = await counts();
    const moved = await nurse.request({
      method: 'PATCH',
      url: `/api/appointments/${res.json<{ id: number }>().id}`,
      payload: { date: FIRST_TOO_FAR, time: '09:00' },
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json<ErrorBody>().error.fields).toEqual([
      { field: 'date', message: 'cannot be more than 2 years ahead' },
    ]);
    expect(await counts()).toEqual(before);
  });

  it.each([FIRST_TOO_FAR, LAST_TOO_OLD, '9999-12-31', '0001-01-01'])(
    "refuses a day's list and its call list for %s with a 400 naming date, recording no export",
    async (date) => {
      const before = await counts();
      const list = await nurse.request({ method: 'GET', url: `/api/appointments?date=${date}` });
      expect(list.statusCode).toBe(400);
      expect(list.json<ErrorBody>().error).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'date: must be within 2 years of today',
        fields: [{ field: 'date', message: 'must be within 2 years of today' }],
      });
      const exported = await nurse.request({
        method: 'POST',
        url: '/api/appointments/call-list-export',
        payload: { date },
      });
      expect(exported.statusCode).toBe(400);
      expect(exported.json<ErrorBody>().error.fields?.map((f) => f.field)).toEqual(['date']);
      expect(await counts()).toEqual(before);
    },
  );

  it('lists the days at both ends of the reach', async () => {
    for (const date of [FIRST_LISTED, LAST_BOOKABLE]) {
      const res = await nurse.request({ method: 'GET', url: `/api/appointments?date=${date}` });
      expect(res.statusCode, date).toBe(200);
    }
  });
});
