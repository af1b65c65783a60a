import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allows } from '@/shared/access';
import type { RegisteredRoute } from '@/server/plugins/access';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';

/**
 * No cross-patient leaks (docs/security.md; ASVS V8.2.2, V8.3.1; HIPAA 164.312(a)(1)). Signed in as the demo
 * patient, every endpoint the patient role may call (taken from the route registry, so a new one is covered
 * without touching this file) is called with every way of naming ANOTHER patient: their patient id, MRN,
 * account numbers, claim ids, appointment ids and name, in the path, the query, the body and a header.
 *
 * Two apps on two identical copies of the seeded database receive the same requests in the same order;
 * one names a real other patient, the other names records that do not exist. Every answer must be the same
 * (status and body) on both, and none may carry the other patient's data. Because the copies only diverge if
 * a named id changes what the server does, writes (a payment) are compared the same way as reads.
 */

const MISSING_ID = 987_654_321;

interface PatientRecords {
  id: number;
  name: string;
  mrn: string;
  phone: string;
  email: string | null;
  dob: string;
  accountNumbers: string[];
  claimIds: number[];
  appointmentIds: number[];
}

/** Public routes that are sign-in machinery, not anyone's records (each has its own tests in auth/). */
const NOT_PATIENT_DATA = new Map([
  ['POST /api/auth/login', 'signs in by email and password; auth.routes.test.ts'],
  ['POST /api/auth/mfa', 'second sign-in step; auth.routes.test.ts'],
  ['POST /api/auth/logout', 'ends the session the test uses; auth.routes.test.ts'],
  ['POST /api/auth/register', 'creates an account; users.registration.routes.test.ts'],
  ['POST /api/auth/mfa/enrol/start', 'enrolment on a sign-in attempt, not on a session; auth.mfa-enrolment.test.ts'],
  ['POST /api/auth/mfa/enrol/confirm', 'enrolment on a sign-in attempt, not on a session; auth.mfa-enrolment.test.ts'],
  ['POST /api/account/password', "changes one's own password, naming no record; users.temporary-password.test.ts"],
]);

/** A body the route accepts from the demo patient, so that the named ids reach the route's own code. */
const VALID_BODY: Record<string, Record<string, unknown>> = {
  'POST /api/portal/payments': { amountCents: 100 },
  'POST /api/portal/statement/export': {},
  'PATCH /api/settings': { highContrast: true },
  'PUT /api/settings/notifications': {
    email: true,
    sms: false,
    push: false,
    emailReminderHours: 24,
    smsReminderHours: 1,
  },
};

let a: TestApp;
let b: TestApp;
let patientA: SignedIn;
let patientB: SignedIn;
let own: PatientRecords;
let others: PatientRecords[];
let patientRoutes: RegisteredRoute[];

async function recordsOf(t: TestApp, patientId: number): Promise<PatientRecords> {
  const { rows } = await t.database.pool.query<{
    id: number;
    name: string;
    mrn: string;
    phone: string;
    email: string | null;
    dob: string;
  }>(`select id, name, mrn, phone, email, dob::text as dob from patients where id = $1`, [patientId]);
  const claims = await t.database.pool.query<{ id: number; account_number: string }>(
    'select id, account_number from claims where patient_id = $1 order by id',
    [patientId],
  );
  const visits = await t.database.pool.query<{ id: number }>(
    'select id from appointments where patient_id = $1 order by id',
    [patientId],
  );
  return {
    ...rows[0]!,
    accountNumbers: claims.rows.map((c) => c.account_number),
    claimIds: claims.rows.map((c) => c.id),
    appointmentIds: visits.rows.map((v) => v.id),
  };
}

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp();
  patientA = await signInAs(a.app, 'patient');
  patientB = await signInAs(b.app, 'patient');
  const link = await a.database.pool.query<{ patient_id: number }>(
    "select patient_id from users where email = 'patient@healthcare.demo'",
  );
  own = await recordsOf(a, link.rows[0]!.patient_id);
  // The others with the most records (claims and visits to name), plus the one with the next id.
  const busiest = await a.database.pool.query<{ patient_id: number }>(
    `select patient_id from claims where patient_id <> $1 group by patient_id order by count(*) desc, patient_id limit 2`,
    [own.id],
  );
  const ids = new Set([...busiest.rows.map((r) => r.patient_id), own.id + 1]);
  others = await Promise.all([...ids].map((id) => recordsOf(a, id)));
  patientRoutes = a.app.routeRegistry.filter(
    (r) =>
      r.url.startsWith('/api/') && allows(r.permission, 'patient') && !NOT_PATIENT_DATA.has(`${r.method} ${r.url}`),
  );
}, 180_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

/** One way of naming a patient: a value for the real other patient and one for a record that does not exist. */
interface Naming {
  label: string;
  real: string | number;
  missing: string | number;
}

