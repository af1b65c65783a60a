import { and, asc, desc, eq, ilike, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { maskText } from '@/shared/access';
import { today } from '@/shared/api';
import { formatDateTime } from '@/shared/dates';
import { actorOf, listReadEntry, record, recordNow, recordRead } from '@/features/audit/server/audit.queries';
import { getPracticeHours, practiceHoursOf, practiceHoursSql } from '@/features/settings/server/settings.queries';
import type { PracticeHours } from '@/features/settings/practice.schema';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { containsPattern } from '@/server/db/like';
import { executePrepared, literalLimit } from '@/server/db/prepared';
import { pageTotalColumn, pageTotalOf } from '@/server/db/page-total';
import { afterCursor, decodeCursor, encodeCursor, type KeyKind } from '@/server/db/keyset';
import { HttpError } from '@/server/plugins/errors';
import {
  SLOT_FREEING_STATUSES,
  appointmentDayProblem,
  appointmentStatusSchema,
  bookingProblem,
  clinicNow,
  formatDay,
  formatTime12,
  freeSlots,
  holdsSlot,
  minutesOf,
  statusProblem,
  timeOf,
  visitClash,
  type Appointment,
  type BookedVisit,
  type FreeSlots,
  type FreeSlotsQuery,
  type WantedVisit,
  type AppointmentDayQuery,
  type AppointmentPage,
  type AppointmentPatch,
  type CallListRow,
  type NewAppointment,
} from '../appointments.schema';
import { appointments } from './appointments.table';
import { eligibilityOfPatientsOn } from './appointments.eligibility.queries';

/** A day's order, the screen's and the call list's: time, then id (index appointments_date_time_id_idx). */
const DAY_ORDER = 'time';
const DAY_ORDER_COLUMNS = [asc(appointments.time), asc(appointments.id)];

const columns = {
  id: appointments.id,
  patientId: appointments.patientId,
  patient: patients.name,
  providerId: appointments.providerId,
  provider: providers.name,
  reason: appointments.reason,
  date: appointments.date,
  time: appointments.time,
  status: appointments.status,
};

/**
 * Each field named rather than spread from the row: a day's list builds one per visit, and V8 copies a
 * spread with an added field through a slow generic path (docs/performance.md, "Answers built field by
 * field"); a column the query adds stays out of the answer.
 */
function toAppointment(row: Omit<Appointment, 'status'> & { status: string }): Appointment {
  return {
    id: row.id,
    patientId: row.patientId,
    patient: row.patient,
    providerId: row.providerId,
    provider: row.provider,
    reason: row.reason,
    date: row.date,
    time: row.time,
    status: appointmentStatusSchema.parse(row.status),
  };
}

/**
 * baseQuery's rows as one named statement (docs/performance.md, "Planning the hot reads once"): the day's
 * schedule and a patient's visits are read on almost every screen, and planning them took as long as running
 * them. Their LIMIT, when they have one, is in the text (`literalLimit`), so the kept generic plan knows it.
 */
async function preparedAppointments(
  db: DbOrTx,
  where: SQL,
  order: SQL,
  page?: { limit: number; count: SQL<number> | null },
): Promise<{ rows: Appointment[]; total: number | null }> {
  const { rows } = await executePrepared<Omit<Appointment, 'status'> & { status: string }>(
    db,
    sql`select a.id, a.patient_id as "patientId", p.name as patient, a.provider_id as "providerId",
        v.name as provider, a.reason, a.date::text as date, a.time, a.status ${pageTotalColumn(page?.count ?? null)}
      from ${appointments} a
      join ${patients} p on p.id = a.patient_id
      join ${providers} v on v.id = a.provider_id
      where ${where}
      order by ${order}${page === undefined ? sql`` : sql` ${literalLimit(page.limit)}`}`,
  );
  return { rows: rows.map(toAppointment), total: await pageTotalOf(db, rows, page?.count ?? null) };
}

function baseQuery(db: DbOrTx) {
  return db
    .select(columns)
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .innerJoin(providers, eq(providers.id, appointments.providerId));
}

function fieldError(status: number, code: string, field: string, message: string): HttpError {
  return new HttpError(status, code, `${field}: ${message}`, { fields: [{ field, message }] });
}

/** A day's schedule is asked for within the horizon of the request's day (a year 9999 names no schedule). */
function assertDayInReach(day: string, ctx: RequestContext) {
  const problem = appointmentDayProblem(day, today(ctx.now));
  if (problem) throw fieldError(400, 'VALIDATION_FAILED', 'date', problem);
}

/** A booking must start in the future and inside the practice's hours (Settings → Practice). */
function assertBookable(hours: PracticeHours, ctx: RequestContext, date: string, time: string) {
  const problem = bookingProblem(hours, clinicNow(ctx.now), date, time);
  if (problem) throw fieldError(400, problem.code, problem.field, problem.message);
}

function slotTaken(provider: string, date: string, time: string): HttpError {
  return fieldError(
    409,
    'DOUBLE_BOOKING',
    'time',
    `${provider} already has an appointment on ${formatDateTime(date, time)}`,
  );
}

/** The live visits on a day of one provider or one patient (the visits a booking must fit between). */
async function visitsOn(
  tx: DbOrTx,
  date: string,
  providerId: number,
  patientId: number | null,
): Promise<BookedVisit[]> {
  return tx
    .select({
      id: appointments.id,
      providerId: appointments.providerId,
      patientId: appointments.patientId,
      time: appointments.time,
      minutes: appointments.durationMinutes,
    })
    .from(appointments)
    .where(
      and(
        eq(appointments.date, date),
        notInArray(appointments.status, [...SLOT_FREEING_STATUSES]),
        patientId === null
          ? eq(appointments.providerId, providerId)
          : or(eq(appointments.providerId, providerId), eq(appointments.patientId, patientId)),
      ),
    );
}

/**
 * Serialises bookings of one provider and of one patient: each booking locks both rows first, so two
 * bookings racing for overlapping times cannot both pass the check below. (NO KEY UPDATE does not block
 * the key-share locks that plain inserts of their appointments take.)
 */
async function lockSchedules(tx: Tx, providerId: number, patientId: number): Promise<LockedSchedules> {
  // One statement: the provider's row, then the patient's (the subqueries run in that order, the order every
  // booking locks them in), and the practice's hours the booking is checked against.
  const { rows } = await tx.execute<
    { provider: LockedSchedules['provider']; patient: LockedSchedules['patient'] } & {
      hours: unknown;
    }
  >(sql`select
      (select json_build_object('name', ${providers.name}, 'active', ${providers.active}) from ${providers}
        where ${providers.id} = ${providerId} for no key update) as provider,
      (select json_build_object('name', ${patients.name}) from ${patients}
        where ${patients.id} = ${patientId} for no key update) as patient,
      ${practiceHoursSql()} as hours`);
  const row = rows[0];
  return { provider: row?.provider ?? null, patient: row?.patient ?? null, hours: practiceHoursOf(row?.hours) };
}

interface LockedSchedules {
  provider: { name: string; active: boolean } | null;
  patient: { name: string } | null;
  hours: PracticeHours;
}

/**
 * The visit must fit the provider's day with the practice's buffer on either side (Settings → Practice)
 * and must not overlap another visit of the same patient; a 409 names the visit it runs into.
 */
async function assertVisitFits(tx: Tx, hours: PracticeHours, date: string, wanted: WantedVisit) {
  await lockSchedules(tx, wanted.providerId, wanted.patientId);
  await assertVisitFree(tx, hours, date, wanted);
}

/** assertVisitFits once the provider's and the patient's rows are locked. */
async function assertVisitFree(tx: Tx, hours: PracticeHours, date: string, wanted: WantedVisit) {
  const clash = visitClash(hours.bufferMinutes, await visitsOn(tx, date, wanted.providerId, wanted.patientId), wanted);
  if (!clash) return;
  const [names] = await tx
    .select({ provider: providers.name, patient: patients.name })
    .from(appointments)
    .innerJoin(providers, eq(providers.id, appointments.providerId))
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .where(eq(appointments.id, clash.visit.id));
  const from = minutesOf(clash.visit.time);
  const span = `from ${formatTime12(clash.visit.time)} to ${formatTime12(timeOf(from + clash.visit.minutes))} on ${formatDay(date)}`;
  if (clash.kind === 'provider') {
    const gap = hours.bufferMinutes > 0 ? ` (visits need ${hours.bufferMinutes} minutes between them)` : '';
    throw fieldError(
      409,
      'PROVIDER_BUSY',
      'time',
      `${names?.provider ?? 'The provider'} already has an appointment ${span}${gap}`,
    );
  }
  throw fieldError(
    409,
    'PATIENT_BUSY',
    'time',
    `${names?.patient ?? 'The patient'} already has an appointment with ${names?.provider ?? 'another provider'} ${span}`,
  );
}

/**
 * The times a visit can start on a day: free for the provider (buffer included) and, once known, the
 * patient. A reschedule names the appointment, whose own time does not count against it.
 */
export async function freeSlotsOn(db: Db, ctx: RequestContext, query: FreeSlotsQuery): Promise<FreeSlots> {
  assertDayInReach(query.date, ctx);
  let wanted: Omit<WantedVisit, 'time' | 'minutes'>;
  if (query.appointmentId !== undefined) {
    const [current] = await db
      .select({ providerId: appointments.providerId, patientId: appointments.patientId })
      .from(appointments)
      .where(eq(appointments.id, query.appointmentId));
    if (!current) throw fieldError(404, 'NOT_FOUND', 'appointmentId', 'no such appointment');
    wanted = { ...current, exceptId: query.appointmentId };
  } else {
    wanted = { providerId: query.providerId ?? 0, patientId: query.patientId ?? 0 };
  }
  const hours = await getPracticeHours(db);
  const booked = await visitsOn(db, query.date, wanted.providerId, wanted.patientId || null);
  return { times: freeSlots(hours, booked, wanted, clinicNow(ctx.now), query.date) };
}

/** A unique index backs the slot check, so two bookings racing for one slot cannot both win. */
function isSlotConflict(err: unknown): boolean {
  const codeOf = (e: unknown) => (typeof e === 'object' && e !== null && 'code' in e ? e.code : undefined);
  return codeOf(err) === '23505' || codeOf((err as { cause?: unknown } | null)?.cause) === '23505';
}

/** Runs a write; the loser of a race for a slot gets the same 409 as a booking refused up front. */
async function withSlotGuard<T>(
  db: Db,
  slot: () => Promise<{ providerId: number; date: string; time: string } | null>,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!isSlotConflict(err)) throw err;
    const wanted = await slot();
    const [provider] = wanted
      ? await db.select({ name: providers.name }).from(providers).where(eq(providers.id, wanted.providerId))
      : [];
    throw slotTaken(provider?.name ?? 'That provider', wanted?.date ?? '', wanted?.time ?? '');
  }
}

