import { sql } from 'drizzle-orm';
import { pgTable, integer, text, date, timestamp, index, check } from 'drizzle-orm/pg-core';
import { practiceNow } from '@/shared/practice-zone';

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
    /** Administrative sex as payers take it (X12 DMG03): F, M or U (unknown). */
    sex: text('sex').notNull().default('U'),
    /** Home address (X12 837P N3/N4 of the subscriber or patient); null parts are not yet known. */
    addressLine1: text('address_line1'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    /**
     * The earliest 'Scheduled' appointment on or after the clinic's today: written only by the database
     * (the appointments triggers and patients_next_visit_advance, migration "patients_next_visit"), so
     * the Patients list sorts and pages on it through an index. docs/paging.md "Next visit".
     */
    nextVisit: date('next_visit', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
  },
  (t) => [
    check('patients_sex_check', sql`${t.sex} in ('F', 'M', 'U')`),
    check('patients_state_check', sql`${t.state} is null or ${t.state} ~ '^[A-Z]{2}$'`),
    check('patients_zip_check', sql`${t.zip} is null or ${t.zip} ~ '^[0-9]{5}([0-9]{4})?$'`),
    // Keyset paging (docs/paging.md): each sort of the Patients list is (key…, name, id) in one direction, so
    // one index per sort serves any page; the Claims list walks patients by (name, id) too.
    index('patients_name_id_idx').on(t.name, t.id),
    index('patients_dob_name_id_idx').on(t.dob, t.name, t.id),
    index('patients_dob_year_name_id_idx').on(sql`(extract(year from ${t.dob}))`, t.name, t.id),
    // Next visit: no visit sorts last in both directions (infinity ascending, -infinity descending).
    index('patients_next_visit_asc_idx').on(sql`(coalesce(${t.nextVisit}, 'infinity'::date))`, t.name, t.id),
    index('patients_next_visit_desc_idx').on(sql`(coalesce(${t.nextVisit}, '-infinity'::date))`, t.name, t.id),
    // "Contains" searches (patients list, Claims search by patient) use these on a large clinic.
    index('patients_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('patients_mrn_trgm_idx').using('gin', sql`${t.mrn} gin_trgm_ops`),
    index('patients_phone_trgm_idx').using('gin', sql`${t.phone} gin_trgm_ops`),
    // Registration refuses an address already on a record: one probe per public request, never a scan.
    index('patients_email_lower_idx').on(sql`lower(${t.email})`),
    // A new record's MRN is refused when one differs only in case (and accounts link by MRN): one probe per
    // write, where a scan of a large clinic's patients took ~85 ms under load.
    index('patients_mrn_lower_idx').on(sql`lower(${t.mrn})`),
    index('patients_phone_digits_trgm_idx').using('gin', sql`regexp_replace(${t.phone}, '\\D', '', 'g') gin_trgm_ops`),
  ],
);
