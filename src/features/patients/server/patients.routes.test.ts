import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTRICTED, seesField, type Role } from '@/shared/access';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { Patient, PatientPage } from '../patients.schema';

let t: TestApp;
let nurse: SignedIn;
let doctor: SignedIn;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  [nurse, doctor, admin] = await Promise.all([
    signInAs(t.app, 'nurse_manager'),
    signInAs(t.app, 'doctor'),
    signInAs(t.app, 'admin'),
  ]);
});
afterAll(async () => {
  await t.close();
});

async function scalar(query: string, params: unknown[] = []): Promise<number> {
  const result = await t.database.pool.query<{ n: string }>(query, params);
  return Number(result.rows[0]?.n ?? 0);
}

async function list(who: SignedIn, query = ''): Promise<PatientPage> {
  const res = await who.request({ method: 'GET', url: `/api/patients${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PatientPage>();
}

// The seeded demo patient, read straight from the database.
const MARIA = {
  name: 'Maria Lopez',
  dob: '1979-03-14',
  phone: '(555) 214-7788',
  mrn: 'MRN-100001',
  notes: 'Type 2 diabetes, well controlled. Prefers morning appointments.',
  allergies: ['Penicillin'],
  meds: ['Metformin 500 mg twice daily', 'Lisinopril 10 mg daily'],
};

const EXPECTED_PHI: Record<'nurse_manager' | 'doctor' | 'admin', Partial<Patient>> = {
  // The nurse manager sees phone, MRN, allergies and meds, but not the dob or the notes.
  nurse_manager: { ...MARIA, dob: 'XX-XX-1979', notes: RESTRICTED },
  doctor: MARIA,
  admin: MARIA,
};

describe('GET /api/patients', () => {
  it('lists every patient by name, one page at a time, with the total', async () => {
    const total = await scalar('select count(*) as n from patients');
    const first = await list(admin, '?limit=20');
    expect(first.total).toBe(total);
    expect(first.items).toHaveLength(20);
    const names = first.items.map((p) => p.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const second = await list(admin, '?limit=20&offset=20');
    expect(second.items[0]?.name).not.toBe(first.items[0]?.name);
    expect(second.items.map((p) => p.id)).not.toContain(first.items[19]?.id);
  });

  it('searches name, phone and MRN on the server, case-insensitively', async () => {
    const byName = await list(nurse, '?search=lOpE');
    const expected = await scalar("select count(*) as n from patients where name ilike '%lope%'");
    expect(byName.total).toBe(expected);
    expect(byName.items.map((p) => p.name)).toContain('Maria Lopez');
    expect(byName.items.every((p) => p.name.toLowerCase().includes('lope'))).toBe(true);

    const byMrn = await list(nurse, '?search=mrn-100001');
    expect(byMrn.items.map((p) => p.mrn)).toEqual(['MRN-100001']);

    const byPhone = await list(nurse, `?search=${encodeURIComponent('214-7788')}`);
    expect(byPhone.items.map((p) => p.name)).toContain('Maria Lopez');
    const byDigits = await list(nurse, '?search=2147788');
    expect(byDigits.items.map((p) => p.name)).toContain('Maria Lopez');
  });

  it('says when nothing matches', async () => {
    const none = await list(admin, '?search=zzzz-no-such-patient');
    expect(none).toMatchObject({ items: [], total: 0 });
  });

  it('sorts by next visit with unscheduled patients last, and by dob in either direction', async () => {
    const byVisit = await list(admin, '?sort=nextVisit&dir=asc&limit=500');
    const visits = byVisit.items.map((p) => p.nextVisit);
    const firstEmpty = visits.indexOf('');
    expect(firstEmpty).toBeGreaterThan(0);
    expect(visits.slice(firstEmpty).every((v) => v === '')).toBe(true);
    const scheduled = visits.slice(0, firstEmpty);
    // Each patient's next visit is their earliest Scheduled appointment from today on.
    const truth = await t.database.pool.query<{ id: number; d: string | null }>(
      `select p.id, (select min(a.date)::text from appointments a
         where a.patient_id = p.id and a.date >= '2026-11-22' and a.status = 'Scheduled') as d from patients p`,
    );
    const expected = new Map(truth.rows.map((r) => [r.id, r.d ?? '']));
    for (const p of byVisit.items) expect(p.nextVisit).toBe(expected.get(p.id));
    expect(scheduled).toEqual([...scheduled].sort());
    expect(scheduled[0]! >= '2026-11-22').toBe(true);

    const byDob = await list(admin, '?sort=dob&dir=desc&limit=50');
    const dobs = byDob.items.map((p) => p.dob);
    expect(dobs).toEqual([...dobs].sort().reverse());
  });

  it('keeps the stored next visit equal to the computed one through bookings, status changes, reschedules and days passing', async () => {
    const day = () => t.clock().toISOString().slice(0, 10);
    // The stored column (read through the list, which first moves it to the clock's day) against the
    // definition: the earliest Scheduled appointment on or after today, for every patient.
    async function expectExact(step: string, reader: SignedIn = admin) {
      await list(reader, '?sort=nextVisit&limit=1');
      const { rows } = await t.database.pool.query<{ id: number; stored: string | null; computed: string | null }>(
        `select p.id, p.next_visit::text as stored, (select min(a.date)::text from appointments a
           where a.patient_id = p.id and a.status = 'Scheduled' and a.date >= $1::date) as computed
         from patients p`,
        [day()],
      );
      const wrong = rows.filter((r) => r.stored !== r.computed);
      expect(wrong, step).toEqual([]);
      return new Map(rows.map((r) => [r.id, r.computed]));
    }
    const [patient] = (
      await t.database.pool.query<{ id: number }>(
        `select p.id from patients p where exists (select 1 from appointments a where a.patient_id = p.id
           and a.status = 'Scheduled' and a.date > '2026-11-24')
         and not exists (select 1 from appointments a where a.patient_id = p.id
           and a.status = 'Scheduled' and a.date between '2026-11-22' and '2026-11-24') order by p.id limit 1`,
      )
    ).rows;
    const [provider] = (
      await t.database.pool.query<{ id: number }>(
        `select v.id from providers v where not exists (select 1 from appointments a where a.provider_id = v.id
           and a.date in ('2026-11-24', '2027-03-01', '2027-03-02')) order by v.id limit 1`,
      )
    ).rows;
    if (!patient || !provider) throw new Error('the seed has no scheduled patient or provider');
    await expectExact('as seeded');

    const book = async (date: string, time: string) => {
      const res = await nurse.request({
        method: 'POST',
        url: '/api/appointments',
        payload: { patientId: patient.id, providerId: provider.id, reason: 'Follow-up', date, time },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: number }>().id;
    };
    const patch = async (id: number, payload: object) => {
      const res = await nurse.request({ method: 'PATCH', url: `/api/appointments/${id}`, payload });
      expect(res.statusCode, res.body).toBe(200);
    };
    // A booking earlier than the patient's next visit becomes it.
    const early = await book('2026-11-24', '16:30');
    expect((await expectExact('booked earlier')).get(patient.id)).toBe('2026-11-24');
    const late = await book('2027-03-01', '08:00');
    await expectExact('booked later');
    // Rescheduled later: the next visit falls back to the next booking.
    await patch(early, { date: '2027-03-02', time: '09:00' });
    await expectExact('rescheduled');
    for (const status of ['Cancelled', 'Scheduled', 'Rescheduled', 'Scheduled'] as const) {
      await patch(late, { status });
      await expectExact(`status ${status}`);
    }
    // A future visit cannot be Completed or No-Show through the API; written directly, the triggers still follow.
    for (const status of ['No-Show', 'Scheduled', 'Completed']) {
      await t.database.pool.query('update appointments set status = $1 where id = $2', [status, late]);
      await expectExact(`status ${status} (direct)`);
    }
    // Writes outside the API (another patient's booking moved, one deleted) go through the triggers too.
    await t.database.pool.query(
      `update appointments set patient_id = $1 where id = (select min(id) from appointments where status = 'Scheduled' and date > '2026-11-25')`,
      [patient.id],
    );
    await expectExact('moved to another patient');
    await t.database.pool.query(`delete from appointments where id = $1`, [early]);
    await expectExact('deleted');
    // Days pass (visits before the new day no longer count), and a clock set back brings them again.
    // (A fresh session each time: a moved clock ends the idle ones; the moves add up to none.)
    for (const days of [1, 3, 30, -30, -4]) {
      t.clock.advance(days * 86_400_000);
      await expectExact(`clock moved ${days} days`, await signInAs(t.app, 'admin'));
    }
  });

  it('walks every sort both ways by cursor, for full and masked views: each patient once, in order', async () => {
    const day = '2026-11-22';
    const nextVisit = `(select min(a.date) from appointments a where a.patient_id = p.id and a.date >= '${day}'
      and a.status = 'Scheduled')`;
    // The documented order (patients.queries.ts sortKeys): key, name, id in one direction.
    const reference: Record<string, (dir: string) => string> = {
      name: (d) => `p.name ${d}, p.id ${d}`,
      dob: (d) => `p.dob ${d}, p.name ${d}, p.id ${d}`,
      'dob masked': (d) => `extract(year from p.dob) ${d}, p.name ${d}, p.id ${d}`,
      mrn: (d) => `p.mrn ${d}, p.id ${d}`,
      'mrn masked': (d) => `p.name ${d}, p.id ${d}`,
      nextVisit: (d) =>
        `coalesce(${nextVisit}, '${d === 'asc' ? 'infinity' : '-infinity'}'::date) ${d}, p.name ${d}, p.id ${d}`,
    };
    for (const [who, role, masked] of [
      [admin, 'admin', false],
      [nurse, 'nurse_manager', true],
    ] as const) {
      for (const sort of ['name', 'dob', 'mrn', 'nextVisit'] as const) {
        for (const dir of ['asc', 'desc'] as const) {
          const hidden = (sort === 'dob' || sort === 'mrn') && !seesField(role, sort);
          const order = reference[hidden ? `${sort} masked` : sort]!(dir);
          const expected = await t.database.pool.query<{ id: number }>(`select p.id from patients p order by ${order}`);
          const seen: number[] = [];
          let cursor: string | null = null;
          do {
            const page: PatientPage = await list(
              who,
              `?sort=${sort}&dir=${dir}&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
            );
            expect(page.total === null).toBe(cursor !== null);
            expect(page.masked).toBe(masked);
            seen.push(...page.items.map((p) => p.id));
            cursor = page.nextCursor;
          } while (cursor);
          expect(seen, `${sort} ${dir} masked=${masked}`).toEqual(expected.rows.map((r) => r.id));
        }
      }
    }
  });

  it('walks a search by cursor and refuses a forged cursor naming cursor', async () => {
    const first = await list(admin, '?search=a&sort=name&limit=3');
    expect(first.nextCursor).not.toBeNull();
    const second = await list(admin, `?search=a&sort=name&limit=3&cursor=${first.nextCursor}`);
    expect(second.items.every((p) => p.name.toLowerCase().includes('a') || /a/i.test(p.mrn))).toBe(true);
    expect(second.items[0]!.name >= first.items[2]!.name).toBe(true);
    for (const cursor of ['garbage', Buffer.from('["name","asc",5,1]').toString('base64url'), first.nextCursor]) {
      const res = await admin.request({ method: 'GET', url: `/api/patients?sort=dob&cursor=${cursor}` });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('cursor');
    }
  });

  it('refuses an unknown sort key and a bad page size, naming the parameter', async () => {
    const res = await admin.request({ method: 'GET', url: '/api/patients?sort=notes' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('sort');
    const big = await admin.request({ method: 'GET', url: '/api/patients?limit=100000' });
    expect(big.statusCode).toBe(400);
  });

  for (const role of ['nurse_manager', 'doctor', 'admin'] as const) {
    it(`masks PHI in the list for ${role} as the masking table says`, async () => {
      const who = { nurse_manager: nurse, doctor, admin }[role];
      const page = await list(who, '?search=MRN-100001');
      expect(page.items[0]).toMatchObject(EXPECTED_PHI[role]);
      expect(page.masked).toBe(role === 'nurse_manager');
    });
  }

  it('does not search or sort on a field the role sees masked', async () => {
    // The nurse manager sees the year of birth only: the dob sort orders by year, then name.
    const page = await list(nurse, '?sort=dob&dir=asc&limit=500');
    const years = page.items.map((p) => p.dob.slice(-4));
    expect(years).toEqual([...years].sort());
    for (let i = 1; i < page.items.length; i += 1) {
      const [a, b] = [page.items[i - 1]!, page.items[i]!];
      if (a.dob === b.dob) expect(a.name <= b.name).toBe(true);
    }
  });
});