/** A cursor issued for one day, sent back with another: refused rather than answered with that day's rows. */
function cursorOfAnotherDay(): HttpError {
  return fieldError(400, 'VALIDATION_FAILED', 'cursor', 'was issued for another day');
}

/**
 * One page of a day's schedule, in the day's order: time, then id. Keyset-paged on the index
 * (date, time, id): `nextCursor` resumes after the page's last row, so a busy day (hundreds of visits at
 * clinic-group scale) is read a page at a time; `total`, the day's count, comes with a first page only.
 */
export async function listAppointmentsOn(
  db: Db,
  ctx: RequestContext,
  query: AppointmentDayQuery,
): Promise<AppointmentPage> {
  const day = query.date ?? today(ctx.now);
  assertDayInReach(day, ctx);
  const kinds: KeyKind[] = ['date', 'text'];
  const cursor = query.cursor ? decodeCursor(query.cursor, DAY_ORDER, 'asc', kinds) : null;
  if (cursor && cursor.values[0] !== day) throw cursorOfAnotherDay();
  // A first page carries the day's count (page-total.ts).
  const count =
    cursor || query.count === 'false'
      ? null
      : sql<number>`select count(*)::int from ${appointments} where ${appointments.date} = ${day}::date`;
  const { rows, total } = await preparedAppointments(
    db,
    and(
      sql`a.date = ${day}::date`,
      cursor ? afterCursor([sql`a.date`, sql`a.time`], sql`a.id`, kinds, 'asc', cursor) : undefined,
    ) ?? sql`true`,
    sql`a.time, a.id`,
    { limit: query.limit + 1, count },
  );
  const page = rows.slice(0, query.limit);
  // The primary policy's eligibility for the day: one statement for the page (appointments.eligibility.queries.ts).
  const eligibility = await eligibilityOfPatientsOn(
    db,
    page.map((r) => r.patientId),
    day,
  );
  const shown = page.map((r) => {
    const brief = eligibility.get(r.patientId);
    return brief ? { ...r, eligibility: brief } : r;
  });
  const last = shown[shown.length - 1];
  await recordRead(
    db,
    ctx,
    listReadEntry(
      'appointments.list.view',
      '/api/appointments',
      { ...query, date: day },
      shown.map((r) => r.patientId),
    ),
  );
  return {
    items: shown,
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor(DAY_ORDER, 'asc', { values: [last.date, last.time], id: last.id })
        : null,
    total,
  };
}

