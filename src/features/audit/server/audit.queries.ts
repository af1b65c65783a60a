import { startOfDayInZone } from '@/shared/practice-zone';
import { createHmac, hash } from 'node:crypto';
import { and, asc, desc, eq, gt, gte, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { can } from '@/shared/access';
import type { AuditedRead, RequestContext } from '@/server/context';
import { containsPattern } from '@/server/db/like';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import {
  AUDIT_EXPORT_MAX_ROWS,
  DENIED_ACCESS_ACTIONS,
  FAILED_SIGN_IN_ACTIONS,
  type AuditEntry,
  type AuditExport,
  type AuditFilter,
  type AuditPage,
  type AuditQuery,
  type AuditStats,
} from '../audit.schema';
import { auditLog } from './audit.table';

export const GENESIS_HASH = '0'.repeat(64);
/** Any fixed number: the advisory lock that serialises appends so the chain has one order. */
const AUDIT_CHAIN_LOCK = 7_346_001;

/**
 * Who did it and when, as every entry a signed-in request writes records it: spread it first, so an entry
 * that happened at another moment can still give its own `at`.
 */
export function actorOf(
  ctx: RequestContext,
): Pick<AuditInput, 'actor' | 'actorUserId' | 'actorRole' | 'at' | 'clientAddr' | 'userAgent'> {
  return {
    actor: ctx.user.email,
    actorUserId: ctx.user.id,
    actorRole: ctx.user.role,
    at: ctx.now,
    clientAddr: ctx.client?.clientAddr ?? null,
    userAgent: ctx.client?.userAgent ?? null,
  };
}

export interface AuditInput {
  actor: string;
  actorUserId?: number | null;
  actorRole?: string | null;
  action: string;
  resource: string;
  detail?: string | null;
  patientId?: number | null;
  at: Date;
  /** The client's address and user agent (RequestClient): none for work outside a request (seeds, jobs). */
  clientAddr?: string | null;
  userAgent?: string | null;
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
  clientAddr?: string | null;
  userAgent?: string | null;
}

/**
 * The key of the chain's HMAC, kept outside the database (AUDIT_HMAC_KEY or a file in the data folder): with
 * it each entry's hash is an HMAC, so someone who can rewrite audit rows cannot recompute hashes that verify.
 * Set once at start (main.ts, the tests' setup); without it entries are hashed as before (version 1).
 */
let hmacKey: Buffer | null = null;
let hmacPads: { inner: Buffer; outer: Buffer } | null = null;

export function useAuditHmacKey(key: Buffer | null): void {
  hmacKey = key;
  if (!key) {
    hmacPads = null;
    return;
  }
  // RFC 2104's padded keys, so audit_append_batch can compute the same HMAC with PostgreSQL's built-in sha256.
  const block = Buffer.alloc(64);
  (key.length > 64 ? hash('sha256', key, 'buffer') : key).copy(block);
  hmacPads = { inner: block.map((b) => b ^ 0x36) as Buffer, outer: block.map((b) => b ^ 0x5c) as Buffer };
}

/** The hash version new entries get: 2 (HMAC) with a key, 1 (plain SHA-256) without. */
export function currentHashVersion(): 1 | 2 {
  return hmacKey ? 2 : 1;
}

export function entryHash(prevHash: string, c: HashedContent, version: 1 | 2 = currentHashVersion()): string {
  // The canonical text is JSON.stringify([prevHash, ...fields]); audit_append_batch builds the
  // same text in SQL from the previous hash and hashedRest.
  const canonical = `[${JSON.stringify(prevHash)},${hashedRest(c)}`;
  if (version === 2) {
    if (!hmacKey) throw new Error('an HMAC-hashed audit entry needs AUDIT_HMAC_KEY');
    return createHmac('sha256', hmacKey).update(canonical).digest('hex');
  }
  // One-shot hashing: several times cheaper than createHash() per entry when a bulk load chains 300k of them.
  return hash('sha256', canonical);
}

/**
 * Appends one audit entry inside the caller's transaction, so the entry commits or rolls back with the
 * change it records. Callers without a change of their own use `recordNow`. The entry is staged and chained
 * into the trail as the transaction commits (audit_commit_staged, migration 0042): the chain's lock is held
 * for the commit only, never across a round trip to this process.
 */
export async function record(tx: DbOrTx, input: AuditInput): Promise<void> {
  await stage(tx, [hashedRest(contentOf(input))]);
}

/** Staged lines per row: audit_append_batch chains each row's lines with one call at commit. */
const STAGE_ROW_MAX = 500;

/**
 * Stages canonical lines (hashedRest) in the caller's transaction; they are appended in this order when it
 * commits. With the HMAC key its padded keys go along as transaction-local settings, which the commit-time
 * append reads: they are never written to a table.
 */
async function stage(tx: DbOrTx, rests: readonly string[]): Promise<void> {
  for (let i = 0; i < rests.length; i += STAGE_ROW_MAX) {
    const entries = rests.slice(i, i + STAGE_ROW_MAX).join('\n');
    if (hmacPads) {
      await tx.execute(sql`insert into audit_staging (entries)
        select ${entries} from (select set_config('audit.hmac_inner', ${hmacPads.inner.toString('hex')}, true),
          set_config('audit.hmac_outer', ${hmacPads.outer.toString('hex')}, true)) as pads`);
    } else {
      await tx.execute(sql`insert into audit_staging (entries) values (${entries})`);
    }
  }
}

/**
 * The canonical JSON of an entry after its previous hash, without the opening bracket: entryHash hashes
 * `["<prev hash>",` followed by this (JSON.stringify of a hex string is that string in quotes).
 */
export function hashedRest(c: HashedContent): string {
  return `${JSON.stringify(c.occurredAtMs)},${restAfterTime(c)}`;
}

/** hashedRest without its first field, the time: what an entry repeated at another moment has in common. */
function restAfterTime(c: Omit<HashedContent, 'occurredAtMs'>): string {
  const fields = [c.actor, c.actorUserId, c.actorRole, c.action, c.resource, c.detail, c.patientId];
  // The client's address and user agent are covered when known; an entry without them (every entry written
  // before they were recorded) keeps the eight-field text it was hashed with, so it still verifies.
  const clientAddr = c.clientAddr ?? null;
  const userAgent = c.userAgent ?? null;
  if (clientAddr !== null || userAgent !== null) fields.push(clientAddr, userAgent);
  return JSON.stringify(fields).slice(1);
}

/** ES2024's string methods (Node 20 has them; the project's TypeScript lib is ES2023). */
type WellFormedText = string & { isWellFormed(): boolean; toWellFormed(): string };

/**
 * Text as PostgreSQL will store it: a lone UTF-16 surrogate (from a request's JSON, "\ud800") cannot be
 * encoded as UTF-8 and becomes U+FFFD, as String.prototype.toWellFormed does. Done before hashing, so the
 * hash covers what is stored and the chain verifies; a JSON batch would otherwise be refused outright.
 * The built-in check rather than a look-behind regular expression: every cached PHI read passes its entry's
 * fields (a page's list of patient ids among them) through here.
 */
function wellFormed<T extends string | null>(text: T): T {
  if (text === null) return text;
  const t = text as WellFormedText;
  return (t.isWellFormed() ? text : t.toWellFormed()) as T;
}

function contentOf(input: AuditInput): HashedContent {
  return {
    occurredAtMs: input.at.getTime(),
    actor: wellFormed(input.actor),
    actorUserId: input.actorUserId ?? null,
    actorRole: wellFormed(input.actorRole ?? null),
    action: wellFormed(input.action),
    resource: wellFormed(input.resource),
    detail: wellFormed(input.detail ?? null),
    patientId: input.patientId ?? null,
    clientAddr: wellFormed(input.clientAddr ?? null),
    userAgent: wellFormed(input.userAgent ?? null),
  };
}

/**
 * Appends many entries in order (seeding, imports, batch scrubs), staged in the caller's transaction like
 * `record`'s and chained as it commits.
 */
export async function recordMany(tx: Tx, inputs: readonly AuditInput[]): Promise<void> {
  if (inputs.length === 0) return;
  await stage(
    tx,
    inputs.map((input) => hashedRest(contentOf(input))),
  );
}

/**
 * Chains the entries the caller's transaction has staged into the trail now, as its commit would (and takes
 * the chain's lock for the rest of it): for a reader of the trail inside the same transaction.
 */
export async function appendStagedNow(tx: Tx): Promise<void> {
  await tx.execute(sql`set constraints audit_staging_commit immediate`);
  await tx.execute(sql`set constraints audit_staging_commit deferred`);
}

/**
 * Takes the chain's lock for the rest of the caller's transaction and returns the newest entry's hash:
 * what a bulk loader (the scale seed's COPY) chains on from.
 */
export async function lockChainTail(tx: Tx): Promise<string> {
  // Entries this transaction staged go first, so the loader chains on after them.
  await appendStagedNow(tx);
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return last?.hash ?? GENESIS_HASH;
}

interface WaitingEntry {
  /** The entry's canonical JSON after its previous hash (hashedRest): its one serialised form. */
  rest: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** The entries waiting for the append on its way to finish, per database handle. */
const appendQueues = new WeakMap<object, AppendQueue>();
interface AppendQueue {
  waiting: WaitingEntry[];
  appending: boolean;
}

/** At most this many entries per statement, so one batch's text stays a few hundred kilobytes. */
const APPEND_BATCH_MAX = 500;

/**
 * An entry with no change of its own (a read, a sign-in), committed before this resolves, so the caller
 * answers only once its read is on record. Entries are group-committed: the first goes at once; those that
 * arrive while an append is on its way wait for it and then go together, in their order of arrival, in one
 * statement (audit_append_batch) that takes the chain's lock once. Under load this turns one lock, one
 * commit and one WAL flush per read into one per batch; alone, an entry waits for nothing. If the batch's
 * statement fails, every caller in it gets the error (and answers with it, not with the data).
 */
export function recordNow(db: Db, input: AuditInput): Promise<void> {
  return appendNow(db, hashedRest(contentOf(input)));
}

/** The text after the time of a read's entry, as its last actor made it (recordReadAgain). */
const readTexts = new WeakMap<AuditedRead, { actorKey: string; rest: string }>();

/**
 * The entry of a read served again from memory (the answer cache), for the context's actor at its moment:
 * recordNow's entry for `{ ...actorOf(ctx), ...read }`. A cached list answered thousands of times a second
 * by the same user differs only in its time, so the rest of the entry's text (a page's patient ids among it)
 * is made once per read and actor, not once per answer.
 */
export function recordReadAgain(db: Db, ctx: RequestContext, read: AuditedRead): Promise<void> {
  const actor = actorOf(ctx);
  const actorKey = JSON.stringify([actor.actor, actor.actorUserId, actor.actorRole, actor.clientAddr, actor.userAgent]);
  let text = readTexts.get(read);
  if (text?.actorKey !== actorKey) {
    const { occurredAtMs: _time, ...content } = contentOf({ ...actor, ...read });
    text = { actorKey, rest: restAfterTime(content) };
    readTexts.set(read, text);
  }
  return appendNow(db, `${JSON.stringify(ctx.now.getTime())},${text.rest}`);
}

function appendNow(db: Db, rest: string): Promise<void> {
  let queue = appendQueues.get(db);
  if (!queue) {
    queue = { waiting: [], appending: false };
    appendQueues.set(db, queue);
  }
  const done = new Promise<void>((resolve, reject) => queue.waiting.push({ rest, resolve, reject }));
  if (!queue.appending) void appendWaiting(db, queue);
  return done;
}

async function appendBatch(db: Db, batch: readonly WaitingEntry[]): Promise<void> {
  // One line per entry: JSON text has no raw line feed, so the database splits the lines back exactly.
  await db.execute(sql`select audit_append_batch(${batch.map((w) => w.rest).join('\n')}::text,
    ${GENESIS_HASH}, ${hmacPads?.inner ?? null}::bytea, ${hmacPads?.outer ?? null}::bytea)`);
}

async function appendWaiting(db: Db, queue: AppendQueue): Promise<void> {
  queue.appending = true;
  try {
    while (queue.waiting.length > 0) {
      const batch = queue.waiting.splice(0, APPEND_BATCH_MAX);
      try {
        await appendBatch(db, batch);
        for (const waiting of batch) waiting.resolve();
      } catch (err) {
        if (batch.length === 1) batch[0]?.reject(err);
        // One entry the database refuses must not fail the reads it happened to be grouped with: each again alone.
        else for (const waiting of batch) await appendBatch(db, [waiting]).then(waiting.resolve, waiting.reject);
      }
    }
  } finally {
    queue.appending = false;
  }
}

/**
 * With a key, seals a chain whose newest entry is a plain one (a database from before the HMAC): one HMAC
 * entry on top covers every plain entry before it, and verification then refuses a plain tail.
 */
export async function anchorAuditChain(db: Db, at: Date): Promise<void> {
  if (!hmacKey) return;
  const [last] = await db
    .select({ hashVersion: auditLog.hashVersion })
    .from(auditLog)
    .orderBy(desc(auditLog.id))
    .limit(1);
  if (!last || last.hashVersion === 2) return;
  await recordNow(db, {
    actor: 'system',
    action: 'audit.hmac.anchor',
    resource: 'audit_log',
    detail: 'the entries before this one (plain SHA-256) are anchored by this HMAC entry',
    at,
  });
}

/**
 * A read of PHI as its entry names it, without who and when. The caller's context keeps the reads of its
 * request (RequestContext.reads) so that the answer cache can append the same entry again for every read
 * it serves from memory: a cached answer is still a read of PHI (docs/audit.md).
 */
export type ReadEntry = AuditedRead;

/** A PHI read: the entry, written after the read and before the answer, then kept with the request. */
export async function recordRead(db: Db, ctx: RequestContext, entry: ReadEntry): Promise<void> {
  await recordNow(db, { ...actorOf(ctx), ...entry });
  ctx.reads?.push(entry);
}

/** Above this many patients a page's entry gives their count, not their ids (an entry stays small). */
export const READ_PATIENT_IDS_MAX = 100;

/**
 * Query fields whose text the reader typed and that may itself be PHI (a name, an MRN, a birth date): the
 * entry keeps only its length, since the audit log's readers need not be allowed to see what was typed.
 */
const TYPED_TEXT_FIELDS = new Set(['search', 'q']);

/**
 * The entry of one page of a list or search: the route, the query as text (typed text as its length, a
 * cursor only as present, since its keys are values of the last row shown: a name, a date of birth) and
 * the ids of the patients the page shows, or their count over READ_PATIENT_IDS_MAX.
 */
export function listReadEntry(
  action: string,
  route: string,
  query: Readonly<Record<string, unknown>>,
  patientIds: readonly number[],
): ReadEntry {
  const params = Object.entries(query)
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([key, value]) =>
      TYPED_TEXT_FIELDS.has(key)
        ? `${key}=(${String(value).length} chars)`
        : key === 'cursor'
          ? 'cursor=(given)'
          : `${key}=${String(value).slice(0, 60)}`,
    );
  const ids = [...new Set(patientIds)].sort((a, b) => a - b);
  const shown = ids.length > READ_PATIENT_IDS_MAX ? `${ids.length} patients` : `patients [${ids.join(',')}]`;
  return {
    action,
    resource: route,
    detail: `${route}?${params.join('&')}: ${shown}`,
    patientId: ids.length === 1 ? (ids[0] ?? null) : null,
  };
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
  let sawHmac = false;
  let plainTail: { position: number; id: number } | null = null;
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
        clientAddr: auditLog.clientAddr,
        userAgent: auditLog.userAgent,
        prevHash: auditLog.prevHash,
        hash: auditLog.hash,
        hashVersion: auditLog.hashVersion,
      })
      .from(auditLog)
      .where(gt(auditLog.id, lastId))
      .orderBy(asc(auditLog.id))
      .limit(batchSize);
    if (rows.length === 0) {
      // With a key, the newest entry is an HMAC one (the server anchors a plain tail when it starts): a tail
      // of plain entries is one rewritten without the key, from its first entry on.
      if (hmacKey && plainTail) {
        const { position: at, id } = plainTail;
        return { ok: false, checked: at, firstBreak: { position: at, id, problem: 'modified' } };
      }
      return { ok: true, checked: position, firstBreak: null };
    }
    for (const row of rows) {
      position += 1;
      if (row.prevHash !== prevHash) {
        return { ok: false, checked: position, firstBreak: { position, id: row.id, problem: 'missing-before' } };
      }
      // No plain entry may follow an HMAC one, nor may an HMAC one be checked without the key.
      const version = row.hashVersion === 2 ? 2 : 1;
      const downgraded = version === 1 && sawHmac;
      if (version === 2) sawHmac = true;
      if (version === 1) plainTail ??= { position, id: row.id };
      else plainTail = null;
      const expected =
        downgraded || (version === 2 && !hmacKey)
          ? null
          : entryHash(
              prevHash,
              {
                occurredAtMs: Number(row.occurredAtMs),
                actor: row.actor,
                actorUserId: row.actorUserId,
                actorRole: row.actorRole,
                action: row.action,
                resource: row.resource,
                detail: row.detail,
                patientId: row.patientId,
                clientAddr: row.clientAddr,
                userAgent: row.userAgent,
              },
              version,
            );
      if (expected !== row.hash) {
        return { ok: false, checked: position, firstBreak: { position, id: row.id, problem: 'modified' } };
      }
      prevHash = row.hash;
      lastId = row.id;
    }
  }
}

