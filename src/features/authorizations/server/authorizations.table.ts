import { sql } from 'drizzle-orm';
import { pgTable, integer, text, date, timestamp, index, check } from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import { AUTHORIZATION_STATUSES } from '../authorizations.schema';
import { PAYERS } from '@/features/claims/claims.schema';
import { patients } from '@/features/patients/server/patients.table';
import { users } from '@/features/auth/server/auth.table';
import { practiceNow } from '@/shared/practice-zone';

/** Prior authorizations; age in days is computed from requested_on, never stored. */
export const authorizations = pgTable(
  'authorizations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    service: text('service').notNull(),
    procedureCode: text('procedure_code').notNull(),
    payer: text('payer').notNull(),
    status: text('status').notNull().default('Pending'),
    requestedOn: date('requested_on', { mode: 'string' }).notNull(),
    decidedOn: date('decided_on', { mode: 'string' }),
    decidedBy: integer('decided_by').references(() => users.id),
    authNumber: text('auth_number'),
    approvedUnits: integer('approved_units'),
    validFrom: date('valid_from', { mode: 'string' }),
    validTo: date('valid_to', { mode: 'string' }),
    denialReason: text('denial_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
  },
  (t) => [
    check('authorizations_status_check', oneOf(t.status, AUTHORIZATION_STATUSES)),
    check('authorizations_payer_check', oneOf(t.payer, PAYERS)),
    check(
      'authorizations_valid_dates_check',
      sql`${t.validFrom} is null or ${t.validTo} is null or ${t.validFrom} <= ${t.validTo}`,
    ),
    // Keyset paging (docs/paging.md): one (key…, id) index per sort of the list, read forwards or backwards.
    index('authorizations_status_idx').on(t.status, t.requestedOn, t.id),
    index('authorizations_patient_idx').on(t.patientId),
    index('authorizations_service_id_idx').on(t.service, t.id),
    index('authorizations_payer_id_idx').on(t.payer, t.id),
    // Age: decided requests have a fixed age; pending ones age with today (newest request = youngest).
    index('authorizations_decided_age_idx')
      .on(sql`(${t.decidedOn} - ${t.requestedOn})`, t.id)
      .where(sql.raw('decided_on is not null')),
    index('authorizations_pending_requested_idx')
      .on(t.requestedOn.desc().nullsFirst(), t.id)
      .where(sql.raw('decided_on is null')),
    // At Risk (pending, older than AT_RISK_AFTER_DAYS) counted from the index alone: both dates an age needs
    // are in it, so the Authorizations tiles' one row-reading count reads no rows.
    index('authorizations_pending_age_idx').on(t.requestedOn, t.decidedOn).where(sql.raw("status = 'Pending'")),
    index('authorizations_service_trgm_idx').using('gin', sql`${t.service} gin_trgm_ops`),
  ],
);
