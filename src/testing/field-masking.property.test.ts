import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MASKED_FIELDS,
  ROLES,
  can,
  canOpen,
  maskPatient,
  seesField,
  type MaskedField,
  type Role,
} from '@/shared/access';
import type { AuditExport, AuditPage } from '@/features/audit/audit.schema';
import type { Patient, PatientPage } from '@/features/patients/patients.schema';
import { AUDIT_CSV_COLUMNS } from '@/features/audit/ui/AuditLogPage';
import { toCsv, type CsvColumn } from '@/client/lib/csv';
import { createPatient } from '@/features/patients/server/patients.queries';
import type { AuthUser } from '@/server/context';
import { createTestApp, demoAccount, signInAs, type SignedIn, type TestApp } from './test-app';

/**
 * Field masking holds everywhere (docs/access.md, docs/security.md; (ASVS V8.2.3 field-level authorization, V14 data
 * protection; HIPAA 164.312(a)(1) access control, 164.502(b) minimum necessary).
 *
 * fast-check generates patient records whose PHI fields carry distinctive random markers; each run
 * creates its records through the real write path (POST /api/patients, as a writer role), then every one
 * of the six roles reads them every way they leave the server: the list (with a search and each sort),
 * the snapshot, the global search, the billing statement and its export data, the audit log and its export
 * data (and that export turned into CSV text by the client's toCsv), and error answers that carry the
 * values back. A field hidden from a role (FIELD_VISIBLE_TO) must never appear in any raw body that role
 * receives; a field the role may see must arrive unchanged (so the test fails both ways). Audit entries
 * must hold no PHI value at all, whoever reads them.
 */
/**
 * RUNS × RECORDS_PER_RUN = 600 records, each read by all six roles. Each run's markers are new (no fixed
 * seed), so runs over time cover far more than one; a run costs ~10 s beside the browser tests.
 */
const RUNS = 6;
const RECORDS_PER_RUN = 100;
/** Created over HTTP (the answer to the writer is checked too); the rest through the feature's createPatient, which is the same query and audit. */
const CREATED_OVER_HTTP = 10;
/** Snapshots opened per run and role (each an audited PHI read); the list carries every record to every role. */
const SNAPSHOTS_PER_RUN = 5;
const WRITERS: Role[] = ROLES.filter((role) => can(role, 'patients:write'));

interface Generated {
  nameSeed: string;
  dob: string;
  phoneDigits: string;
  mrnSeed: string;
  notesAround: [string, string];
  allergyCount: number;
  medCount: number;
  token: string;
}

interface Stored {
  id: number;
  name: string;
  dob: string;
  phone: string;
  mrn: string;
  notes: string;
  allergies: string[];
  meds: string[];
}

// Free text around the markers: quotes, markup, unicode and SQL, so escaping cannot hide a leak.
const freeText = fc.string({
  unit: fc.constantFrom('a', 'Z', ' ', '"', "'", '<', '>', '&', ';', '-', 'é', '😀', '\\', '%', '_'),
  maxLength: 12,
});