const entryColumns = {
  id: auditLog.id,
  time: sql<string>`to_char(${auditLog.occurredAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  actor: auditLog.actor,
  action: auditLog.action,
  resource: auditLog.resource,
  detail: auditLog.detail,
};

/**
 * The newest audit entries the caller may see: every entry for a role that reads the audit log
 * ('audit:read'), otherwise only the entries the caller made themself.
 */
export async function listRecentAuditEntries(db: Db, ctx: RequestContext, limit: number): Promise<AuditEntry[]> {
  const rows = await db
    .select(entryColumns)
    .from(auditLog)
    .where(can(ctx.user.role, 'audit:read') ? undefined : eq(auditLog.actorUserId, ctx.user.id))
    .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
    .limit(limit);
  return rows;
}

// ---------------------------------------------------------------------------------------------
// The Audit Log screen: filtered list with keyset paging, export, stats, actions, verify.

interface Cursor {
  /** occurred_at of the last row shown, in UTC to the microsecond, exactly as the database holds it. */
  at: string;
  id: number;
}

const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Opaque to the client: base64url of the last row's (time, id); the next page starts strictly after it. */
function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      CURSOR_AT.test(value[0]) &&
      Number.isSafeInteger(value[1]) &&
      (value[1] as number) > 0
    ) {
      return { at: value[0], id: value[1] as number };
    }
  } catch {
    // Falls through to the 400 below.
  }
  throw new HttpError(400, 'VALIDATION_FAILED', 'cursor: is not a cursor this server issued', {
    fields: [{ field: 'cursor', message: 'is not a cursor this server issued' }],
  });
}

/** Midnight starting a calendar day in the practice's zone, the day `today()` in shared/api names. */
function startOfDay(day: string): Date {
  return startOfDayInZone(day);
}

function nextDay(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return startOfDayInZone(new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10));
}

function filterCondition(filter: AuditFilter): SQL | undefined {
  return and(
    filter.actor !== '' ? ilike(auditLog.actor, containsPattern(filter.actor)) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.from ? gte(auditLog.occurredAt, startOfDay(filter.from).toISOString()) : undefined,
    // The day after 9999-12-31 has a five-digit year PostgreSQL cannot read; that `to` bounds nothing anyway.
    filter.to && filter.to < '9999-12-31' ? lt(auditLog.occurredAt, nextDay(filter.to).toISOString()) : undefined,
  );
}

const newestFirst = [desc(auditLog.occurredAt), desc(auditLog.id)];
const cursorAt = sql<string>`to_char(${auditLog.occurredAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * One page of the filtered trail, newest first by (time, id). Keyset paging: the next page is the rows
 * strictly before the cursor's (time, id), which the (occurred_at desc, id desc) index finds directly, so
 * page N costs what page 1 does, and rows written meanwhile neither shift nor repeat a page.
 */
export async function listAuditEntries(db: Db, query: AuditQuery): Promise<AuditPage> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = await db
    .select({ ...entryColumns, cursorAt })
    .from(auditLog)
    .where(
      and(
        filterCondition(query),
        cursor ? sql`(${auditLog.occurredAt}, ${auditLog.id}) < (${cursor.at}::timestamptz, ${cursor.id})` : undefined,
      ),
    )
    .orderBy(...newestFirst)
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    entries: page.map(({ cursorAt: _cursorAt, ...entry }) => entry),
    nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.cursorAt, id: last.id }) : null,
  };
}

