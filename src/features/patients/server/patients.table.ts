import { sql } from 'drizzle-orm';
import { pgTable, integer, text, date, timestamp, index } from 'drizzle-orm/pg-core';

export const patients = pgTable(
  'patients',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    mrn: text('mrn').notNull().unique(),
    dob: date('dob', { mode: 'string' }).notNull(),
    phone: text('phone').notNull(),
    email: text('email'),
    allergies: text('allergies')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    meds: text('meds')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    notes: text('notes').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('patients_name_idx').on(t.name),
    // "Name contains" searches (patients list, Claims search by patient) use this on a large clinic.
    index('patients_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);
