import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { TEST_TODAY } from '@/testing/test-clock';

// The test clock reads TEST_TODAY (2026-11-22); the machine's own clock is some other day.
const TOMORROW = '2026-11-23';
const OLDEST = '1900-01-01';

interface ErrorBody {
  error: { code: string; message: string; fields?: { field: string; message: string }[] };
}

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t.app, 'admin');
});
afterAll(async () => {
  await t.close();
});

async function rowCount(table: 'patients' | 'users' | 'audit_log'): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: number }>(`select count(*)::int as n from ${table}`);
  return rows[0]?.n ?? 0;
}

describe('dates of birth are bounded on the server’s clock', () => {
  let n = 0;
  const patient = (dob: string) => {
    n += 1;
    // A phone of its own each: two records with one phone would be refused as likely duplicates.
    return { name: 'Bound Test', dob, phone: `(555) 300-${String(n).padStart(4, '0')}`, mrn: `MRN-BOUND-${n}` };
  };
  const registration = (dob: string) => ({
    name: 'Bound Test',
    dob,
    phone: '(555) 300-0000',
    email: `bound.${++n}@example.com`,
    password: 'a long enough passphrase 42',
  });

  it.each([
    ['0001-01-01', 'cannot be before Jan 1, 1900'],
    ['1876-11-21', 'cannot be before Jan 1, 1900'],
    ['1899-12-31', 'cannot be before Jan 1, 1900'],
    [TOMORROW, 'cannot be in the future'],
    ['9999-12-31', 'cannot be in the future'],
  ])('POST /api/patients refuses %s with a 400 naming dob (%s), writing nothing', async (dob, rule) => {
    const before = [await rowCount('patients'), await rowCount('audit_log')];
    const res = await admin.request({ method: 'POST', url: '/api/patients', payload: patient(dob) });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().error).toEqual({
      code: 'VALIDATION_FAILED',
      message: `dob: ${rule}`,
      fields: [{ field: 'dob', message: rule }],
    });
    expect([await rowCount('patients'), await rowCount('audit_log')]).toEqual(before);
  });

  it('accepts today and Jan 1, 1900', async () => {
    for (const dob of [TEST_TODAY, OLDEST]) {
      const res = await admin.request({ method: 'POST', url: '/api/patients', payload: patient(dob) });
      expect(res.statusCode, dob).toBe(201);
    }
  });

  it.each(['0001-01-01', TOMORROW])(
    'self-registration refuses %s with a 400 naming dob, writing nothing',
    async (dob) => {
      const before = [await rowCount('patients'), await rowCount('users')];
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: registration(dob) });
      expect(res.statusCode).toBe(400);
      expect(res.json<ErrorBody>().error.fields?.map((f) => f.field)).toEqual(['dob']);
      expect([await rowCount('patients'), await rowCount('users')]).toEqual(before);
    },
  );
});

describe('ids in a path are digits only', () => {
  it.each(['1e2', '0x10', '1.0', '+1', '%201', '1%20', '-1', '0', '2147483648', '99999999999'])(
    'GET /api/patients/%s is a 400 naming id, not a read of another number',
    async (id) => {
      const res = await admin.request({ method: 'GET', url: `/api/patients/${id}` });
      expect(res.statusCode).toBe(400);
      expect(res.json<ErrorBody>().error.fields?.map((f) => f.field)).toEqual(['id']);
    },
  );

  it('a plain id still reads the record (leading zeros too)', async () => {
    const { rows } = await t.database.pool.query<{ id: number }>('select id from patients order by id limit 1');
    const id = rows[0]!.id;
    for (const written of [String(id), `00${id}`]) {
      const res = await admin.request({ method: 'GET', url: `/api/patients/${written}` });
      expect(res.statusCode, written).toBe(200);
      expect(res.json<{ id: number }>().id).toBe(id);
    }
  });

  it('the API description still builds (the id schema reads text, then a number)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('/api/patients/{id}');
  });
});