function describeFilter(filter: AuditFilter): string {
  const parts = [
    filter.actor && `actor contains "${filter.actor.slice(0, 60)}"`,
    filter.action && `action ${filter.action}`,
    filter.from && `from ${filter.from}`,
    filter.to && `to ${filter.to}`,
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/**
 * The newest matching entries for the browser's CSV, at most AUDIT_EXPORT_MAX_ROWS. Serving them is the
 * export, so it is audited here, after the read and before the answer (docs/audit.md).
 */
export async function exportAuditEntries(db: Db, ctx: RequestContext, filter: AuditFilter): Promise<AuditExport> {
  const rows = await db
    .select(entryColumns)
    .from(auditLog)
    .where(filterCondition(filter))
    .orderBy(...newestFirst)
    .limit(AUDIT_EXPORT_MAX_ROWS + 1);
  const capped = rows.length > AUDIT_EXPORT_MAX_ROWS;
  const entries = rows.slice(0, AUDIT_EXPORT_MAX_ROWS);
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'export.csv',
    resource: 'audit_log',
    detail: `audit-log.csv: ${entries.length} rows${capped ? ' (capped: the newest only)' : ''}${describeFilter(filter)}`,
  });
  return { entries, capped, maxRows: AUDIT_EXPORT_MAX_ROWS };
}

