/**
 * Paging at any depth (docs/paging.md): the worklist is served from the stored open follow-ups (open_follow_ups, kept by triggers
 * on encounters and appointments). This proves that it answers exactly what the definition computed from
 * encounters and appointments directly answers (listOverdueFollowUpsRaw): on the demo data, on several
 * days (nothing stored depends on the day), for every filter, page by page for every sort, and after random
 * sequences of writes to encounters and appointments (single rows and multi-row statements, inserts,
 * updates of every column that matters, deletes, a TRUNCATE rolled back). The set is never rebuilt between
 * writes: the triggers alone keep it exact; a rebuild then gives the same rows. It also proves the SQL risk
 * class (worklist_risk_class) is worklist.rules.ts's riskClassOf.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAGNOSES } from '@/server/db/seed/demo-clinical';
import type { RequestContext } from '@/server/context';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { TEST_TODAY } from '@/testing/test-clock';
import { CHRONIC_CODES, HIGH_RISK_CODES, compareFollowUps, riskClassOf } from '../worklist.rules';
import {
  FOLLOW_UP_PRIORITIES,
  worklistPageQuerySchema,
  type OverdueFollowUp,
  type WorklistFilterInput,
} from '../worklist.schema';
import {
  exportOverdueFollowUps,
  listOverdueFollowUpsRaw,
  pageOverdueFollowUps,
  rebuildOpenFollowUps,
  summariseOverdueFollowUps,
  summariseOverdueFollowUpsRaw,
} from './worklist.queries';

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** Other days too: the stored set holds no "today", so it must agree on any day's answer. */
const DAYS = [TEST_TODAY, addDays(TEST_TODAY, -200), addDays(TEST_TODAY, 120)];

let database: TestDatabase;
let admin: RequestContext['user'];
let providerNames: string[];
let providerIds: number[];

const ctxOn = (day: string): RequestContext => ({ user: admin, now: new Date(`${day}T15:00:00Z`) });

beforeAll(async () => {
  database = await createTestDatabase();
  const { rows } = await database.db.execute<{ id: number; email: string; name: string }>(
    sql`select id, email, name from users where role = 'admin' order by id limit 1`,
  );
  const user = rows[0];
  if (!user) throw new Error('no admin account in the test database');
  admin = { ...user, role: 'admin', patientId: null };
  const providers = await database.db.execute<{ id: number; name: string }>(
    sql`select id, name from providers order by id limit 3`,
  );
  providerIds = providers.rows.map((p) => p.id);
  providerNames = providers.rows.map((p) => p.name);
});
afterAll(async () => {
  await database.drop();
});

/** The stored rows, and the definition's rows (the view the triggers recompute from), in one order. */
async function storedAndDefined() {
  const columns = sql.raw(
    `encounter_id, patient_id, provider_id, encounter_date::text, follow_up_due::text, risk_class, superseded_from::text`,
  );
  const stored = await database.db.execute(sql`select ${columns} from open_follow_ups order by encounter_id`);
  const defined = await database.db.execute(
    sql`select ${columns} from open_follow_ups_definition order by encounter_id`,
  );
  return { stored: stored.rows, defined: defined.rows };
}

function filters(): WorklistFilterInput[] {
  const name = providerNames[0] ?? 'nobody';
  return [
    {},
    ...FOLLOW_UP_PRIORITIES.map((priority) => ({ priority })),
    { provider: name },
    { provider: name, priority: 'High' },
    { provider: 'No Such Provider' },
  ];
}

/** Every page of one sort and direction (small pages, so the cursors are exercised), concatenated. */
async function allPages(day: string, query: Record<string, string>): Promise<OverdueFollowUp[]> {
  const found: OverdueFollowUp[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < 500; n += 1) {
    const page = await pageOverdueFollowUps(
      database.db,
      ctxOn(day),
      worklistPageQuerySchema.parse({ ...query, limit: '9', ...(cursor ? { cursor } : {}) }),
    );
    found.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) return found;
  }
  throw new Error('more than 500 pages');
}

/** The order each sort pages in, from the raw list (which is in the worklist's order). */
function ordered(rows: OverdueFollowUp[], sort: 'priority' | 'daysOverdue', dir: 'asc' | 'desc') {
  const byDays = (a: OverdueFollowUp, b: OverdueFollowUp) =>
    a.daysOverdue - b.daysOverdue || b.encounterId - a.encounterId;
  const sorted = [...rows].sort(sort === 'priority' ? compareFollowUps : byDays);
  return dir === 'asc' ? sorted : sorted.reverse();
}

