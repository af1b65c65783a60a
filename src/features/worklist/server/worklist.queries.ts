import { and, desc, eq, gt, lt, notExists, notInArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { today } from '@/shared/api';
import { appointments } from '@/features/appointments/server/appointments.table';
import { record } from '@/features/audit/server/audit.queries';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import type { RequestContext } from '@/server/context';
import type { Db } from '@/server/db/types';
import { compareFollowUps, followUpPriority, recommendedAction } from '../worklist.rules';
import type { OverdueFollowUp, WorklistExportAudit } from '../worklist.schema';
import { encounters } from './worklist.table';

/** Appointment statuses that do not count as a visit booked: the patient will not be (or was not) seen. */
const NOT_A_VISIT = ['Cancelled', 'No-Show'];

/**
 * DECISIONS 4: an encounter is an overdue follow-up when its follow-up due date is before today (the
 * server's calendar day) and no later visit exists for the patient: no appointment dated after the
 * encounter that is not Cancelled or No-Show, and no later encounter (a visit that already happened).
 * Only the patient's most recent such encounter is listed, so the list counts patients.
 * Priority and action come from worklist.rules.ts (docs/worklist.md); the list is ordered by priority,
 * then the longest overdue first.
 */
export async function listOverdueFollowUps(db: Db, ctx: RequestContext): Promise<OverdueFollowUp[]> {
  const day = today(ctx.now);
  const later = alias(encounters, 'later_encounter');
  return db.transaction(async (tx) => {
    const rows = await tx
      .selectDistinctOn([encounters.patientId], {
        encounterId: encounters.id,
        patientId: encounters.patientId,
        patientName: patients.name,
        providerName: providers.name,
        encounterDate: encounters.encounterDate,
        encounterType: encounters.encounterType,
        chiefComplaint: encounters.chiefComplaint,
        diagnosis: encounters.diagnosis,
        daysOverdue: sql<number>`(${day}::date - ${encounters.followUpDue})::int`,
      })
      .from(encounters)
      .innerJoin(patients, eq(patients.id, encounters.patientId))
      .innerJoin(providers, eq(providers.id, encounters.providerId))
      .where(
        and(
          lt(encounters.followUpDue, day),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(appointments)
              .where(
                and(
                  eq(appointments.patientId, encounters.patientId),
                  gt(appointments.date, encounters.encounterDate),
                  notInArray(appointments.status, NOT_A_VISIT),
                ),
              ),
          ),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(later)
              .where(and(eq(later.patientId, encounters.patientId), gt(later.encounterDate, encounters.encounterDate))),
          ),
        ),
      )
      .orderBy(encounters.patientId, desc(encounters.encounterDate), desc(encounters.id));

    // The list names patients with their diagnoses: reading it is a PHI read, audited with the read.
    await record(tx, {
      actor: ctx.user.email,
      actorUserId: ctx.user.id,
      actorRole: ctx.user.role,
      action: 'worklist.view',
      resource: 'worklist/overdue-followups',
      detail: `listed ${rows.length} overdue follow-ups`,
      at: ctx.now,
    });

    return rows
      .map(({ patientId: _patientId, ...row }) => {
        const priority = followUpPriority(row.diagnosis, row.daysOverdue);
        return { ...row, priority, recommendedAction: recommendedAction(priority) };
      })
      .sort(compareFollowUps);
  });
}

/** The CSV of the (filtered) worklist is built in the browser; this records that it was exported. */
export async function recordWorklistExport(db: Db, ctx: RequestContext, input: WorklistExportAudit): Promise<void> {
  const filters = [input.priority && `priority ${input.priority}`, input.provider && `provider ${input.provider}`]
    .filter(Boolean)
    .join(', ');
  await db.transaction((tx) =>
    record(tx, {
      actor: ctx.user.email,
      actorUserId: ctx.user.id,
      actorRole: ctx.user.role,
      action: 'export.csv',
      resource: 'overdue-followups',
      detail: `overdue-followups.csv: ${input.rows} rows${filters ? ` (${filters})` : ''}`,
      at: ctx.now,
    }),
  );
}