const generated: fc.Arbitrary<Generated> = fc.record({
  nameSeed: fc.stringMatching(/^[A-Z][a-z]{2,10}$/),
  dob: fc
    .date({ min: new Date('1920-01-01T00:00:00Z'), max: new Date('2019-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  phoneDigits: fc.stringMatching(/^[1-9][0-9]{12}$/),
  mrnSeed: fc.stringMatching(/^[A-Z0-9]{14}$/),
  notesAround: fc.tuple(freeText, freeText),
  allergyCount: fc.integer({ min: 1, max: 3 }),
  medCount: fc.integer({ min: 1, max: 3 }),
  token: fc.stringMatching(/^[a-z0-9]{10}$/),
});

let counter = 0;

function letters(n: number): string {
  return n.toString(26).replace(/./g, (c) => String.fromCharCode(97 + parseInt(c, 26)));
}

/** Turns generated values into a unique record for this execution (fast-check may replay a value while shrinking). */
function recordFor(g: Generated, runTag: string): Omit<Stored, 'id'> {
  counter += 1;
  const unique = `${runTag}n${counter}${g.token}`;
  const d = g.phoneDigits;
  return {
    name: `${runTag} ${g.nameSeed}`,
    dob: g.dob,
    phone: `+${d.slice(0, 2)} ${d.slice(2, 5)} ${d.slice(5, 9)} ${d.slice(9)}`,
    mrn: `MK${unique}${g.mrnSeed}`.slice(0, 40),
    notes: `${g.notesAround[0]} nt${unique}x ${g.notesAround[1]}`,
    allergies: Array.from({ length: g.allergyCount }, (_, i) => `al${unique}y${i}`),
    meds: Array.from({ length: g.medCount }, (_, i) => `md${unique}z${i}`),
  };
}

/**
 * Whether the list's search (name, MRN, phone, phone digits) finds this hit by what the role sees:
 * only the name and the fields the role sees unmasked count, so a hit through a hidden value fails.
 */
function matchesVisibly(role: Role, hit: Patient, term: string): boolean {
  const lower = term.toLowerCase();
  const digits = term.replace(/\D/g, '');
  const phone = seesField(role, 'phone');
  return (
    hit.name.toLowerCase().includes(lower) ||
    (seesField(role, 'mrn') && hit.mrn.toLowerCase().includes(lower)) ||
    (phone && hit.phone.toLowerCase().includes(lower)) ||
    (phone && digits.length >= 3 && hit.phone.replace(/\D/g, '').includes(digits))
  );
}

/** The strings whose presence in a body means the field leaked (what its mask may not show). */
function markers(record: Stored, field: MaskedField): string[] {
  switch (field) {
    case 'dob':
      return [record.dob];
    case 'phone': {
      // The mask shows the last four digits; everything before them is hidden.
      const digits = record.phone.replace(/\D/g, '');
      return [digits.slice(0, -4), record.phone.slice(0, record.phone.length - 4).trim()];
    }
    case 'mrn':
      return [record.mrn.slice(0, -2)];
    case 'notes':
      return [/nt\S+x/.exec(record.notes)?.[0] ?? record.notes];
    case 'allergies':
      return record.allergies;
    case 'meds':
      return record.meds;
  }
}

function hiddenFrom(role: Role): MaskedField[] {
  return MASKED_FIELDS.filter((field) => !seesField(role, field));
}

/** No value of a hidden field of any record appears anywhere in the raw text. */
function expectNoLeak(where: string, role: Role, text: string, records: readonly Stored[], fields = hiddenFrom(role)) {
  for (const record of records) {
    for (const field of fields) {
      for (const marker of markers(record, field)) {
        if (text.includes(marker)) {
          throw new Error(
            `${where}: ${field} of patient ${record.id} (${marker}) reached ${role}:\n${text.slice(0, 2000)}`,
          );
        }
      }
    }
  }
}

/** A role that may see a field gets it unchanged; one that may not gets exactly the mask. */
function expectMaskedFor(role: Role, sent: Patient, stored: Stored) {
  const expected = maskPatient(stored, role);
  for (const field of MASKED_FIELDS) {
    expect(sent[field], `${role} ${field} of ${stored.id}`).toEqual(expected[field]);
    if (seesField(role, field)) expect(sent[field]).toEqual(stored[field]);
  }
  expect(sent.name).toBe(stored.name);
}

let t: TestApp;
const sessions = new Map<Role, SignedIn>();
const users = new Map<Role, AuthUser>();

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) {
    sessions.set(role, await signInAs(t.app, role));
    const found = await t.database.pool.query<AuthUser>(
      'select id, email, name, role, patient_id as "patientId" from users where email = $1',
      [demoAccount(role).email],
    );
    users.set(role, found.rows[0]!);
  }
});
afterAll(async () => {
  await t?.close();
});

function as(role: Role): SignedIn {
  const session = sessions.get(role);
  if (!session) throw new Error(`no session for ${role}`);
  return session;
}

async function get(role: Role, url: string) {
  return as(role).request({ method: 'GET', url });
}

async function maxAuditId(): Promise<number> {
  const result = await t.database.pool.query<{ id: string | null }>('select max(id) as id from audit_log');
  return Number(result.rows[0]?.id ?? 0);
}