const HOUR_MS = 3_600_000;

/**
 * The six figures of the Audit Log's cards, counted by the database in one pass. Windows end at the app's
 * clock (not the database's now()) and are half-open: (now - window, now].
 * - totalEntries: every entry in the trail.
 * - entriesLast24h: entries in the last 24 hours.
 * - failedSignInsLast24h: sign-in attempts that did not succeed (FAILED_SIGN_IN_ACTIONS): unknown email or
 *   wrong password, wrong or expired one-time code, the lock itself and attempts refused while locked, in the
 *   last 24 hours.
 * - deniedAccessLast7d: API calls refused by the access gate, for lack of a permission, a session or a
 *   CSRF token (DENIED_ACCESS_ACTIONS), in the last 7 days.
 * - phiReadsLast7d: reads of patient information; every such read is audited with an action ending in
 *   '.view' (patient snapshot, portal, statement, worklist), in the last 7 days.
 * - exportsLast7d: CSV and statement exports ('export.csv' or an action ending in '.export') in the last 7 days.
 */
export async function auditStats(db: Db, ctx: RequestContext): Promise<AuditStats> {
  const now = ctx.now.toISOString();
  const since24h = new Date(ctx.now.getTime() - 24 * HOUR_MS).toISOString();
  const since7d = new Date(ctx.now.getTime() - 7 * 24 * HOUR_MS).toISOString();
  const within = (since: string) => sql`${auditLog.occurredAt} > ${since} and ${auditLog.occurredAt} <= ${now}`;
  const count = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
  const [stats] = await db
    .select({
      totalEntries: sql<number>`count(*)::int`,
      entriesLast24h: count(within(since24h)),
      failedSignInsLast24h: count(
        sql`${within(since24h)} and ${inArray(auditLog.action, [...FAILED_SIGN_IN_ACTIONS])}`,
      ),
      deniedAccessLast7d: count(sql`${within(since7d)} and ${inArray(auditLog.action, [...DENIED_ACCESS_ACTIONS])}`),
      phiReadsLast7d: count(sql`${within(since7d)} and ${auditLog.action} like '%.view'`),
      exportsLast7d: count(
        sql`${within(since7d)} and (${auditLog.action} = 'export.csv' or ${auditLog.action} like '%.export')`,
      ),
    })
    .from(auditLog);
  if (!stats) throw new Error('an aggregate always returns a row');
  return stats;
}

/**
 * The distinct actions in the trail, alphabetically. A loose index scan over audit_log_action_idx (each
 * step jumps to the next larger action), so it reads one index entry per action, not every row.
 */
export async function listAuditActions(db: Db): Promise<string[]> {
  const result = await db.execute<{ action: string }>(sql`
    with recursive actions(action) as (
      (select action from audit_log order by action limit 1)
      union all
      select (select a.action from audit_log a where a.action > actions.action order by a.action limit 1)
      from actions where actions.action is not null
    )
    select action from actions where action is not null`);
  return result.rows.map((r) => r.action);
}

/** The admin's chain check (docs/audit.md); running it is itself audited with its outcome. */
export async function verifyAuditChain(db: Db, ctx: RequestContext): Promise<ChainVerification> {
  const result = await verifyChain(db);
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'audit.verify',
    resource: 'audit_log',
    detail: result.firstBreak
      ? `chain broken at position ${result.firstBreak.position} (entry ${result.firstBreak.id}): ${result.firstBreak.problem}`
      : `chain intact: ${result.checked} entries`,
  });
  return result;
}
