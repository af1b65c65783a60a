import { createHash } from 'node:crypto';
import { asc, desc, eq, gt, sql } from 'drizzle-orm';
import { can } from '@/shared/access';
import type { RequestContext } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import type { AuditEntry } from '../audit.schema';
import { auditLog } from './audit.table';

export const GENESIS_HASH = '0'.repeat(64);
/** Any fixed number: the advisory lock that serialises appends so the chain has one order. */
const AUDIT_CHAIN_LOCK = 7_346_001;

export interface AuditInput {
  actor: string;
  actorUserId?: number | null;
  actorRole?: string | null;
  action: string;
  resource: string;
  detail?: string | null;
  patientId?: number | null;
  at: Date;
}

interface HashedContent {
  occurredAtMs: number;
  actor: string;
  actorUserId: number | null;
  actorRole: string | null;
  action: string;
  resource: string;
  detail: string | null;
  patientId: number | null;
}

export function entryHash(prevHash: string, c: HashedContent): string {
  const canonical = JSON.stringify([
    prevHash,
    c.occurredAtMs,
    c.actor,
    c.actorUserId,
    c.actorRole,
    c.action,
    c.resource,
    c.detail,
    c.patientId,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * Appends one audit entry inside the caller's transaction, so the entry commits or rolls back with the
 * change it records. Callers without a change of their own wrap it in `db.transaction`.
 */
export async function record(tx: Tx, input: AuditInput): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  const prevHash = last?.hash ?? GENESIS_HASH;
  const content = contentOf(input);
  await tx.insert(auditLog).values({ ...rowOf(input, content), prevHash, hash: entryHash(prevHash, content) });
}

function contentOf(input: AuditInput): HashedContent {
  return {
    occurredAtMs: input.at.getTime(),
    actor: input.actor,
    actorUserId: input.actorUserId ?? null,
    actorRole: input.actorRole ?? null,
    action: input.action,
    resource: input.resource,
    detail: input.detail ?? null,
    patientId: input.patientId ?? null,
  };
}

function rowOf(input: AuditInput, c: HashedContent) {
  return {
    occurredAt: input.at.toISOString(),
    actor: c.actor,
    actorUserId: c.actorUserId,
    actorRole: c.actorRole,
    action: c.action,
    resource: c.resource,
    detail: c.detail,
    patientId: c.patientId,
  };
}

/** Appends many entries in order (seeding, imports) with one lock and one multi-row insert per batch. */
export async function recordMany(tx: Tx, inputs: readonly AuditInput[]): Promise<void> {
  if (inputs.length === 0) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  let prevHash = last?.hash ?? GENESIS_HASH;
  const rows = inputs.map((input) => {
    const content = contentOf(input);
    const hash = entryHash(prevHash, content);
    const row = { ...rowOf(input, content), prevHash, hash };
    prevHash = hash;
    return row;
  });
  for (let i = 0; i < rows.length; i += 1000) await tx.insert(auditLog).values(rows.slice(i, i + 1000));
}

export async function recordNow(db: Db, input: AuditInput): Promise<void> {
  await db.transaction((tx) => record(tx, input));
}

export interface ChainVerification {
  ok: boolean;
  checked: number;
  /** 1-based position in id order of the first entry that does not verify, and why. */
  firstBreak: { position: number; id: number; problem: 'modified' | 'missing-before' } | null;
}

/** Recomputes every hash in id order; a changed row fails its own hash, a removed row breaks the link. */
export async function verifyChain(db: Db, batchSize = 5000): Promise<ChainVerification> {
  let prevHash = GENESIS_HASH;
  let lastId = 0;
  let position = 0;
  for (;;) {
    const rows = await db
      .select({
        id: auditLog.id,
        // Milliseconds straight from the database, so the text format of timestamps never matters.
        occurredAtMs: sql<string>`round(extract(epoch from ${auditLog.occurredAt}) * 1000)::bigint`,
        actor: auditLog.actor,
        actorUserId: auditLog.actorUserId,
        actorRole: auditLog.actorRole,
        action: auditLog.action,
        resource: auditLog.resource,
        detail: auditLog.detail,
        patientId: auditLog.patientId,
        prevHash: auditLog.prevHash,
        hash: auditLog.hash,
      })
      .from(auditLog)
      .where(gt(auditLog.id, lastId))
      .orderBy(asc(auditLog.id))
      .limit(batchSize);
    if (rows.length === 0) return { ok: true, checked: position, firstBreak: null };
    for (const row of rows) {
      position += 1;
      if (row.prevHash !== prevHash) {
        return { ok: false, checked: position, firstBreak: { position, id: row.id, problem: 'missing-before' } };
      }
      const expected = entryHash(prevHash, {
        occurredAtMs: Number(row.occurredAtMs),
        actor: row.actor,
        actorUserId: row.actorUserId,
        actorRole: row.actorRole,
        action: row.action,
        resource: row.resource,
        detail: row.detail,
        patientId: row.patientId,
      });
      if (expected !== row.hash) {
        return { ok: false, checked: position, firstBreak: { position, id: row.id, problem: 'modified' } };
      }
      prevHash = row.hash;
      lastId = row.id;
    }
  }
}

/**
 * The newest audit entries the caller may see: every entry for a role that reads the audit log
 * ('audit:read'), otherwise only the entries the caller made themself.
 */
export async function listRecentAuditEntries(db: Db, ctx: RequestContext, limit: number): Promise<AuditEntry[]> {
  const rows = await db
    .select({
      id: auditLog.id,
      time: sql<string>`to_char(${auditLog.occurredAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      actor: auditLog.actor,
      action: auditLog.action,
      resource: auditLog.resource,
      detail: auditLog.detail,
    })
    .from(auditLog)
    .where(can(ctx.user.role, 'audit:read') ? undefined : eq(auditLog.actorUserId, ctx.user.id))
    .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
    .limit(limit);
  return rows;
}
