import { sql } from 'drizzle-orm';
import { pgTable, bigint, integer, smallint, text, timestamp, index } from 'drizzle-orm/pg-core';

/**
 * Append-only, hash-chained audit trail. A trigger (migration 0001) refuses UPDATE and DELETE; each row's
 * hash covers its content and the previous row's hash, so a changed or removed row breaks the chain.
 * No foreign keys on purpose: the trail outlives the users and patients it mentions (global reset).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'string' }).notNull(),
    actor: text('actor').notNull(),
    actorUserId: integer('actor_user_id'),
    actorRole: text('actor_role'),
    action: text('action').notNull(),
    resource: text('resource').notNull(),
    detail: text('detail'),
    patientId: integer('patient_id'),
    // The request's client address and user agent (null for entries no request wrote: seeds, background work).
    clientAddr: text('client_addr'),
    userAgent: text('user_agent'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    // 1: plain SHA-256 (entries written before the HMAC); 2: HMAC-SHA-256 with a key kept outside the database.
    hashVersion: smallint('hash_version').notNull().default(1),
  },
  (t) => [
    // Newest first by (time, id), exactly as ORDER BY ... DESC sorts (nulls first): the audit list's order
    // and its keyset paging, so page N costs what page 1 does.
    index('audit_log_occurred_id_idx').on(t.occurredAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // No index on actor: its filter is a substring match (ILIKE), which a btree cannot serve (migration 0047).
    // The dashboard's recent activity of a role that sees only its own entries (listRecentAuditEntries).
    index('audit_log_actor_user_occurred_idx').on(
      t.actorUserId,
      t.occurredAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('audit_log_action_idx').on(t.action),
    // A claim's history (claims.detail.queries.ts, CLAIM_HISTORY_ACTIONS, whose test holds the two lists equal):
    // partial, so that the far more numerous entries of reads are not indexed by resource at every append.
    index('audit_log_claim_changes_idx')
      .on(t.resource, t.id)
      .where(
        sql.raw(
          `action in ('claim.void', 'claim.update', 'claim.create', 'claim.appeal.outcome', 'claim.write_off', ` +
            `'claim.correct', 'claim.void_at_payer', 'claim.remittance.post', 'claim.next_policy.follow', ` +
            `'claim.status.request', 'claim.status.answer')`,
        ),
      ),
  ],
);