describe('GET /api/patients/:id (snapshot)', () => {
  for (const role of ['nurse_manager', 'doctor', 'admin'] as const) {
    it(`masks PHI in the snapshot for ${role} and audits the read with the patient id`, async () => {
      const who = { nurse_manager: nurse, doctor, admin }[role];
      const id = await scalar("select id as n from patients where mrn = 'MRN-100001'");
      const before = await scalar(
        "select count(*) as n from audit_log where action = 'patient.view' and patient_id = $1 and actor_role = $2",
        [id, role],
      );
      const res = await who.request({ method: 'GET', url: `/api/patients/${id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json<Patient>()).toMatchObject({ id, ...EXPECTED_PHI[role] });
      const after = await scalar(
        "select count(*) as n from audit_log where action = 'patient.view' and patient_id = $1 and actor_role = $2 and resource = $3",
        [id, role, `patient/${id}`],
      );
      expect(after).toBe(before + 1);
    });
  }

  it('shows the next scheduled visit, or nothing when none is booked', async () => {
    const id = await scalar("select id as n from patients where mrn = 'MRN-100001'");
    const next = await t.database.pool.query<{ d: string | null }>(
      "select min(date)::text as d from appointments where patient_id = $1 and date >= '2026-11-22' and status = 'Scheduled'",
      [id],
    );
    const res = await admin.request({ method: 'GET', url: `/api/patients/${id}` });
    expect(res.json<Patient>().nextVisit).toBe(next.rows[0]?.d ?? '');
    expect(res.json<Patient>().nextVisit).not.toBe('');
  });

  it('answers 404 for an unknown patient and 400 for a malformed id', async () => {
    expect((await admin.request({ method: 'GET', url: '/api/patients/999999' })).statusCode).toBe(404);
    expect((await admin.request({ method: 'GET', url: '/api/patients/abc' })).statusCode).toBe(400);
  });
});

describe('POST /api/patients', () => {
  const valid = { name: 'Test Patient Alpha', dob: '1990-05-06', phone: '(555) 300-1234', mrn: 'MRN-T-0001' };

  it('creates a patient, audits it, and the list finds it by MRN', async () => {
    const before = await scalar("select count(*) as n from audit_log where action = 'patient.create'");
    const res = await nurse.request({ method: 'POST', url: '/api/patients', payload: valid });
    expect(res.statusCode).toBe(201);
    const created = res.json<Patient>();
    expect(created).toMatchObject({
      name: valid.name,
      phone: valid.phone,
      mrn: valid.mrn,
      dob: 'XX-XX-1990',
      nextVisit: '',
      allergies: [],
      meds: [],
    });
    const row = await t.database.pool.query('select name, dob::text, phone, mrn from patients where id = $1', [
      created.id,
    ]);
    expect(row.rows[0]).toEqual(valid);
    const after = await scalar(
      "select count(*) as n from audit_log where action = 'patient.create' and patient_id = $1 and actor_role = 'nurse_manager'",
      [created.id],
    );
    expect(after).toBe(1);
    expect(await scalar("select count(*) as n from audit_log where action = 'patient.create'")).toBe(before + 1);
    const found = await list(nurse, `?search=${valid.mrn}`);
    expect(found.items.map((p) => p.id)).toEqual([created.id]);
  });

  for (const field of ['name', 'dob', 'phone', 'mrn'] as const) {
    it(`refuses a patient without ${field}, naming the field, and writes nothing`, async () => {
      const patients = await scalar('select count(*) as n from patients');
      const audit = await scalar('select count(*) as n from audit_log');
      const payload: Record<string, string> = { ...valid, mrn: `MRN-MISSING-${field}` };
      delete payload[field];
      const res = await admin.request({ method: 'POST', url: '/api/patients', payload });
      expect(res.statusCode).toBe(400);
      const body = res.json<{ error: { fields: { field: string }[] } }>();
      expect(body.error.fields.map((f) => f.field)).toEqual([field]);
      const blank = await admin.request({
        method: 'POST',
        url: '/api/patients',
        payload: { ...payload, [field]: ' ' },
      });
      expect(blank.statusCode).toBe(400);
      expect(blank.json<{ error: { fields: { field: string }[] } }>().error.fields.map((f) => f.field)).toContain(
        field,
      );
      expect(await scalar('select count(*) as n from patients')).toBe(patients);
      expect(await scalar('select count(*) as n from audit_log')).toBe(audit);
    });
  }

  it("refuses a phone of punctuation only ('---') or too few or too many digits, naming phone", async () => {
    const patients = await scalar('select count(*) as n from patients');
    for (const phone of ['---', '(555) 12', '+1 555 123 4567 8901 2']) {
      const res = await admin.request({
        method: 'POST',
        url: '/api/patients',
        payload: { ...valid, mrn: 'MRN-BAD-PHONE', phone },
      });
      expect(res.statusCode, phone).toBe(400);
      expect(res.json<{ error: { fields: { field: string; message: string }[] } }>().error.fields).toEqual([
        { field: 'phone', message: 'must have 7 to 15 digits' },
      ]);
    }
    expect(await scalar('select count(*) as n from patients')).toBe(patients);
  });

  it('refuses a date of birth that is not a real date', async () => {
    const res = await admin.request({
      method: 'POST',
      url: '/api/patients',
      payload: { ...valid, mrn: 'MRN-BAD-DOB', dob: '1990-02-30' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('dob');
  });

  it('refuses a duplicate MRN (in any letter case) with 409 naming mrn; nothing is written or audited', async () => {
    const patients = await scalar('select count(*) as n from patients');
    const audit = await scalar('select count(*) as n from audit_log');
    for (const mrn of ['MRN-100001', 'mrn-100001']) {
      const res = await nurse.request({ method: 'POST', url: '/api/patients', payload: { ...valid, mrn } });
      expect(res.statusCode).toBe(409);
      const body = res.json<{ error: { code: string; fields: { field: string }[] } }>();
      expect(body.error.code).toBe('MRN_TAKEN');
      expect(body.error.fields.map((f) => f.field)).toEqual(['mrn']);
    }
    expect(await scalar('select count(*) as n from patients')).toBe(patients);
    expect(await scalar('select count(*) as n from audit_log')).toBe(audit);
  });
});

describe('likely duplicate patients', () => {
  interface Conflict {
    error: { code: string; message: string };
    duplicates: { id: number; name: string; dob: string; phone: string; mrn: string }[];
  }
  async function maria() {
    const { rows } = await t.database.pool.query<{ id: number; name: string; dob: string; phone: string; mrn: string }>(
      "select id, name, dob::text as dob, phone, mrn from patients where name = 'Maria Lopez' order by id limit 1",
    );
    if (!rows[0]) throw new Error('the seed has no Maria Lopez');
    return rows[0];
  }

  it('refuses the same name and date of birth with 409 and the match (masked for the role), writing nothing', async () => {
    const on = await maria();
    const patients = await scalar('select count(*) as n from patients');
    const creates = await scalar("select count(*) as n from audit_log where action = 'patient.create'");
    const res = await nurse.request({
      method: 'POST',
      url: '/api/patients',
      payload: { name: '  maria   LOPEZ ', dob: on.dob, phone: '(555) 777-0101', mrn: 'MRN-DUP-1' },
    });
    expect(res.statusCode).toBe(409);
    const body = res.json<Conflict>();
    expect(body.error.code).toBe('LIKELY_DUPLICATE');
    expect(body.error.message).toMatch(
      /^\d+ patients? on file ha(s|ve) the same name and date of birth, or the same phone/,
    );
    // The nurse manager sees phone and MRN in full, the date of birth as its year only.
    expect(body.duplicates).toContainEqual({
      id: on.id,
      name: on.name,
      dob: `XX-XX-${on.dob.slice(0, 4)}`,
      phone: on.phone,
      mrn: on.mrn,
    });
    expect(await scalar('select count(*) as n from patients')).toBe(patients);
    expect(await scalar("select count(*) as n from audit_log where action = 'patient.create'")).toBe(creates);
    // Showing the matches is a read of those records.
    expect(
      await scalar("select count(*) as n from audit_log where action = 'patients.duplicates.view' and detail like $1", [
        `%${on.id}%`,
      ]),
    ).toBeGreaterThan(0);

    const confirmed = await nurse.request({
      method: 'POST',
      url: '/api/patients',
      payload: { name: 'Maria Lopez', dob: on.dob, phone: '(555) 777-0101', mrn: 'MRN-DUP-1', confirmDuplicate: true },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    expect(await scalar('select count(*) as n from patients')).toBe(patients + 1);
  });

  it('refuses the same phone (however it is written) under another name', async () => {
    const on = await maria();
    const digits = on.phone.replace(/\D/g, '');
    const res = await admin.request({
      method: 'POST',
      url: '/api/patients',
      payload: { name: 'Someone Else', dob: '1971-02-03', phone: digits, mrn: 'MRN-DUP-2' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<Conflict>().duplicates.map((d) => d.id)).toContain(on.id);
  });

  it('lets only one of two identical unconfirmed creations sent together through', async () => {
    const twin = { name: 'Twin Sender', dob: '1966-06-06', phone: '(555) 606-0606' };
    const answers = await Promise.all([
      admin.request({ method: 'POST', url: '/api/patients', payload: { ...twin, mrn: 'MRN-TWIN-1' } }),
      admin.request({ method: 'POST', url: '/api/patients', payload: { ...twin, mrn: 'MRN-TWIN-2' } }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });

  it('pickers list names with date of birth and MRN, masked for the role', async () => {
    const on = await maria();
    const res = await nurse.request({ method: 'GET', url: '/api/patients/names?search=maria%20lopez' });
    expect(res.statusCode).toBe(200);
    const found = res.json<{ id: number; name: string; dob: string; mrn: string }[]>();
    expect(found).toContainEqual({ id: on.id, name: on.name, dob: `XX-XX-${on.dob.slice(0, 4)}`, mrn: on.mrn });
    const forDoctor = (await doctor.request({ method: 'GET', url: '/api/patients/names?search=maria%20lopez' })).json<
      { id: number; dob: string }[]
    >();
    expect(forDoctor.find((p) => p.id === on.id)?.dob).toBe(on.dob);
  });
});

describe('who may use the patients API', () => {
  for (const role of ['billing_admin', 'patient', 'guest'] as Role[]) {
    it(`refuses ${role} with 403 and shows no PHI`, async () => {
      const who = await signInAs(t.app, role);
      const calls = [
        { method: 'GET' as const, url: '/api/patients' },
        { method: 'GET' as const, url: '/api/patients/1' },
        {
          method: 'POST' as const,
          url: '/api/patients',
          payload: { name: 'X', dob: '1990-01-01', phone: '1', mrn: 'R' },
        },
      ];
      for (const call of calls) {
        const res = await who.request(call);
        expect(res.statusCode).toBe(403);
        expect(res.body).not.toContain('MRN-');
      }
    });
  }

  it('answers 401 without a session', async () => {
    for (const url of ['/api/patients', '/api/patients/1']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    const post = await t.app.inject({ method: 'POST', url: '/api/patients', payload: {} });
    expect(post.statusCode).toBe(401);
  });
});