/**
 * The call list: the day's appointments as exported, with the export recorded in the audit log after
 * the read and before the answer (every export is audited, docs/audit.md).
 */
export async function exportCallList(db: Db, ctx: RequestContext, date: string): Promise<CallListRow[]> {
  assertDayInReach(date, ctx);
  // The whole day, bounded by the providers' slots: the call list is complete, not a page.
  const rows = await db
    .select({ ...columns, phone: patients.phone })
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .innerJoin(providers, eq(providers.id, appointments.providerId))
    .where(eq(appointments.date, date))
    .orderBy(...DAY_ORDER_COLUMNS);
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'appointment.export',
    resource: `call_list_${date}.csv`,
    detail: `exported the call list for ${date} (${rows.length} appointments)`,
  });
  // A call list is for calling: the phone, masked by the one policy like every other screen's.
  return rows.map((row) => Object.assign(toAppointment(row), { phone: maskText('phone', row.phone, ctx.user.role) }));
}

/** The signed-in patient's own visits: the scope comes from the session, never from the request. */
export async function listOwnAppointments(db: DbOrTx, ctx: RequestContext): Promise<Appointment[]> {
  if (ctx.user.patientId === null) return [];
  const { rows } = await preparedAppointments(
    db,
    sql`a.patient_id = ${ctx.user.patientId} and a.status <> 'Cancelled'`,
    sql`a.date, a.time, a.id`,
  );
  return rows;
}