function namingsOf(other: PatientRecords): Naming[] {
  const out: Naming[] = [
    { label: 'patient id', real: other.id, missing: MISSING_ID },
    { label: 'MRN', real: other.mrn, missing: 'MRN-999999' },
    { label: 'name', real: other.name, missing: 'Nobody Nonexistent' },
  ];
  const account = other.accountNumbers[0];
  if (account !== undefined) out.push({ label: 'account number', real: account, missing: account.replace(/\d/g, '9') });
  const claim = other.claimIds[0];
  if (claim !== undefined) out.push({ label: 'claim id', real: claim, missing: MISSING_ID + 1 });
  const visit = other.appointmentIds[0];
  if (visit !== undefined) out.push({ label: 'appointment id', real: visit, missing: MISSING_ID + 2 });
  return out;
}

/** The keys a client could use to name a record, in a query or a body. */
const KEYS_BY_NAMING: Record<string, string[]> = {
  'patient id': ['patientId', 'patient_id', 'patient', 'id', 'userId'],
  MRN: ['mrn', 'patientMrn', 'q', 'search'],
  name: ['patientName', 'name', 'q', 'search'],
  'account number': ['accountNumber', 'account', 'q', 'search'],
  'claim id': ['claimId', 'claim', 'id'],
  'appointment id': ['appointmentId', 'appointment', 'id'],
};

function concrete(url: string, value: string | number): string {
  return url.replace(/:[a-zA-Z]+/g, encodeURIComponent(String(value))).replace('*', encodeURIComponent(String(value)));
}

/**
 * The requests for a route naming a value: in the path (if it has parameters), in every query key and every
 * body key a client could use at once (the body on top of one the route accepts), and in headers.
 */
function requestsFor(route: RegisteredRoute, naming: Naming, which: 'real' | 'missing'): InjectOptions[] {
  const value = naming[which];
  const method = route.method as InjectOptions['method'];
  const body = VALID_BODY[`${route.method} ${route.url}`] ?? {};
  const unsafe = route.method !== 'GET';
  const url = concrete(route.url, value);
  const keys = KEYS_BY_NAMING[naming.label]!;
  const query = Object.fromEntries(keys.map((k) => [k, String(value)]));
  const out: InjectOptions[] = [{ method, url, query, payload: unsafe ? body : undefined }];
  if (unsafe) out.push({ method, url, payload: { ...body, ...Object.fromEntries(keys.map((k) => [k, value])) } });
  out.push({
    method,
    url,
    headers: { 'x-patient-id': String(value), 'x-mrn': String(value) },
    payload: unsafe ? body : undefined,
  });
  return out;
}

/**
 * The answer with what differs per app only because of its own session (the CSRF token) or chance (a
 * payment's random receipt number) taken out.
 */
function comparable(res: LightMyRequestResponse, session: SignedIn) {
  const body = res.body
    .split(session.csrfToken)
    .join('<csrf>')
    .replace(/\bPP-[0-9A-F]{10}\b/g, '<receipt>');
  return { status: res.statusCode, body };
}

/** What of the other patient's record appears in an answer (empty when nothing does). */
function leaksOf(body: string, other: PatientRecords): string[] {
  const found: string[] = [];
  const texts = [other.name, other.mrn, other.phone, other.email, ...other.accountNumbers].filter(
    (s): s is string => typeof s === 'string' && s.length > 0,
  );
  for (const text of texts) if (body.includes(text)) found.push(text);
  if (body.includes(`"patientId":${other.id},`) || body.includes(`"patientId":${other.id}}`))
    found.push(`patientId ${other.id}`);
  const ownIds = new Set([...own.claimIds, ...own.appointmentIds]);
  for (const id of [...other.claimIds, ...other.appointmentIds]) {
    if (ownIds.has(id)) continue;
    if (new RegExp(`"(id|claimId|appointmentId)":${id}[,}]`).test(body)) found.push(`record id ${id}`);
  }
  return found;
}

