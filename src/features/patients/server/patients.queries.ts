import { randomInt } from 'node:crypto';
import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { maskPatient, maskText, seesField, seesMaskedPhi, type Role } from '@/shared/access';
import { dobProblem, today } from '@/shared/api';
import { actorOf, listReadEntry, record, recordNow, recordRead } from '@/features/audit/server/audit.queries';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { containsPattern } from '@/server/db/like';
import { uniqueViolationOf } from '@/server/db/sql-helpers';
import { PAGE_TOTAL, pageTotalOf } from '@/server/db/page-total';
import { HttpError } from '@/server/plugins/errors';
import { afterCursor, decodeCursor, direction, encodeCursor, type KeyKind, type KeyValue } from '@/server/db/keyset';
import { countOf } from '@/shared/plural';
import type {
  CreatePatientConflict,
  DuplicatePatient,
  NewPatient,
  Patient,
  PatientListQuery,
  PatientOption,
  PatientPage,
} from '../patients.schema';
import { patients } from './patients.table';
import { patientsCountRollup } from './patients.rollup.table';

/**
 * patients.next_visit is the earliest 'Scheduled' appointment on or after a day the database holds
 * (patients_next_visit_as_of), kept exact by the appointments triggers. Before reading it, that day must be
 * the clinic's today: moving it recomputes only the patients the change of day affects, so this costs one
 * round trip once a day per process (the day each database was last moved to is remembered here).
 */
const nextVisitDays = new WeakMap<object, string>();

export async function nextVisitAsOf(db: DbOrTx, ctx: RequestContext): Promise<void> {
  const day = today(ctx.now);
  if (nextVisitDays.get(db) === day) return;
  await db.execute(sql`select patients_next_visit_advance(${day}::date)`);
  nextVisitDays.set(db, day);
}

function nextVisitSql() {
  return sql<string | null>`${patients.nextVisit}::text`;
}

function patientColumns() {
  return {
    id: patients.id,
    name: patients.name,
    mrn: patients.mrn,
    dob: patients.dob,
    phone: patients.phone,
    allergies: patients.allergies,
    meds: patients.meds,
    notes: patients.notes,
    nextVisit: nextVisitSql(),
  };
}

/**
 * Each field named rather than spread from the row with the visit added: a list builds one per patient,
 * and V8 copies such a spread through a slow generic path (docs/performance.md, "Answers built field by
 * field"); a column the query adds stays out of the answer.
 */
function toPatient(row: Omit<Patient, 'nextVisit'> & { nextVisit: string | null }, ctx: RequestContext): Patient {
  const patient: Patient = {
    id: row.id,
    name: row.name,
    mrn: row.mrn,
    dob: row.dob,
    phone: row.phone,
    allergies: row.allergies,
    meds: row.meds,
    notes: row.notes,
    nextVisit: row.nextVisit ?? '',
  };
  return maskPatient(patient, ctx.user.role);
}

/**
 * Name, phone and MRN, case-insensitively. A field the role sees masked is not searched, or a
 * search could reveal what the mask hides. Phone also matches on digits alone ('5552147' finds '(555) 214-7788').
 */
function searchCondition(search: string, role: Role): SQL | undefined {
  if (search === '') return undefined;
  const pattern = containsPattern(search);
  const digits = search.replace(/\D/g, '');
  const phone = seesField(role, 'phone');
  return or(
    ilike(patients.name, pattern),
    seesField(role, 'mrn') ? ilike(patients.mrn, pattern) : undefined,
    phone ? ilike(patients.phone, pattern) : undefined,
    phone && digits.length >= 3
      ? sql`regexp_replace(${patients.phone}, '\\D', '', 'g') like ${`%${digits}%`}`
      : undefined,
  );
}

/**
 * The Patients list's order for each sort: the key, then the name, then the id, all in one direction, so
 * keyset paging can resume after any row. Sorting on a masked field would reveal its hidden order, so
 * such a column sorts on what the role sees (the birth year; the name instead of the MRN). Each order has
 * its index (patients.table.ts), the next visit included (a stored column, see `nextVisitAsOf`).
 */