async function expectStoredEqualsRaw(label: string, { paging = false } = {}) {
  const { stored, defined } = await storedAndDefined();
  expect(stored, `${label}: stored rows = definition`).toEqual(defined);
  for (const day of DAYS) {
    const ctx = ctxOn(day);
    for (const filter of filters()) {
      const raw = await listOverdueFollowUpsRaw(database.db, day, filter);
      expect(
        await exportOverdueFollowUps(database.db, ctx, filter),
        `${label}: ${day} ${JSON.stringify(filter)}`,
      ).toEqual(raw);
      if (!paging) continue;
      for (const sort of ['priority', 'daysOverdue'] as const) {
        for (const dir of ['asc', 'desc'] as const) {
          const pages = await allPages(day, { sort, dir, ...filter });
          expect(pages, `${label}: ${day} ${sort} ${dir} ${JSON.stringify(filter)}`).toEqual(ordered(raw, sort, dir));
        }
      }
    }
    expect(await summariseOverdueFollowUps(database.db, ctx), `${label}: tiles ${day}`).toEqual(
      await summariseOverdueFollowUpsRaw(database.db, day),
    );
  }
}

describe('the SQL risk class', () => {
  it('holds exactly the code lists of worklist.rules.ts', async () => {
    const { rows } = await database.db.execute<{ def: string }>(
      sql`select pg_get_functiondef('worklist_risk_class(text[])'::regprocedure) as def`,
    );
    const lists = [...(rows[0]?.def ?? '').matchAll(/ARRAY\[([^\]]*)\]/g)].map((m) =>
      [...(m[1] ?? '').matchAll(/'([^']*)'/g)].map((q) => q[1]),
    );
    expect(lists).toEqual([[...HIGH_RISK_CODES], [...CHRONIC_CODES]]);
  });

  it('classifies any diagnoses as riskClassOf does', async () => {
    const codes = [...HIGH_RISK_CODES, ...CHRONIC_CODES, 'M54.5', 'Z00.00', 'I50', 'E11.90'];
    const entry = fc.oneof(
      fc.constantFrom(...DIAGNOSES),
      fc
        .tuple(fc.constantFrom(...codes), fc.constantFrom('', ' ', '  '), fc.string({ maxLength: 12 }), fc.boolean())
        .map(([code, pad, rest, lower]) => `${pad}${lower ? code.toLowerCase() : code}${rest ? ` ${rest}` : ''}`),
      fc.string({ maxLength: 16 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 4 }), async (diagnoses) => {
        const { rows } = await database.db.execute<{ risk: string }>(
          sql`select worklist_risk_class(${`{${diagnoses.map((d) => `"${d.replace(/(["\\])/g, '\\$1')}"`).join(',')}}`}::text[]) as risk`,
        );
        expect(rows[0]?.risk).toBe(riskClassOf(diagnoses));
      }),
      { numRuns: 150 },
    );
  });
});

