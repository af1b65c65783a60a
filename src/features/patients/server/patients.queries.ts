import { asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { maskPatient, maskText, seesMaskedPhi } from '@/shared/access';
import { today } from '@/shared/api';
import { record } from '@/features/audit/server/audit.queries';
import type { RequestContext } from '@/server/context';
import type { Db } from '@/server/db/types';
import { containsPattern } from '@/server/db/like';
import { HttpError } from '@/server/plugins/errors';
import type { NewPatient, Patient, PatientListQuery, PatientPage } from '../patients.schema';
import { patients } from './patients.table';

/** The next booked visit on or after today; written as SQL so lists sort and page on it in the database. */
function nextVisitSql(ctx: RequestContext) {
  return sql<string | null>`(select min(a.date)::text from appointments a
    where a.patient_id = ${patients.id} and a.date >= ${today(ctx.now)}::date
    and a.status in ('Scheduled', 'Rescheduled'))`;
}

function patientColumns(ctx: RequestContext) {
  return {
    id: patients.id,
    name: patients.name,
    mrn: patients.mrn,
    dob: patients.dob,
    phone: patients.phone,
    allergies: patients.allergies,
    meds: patients.meds,
    notes: patients.notes,
    nextVisit: nextVisitSql(ctx),
  };
}

function toPatient(row: Omit<Patient, 'nextVisit'> & { nextVisit: string | null }, ctx: RequestContext): Patient {
  return maskPatient({ ...row, nextVisit: row.nextVisit ?? '' }, ctx.user.role);
}

function searchCondition(search: string): SQL | undefined {
  if (search === '') return undefined;
  const pattern = containsPattern(search);
  const digits = search.replace(/\D/g, '');
  return or(
    ilike(patients.name, pattern),
    ilike(patients.mrn, pattern),
    ilike(patients.phone, pattern),
    digits.length >= 3 ? sql`regexp_replace(${patients.phone}, '\\D', '', 'g') like ${`%${digits}%`}` : undefined,
  );
}

export async function listPatients(db: Db, ctx: RequestContext, query: PatientListQuery): Promise<PatientPage> {
  const where = searchCondition(query.search);
  const order = query.dir === 'asc' ? asc : desc;
  const sortColumn = {
    name: sql`${patients.name}`,
    dob: sql`${patients.dob}`,
    mrn: sql`${patients.mrn}`,
    nextVisit: sql`next_visit`,
  }[query.sort];
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({ ...patientColumns(ctx), nextVisit: sql<string | null>`${nextVisitSql(ctx)} as next_visit` })
      .from(patients)
      .where(where)
      .orderBy(
        query.sort === 'nextVisit' ? sql`next_visit ${sql.raw(query.dir)} nulls last` : order(sortColumn),
        asc(patients.id),
      )
      .limit(query.limit)
      .offset(query.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(patients)
      .where(where),
  ]);
  return {
    items: rows.map((r) => toPatient(r, ctx)),
    total: totalRow?.total ?? 0,
    masked: seesMaskedPhi(ctx.user.role),
  };
}

/** One patient's snapshot; opening it is a PHI read and is audited in the same transaction. */
export async function getPatientSnapshot(db: Db, ctx: RequestContext, id: number): Promise<Patient> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select(patientColumns(ctx)).from(patients).where(eq(patients.id, id)).limit(1);
    if (!row) throw new HttpError(404, 'NOT_FOUND', 'No patient with that id.');
    await record(tx, {
      actor: ctx.user.email,
      actorUserId: ctx.user.id,
      actorRole: ctx.user.role,
      action: 'patient.view',
      resource: `patient/${id}`,
      detail: 'opened patient snapshot',
      patientId: id,
      at: ctx.now,
    });
    return toPatient(row, ctx);
  });
}

export async function createPatient(db: Db, ctx: RequestContext, input: NewPatient): Promise<Patient> {
  return db.transaction(async (tx) => {
    const [clash] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(sql`lower(${patients.mrn}) = lower(${input.mrn})`)
      .limit(1);
    if (clash) {
      throw new HttpError(409, 'MRN_TAKEN', 'mrn: another patient already has this MRN', {
        fields: [{ field: 'mrn', message: 'another patient already has this MRN' }],
      });
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
      actor: ctx.user.email,
      actorUserId: ctx.user.id,
      actorRole: ctx.user.role,
      action: 'patient.create',
      resource: `patient/${row.id}`,
      detail: `created patient ${maskText('mrn', row.mrn, 'guest')}`,
      patientId: row.id,
      at: ctx.now,
    });
    return toPatient({ ...row, nextVisit: null }, ctx);
  });
}

/** Global search: patients whose name or MRN contains the text; MRN masked for the caller's role. */
export async function searchPatientsBrief(db: Db, ctx: RequestContext, text: string, limit: number) {
  const pattern = containsPattern(text);
  const rows = await db
    .select({ id: patients.id, name: patients.name, mrn: patients.mrn })
    .from(patients)
    .where(or(ilike(patients.name, pattern), ilike(patients.mrn, pattern)))
    .orderBy(asc(patients.name), asc(patients.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, mrn: maskText('mrn', r.mrn, ctx.user.role) }));
}

/** Patient names for pickers (appointment form, statement generator): no PHI beyond the name. */
export async function listPatientNames(db: Db, _ctx: RequestContext, search: string, limit: number) {
  return db
    .select({ id: patients.id, name: patients.name })
    .from(patients)
    .where(search ? ilike(patients.name, containsPattern(search)) : undefined)
    .orderBy(asc(patients.name), asc(patients.id))
    .limit(limit);
}
