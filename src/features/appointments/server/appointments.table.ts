import { sql } from 'drizzle-orm';
import { pgTable, integer, text, date, timestamp, index, check, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import { APPOINTMENT_STATUSES } from '../appointments.schema';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import { practiceNow } from '@/shared/practice-zone';

export const appointments = pgTable(
  'appointments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    reason: text('reason').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    time: text('time').notNull(),
    /** The visit's length, the practice's appointment length when it was booked (Settings → Practice). */
    durationMinutes: integer('duration_minutes').notNull().default(30),
    status: text('status').notNull().default('Scheduled'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
  },
  (t) => [
    check('appointments_status_check', oneOf(t.status, APPOINTMENT_STATUSES)),
    check('appointments_duration_check', sql`${t.durationMinutes} between 5 and 480`),
    check('appointments_time_check', sql`${t.time} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    // A day's schedule in its order (time, then id), so keyset paging resumes inside a day by index.
    index('appointments_date_time_id_idx').on(t.date, t.time, t.id),
    index('appointments_patient_idx').on(t.patientId, t.date),
    // A provider cannot hold two live bookings at the same slot; cancelled ones free the slot.
    uniqueIndex('appointments_provider_slot_uq')
      .on(t.providerId, t.date, t.time)
      .where(sql`status not in ('Cancelled', 'Rescheduled', 'No-Show')`),
  ],
);