describe('the stored open follow-ups', () => {
  it('give the raw answer on the demo data, on any day, for every filter, sort, direction and page', async () => {
    const { stored } = await storedAndDefined();
    expect(stored.length).toBeGreaterThan(0);
    await expectStoredEqualsRaw('demo data', { paging: true });
  });

  it('stay exact through random sequences of encounter and appointment writes, and a rebuild changes nothing', async () => {
    let slot = 0;
    /** A time no other booking of the test uses: each booking holds its own slot whatever its date. */
    const nextTime = () => {
      slot += 1;
      const minute = slot % 1380;
      return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
    };
    const patient = fc.nat(1);
    /** Few distinct dates, so several visits often fall on one day and bookings on the encounter day. */
    const date = fc.integer({ min: -6, max: 1 }).map((m) => addDays(TEST_TODAY, m * 30));
    const due = fc.option(
      fc.integer({ min: 1, max: 300 }).map((d) => d),
      { nil: null },
    );
    const diagnosis = fc.subarray([...DIAGNOSES], { maxLength: 2 });
    const status = fc.constantFrom('Scheduled', 'Completed', 'Cancelled', 'No-Show', 'Rescheduled');
    const op = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant('encounter' as const),
          patient,
          date,
          due,
          diagnosis,
          provider: fc.nat(2),
        }),
      },
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant('two encounters' as const),
          samePatient: fc.boolean(),
          secondDue: due,
          patient,
          date,
          due,
          diagnosis,
          provider: fc.nat(2),
        }),
      },
      fc.record({
        kind: fc.constant('change encounter' as const),
        pick: fc.nat(),
        field: fc.constantFrom('date', 'due', 'diagnosis', 'provider', 'patient', 'complaint'),
        patient,
        date,
        due,
        diagnosis,
        provider: fc.nat(2),
      }),
      fc.record({ kind: fc.constant('delete encounter' as const), pick: fc.nat() }),
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('book' as const), patient, date, status }) },
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant('change booking' as const),
          pick: fc.nat(),
          field: fc.constantFrom('status', 'date', 'patient', 'reason'),
          patient,
          date,
          status,
        }),
      },
      fc.record({ kind: fc.constant('cancel all bookings' as const), patient }),
      fc.record({ kind: fc.constant('delete booking' as const), pick: fc.nat() }),
    );
    type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 20 }), async (ops) => {
        run += 1;
        const pool = database.pool;
        const patients: number[] = [];
        for (let i = 0; i < 2; i += 1) {
          const { rows } = await pool.query<{ id: number }>(
            `insert into patients (name, mrn, dob, phone) values ($1, $2, '1970-01-01', '(555) 000-0000') returning id`,
            [`Property Patient ${run}-${i}`, `MRN-PROP-${run}-${i}`],
          );
          patients.push(rows[0]?.id ?? 0);
        }
        const ids = async (table: 'encounters' | 'appointments') =>
          (
            await pool.query<{ id: number }>(`select id from ${table} where patient_id = any($1) order by id`, [
              patients,
            ])
          ).rows.map((r) => r.id);
        const pickOf = async (table: 'encounters' | 'appointments', pick: number) => {
          const list = await ids(table);
          return list.length === 0 ? null : (list[pick % list.length] ?? null);
        };
        const patientOf = (i: number) => patients[i % patients.length] ?? 0;
        const providerOf = (i: number) => providerIds[i % providerIds.length] ?? 0;
        const dueOf = (encounterDate: string, days: number | null) =>
          days === null ? null : addDays(encounterDate, days);
        const apply = async (o: Op) => {
          switch (o.kind) {
            case 'encounter':
            case 'two encounters': {
              // 'two encounters' is one statement writing two patients (the triggers see both at once).
              const rows = [[patientOf(o.patient), providerOf(o.provider), dueOf(o.date, o.due)]];
              if (o.kind === 'two encounters') {
                rows.push([patientOf(o.patient + 1), providerOf(o.provider + 1), dueOf(o.date, o.secondDue)]);
              }
              await pool.query(
                `insert into encounters (patient_id, provider_id, encounter_date, encounter_type, chief_complaint, diagnosis, follow_up_due)
                 values ${rows.map((_, i) => `($${3 * i + 3}, $${3 * i + 4}, $1, 'Office Visit', 'Check-up', $2, $${3 * i + 5})`).join(', ')}`,
                [o.date, o.diagnosis, ...rows.flat()],
              );
              return;
            }
            case 'change encounter': {
              const id = await pickOf('encounters', o.pick);
              if (id === null) return;
              const set = {
                date: [`encounter_date = $2`, o.date],
                due: [`follow_up_due = $2`, dueOf(o.date, o.due)],
                diagnosis: [`diagnosis = $2`, o.diagnosis],
                provider: [`provider_id = $2`, providerOf(o.provider)],
                patient: [`patient_id = $2`, patientOf(o.patient)],
                complaint: [`chief_complaint = $2`, 'Changed complaint'],
              }[o.field];
              await pool.query(`update encounters set ${String(set[0])} where id = $1`, [id, set[1]]);
              return;
            }
            case 'delete encounter': {
              const id = await pickOf('encounters', o.pick);
              if (id !== null) await pool.query(`delete from encounters where id = $1`, [id]);
              return;
            }
            case 'book':
              await pool.query(
                `insert into appointments (patient_id, provider_id, reason, date, time, status) values ($1, $2, 'Follow-up', $3, $4, $5)`,
                [patientOf(o.patient), providerOf(0), o.date, nextTime(), o.status],
              );
              return;
            case 'change booking': {
              const id = await pickOf('appointments', o.pick);
              if (id === null) return;
              const set = {
                status: [`status = $2`, o.status],
                date: [`date = $2`, o.date],
                patient: [`patient_id = $2`, patientOf(o.patient)],
                reason: [`reason = $2`, 'Changed reason'],
              }[o.field];
              await pool.query(`update appointments set ${String(set[0])} where id = $1`, [id, set[1]]);
              return;
            }
            case 'cancel all bookings':
              await pool.query(`update appointments set status = 'Cancelled' where patient_id = $1`, [
                patientOf(o.patient),
              ]);
              return;
            case 'delete booking': {
              const id = await pickOf('appointments', o.pick);
              if (id !== null) await pool.query(`delete from appointments where id = $1`, [id]);
              return;
            }
          }
        };
        for (const o of ops) {
          await apply(o);
          const { stored, defined } = await storedAndDefined();
          expect(stored, `after ${JSON.stringify(o)}`).toEqual(defined);
        }
        await expectStoredEqualsRaw(`after ${JSON.stringify(ops)}`);
      }),
      { numRuns: 20 },
    );

    await expectStoredEqualsRaw('after the property runs', { paging: true });
    const before = (await storedAndDefined()).stored;
    await rebuildOpenFollowUps(database.db);
    expect((await storedAndDefined()).stored).toEqual(before);
  });

  it('list the last visit of a day already due, for two visits on one day due at different dates', async () => {
    const created = await database.pool.query<{ id: number }>(
      `insert into patients (name, mrn, dob, phone) values ('Two Visits', 'MRN-TWO-VISITS', '1970-01-01', '(555) 000-0000') returning id`,
    );
    const visitDay = addDays(TEST_TODAY, -300);
    const { rows } = await database.pool.query<{ id: number }>(
      `insert into encounters (patient_id, provider_id, encounter_date, encounter_type, chief_complaint, diagnosis, follow_up_due)
       values ($1, $2, $3, 'Office Visit', 'Check-up', '{}', $4), ($1, $2, $3, 'Telehealth', 'Review', '{}', $5)
       returning id`,
      [created.rows[0]?.id, providerIds[0], visitDay, addDays(visitDay, 30), addDays(visitDay, 200)],
    );
    const [first, second] = rows.map((r) => r.id);
    const listedOn = async (day: string) =>
      (await exportOverdueFollowUps(database.db, ctxOn(day), {}))
        .filter((r) => r.encounterId === first || r.encounterId === second)
        .map((r) => r.encounterId);
    // Before either is due, when only the first is due, and once the second (a later id) is due too.
    for (const [day, expected] of [
      [addDays(visitDay, 20), []],
      [addDays(visitDay, 100), [first]],
      [addDays(visitDay, 250), [second]],
    ] as const) {
      expect(await listedOn(day), day).toEqual(expected);
      const raw = await listOverdueFollowUpsRaw(database.db, day, {});
      expect(raw.filter((r) => r.encounterId === first || r.encounterId === second).map((r) => r.encounterId)).toEqual(
        expected,
      );
    }
  });

  it('follow a patient deleted with their records, and a TRUNCATE of appointments or encounters', async () => {
    const created = await database.pool.query<{ id: number }>(
      `insert into patients (name, mrn, dob, phone) values ('Deleted Patient', 'MRN-DELETED-1', '1970-01-01', '(555) 000-0000') returning id`,
    );
    const patientId = created.rows[0]?.id;
    await database.pool.query(
      `insert into encounters (patient_id, provider_id, encounter_date, encounter_type, chief_complaint, diagnosis, follow_up_due)
       values ($1, $2, $3, 'Office Visit', 'Check-up', '{}', $4)`,
      [patientId, providerIds[0], addDays(TEST_TODAY, -90), addDays(TEST_TODAY, -60)],
    );
    const open = await database.pool.query(`select 1 from open_follow_ups where patient_id = $1`, [patientId]);
    expect(open.rowCount).toBe(1);
    const client = await database.pool.connect();
    try {
      await client.query('begin');
      await client.query(`delete from patients where id = $1`, [patientId]);
      const left = await client.query(`select 1 from open_follow_ups where patient_id = $1`, [patientId]);
      expect(left.rowCount).toBe(0);
      await client.query('rollback');

      for (const table of ['appointments', 'encounters']) {
        await client.query('begin');
        await client.query(`truncate ${table} cascade`);
        const stored = await client.query(`select * from open_follow_ups order by encounter_id`);
        const defined = await client.query(`select * from open_follow_ups_definition order by encounter_id`);
        expect(stored.rows, `after truncate ${table}`).toEqual(defined.rows);
        if (table === 'appointments') expect(stored.rowCount).toBeGreaterThan(0);
        await client.query('rollback');
      }
    } finally {
      client.release();
    }
  });
});
