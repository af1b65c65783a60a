import { pgTable, integer, text, date, check } from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';

export const SAFEGUARDS = ['Administrative', 'Physical', 'Technical'] as const;
export const GAP_STATUSES = ['Open', 'In Progress', 'Closed'] as const;

/** HIPAA compliance gaps: data, edited by admins; the compliance scores are computed from them. */
export const complianceGaps = pgTable(
  'compliance_gaps',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    safeguard: text('safeguard').notNull(),
    severity: text('severity').notNull(),
    status: text('status').notNull().default('Open'),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    owner: text('owner').notNull(),
  },
  (t) => [
    check('compliance_gaps_safeguard_check', oneOf(t.safeguard, SAFEGUARDS)),
    check('compliance_gaps_status_check', oneOf(t.status, GAP_STATUSES)),
    check('compliance_gaps_severity_check', oneOf(t.severity, ['High', 'Medium', 'Low'])),
  ],
);