function sortKeys(sort: PatientListQuery['sort'], dir: 'asc' | 'desc', role: Role): { keys: SQL[]; kinds: KeyKind[] } {
  const name = sql`${patients.name}`;
  switch (sort) {
    case 'name':
      return { keys: [name], kinds: ['text'] };
    case 'dob':
      return seesField(role, 'dob')
        ? { keys: [sql`${patients.dob}`, name], kinds: ['date', 'text'] }
        : { keys: [sql`(extract(year from ${patients.dob}))`, name], kinds: ['int', 'text'] };
    case 'mrn':
      return seesField(role, 'mrn')
        ? { keys: [sql`${patients.mrn}`], kinds: ['text'] }
        : { keys: [name], kinds: ['text'] };
    case 'nextVisit':
      // No visit sorts last either way (patients_next_visit_asc_idx / _desc_idx).
      return {
        keys: [
          sql`coalesce(${patients.nextVisit}, '${sql.raw(dir === 'asc' ? 'infinity' : '-infinity')}'::date)`,
          name,
        ],
        kinds: ['date', 'text'],
      };
  }
}

/**
 * One page of patients, keyset-paged: `nextCursor` resumes after the page's last row; `total`
 * is counted on a first page only (no cursor).
 */
export async function listPatients(db: Db, ctx: RequestContext, query: PatientListQuery): Promise<PatientPage> {
  const where = searchCondition(query.search, ctx.user.role);
  const { keys, kinds } = sortKeys(query.sort, query.dir, ctx.user.role);
  const cursor = query.cursor ? decodeCursor(query.cursor, query.sort, query.dir, kinds) : null;
  const dir = direction(query.dir);
  const keyColumns = Object.fromEntries(
    keys.map((key, i) => [
      `k${i}`,
      kinds[i] === 'date'
        ? sql<string>`(${key})::text`
        : kinds[i] === 'int'
          ? sql<number>`(${key})::int`
          : sql<string>`${key}`,
    ]),
  );
  await nextVisitAsOf(db, ctx);
  // A first page carries how many patients match (page-total.ts). Unfiltered, the count is the trigger-kept
  // rollup's (a large clinic's count(*) is a scan per first page).
  const count =
    cursor || query.count === 'false'
      ? null
      : where === undefined
        ? patientCountSql()
        : sql<number>`(select count(*)::int from ${patients} where ${where})`;
  const rows = await db
    .select({ ...patientColumns(), ...keyColumns, ...(count === null ? {} : { [PAGE_TOTAL]: count }) })
    .from(patients)
    .where(and(where, cursor ? afterCursor(keys, sql`${patients.id}`, kinds, query.dir, cursor) : undefined))
    .orderBy(...keys.map((key) => sql`${key} ${dir}`), sql`${patients.id} ${dir}`)
    .limit(query.limit + 1)
    .offset(query.offset);
  const total = await pageTotalOf(db, rows, count);
  const shown = rows.slice(0, query.limit);
  const last = shown[shown.length - 1];
  await recordRead(
    db,
    ctx,
    listReadEntry(
      'patients.list.view',
      '/api/patients',
      query,
      shown.map((r) => r.id),
    ),
  );
  return {
    items: shown.map((r) => toPatient(r, ctx)),
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor(query.sort, query.dir, {
            // Only the last row's sort keys make the cursor: read from it alone, not copied onto every row.
            values: keys.map((_, i) => (last as Record<string, unknown>)[`k${i}`] as KeyValue),
            id: last.id,
          })
        : null,
    total,
    masked: seesMaskedPhi(ctx.user.role),
  };
}

/**
 * One patient's snapshot; opening it is a PHI read, audited before anything is answered (the read, then
 * its entry in one statement: no transaction holds the audit chain's lock across a round trip).
 */
export async function getPatientSnapshot(db: Db, ctx: RequestContext, id: number): Promise<Patient> {
  await nextVisitAsOf(db, ctx);
  const [row] = await db.select(patientColumns()).from(patients).where(eq(patients.id, id)).limit(1);
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'No patient with that id.');
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'patient.view',
    resource: `patient/${id}`,
    detail: 'opened patient snapshot',
    patientId: id,
  });
  return toPatient(row, ctx);
}

