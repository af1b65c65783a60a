import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf } from '@/server/db/sql-helpers';
import { users } from '@/features/auth/server/auth.table';
import { patients } from '@/features/patients/server/patients.table';
import { WORK_CATEGORIES, WORK_OUTCOMES, WORK_PRIORITIES, WORK_SOURCES } from '../workqueue.schema';
import { practiceNow } from '@/shared/practice-zone';

/**
 * What needs a person (docs/work-queue.md): a denial, a claim that does not balance or match, a 277CA
 * rejection, a scrubber hold. Each carries what the list shows (account number, payer, patient) so the queue
 * reads no claim: the work queue comes before claims in the feature order, so that claims (the scrubber, the
 * acknowledgements) can open items. claim_id's foreign key to claims is declared in the migration for that
 * reason (drizzle/0035_remittance_ledger_rules.sql).
 */
export const workItems = pgTable(
  'work_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    source: text('source').notNull(),
    /** Unique among the source's open items: a re-import or re-scrub opens no second item. */
    sourceKey: text('source_key').notNull(),
    claimId: integer('claim_id'),
    patientId: integer('patient_id').references(() => patients.id, { onDelete: 'cascade' }),
    /** The claim's patient control number, or CLP01 as the payer sent it when it matched no claim. */
    accountNumber: text('account_number').notNull(),
    payer: text('payer').notNull(),
    category: text('category').notNull(),
    /** The CARC with its group, e.g. CO-197; null when none applies (a scrubber hold, an unmatched claim). */
    carc: text('carc'),
    reason: text('reason').notNull(),
    dollarsAtRiskCents: integer('dollars_at_risk_cents').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    priority: text('priority').notNull(),
    assigneeId: integer('assignee_id').references(() => users.id),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
    openedBy: integer('opened_by').references(() => users.id),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: integer('resolved_by').references(() => users.id),
    outcome: text('outcome'),
    resolutionNote: text('resolution_note'),
  },
  (t) => [
    check('work_items_source_check', oneOf(t.source, WORK_SOURCES)),
    check('work_items_category_check', oneOf(t.category, WORK_CATEGORIES)),
    check('work_items_priority_check', oneOf(t.priority, WORK_PRIORITIES)),
    check('work_items_outcome_check', sql`${t.outcome} is null or ${oneOf(t.outcome, WORK_OUTCOMES)}`),
    check('work_items_resolved_check', sql`(${t.resolvedAt} is null) = (${t.outcome} is null)`),
    check('work_items_dollars_check', sql`${t.dollarsAtRiskCents} >= 0`),
    uniqueIndex('work_items_open_source_uq')
      .on(t.source, t.sourceKey)
      .where(sql`${t.resolvedAt} is null`),
    // The queue's two orders over open items (keyset paging, docs/paging.md; dollars read backwards, most first).
    index('work_items_open_due_idx')
      .on(t.dueOn, t.id)
      .where(sql`${t.resolvedAt} is null`),
    index('work_items_open_dollars_idx')
      .on(t.dollarsAtRiskCents, t.id)
      .where(sql`${t.resolvedAt} is null`),
    index('work_items_claim_idx').on(t.claimId),
    index('work_items_assignee_idx').on(t.assigneeId),
  ],
);

/** Notes on an item, in order; kept with who wrote them. */
export const workItemNotes = pgTable(
  'work_item_notes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workItemId: integer('work_item_id')
      .notNull()
      .references(() => workItems.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow().$defaultFn(practiceNow),
  },
  (t) => [index('work_item_notes_item_idx').on(t.workItemId, t.id)],
);

/**
 * Auto-assignment (admin-maintained): a new item goes to the rule of its payer and category, else of its payer,
 * else of its category, else stays unassigned. A null payer or category matches any.
 */
export const workAssignmentRules = pgTable(
  'work_assignment_rules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    payer: text('payer'),
    category: text('category'),
    assigneeId: integer('assignee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    check('work_assignment_rules_category_check', sql`${t.category} is null or ${oneOf(t.category, WORK_CATEGORIES)}`),
    uniqueIndex('work_assignment_rules_uq').on(sql`coalesce(${t.payer}, '')`, sql`coalesce(${t.category}, '')`),
  ],
);
