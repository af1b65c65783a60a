import { sql } from 'drizzle-orm';
import { pgTable, integer, text, date, boolean, index, check } from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import { ENCOUNTER_TYPES } from '../worklist.schema';
import { RISK_CLASSES } from '../worklist.rules';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';

/** Completed visits; follow_up_due drives the overdue follow-up worklist. */
export const encounters = pgTable(
  'encounters',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    encounterDate: date('encounter_date', { mode: 'string' }).notNull(),
    encounterType: text('encounter_type').notNull(),
    chiefComplaint: text('chief_complaint').notNull(),
    diagnosis: text('diagnosis')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    followUpDue: date('follow_up_due', { mode: 'string' }),
    /** Whether every charge of the visit reached a claim correctly (Charge Capture Accuracy). */
    chargesCaptured: boolean('charges_captured').notNull().default(true),
  },
  (t) => [
    check('encounters_type_check', oneOf(t.encounterType, ENCOUNTER_TYPES)),
    // The worklist pages by follow-up due date (docs/paging.md), for all providers or for one.
    index('encounters_follow_up_id_idx').on(t.followUpDue, t.id),
    index('encounters_provider_follow_up_idx').on(t.providerId, t.followUpDue, t.id),
    index('encounters_patient_idx').on(t.patientId, t.encounterDate),
    // Charge Capture Accuracy (features/analytics) counts the encounters of a period.
    index('encounters_date_idx').on(t.encounterDate),
  ],
);

/**
 * The follow-ups still OPEN (docs/worklist.md "Stored open follow-ups"): per patient, the encounters of the
 * most recent encounter date that ask for a follow-up, while no appointment dated after that date is booked
 * other than Cancelled or No-Show. Nothing here depends on the day: whether a row is overdue, and its
 * priority, follow from follow_up_due and risk_class on the day the list is read. Written only by the
 * database (triggers on encounters and appointments, migration worklist_open_follow_ups), in the same
 * transaction as each write; `open_follow_ups_rebuild()` recomputes it from scratch.
 */
export const openFollowUps = pgTable(
  'open_follow_ups',
  {
    encounterId: integer('encounter_id').primaryKey(),
    patientId: integer('patient_id').notNull(),
    providerId: integer('provider_id').notNull(),
    encounterDate: date('encounter_date', { mode: 'string' }).notNull(),
    followUpDue: date('follow_up_due', { mode: 'string' }).notNull(),
    /** worklist.rules.ts riskClassOf(diagnosis), by the SQL function worklist_risk_class (tested equal). */
    riskClass: text('risk_class').notNull(),
    /**
     * The earliest follow-up due date among the patient's open rows with a higher encounter id (later
     * visits of the same day), null when there are none. Of one day's visits the last one already due is
     * listed, so the row is listed on a day `d` when follow_up_due < d and (superseded_from is null or
     * superseded_from >= d).
     */
    supersededFrom: date('superseded_from', { mode: 'string' }),
  },
  (t) => [
    check('open_follow_ups_risk_class_check', oneOf(t.riskClass, RISK_CLASSES)),
    // Each priority is at most three ranges of (risk class, due); the daysOverdue sort walks (due, id);
    // the same two per provider for the provider filter.
    index('open_follow_ups_risk_due_idx').on(t.riskClass, t.followUpDue, t.encounterId),
    index('open_follow_ups_due_idx').on(t.followUpDue, t.encounterId),
    index('open_follow_ups_provider_risk_due_idx').on(t.providerId, t.riskClass, t.followUpDue, t.encounterId),
    index('open_follow_ups_provider_due_idx').on(t.providerId, t.followUpDue, t.encounterId),
    // A triggered refresh replaces a patient's rows; a listed row checks its patient's other open rows.
    index('open_follow_ups_patient_idx').on(t.patientId, t.encounterId),
  ],
);