/**
 * A status change (any value from any other, but Completed and No-Show only once the visit has started)
 * or a reschedule (new date and time, same status).
 * Either way a visit that holds its time keeps fitting the provider's day (buffer included) and the
 * patient's, and the change is audited in its transaction.
 */
export async function updateAppointment(
  db: Db,
  ctx: RequestContext,
  id: number,
  patch: AppointmentPatch,
): Promise<Appointment> {
  let wanted: { providerId: number; date: string; time: string } | null = null;
  return withSlotGuard(
    db,
    async () => wanted,
    () =>
      db.transaction(async (tx) => {
        const [current] = await tx.select().from(appointments).where(eq(appointments.id, id)).limit(1).for('update');
        // The practice's hours, read once for every check of this change.
        const hours = await getPracticeHours(tx);
        if (!current) throw new HttpError(404, 'NOT_FOUND', 'No appointment with that id.');
        const currentStatus = appointmentStatusSchema.parse(current.status);
        let detail: string;
        if (patch.status !== undefined) {
          wanted = { providerId: current.providerId, date: current.date, time: current.time };
          const problem =
            patch.status === currentStatus ? null : statusProblem(patch.status, current, clinicNow(ctx.now));
          if (problem) throw fieldError(422, 'VISIT_NOT_STARTED', 'status', problem);
          // Bringing a cancelled visit back needs its time to be free again.
          if (holdsSlot(patch.status) && !holdsSlot(currentStatus)) {
            await assertVisitFits(tx, hours, current.date, {
              ...current,
              minutes: current.durationMinutes,
              exceptId: id,
            });
          }
          await tx.update(appointments).set({ status: patch.status }).where(eq(appointments.id, id));
          detail = `status ${current.status} → ${patch.status}`;
        } else {
          const date = patch.date ?? current.date;
          const time = patch.time ?? current.time;
          wanted = { providerId: current.providerId, date, time };
          assertBookable(hours, ctx, date, time);
          if (holdsSlot(currentStatus)) {
            await assertVisitFits(tx, hours, date, {
              ...current,
              time,
              minutes: current.durationMinutes,
              exceptId: id,
            });
          }
          await tx.update(appointments).set({ date, time }).where(eq(appointments.id, id));
          detail = `rescheduled ${current.date} ${current.time} → ${date} ${time}`;
        }
        await record(tx, {
          ...actorOf(ctx),
          action: 'appointment.update',
          resource: `appointment/${id}`,
          detail,
          patientId: current.patientId,
        });
        const [row] = await baseQuery(tx).where(eq(appointments.id, id));
        if (!row) throw new Error('updated appointment vanished');
        return toAppointment(row);
      }),
  );
}

