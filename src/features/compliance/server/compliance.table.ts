import { pgTable, integer, text, date, check } from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import { GAP_STATUSES, HIPAA_ITEM_STATUSES, SAFEGUARDS, WCAG_LEVELS, WCAG_STATUSES } from '../compliance.schema';

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

/**
 * The practice's HIPAA Security Rule mock audit: one row per standard or implementation specification
 * (45 CFR 164.308–164.312). Part of the compliance programme, not demo data: a reset keeps it.
 */
export const hipaaAuditItems = pgTable(
  'hipaa_audit_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The CFR citation, e.g. '164.312(b)'; unique so the programme is seeded once. */
    reference: text('reference').notNull().unique(),
    safeguard: text('safeguard').notNull(),
    requirement: text('requirement').notNull(),
    status: text('status').notNull(),
    evidence: text('evidence').notNull(),
  },
  (t) => [
    check('hipaa_audit_items_safeguard_check', oneOf(t.safeguard, SAFEGUARDS)),
    check('hipaa_audit_items_status_check', oneOf(t.status, HIPAA_ITEM_STATUSES)),
  ],
);

/** The WCAG 2.1 checklist of the product's own screens (criterion, level, status, note). */
export const wcagChecks = pgTable(
  'wcag_checks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** e.g. '1.4.3'; unique so the checklist is seeded once. */
    criterion: text('criterion').notNull().unique(),
    title: text('title').notNull(),
    level: text('level').notNull(),
    status: text('status').notNull(),
    note: text('note').notNull(),
  },
  (t) => [
    check('wcag_checks_level_check', oneOf(t.level, WCAG_LEVELS)),
    check('wcag_checks_status_check', oneOf(t.status, WCAG_STATUSES)),
  ],
);