function mrnTaken() {
  return new HttpError(409, 'MRN_TAKEN', 'mrn: another patient already has this MRN', {
    fields: [{ field: 'mrn', message: 'another patient already has this MRN' }],
  });
}

/** A date of birth in the future or more than 150 years before the request's day: a 400 naming `dob`. */
export function assertPlausibleDob(dob: string, now: Date): void {
  const problem = dobProblem(dob, today(now));
  if (problem) {
    throw new HttpError(400, 'VALIDATION_FAILED', `dob: ${problem}`, { fields: [{ field: 'dob', message: problem }] });
  }
}

/** MRNs are unique (checked case-insensitively); the unique index also catches two creations racing for one MRN. */
/** How many likely duplicates a refused creation shows at most. */
const DUPLICATES_SHOWN = 5;

/** A phone's digits when there are enough of them to name one line (a "---" or "0" names none). */
function phoneDigits(phone: string): string | null {
  const digits = phone.replace(/\D/g, '');
  return digits.length >= 7 ? digits : null;
}

/**
 * Records the new one may duplicate: the same name (ignoring case and spacing) and date of birth, or the
 * same phone digits. Locks the name-and-birth-date and the phone first (in one order, so two creations
 * cannot deadlock), so two unconfirmed twins sent together cannot both miss each other.
 */
async function likelyDuplicates(tx: Tx, input: NewPatient): Promise<DuplicatePatient[]> {
  const name = input.name.trim().replace(/\s+/g, ' ').toLowerCase();
  const digits = phoneDigits(input.phone);
  const keys = [`patient:${name}|${input.dob}`, ...(digits ? [`phone:${digits}`] : [])].sort();
  for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
  const sameName = and(
    eq(patients.dob, input.dob),
    sql`lower(regexp_replace(trim(${patients.name}), '\\s+', ' ', 'g')) = ${name}`,
  );
  return tx
    .select({ id: patients.id, name: patients.name, dob: patients.dob, phone: patients.phone, mrn: patients.mrn })
    .from(patients)
    .where(digits ? or(sameName, sql`regexp_replace(${patients.phone}, '\\D', '', 'g') = ${digits}`) : sameName)
    .orderBy(asc(patients.name), asc(patients.id))
    .limit(DUPLICATES_SHOWN);
}

/**
 * A new record, or (unless the request confirms it) the records it likely duplicates, masked for the
 * role; showing them is a read of those records and is audited as one.
 */
export async function createPatient(
  db: Db,
  ctx: RequestContext,
  input: NewPatient,
): Promise<{ created: Patient } | { conflict: CreatePatientConflict }> {
  assertPlausibleDob(input.dob, ctx.now);
  let result: { created: Patient } | { duplicates: DuplicatePatient[] };
  try {
    result = await insertPatient(db, ctx, input);
  } catch (err) {
    if (uniqueViolationOf(err) === 'patients_mrn_unique') throw mrnTaken();
    throw err;
  }
  if ('created' in result) return result;
  const { duplicates } = result;
  await recordRead(
    db,
    ctx,
    listReadEntry(
      'patients.duplicates.view',
      '/api/patients',
      {},
      duplicates.map((d) => d.id),
    ),
  );
  const message =
    `${countOf(duplicates.length, 'patient')} on file ${duplicates.length === 1 ? 'has' : 'have'} the same name ` +
    'and date of birth, or the same phone. Check them, or confirm to create this patient anyway.';
  return {
    conflict: {
      error: { code: 'LIKELY_DUPLICATE', message },
      duplicates: duplicates.map((d) => maskPatient(d, ctx.user.role)),
    },
  };
}