describe('a patient cannot reach another patient by naming them', () => {
  it('covers the patient-scoped endpoints, each with a body it accepts', async () => {
    const urls = patientRoutes.map((r) => `${r.method} ${r.url}`);
    // The portal's own reads, the statement, its export and the payment must be among them.
    for (const expected of [
      'GET /api/portal/appointments',
      'GET /api/portal/claims',
      'GET /api/portal/statement',
      'POST /api/portal/statement/export',
      'POST /api/portal/payments',
      'GET /api/search',
    ])
      expect(urls).toContain(expected);
    // A new write the patient may call needs a body here, or its named ids would stop at validation (400).
    for (const route of patientRoutes.filter((r) => r.method !== 'GET')) {
      const key = `${route.method} ${route.url}`;
      expect(VALID_BODY, `add a body ${key} accepts to VALID_BODY`).toHaveProperty([key]);
      const res = await patientA.request({ method: route.method, url: route.url, payload: VALID_BODY[key] });
      await patientB.request({ method: route.method, url: route.url, payload: VALID_BODY[key] });
      expect(res.statusCode, `${key}: ${res.body}`).toBeLessThan(300);
    }
    // The patient's own records are there to be told apart from the others'.
    expect(own.claimIds.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThanOrEqual(2);
    for (const other of others) expect(other.claimIds.length + other.appointmentIds.length).toBeGreaterThan(0);
  });

  it(
    "answers the same for another patient's ids as for ids that do not exist, with none of their data",
    { timeout: 120_000 },
    async () => {
      const problems: string[] = [];
      let compared = 0;
      for (const other of others) {
        for (const naming of namingsOf(other)) {
          for (const route of patientRoutes) {
            const reals = requestsFor(route, naming, 'real');
            const missings = requestsFor(route, naming, 'missing');
            // Reads go at once; writes one by one, so that both copies see them in the same order.
            const pairs = reals.map((real, i) => [real, missings[i]!] as const);
            const answer = ([real, missing]: (typeof pairs)[number]) =>
              Promise.all([patientA.request(real), patientB.request(missing)]);
            const answers =
              route.method === 'GET'
                ? await Promise.all(pairs.map(answer))
                : await pairs.reduce<Promise<Awaited<ReturnType<typeof answer>>[]>>(
                    async (done, pair) => [...(await done), await answer(pair)],
                    Promise.resolve([]),
                  );
            answers.forEach(([resA, resB], i) => {
              compared += 1;
              const real = pairs[i]![0];
              const where = `${route.method} ${route.url} naming ${other.name}'s ${naming.label} (${JSON.stringify({
                query: real.query,
                payload: real.payload,
                headers: real.headers,
              })})`;
              const leaks = leaksOf(resA.body, other);
              if (leaks.length > 0) problems.push(`${where} answered ${leaks.join(', ')}`);
              const [x, y] = [comparable(resA, patientA), comparable(resB, patientB)];
              if (x.status !== y.status || x.body !== y.body)
                problems.push(
                  `${where}: ${x.status} ${x.body.slice(0, 200)} ≠ for a missing record: ${y.status} ${y.body.slice(0, 200)}`,
                );
              if (resA.statusCode >= 500) problems.push(`${where}: ${resA.statusCode}`);
            });
          }
        }
      }
      expect(problems).toEqual([]);
      expect(compared).toBeGreaterThan(patientRoutes.length * others.length * 6);
    },
  );

  it("leaves the other patients' records as they were (payments land on the patient's own claims)", async () => {
    // b received the same payments naming records that do not exist: the other patients' rows must match.
    const rowsOf = async (t: TestApp, patientId: number) => ({
      claims: (
        await t.database.pool.query(
          'select id, paid_cents, patient_responsibility_cents, status from claims where patient_id = $1 order by id',
          [patientId],
        )
      ).rows,
      payments: (
        await t.database.pool.query(
          'select id, claim_id, amount_cents, source, received_on, created_by from payments where patient_id = $1 order by id',
          [patientId],
        )
      ).rows,
    });
    for (const other of others) expect(await rowsOf(a, other.id)).toEqual(await rowsOf(b, other.id));
    // The payments were made, on the patient's own account, alike on both.
    const ownA = await rowsOf(a, own.id);
    expect(ownA).toEqual(await rowsOf(b, own.id));
    const fresh = await a.database.pool.query<{ n: number }>(
      `select count(*)::int as n from payments p join users u on u.id = p.created_by
        where p.patient_id = $1 and u.email = 'patient@healthcare.demo' and p.amount_cents = 100`,
      [own.id],
    );
    expect(fresh.rows[0]!.n).toBeGreaterThan(0);
  });

  it('the staff endpoints that take a patient in the path refuse the patient alike for real and missing ids', async () => {
    const staffRoutes = a.app.routeRegistry.filter(
      (r) => r.url.startsWith('/api/') && r.url.includes(':') && !allows(r.permission, 'patient'),
    );
    expect(staffRoutes.length).toBeGreaterThan(3);
    const other = others[0]!;
    for (const route of staffRoutes) {
      for (const [real, missing] of [
        [other.id, MISSING_ID],
        [other.claimIds[0] ?? other.id, MISSING_ID + 1],
      ] as const) {
        const payload = route.method === 'GET' ? undefined : {};
        const method = route.method as 'GET';
        const [resA, resB] = await Promise.all([
          patientA.request({ method, url: concrete(route.url, real), payload }),
          patientB.request({ method, url: concrete(route.url, missing), payload }),
        ]);
        expect(resA.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(comparable(resA, patientA), `${route.method} ${route.url}`).toEqual(comparable(resB, patientB));
        expect(leaksOf(resA.body, other)).toEqual([]);
      }
    }
  });
});