/** Every audit entry newer than `afterId`, read through the audit API by a role that may read the log. */
async function auditEntriesSince(
  role: Role,
  afterId: number,
): Promise<{ raw: string[]; entries: AuditPage['entries'] }> {
  const raw: string[] = [];
  const entries: AuditPage['entries'] = [];
  let cursor: string | null = null;
  for (;;) {
    const res = await get(role, `/api/audit?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    raw.push(res.body);
    const page = res.json<AuditPage>();
    entries.push(...page.entries.filter((e) => e.id > afterId));
    if (!page.nextCursor || page.entries.some((e) => e.id <= afterId)) break;
    cursor = page.nextCursor;
  }
  return { raw, entries };
}

const PATIENT_CSV_COLUMNS: CsvColumn<Patient>[] = [
  { header: 'Name', value: (p) => p.name },
  ...MASKED_FIELDS.map((field) => ({
    header: field,
    value: (p: Patient) => {
      const value = p[field];
      return Array.isArray(value) ? value.join('; ') : value;
    },
  })),
];

async function readEverythingAs(role: Role, stored: Stored[], runTag: string) {
  const leak = (where: string, text: string) => expectNoLeak(`${where} as ${role}`, role, text, stored);
  const reads = can(role, 'patients:read');

  // The Patients list, searched by this run's tag, in every sort (a masked sort key must not order by its hidden value).
  for (const sort of ['name', 'dob', 'mrn', 'nextVisit'] as const) {
    const res = await get(role, `/api/patients?search=${encodeURIComponent(runTag)}&sort=${sort}&limit=500`);
    leak(`GET /api/patients sort=${sort}`, res.body);
    if (!reads) {
      expect(res.statusCode).toBe(403);
      continue;
    }
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<PatientPage>();
    expect(page.items.map((p) => p.id).sort()).toEqual(stored.map((s) => s.id).sort());
    for (const sent of page.items)
      expectMaskedFor(
        role,
        sent,
        stored.find((s) => s.id === sent.id)!,
      );
    // What an export of the list would hold is just as masked.
    leak(`toCsv(patients, sort=${sort})`, toCsv(page.items, PATIENT_CSV_COLUMNS));
    if (sort === 'dob' && !seesField(role, 'dob')) {
      const byId = new Map(stored.map((s) => [s.id, s]));
      const order = page.items.map((p) => byId.get(p.id)!);
      const expected = [...order].sort(
        (a, b) =>
          a.dob.slice(0, 4).localeCompare(b.dob.slice(0, 4)) ||
          (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id),
      );
      expect(
        order.map((s) => s.id),
        'dob sort for a role without dob follows the year, then the name',
      ).toEqual(expected.map((s) => s.id));
    }
  }

  // A search on a hidden value must find nothing through it (no oracle): every hit must match on what the
  // role sees in that hit (the digits of a marker may well sit in another patient's visible phone number).
  if (reads) {
    for (const field of hiddenFrom(role).filter((f) => f === 'dob' || f === 'notes' || f === 'mrn' || f === 'phone')) {
      const term = markers(stored[0]!, field)[0]!;
      const res = await get(role, `/api/patients?search=${encodeURIComponent(term)}`);
      expect(res.statusCode, res.body).toBe(200);
      const unexplained = res.json<PatientPage>().items.filter((hit) => !matchesVisibly(role, hit, term));
      expect(unexplained, `search by hidden ${field} as ${role}`).toEqual([]);
    }
  }

  // Snapshots (audited PHI reads).
  for (const record of stored.slice(0, SNAPSHOTS_PER_RUN)) {
    const res = await get(role, `/api/patients/${record.id}`);
    leak(`GET /api/patients/${record.id}`, res.body);
    if (!reads) {
      expect(res.statusCode).toBe(403);
      continue;
    }
    expect(res.statusCode, res.body).toBe(200);
    expectMaskedFor(role, res.json<Patient>(), record);
  }

  // Global search: by each record's MRN and by the run's tag.
  for (const q of [runTag, ...stored.slice(0, 2).map((s) => s.mrn)]) {
    const res = await get(role, `/api/search?q=${encodeURIComponent(q)}`);
    expect(res.statusCode, res.body).toBe(200);
    leak(`GET /api/search?q=${q}`, res.body);
    const found = res.json<{ patients: { id: number; name: string; mrn: string }[] | null }>().patients;
    expect(found === null, `${role} searches patients`).toBe(!canOpen(role, '/patients'));
    if (found && q !== runTag) {
      const record = stored.find((s) => s.mrn === q)!;
      expect(found.map((p) => p.id)).toContain(record.id);
      expect(found.find((p) => p.id === record.id)?.mrn).toBe(maskPatient(record, role).mrn);
    }
  }

  // A patient's statement and its export data.
  for (const url of [`/api/billing/statements/${stored[0]!.id}`, `/api/billing/statements/${stored[0]!.id}/export`]) {
    const res = await get(role, url);
    expect(res.statusCode, `${url} as ${role}`).toBeLessThan(500);
    leak(`GET ${url}`, res.body);
  }

  // Error answers that could carry the input back: an invalid creation carrying every PHI value, a
  // duplicate MRN, an unknown id, a bad query.
  const echo = stored[1]!;
  const invalid = await as(role).request({
    method: 'POST',
    url: '/api/patients',
    payload: { ...echo, id: undefined, mrn: `${echo.mrn}!`, phone: `${echo.phone} ext`, dob: `${echo.dob}T25:00` },
  });
  expect([400, 403]).toContain(invalid.statusCode);
  leak('POST /api/patients (invalid)', invalid.body);
  const duplicate = await as(role).request({
    method: 'POST',
    url: '/api/patients',
    payload: { ...echo, id: undefined, name: `${runTag} duplicate` },
  });
  expect([409, 403]).toContain(duplicate.statusCode);
  leak('POST /api/patients (duplicate MRN)', duplicate.body);
  for (const url of [
    '/api/patients/2147483000',
    `/api/patients/${encodeURIComponent(echo.mrn)}`,
    `/api/patients?sort=${encodeURIComponent(echo.notes)}`,
    `/api/search?q=${encodeURIComponent('x'.repeat(300) + echo.mrn)}`,
  ]) {
    const res = await get(role, url);
    expect(res.statusCode, `${url} as ${role}`).toBeLessThan(500);
    leak(`GET ${url}`, res.body);
  }
}

describe('field masking holds everywhere (property, 600 generated records × six roles)', () => {
  it('never lets a hidden field reach a role, and always shows a visible one', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(generated, { minLength: RECORDS_PER_RUN, maxLength: RECORDS_PER_RUN }),
        fc.constantFrom(...WRITERS),
        async (values, writer) => {
          run += 1;
          // Letters only: the list's phone search matches any three digits of a query.
          const runTag = `Propmask${letters(run * 100_000 + counter)}`;
          const auditBefore = await maxAuditId();

          // Created through the real write path; the answer to the writer is masked for the writer too.
          const stored: Stored[] = [];
          for (const [i, value] of values.entries()) {
            const input = recordFor(value, runTag);
            if (i < CREATED_OVER_HTTP) {
              // Generated records may share a phone or a name and birth date: masking, not duplicates, is tested.
              const payload = { ...input, confirmDuplicate: true };
              const res = await as(writer).request({ method: 'POST', url: '/api/patients', payload });
              expect(res.statusCode, res.body).toBe(201);
              const created = res.json<Patient>();
              const record = { ...input, id: created.id };
              expectNoLeak(`POST /api/patients answer to ${writer}`, writer, res.body, [record]);
              expectMaskedFor(writer, created, record);
              stored.push(record);
            } else {
              const result = await createPatient(
                t.database.db,
                { user: users.get(writer)!, now: t.clock() },
                { ...input, confirmDuplicate: true },
              );
              if (!('created' in result)) throw new Error('a confirmed creation was refused');
              const created = result.created;
              const record = { ...input, id: created.id };
              expectMaskedFor(writer, created, record);
              stored.push(record);
            }
          }

          for (const role of ROLES) await readEverythingAs(role, stored, runTag);

          // Audit entries written by those writes and reads: no PHI value in what is stored…
          const rows = await t.database.pool.query<{
            id: string;
            action: string;
            resource: string;
            detail: string | null;
          }>('select id, action, resource, detail from audit_log where id > $1', [auditBefore]);
          expect(rows.rows.filter((r) => r.action === 'patient.view').length).toBe(
            SNAPSHOTS_PER_RUN * ROLES.filter((r) => can(r, 'patients:read')).length,
          );
          expect(rows.rows.filter((r) => r.action === 'patient.create').length).toBe(RECORDS_PER_RUN);
          const storedText = rows.rows.map((r) => `${r.action} ${r.resource} ${r.detail ?? ''}`).join('\n');
          expectNoLeak('stored audit_log', 'guest', storedText, stored, [...MASKED_FIELDS]);

          // …nor in what the audit API and its export (as JSON and as the CSV the browser builds) give out.
          for (const reader of ROLES.filter((r) => can(r, 'audit:read'))) {
            const { raw, entries } = await auditEntriesSince(reader, auditBefore);
            // Every stored entry of the run is served (the readers' own reads add more).
            const served = new Set(entries.map((e) => e.id));
            expect(rows.rows.filter((r) => !served.has(Number(r.id)))).toEqual([]);
            expectNoLeak(`GET /api/audit as ${reader}`, 'guest', raw.join('\n'), stored, [...MASKED_FIELDS]);
            const exported = await get(reader, `/api/audit/export?from=2026-11-22`);
            expect(exported.statusCode, exported.body).toBe(200);
            expectNoLeak(`GET /api/audit/export as ${reader}`, 'guest', exported.body, stored, [...MASKED_FIELDS]);
            const csv = toCsv(exported.json<AuditExport>().entries, AUDIT_CSV_COLUMNS);
            expectNoLeak(`audit CSV as ${reader}`, 'guest', csv, stored, [...MASKED_FIELDS]);
          }
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 400_000);
});
