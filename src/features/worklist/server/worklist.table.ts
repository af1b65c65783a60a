import { sql } from 'drizzle-orm';
import { pgTable, integer, text, date, boolean, index, check } from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import { ENCOUNTER_TYPES } from '../worklist.schema';
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