export async function createAppointment(db: Db, ctx: RequestContext, input: NewAppointment): Promise<Appointment> {
  return withSlotGuard(
    db,
    async () => input,
    () =>
      db.transaction(async (tx) => {
        // Locking the two rows is also how their existence is checked, and gives the names the answer shows;
        // the practice's hours come with them.
        const { provider, patient, hours } = await lockSchedules(tx, input.providerId, input.patientId);
        assertBookable(hours, ctx, input.date, input.time);
        if (!patient) throw fieldError(400, 'UNKNOWN_PATIENT', 'patientId', 'no such patient');
        if (!provider?.active) throw fieldError(400, 'UNKNOWN_PROVIDER', 'providerId', 'no such provider');
        const { appointmentMinutes } = hours;
        await assertVisitFree(tx, hours, input.date, { ...input, minutes: appointmentMinutes });
        const [created] = await tx
          .insert(appointments)
          .values({ ...input, durationMinutes: appointmentMinutes, status: 'Scheduled' })
          .returning({ id: appointments.id });
        if (!created) throw new Error('appointment insert returned nothing');
        await record(tx, {
          ...actorOf(ctx),
          action: 'appointment.create',
          resource: `appointment/${created.id}`,
          detail: `booked ${input.date} ${input.time}`,
          patientId: input.patientId,
        });
        return {
          id: created.id,
          patientId: input.patientId,
          patient: patient.name,
          providerId: input.providerId,
          provider: provider.name,
          reason: input.reason,
          date: input.date,
          time: input.time,
          status: 'Scheduled',
        };
      }),
  );
}

/** Global search: appointments whose patient or provider name contains the text, newest first. */
export async function searchAppointmentsBrief(db: Db, _ctx: RequestContext, text: string, limit: number) {
  const pattern = containsPattern(text);
  return db
    .select({
      id: appointments.id,
      patient: patients.name,
      provider: providers.name,
      date: appointments.date,
      time: appointments.time,
      // For the search's audit entry (the patients it showed); the route leaves it out of the answer.
      patientId: appointments.patientId,
    })
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .innerJoin(providers, eq(providers.id, appointments.providerId))
    .where(or(ilike(patients.name, pattern), ilike(providers.name, pattern)))
    .orderBy(desc(appointments.date), asc(appointments.time), asc(appointments.id))
    .limit(limit);
}

/** Dashboard: the appointments on one day, counted per status by the database. */
export async function countAppointmentsByStatusOn(db: Db, date: string): Promise<{ status: string; count: number }[]> {
  const result = await db.execute<{ counts: { status: string; count: number }[] }>(
    sql`select ${appointmentStatusCountsOnSql(date)} as counts`,
  );
  return result.rows[0]?.counts ?? [];
}

/**
 * countAppointmentsByStatusOn as a scalar subquery (a JSON array of { status, count }, by status; one day's
 * appointments, found by the date index), for a caller that gathers several figures in one statement.
 */
export function appointmentStatusCountsOnSql(date: string): SQL<{ status: string; count: number }[]> {
  return sql`(select coalesce(json_agg(json_build_object('status', status, 'count', count) order by status), '[]')
    from (select ${appointments.status} as status, count(*)::int as count from ${appointments}
      where ${appointments.date} = ${date} group by ${appointments.status}) counted)`;
}
