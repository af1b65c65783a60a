import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { patients } from '@/features/patients/server/patients.table';
import { payers } from '@/features/payers/server/payers.table';
import { oneOf } from '@/server/db/sql-helpers';
import {
  MEDICARE_SECONDARY_TYPES,
  SUBSCRIBER_RELATIONSHIPS,
  type MedicareSecondaryType,
  type SubscriberRelationship,
} from '../coverage.schema';
import { practiceNow } from '@/shared/practice-zone';

/**
 * A patient's insurance policies over time (the payer's view of the patient: X12 837P loops 2000B/2010BA
 * and, when the patient is not the subscriber, 2000C/2010CA). A claim names the coverage it is billed to.
 */
export const coverages = pgTable(
  'coverages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    payer: text('payer')
      .notNull()
      .references(() => payers.name),
    /** 1 primary, 2 secondary, 3 tertiary. */
    priority: integer('priority').notNull().default(1),
    memberId: text('member_id').notNull(),
    groupNumber: text('group_number'),
    relationship: text('relationship').$type<SubscriberRelationship>().notNull().default('self'),
    subscriberName: text('subscriber_name'),
    subscriberDob: date('subscriber_dob', { mode: 'string' }),
    effectiveOn: date('effective_on', { mode: 'string' }).notNull(),
    endOn: date('end_on', { mode: 'string' }),
    /** Why Medicare pays after another payer (X12 SBR05), on a Medicare policy that is not primary. */
    medicareSecondaryType: text('medicare_secondary_type').$type<MedicareSecondaryType>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
  },
  (t) => [
    index('coverages_patient_idx').on(t.patientId, t.priority),
    check('coverages_priority_check', sql`${t.priority} between 1 and 3`),
    check('coverages_relationship_check', oneOf(t.relationship, SUBSCRIBER_RELATIONSHIPS)),
    check('coverages_member_id_check', sql`length(btrim(${t.memberId})) between 1 and 80`),
    // A dependent's policy names its holder: the 837P's subscriber loop needs their name and birth date.
    check(
      'coverages_subscriber_check',
      sql`${t.relationship} = 'self' or (${t.subscriberName} is not null and ${t.subscriberDob} is not null)`,
    ),
    check('coverages_dates_check', sql`${t.endOn} is null or ${t.endOn} >= ${t.effectiveOn}`),
    check(
      'coverages_medicare_secondary_type_check',
      sql`${t.medicareSecondaryType} is null or (${oneOf(t.medicareSecondaryType, MEDICARE_SECONDARY_TYPES)} and ${t.priority} > 1)`,
    ),
  ],
);
