import { and, asc, desc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import { today } from '@/shared/api';
import { record } from '@/features/audit/server/audit.queries';
import { getPracticeHours } from '@/features/settings/server/settings.queries';
import { slotProblem } from '@/features/settings/practice.schema';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import type { RequestContext } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import { containsPattern } from '@/server/db/like';
import { HttpError } from '@/server/plugins/errors';
import {
  appointmentStatusSchema,
  formatTime12,
  type Appointment,
  type AppointmentPatch,
  type NewAppointment,
} from '../appointments.schema';
import { appointments } from './appointments.table';

const LIVE_STATUSES = sql`('Cancelled', 'Rescheduled', 'No-Show')`;

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

function toAppointment(row: Omit<Appointment, 'status'> & { status: string }): Appointment {
  return { ...row, status: appointmentStatusSchema.parse(row.status) };
}

function baseQuery(db: Db | Tx) {
  return db
    .select(columns)
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .innerJoin(providers, eq(providers.id, appointments.providerId));
}

export async function listAppointmentsOn(
  db: Db,
  ctx: RequestContext,
  date: string | undefined,
): Promise<Appointment[]> {
  const rows = await baseQuery(db)
    .where(eq(appointments.date, date ?? today(ctx.now)))
    .orderBy(asc(appointments.time), asc(providers.name), asc(appointments.id));
  return rows.map(toAppointment);
}

/** The signed-in patient's own visits: the scope comes from the session, never from the request. */
export async function listOwnAppointments(db: Db, ctx: RequestContext): Promise<Appointment[]> {
  if (ctx.user.patientId === null) return [];
  const rows = await baseQuery(db)
    .where(and(eq(appointments.patientId, ctx.user.patientId), ne(appointments.status, 'Cancelled')))
    .orderBy(asc(appointments.date), asc(appointments.time));
  return rows.map(toAppointment);
}

async function assertSlotFree(tx: Tx, providerId: number, date: string, time: string, exceptId?: number) {
  const [clash] = await tx
    .select({ id: appointments.id, provider: providers.name })
    .from(appointments)
    .innerJoin(providers, eq(providers.id, appointments.providerId))
    .where(
      and(
        eq(appointments.providerId, providerId),
        eq(appointments.date, date),
        eq(appointments.time, time),
        sql`${appointments.status} not in ${LIVE_STATUSES}`,
        exceptId === undefined ? undefined : ne(appointments.id, exceptId),
      ),
    )
    .limit(1);
  if (clash) {
    throw new HttpError(
      409,
      'DOUBLE_BOOKING',
      `time: ${clash.provider} already has an appointment on ${date} at ${formatTime12(time)}`,
      { fields: [{ field: 'time', message: `${clash.provider} is already booked at that time` }] },
    );
  }
}

/** A unique index backs the slot check, so two bookings racing for one slot cannot both win. */
function isSlotConflict(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && (err as { code: string }).code === '23505';
}

async function withSlotGuard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    if (isSlotConflict(err) || isSlotConflict(cause)) {
      throw new HttpError(409, 'DOUBLE_BOOKING', 'time: that provider is already booked at that time', {
        fields: [{ field: 'time', message: 'that provider is already booked at that time' }],
      });
    }
    throw err;
  }
}

export async function updateAppointment(
  db: Db,
  ctx: RequestContext,
  id: number,
  patch: AppointmentPatch,
): Promise<Appointment> {
  return withSlotGuard(() =>
    db.transaction(async (tx) => {
      const [current] = await tx.select().from(appointments).where(eq(appointments.id, id)).limit(1).for('update');
      if (!current) throw new HttpError(404, 'NOT_FOUND', 'No appointment with that id.');
      let detail: string;
      if (patch.status !== undefined) {
        await tx.update(appointments).set({ status: patch.status }).where(eq(appointments.id, id));
        detail = `status ${current.status} → ${patch.status}`;
      } else {
        const date = patch.date ?? current.date;
        const time = patch.time ?? current.time;
        const problem = slotProblem(await getPracticeHours(tx), date, time);
        if (problem)
          throw new HttpError(400, 'OUTSIDE_HOURS', `time: ${problem}`, {
            fields: [{ field: 'time', message: problem }],
          });
        await assertSlotFree(tx, current.providerId, date, time, id);
        await tx.update(appointments).set({ date, time }).where(eq(appointments.id, id));
        detail = `rescheduled ${current.date} ${current.time} → ${date} ${time}`;
      }
      await record(tx, {
        actor: ctx.user.email,
        actorUserId: ctx.user.id,
        actorRole: ctx.user.role,
        action: 'appointment.update',
        resource: `appointment/${id}`,
        detail,
        patientId: current.patientId,
        at: ctx.now,
      });
      const [row] = await baseQuery(tx).where(eq(appointments.id, id));
      if (!row) throw new Error('updated appointment vanished');
      return toAppointment(row);
    }),
  );
}

export async function createAppointment(db: Db, ctx: RequestContext, input: NewAppointment): Promise<Appointment> {
  return withSlotGuard(() =>
    db.transaction(async (tx) => {
      if (input.date < today(ctx.now)) {
        throw new HttpError(400, 'IN_THE_PAST', 'date: cannot be in the past', {
          fields: [{ field: 'date', message: 'cannot be in the past' }],
        });
      }
      const problem = slotProblem(await getPracticeHours(tx), input.date, input.time);
      if (problem)
        throw new HttpError(400, 'OUTSIDE_HOURS', `time: ${problem}`, {
          fields: [{ field: 'time', message: problem }],
        });
      const [patient] = await tx.select({ id: patients.id }).from(patients).where(eq(patients.id, input.patientId));
      if (!patient)
        throw new HttpError(400, 'UNKNOWN_PATIENT', 'patientId: no such patient', {
          fields: [{ field: 'patientId', message: 'no such patient' }],
        });
      const [provider] = await tx
        .select({ id: providers.id })
        .from(providers)
        .where(and(eq(providers.id, input.providerId), eq(providers.active, true)));
      if (!provider)
        throw new HttpError(400, 'UNKNOWN_PROVIDER', 'providerId: no such provider', {
          fields: [{ field: 'providerId', message: 'no such provider' }],
        });
      await assertSlotFree(tx, input.providerId, input.date, input.time);
      const [created] = await tx
        .insert(appointments)
        .values({ ...input, status: 'Scheduled' })
        .returning({ id: appointments.id });
      if (!created) throw new Error('appointment insert returned nothing');
      await record(tx, {
        actor: ctx.user.email,
        actorUserId: ctx.user.id,
        actorRole: ctx.user.role,
        action: 'appointment.create',
        resource: `appointment/${created.id}`,
        detail: `booked ${input.date} ${input.time}`,
        patientId: input.patientId,
        at: ctx.now,
      });
      const [row] = await baseQuery(tx).where(eq(appointments.id, created.id));
      if (!row) throw new Error('created appointment vanished');
      return toAppointment(row);
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
  return db
    .select({ status: appointments.status, count: sql<number>`count(*)::int` })
    .from(appointments)
    .where(eq(appointments.date, date))
    .groupBy(appointments.status)
    .orderBy(asc(appointments.status));
}