async function insertPatient(
  db: Db,
  ctx: RequestContext,
  input: NewPatient,
): Promise<{ created: Patient } | { duplicates: DuplicatePatient[] }> {
  return db.transaction(async (tx) => {
    const [clash] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(sql`lower(${patients.mrn}) = lower(${input.mrn})`)
      .limit(1);
    if (clash) throw mrnTaken();
    if (!input.confirmDuplicate) {
      const duplicates = await likelyDuplicates(tx, input);
      if (duplicates.length > 0) return { duplicates };
    }
    const [row] = await tx
      .insert(patients)
      .values({
        name: input.name,
        dob: input.dob,
        phone: input.phone,
        mrn: input.mrn,
        allergies: input.allergies ?? [],
        meds: input.meds ?? [],
        notes: input.notes ?? '',
      })
      .returning();
    if (!row) throw new Error('patient insert returned nothing');
    await record(tx, {
      ...actorOf(ctx),
      action: 'patient.create',
      resource: `patient/${row.id}`,
      detail: `created patient ${maskText('mrn', row.mrn, 'guest')}${input.confirmDuplicate ? ' (confirmed: likely duplicate shown)' : ''}`,
      patientId: row.id,
    });
    return { created: toPatient({ ...row, nextVisit: null }, ctx) };
  });
}

/**
 * A patient record for a self-registered account (auth feature), inside the caller's transaction, with
 * a generated MRN no other record has. The caller audits the registration as a whole.
 */
export async function insertSelfRegisteredPatient(
  tx: Tx,
  input: { name: string; dob: string; phone: string; email: string },
): Promise<{ id: number; mrn: string }> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    // 'MRN-W' + 8 digits: clear of the clinic's own MRN-1xxxxx numbering, and one in 90 million per draw.
    const mrn = `MRN-W${randomInt(10_000_000, 100_000_000)}`;
    const [clash] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(sql`lower(${patients.mrn}) = lower(${mrn})`)
      .limit(1);
    if (clash) continue;
    const [row] = await tx
      .insert(patients)
      .values({ ...input, mrn })
      .returning({ id: patients.id, mrn: patients.mrn });
    if (!row) throw new Error('patient insert returned nothing');
    return row;
  }
  throw new Error('could not draw a free MRN');
}

/** Whether any patient record holds this address (compared without regard to case). */
export async function patientRecordHasEmail(tx: Tx, email: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(sql`lower(${patients.email}) = lower(${email})`)
    .limit(1);
  return row !== undefined;
}

/**
 * Dashboard: how many patient records the clinic holds, read from the one-row count the triggers of
 * migration 0015 keep exact in the same transaction as every insert and delete (no scan of patients).
 */
export async function countPatients(db: Db): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`select ${patientCountSql()} as n`);
  return result.rows[0]?.n ?? 0;
}

/** countPatients as a scalar subquery, for a caller that gathers several figures in one statement (dashboard). */
export function patientCountSql(): SQL<number> {
  return sql<number>`(select coalesce(sum(${patientsCountRollup.patients}), 0)::int from ${patientsCountRollup})`;
}

/**
 * Global search: patients whose name or MRN contains the text; MRN masked for the caller's role and, like
 * the list's search, not searched for a role that sees it masked (a hit would reveal the hidden digits).
 */
export async function searchPatientsBrief(db: Db, ctx: RequestContext, text: string, limit: number) {
  const pattern = containsPattern(text);
  const rows = await db
    .select({ id: patients.id, name: patients.name, mrn: patients.mrn })
    .from(patients)
    .where(
      or(ilike(patients.name, pattern), seesField(ctx.user.role, 'mrn') ? ilike(patients.mrn, pattern) : undefined),
    )
    .orderBy(asc(patients.name), asc(patients.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, mrn: maskText('mrn', r.mrn, ctx.user.role) }));
}

/** Patient names for pickers (appointment form, statement generator): no PHI beyond the name. */
/**
 * The pickers' patients (booking, statements): name, date of birth and MRN (masked for the role), so two
 * patients of one name can be told apart. Showing them is a read of those records, audited as the lists are.
 */
export async function listPatientNames(
  db: Db,
  ctx: RequestContext,
  search: string,
  limit: number,
  route = '/api/patients/names',
): Promise<PatientOption[]> {
  const rows = await db
    .select({ id: patients.id, name: patients.name, dob: patients.dob, mrn: patients.mrn })
    .from(patients)
    .where(search ? ilike(patients.name, containsPattern(search)) : undefined)
    .orderBy(asc(patients.name), asc(patients.id))
    .limit(limit);
  await recordRead(
    db,
    ctx,
    listReadEntry(
      'patients.picker.view',
      route,
      { search, limit },
      rows.map((r) => r.id),
    ),
  );
  return rows.map((r) => maskPatient(r, ctx.user.role));
}
