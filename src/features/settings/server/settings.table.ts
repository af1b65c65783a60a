import { sql } from 'drizzle-orm';
import { pgTable, integer, text, boolean, jsonb, check } from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import { FONT_SIZES } from '../settings.display';
import { DEFAULT_PRACTICE_LETTERHEAD } from '../practice.schema';
import { users } from '@/features/auth/server/auth.table';

export const userSettings = pgTable(
  'user_settings',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    highContrast: boolean('high_contrast').notNull().default(false),
    fontSize: text('font_size').notNull().default('medium'),
    mfaEnabled: boolean('mfa_enabled').notNull().default(false),
    /**
     * A patient's or guest's own notification preferences (they cannot change the practice's); null means
     * the product's defaults. Staff edit the practice's settings instead (practice_settings.notifications).
     */
    notifications: jsonb('notifications'),
  },
  (t) => [check('user_settings_font_size_check', oneOf(t.fontSize, FONT_SIZES))],
);

/** Practice-wide settings (one row per practice; this deployment runs practice 1). */
export const practiceSettings = pgTable(
  'practice_settings',
  {
    practiceId: integer('practice_id').primaryKey(),
    appointmentMinutes: integer('appointment_minutes').notNull().default(30),
    bufferMinutes: integer('buffer_minutes').notNull().default(10),
    workdayStart: text('workday_start').notNull().default('08:00'),
    workdayEnd: text('workday_end').notNull().default('17:00'),
    workingDays: text('working_days')
      .array()
      .notNull()
      .default(sql`'{Mon,Tue,Wed,Thu,Fri}'::text[]`),
    notifications: jsonb('notifications')
      .notNull()
      .default(sql`'{}'::jsonb`),
    integrations: jsonb('integrations')
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** IANA zone of the practice's calendar day (shared/practice-zone.ts); null: the server's own zone. */
    timeZone: text('time_zone'),
    /** How the practice names itself and is reached: the letterhead of every printed statement. */
    name: text('name').notNull().default(DEFAULT_PRACTICE_LETTERHEAD.name),
    address: text('address').notNull().default(DEFAULT_PRACTICE_LETTERHEAD.address),
    phone: text('phone').notNull().default(DEFAULT_PRACTICE_LETTERHEAD.phone),
    /**
     * The practice as the billing provider of its claims (X12 837P loop 2010AA): legal name, group NPI,
     * employer identification number, taxonomy and pay-to address. Null until an admin enters them; the
     * scrubber holds every claim back while they are missing (docs/claims.md).
     */
    billingName: text('billing_name'),
    billingNpi: text('billing_npi'),
    taxId: text('tax_id'),
    taxonomyCode: text('taxonomy_code'),
    billingAddressLine1: text('billing_address_line1'),
    billingCity: text('billing_city'),
    billingState: text('billing_state'),
    billingZip: text('billing_zip'),
    /**
     * The clearinghouse the practice sends its 837P files to (docs/x12-837.md): its name and the id it is known
     * by in the ISA/GS envelope and loop 1000B, the submitter id it assigned the practice (null: the practice's
     * EIN, ISA05 30), and whether files are test (T) or production (P). A new practice sends test files until
     * an admin switches to production.
     */
    ediSubmitterId: text('edi_submitter_id'),
    ediReceiverName: text('edi_receiver_name'),
    ediReceiverId: text('edi_receiver_id'),
    ediUsage: text('edi_usage').notNull().default('T'),
  },
  (t) => [
    check('practice_settings_duration_check', sql`${t.appointmentMinutes} in (15, 30, 45, 60)`),
    check('practice_settings_buffer_check', sql`${t.bufferMinutes} in (0, 5, 10, 15)`),
    check('practice_settings_billing_npi_check', sql`${t.billingNpi} is null or ${t.billingNpi} ~ '^[12][0-9]{9}$'`),
    check('practice_settings_tax_id_check', sql`${t.taxId} is null or ${t.taxId} ~ '^[0-9]{9}$'`),
    check('practice_settings_edi_usage_check', sql`${t.ediUsage} in ('T', 'P')`),
    check(
      'practice_settings_edi_ids_check',
      sql`(${t.ediSubmitterId} is null or ${t.ediSubmitterId} ~ '^[A-Za-z0-9]{2,15}$') and (${t.ediReceiverId} is null or ${t.ediReceiverId} ~ '^[A-Za-z0-9]{2,15}$')`,
    ),
    check(
      'practice_settings_taxonomy_check',
      sql`${t.taxonomyCode} is null or ${t.taxonomyCode} ~ '^[0-9]{3}[0-9A-Z]{6}X$'`,
    ),
  ],
);
