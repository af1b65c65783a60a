/**
 * The work queue (docs/work-queue.md): opening items (called by the remittance import, the scrubber and the
 * 277CA acknowledgement import, in their own transactions), the paged list, and assigning, noting and resolving
 * items, each audited in the transaction of the change.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  actorOf,
  listReadEntry,
  record,
  recordMany,
  recordRead,
  type AuditInput,
} from '@/features/audit/server/audit.queries';
import { today } from '@/shared/api';
import type { RequestContext } from '@/server/context';
import { afterCursor, decodeCursor, encodeCursor, type KeyKind } from '@/server/db/keyset';
import { rawRows, rowText, rowTextOrNull, uniqueViolationOf, type RawRow } from '@/server/db/sql-helpers';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { executePrepared, literalLimit } from '@/server/db/prepared';
import { pageTotalColumn, pageTotalOf } from '@/server/db/page-total';
import { HttpError, invalidField } from '@/server/plugins/errors';
import {
  categoryOfCarc,
  WORK_OUTCOME_LABELS,
  workItemSchema,
  type AssignmentRule,
  type Assignee,
  type NewAssignmentRule,
  type ResolveWorkItem,
  type WorkCategory,
  type WorkItem,
  type WorkNote,
  type WorkOutcome,
  type WorkQueuePage,
  type WorkQueueQuery,
  type WorkSource,
} from '../workqueue.schema';

/**
 * What a caller knows of an item to open. `source` and `sourceKey` identify it: while an item with the same pair
 * is open, opening it again does nothing (a re-import, a re-scrub). Choose a key that names the event, e.g.
 * `<payer key>/<trace>/<CLP seq>` for a remittance's claim, `claim/<id>` for a scrubber hold,
 * `<claim id>/<ISA06>/<ISA13>/<TRN position>` for an acknowledgement's rejection.
 */
export interface OpenWorkItem {
  source: WorkSource;
  sourceKey: string;
  /** The claim, when one was matched (an unmatched remittance claim has none). */
  claimId: number | null;
  patientId: number | null;
  /** The claim's patient control number, or what the payer sent. */
  accountNumber: string;
  /** The payer's name (payers.name); its timely-filing and appeal limits set the due date. */
  payer: string;
  /** The CARC with its group (CO-197) when the payer gave one: it decides the category unless `category` is given. */
  carc?: string | null;
  category?: WorkCategory;
  /** One line a person reads first: what happened and why. */
  reason: string;
  dollarsAtRiskCents: number;
  /** The claim's first date of service: timely filing counts from it. */
  serviceDate: string | null;
  /** The day of the payer's decision (a remittance's date): the appeal window counts from it. */
  decidedOn?: string | null;
}

/**
 * Opens work items in the caller's transaction, each audited (`work_item.open`). The due date is the earlier of
 * the payer's appeal deadline (decidedOn + payers.appeal_days) and timely filing (serviceDate +
 * payers.timely_filing_days); priority follows from it and the dollars at risk; the assignee from the
 * auto-assignment rules. An item whose (source, sourceKey) is already open is skipped. Returns the ids opened.
 *
 * Given `auditInto`, the audit entries are pushed onto it instead of appended here: a caller writing many
 * entries of its own (the batch scrub) then appends them all in one go, still in its transaction.
 */
export async function openWorkItems(
  tx: Tx,
  ctx: RequestContext,
  items: readonly OpenWorkItem[],
  auditInto?: AuditInput[],
): Promise<number[]> {
  if (items.length === 0) return [];
  const day = today(ctx.now);
  const payload = JSON.stringify(
    items.map((i) => ({
      source: i.source,
      key: i.sourceKey,
      claim: i.claimId,
      patient: i.patientId,
      account: i.accountNumber,
      payer: i.payer,
      carc: i.carc ?? null,
      category: i.category ?? categoryOfCarc(i.carc),
      reason: i.reason.slice(0, 500),
      dollars: Math.max(0, Math.round(i.dollarsAtRiskCents)),
      service: i.serviceDate,
      decided: i.decidedOn ?? null,
    })),
  );
  const opened = await rawRows(
    tx,
    sql`with x as (
          select x.*, least(
              coalesce(x.service + coalesce(py.timely_filing_days, 365), 'infinity'::date),
              coalesce(x.decided + coalesce(py.appeal_days, 180), 'infinity'::date)) as limit_on
          from jsonb_to_recordset(${payload}::jsonb) as x(source text, key text, claim int, patient int, account text,
            payer text, carc text, category text, reason text, dollars int, service date, decided date)
          left join payers py on py.name = x.payer
        ), due as (
          select x.*, case when limit_on = 'infinity'::date then ${day}::date + 30 else limit_on end as due_on from x
        )
        insert into work_items as w (source, source_key, claim_id, patient_id, account_number, payer, category, carc,
          reason, dollars_at_risk_cents, due_on, priority, assignee_id, opened_at, opened_by)
        select d.source, d.key, d.claim, d.patient, d.account, d.payer, d.category, d.carc, d.reason, d.dollars,
          d.due_on,
          case when d.due_on <= ${day}::date + 14 or d.dollars >= 100000 then 'high'
               when d.due_on > ${day}::date + 60 and d.dollars < 5000 then 'low' else 'normal' end,
          (select r.assignee_id from work_assignment_rules r
             where (r.payer is null or r.payer = d.payer) and (r.category is null or r.category = d.category)
             order by (r.payer is not null) desc, (r.category is not null) desc limit 1),
          ${ctx.now.toISOString()}::timestamptz, ${ctx.user.id}::int
        from due d
        order by d.key
        on conflict (source, source_key) where resolved_at is null do nothing
        returning w.id, w.source, w.source_key, w.claim_id, w.patient_id, w.account_number, w.category,
          w.dollars_at_risk_cents, w.due_on::text as due_on, w.assignee_id`,
  );
  const audit: AuditInput[] = opened.map((o) => ({
    ...actorOf(ctx),
    action: 'work_item.open',
    resource: `work_item/${Number(o.id)}`,
    patientId: o.patient_id === null ? null : Number(o.patient_id),
    detail:
      `${rowText(o.account_number)}: ${rowText(o.source)} (${rowText(o.category)}), ` +
      `$${(Number(o.dollars_at_risk_cents) / 100).toFixed(2)} at risk, due ${rowText(o.due_on)}` +
      (o.assignee_id === null ? '' : `; assigned by rule to user ${Number(o.assignee_id)}`),
  }));
  if (auditInto) auditInto.push(...audit);
  else await recordMany(tx, audit);
  return opened.map((o) => Number(o.id));
}

/** One item to open; its id, or null when the same (source, sourceKey) is already open. */
export async function openWorkItem(tx: Tx, ctx: RequestContext, item: OpenWorkItem): Promise<number | null> {
  const [id] = await openWorkItems(tx, ctx, [item]);
  return id ?? null;
}

/**
 * Resolves the open items of these sources and keys (e.g. a scrubber hold once the claim scrubs clean), audited;
 * for callers that learn an item is done without a person. Returns how many were resolved. `auditInto` as for
 * openWorkItems.
 */
export async function resolveWorkItemsBySource(
  tx: Tx,
  ctx: RequestContext,
  source: WorkSource,
  sourceKeys: readonly string[],
  outcome: WorkOutcome,
  note: string,
  auditInto?: AuditInput[],
): Promise<number> {
  if (sourceKeys.length === 0) return 0;
  const resolved = await rawRows(
    tx,
    sql`update work_items set resolved_at = ${ctx.now.toISOString()}::timestamptz, resolved_by = ${ctx.user.id}::int,
          outcome = ${outcome}, resolution_note = ${note}
        where source = ${source} and source_key = any(${`{${sourceKeys.map((k) => `"${k.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[])
          and resolved_at is null
        returning id, patient_id, account_number`,
  );
  const audit = resolvedEntries(ctx, resolved, outcome, note);
  if (auditInto) auditInto.push(...audit);
  else await recordMany(tx, audit);
  return resolved.length;
}

/** The audit entries of items resolved without a person opening them (rows: id, patient_id, account_number). */
function resolvedEntries(ctx: RequestContext, resolved: readonly RawRow[], outcome: WorkOutcome, note: string) {
  return resolved.map((r): AuditInput => ({
    ...actorOf(ctx),
    action: 'work_item.resolve',
    resource: `work_item/${Number(r.id)}`,
    patientId: r.patient_id === null ? null : Number(r.patient_id),
    detail: `${rowText(r.account_number)}: ${WORK_OUTCOME_LABELS[outcome].toLowerCase()}; ${note}`,
  }));
}

// ---------------------------------------------------------------------------------------------
// The Work Queue screen.

const SORTS = {
  due: { keys: [sql`w.due_on`], kinds: ['date'] as KeyKind[], dir: 'asc' as const },
  dollars: { keys: [sql`w.dollars_at_risk_cents`], kinds: ['int'] as KeyKind[], dir: 'desc' as const },
};

// w.patient_id is not shown, but names the patients of a page's audit entry.
const itemColumns = sql`w.id, w.source, w.category, w.claim_id, w.patient_id, w.account_number, w.payer, w.carc, w.reason,
  w.dollars_at_risk_cents, w.due_on::text as due_on, w.priority, w.assignee_id, u.name as assignee,
  to_char(w.opened_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as opened_at,
  to_char(w.resolved_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as resolved_at, w.outcome,
  w.resolution_note, coalesce(p.name, '') as patient_name,
  coalesce((select json_agg(json_build_object('id', n.id, 'author', coalesce(a.name, 'System'), 'body', n.body,
      'at', to_char(n.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')) order by n.id)
    from work_item_notes n left join users a on a.id = n.author_id where n.work_item_id = w.id), '[]') as notes`;

function toItem(row: RawRow): WorkItem {
  return workItemSchema.parse({
    id: Number(row.id),
    source: row.source,
    category: row.category,
    claimId: row.claim_id === null ? null : Number(row.claim_id),
    accountNumber: rowText(row.account_number),
    patientName: rowText(row.patient_name),
    payer: rowText(row.payer),
    carc: rowTextOrNull(row.carc),
    reason: rowText(row.reason),
    dollarsAtRiskCents: Number(row.dollars_at_risk_cents),
    dueOn: rowText(row.due_on),
    priority: row.priority,
    assigneeId: row.assignee_id === null ? null : Number(row.assignee_id),
    assignee: rowTextOrNull(row.assignee),
    openedAt: rowText(row.opened_at),
    resolvedAt: rowTextOrNull(row.resolved_at),
    outcome: row.outcome ?? null,
    resolutionNote: rowTextOrNull(row.resolution_note),
    notes: row.notes as WorkNote[],
  });
}

/**
 * A page of the queue, filtered by category, payer, assignee (me, others, unassigned) and open or resolved, in
 * due-date order (soonest first) or by dollars at risk (most first), keyset-paged by (key, id). Audited as a
 * PHI list read (patients' names).
 */
export async function listWorkQueue(db: Db, ctx: RequestContext, query: WorkQueueQuery): Promise<WorkQueuePage> {
  const sort = SORTS[query.sort];
  const where: SQL[] = [query.status === 'open' ? sql`w.resolved_at is null` : sql`w.resolved_at is not null`];
  if (query.category) where.push(sql`w.category = ${query.category}`);
  if (query.payer) where.push(sql`w.payer = ${query.payer}`);
  if (query.assignee === 'me') where.push(sql`w.assignee_id = ${ctx.user.id}::int`);
  if (query.assignee === 'others') where.push(sql`w.assignee_id <> ${ctx.user.id}::int`);
  if (query.assignee === 'unassigned') where.push(sql`w.assignee_id is null`);
  // A first page carries how many items the filters select (page-total.ts): counted before the cursor's bound.
  const count = query.cursor
    ? null
    : sql<number>`select count(*)::int from work_items w where ${sql.join([...where], sql` and `)}`;
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor, query.sort, sort.dir, sort.kinds);
    where.push(afterCursor(sort.keys, sql`w.id`, sort.kinds, sort.dir, cursor));
  }
  const dir = sql.raw(sort.dir);
  // Prepared, its LIMIT in the text (docs/performance.md, "Planning the hot reads once").
  const { rows } = await executePrepared<RawRow>(
    db,
    sql`select ${itemColumns} ${pageTotalColumn(count)}
        from work_items w left join users u on u.id = w.assignee_id left join patients p on p.id = w.patient_id
        where ${sql.join(where, sql` and `)}
        order by ${sort.keys[0]} ${dir}, w.id ${dir}
        ${literalLimit(query.limit + 1)}`,
  );
  const page = rows.slice(0, query.limit).map(toItem);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > query.limit && last
      ? encodeCursor(query.sort, sort.dir, {
          values: [query.sort === 'due' ? last.dueOn : last.dollarsAtRiskCents],
          id: last.id,
        })
      : null;
  const total = await pageTotalOf(db, rows, count);
  const patientIds = rows
    .slice(0, query.limit)
    .map((r) => r.patient_id)
    .filter((p) => p !== null)
    .map(Number);
  await recordRead(db, ctx, listReadEntry('work_queue.list.view', '/api/work-queue', query, patientIds));
  return { items: page, nextCursor, total };
}

async function lockedItem(tx: Tx, id: number) {
  const [row] = await rawRows(
    tx,
    sql`select id, account_number, patient_id, assignee_id, resolved_at from work_items where id = ${id}::int for update`,
  );
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'No work item with that id.');
  return row;
}

async function itemById(db: DbOrTx, id: number): Promise<WorkItem> {
  const [row] = await rawRows(
    db,
    sql`select ${itemColumns} from work_items w left join users u on u.id = w.assignee_id
        left join patients p on p.id = w.patient_id where w.id = ${id}::int`,
  );
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'No work item with that id.');
  return toItem(row);
}

/**
 * One item as it stands now (GET /api/work-items/:id): what the queue's view shows again after an action taken
 * on the item's claim may have resolved it. An audited PHI read (the patient's name).
 */
export async function getWorkItem(db: Db, ctx: RequestContext, id: number): Promise<WorkItem> {
  const [row] = await rawRows(
    db,
    sql`select ${itemColumns} from work_items w left join users u on u.id = w.assignee_id
        left join patients p on p.id = w.patient_id where w.id = ${id}::int`,
  );
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'No work item with that id.');
  const item = toItem(row);
  await recordRead(db, ctx, {
    action: 'work_item.view',
    resource: `work_item/${id}`,
    detail: `${item.accountNumber}: viewed the item`,
    patientId: row.patient_id === null ? null : Number(row.patient_id),
  });
  return item;
}

function refuseResolved(row: RawRow) {
  if (row.resolved_at !== null) {
    throw new HttpError(409, 'WORK_ITEM_RESOLVED', 'status: the item is already resolved', {
      fields: [{ field: 'status', message: 'is already resolved' }],
    });
  }
}

/** The staff an item can be given to: billing admins and admins with an active account. */
export async function listAssignees(db: DbOrTx): Promise<Assignee[]> {
  const rows = await rawRows(
    db,
    sql`select id, name, email from users where role in ('billing_admin', 'admin') and active order by name, id`,
  );
  return rows.map((r) => ({ id: Number(r.id), name: rowText(r.name), email: rowText(r.email) }));
}

async function assigneeName(tx: Tx, assigneeId: number): Promise<string> {
  const [user] = await rawRows(
    tx,
    sql`select name from users where id = ${assigneeId}::int and role in ('billing_admin', 'admin') and active`,
  );
  if (!user) throw invalidField('assigneeId', 'is not an active billing admin or admin');
  return rowText(user.name);
}

/** Assigns (or, with null, unassigns) an item; audited. */
export async function assignWorkItem(
  db: Db,
  ctx: RequestContext,
  id: number,
  assigneeId: number | null,
): Promise<WorkItem> {
  return db.transaction(async (tx) => {
    const item = await lockedItem(tx, id);
    refuseResolved(item);
    const name = assigneeId === null ? null : await assigneeName(tx, assigneeId);
    await tx.execute(sql`update work_items set assignee_id = ${assigneeId}::int where id = ${id}::int`);
    await record(tx, {
      ...actorOf(ctx),
      action: 'work_item.assign',
      resource: `work_item/${id}`,
      patientId: item.patient_id === null ? null : Number(item.patient_id),
      detail: `${rowText(item.account_number)}: ${
        item.assignee_id === null ? 'unassigned' : `user ${Number(item.assignee_id)}`
      } → ${name === null ? 'unassigned' : `${name} (user ${assigneeId})`}`,
    });
    return itemById(tx, id);
  });
}

/** Adds a note to an item (open or resolved); audited with the note's length, not its text. */
export async function addWorkNote(db: Db, ctx: RequestContext, id: number, body: string): Promise<WorkItem> {
  return db.transaction(async (tx) => {
    const item = await lockedItem(tx, id);
    await tx.execute(sql`insert into work_item_notes (work_item_id, author_id, body, created_at)
      values (${id}::int, ${ctx.user.id}::int, ${body}, ${ctx.now.toISOString()}::timestamptz)`);
    await record(tx, {
      ...actorOf(ctx),
      action: 'work_item.note',
      resource: `work_item/${id}`,
      patientId: item.patient_id === null ? null : Number(item.patient_id),
      detail: `${rowText(item.account_number)}: note added (${body.length} characters)`,
    });
    return itemById(tx, id);
  });
}

/** Resolves an open item with its outcome (a write-off needs its reason in the note); audited. */
export async function resolveWorkItem(
  db: Db,
  ctx: RequestContext,
  id: number,
  resolution: ResolveWorkItem,
): Promise<WorkItem> {
  const note = (resolution.note ?? '').trim();
  return db.transaction(async (tx) => {
    const item = await lockedItem(tx, id);
    refuseResolved(item);
    await tx.execute(sql`update work_items set resolved_at = ${ctx.now.toISOString()}::timestamptz,
        resolved_by = ${ctx.user.id}::int, outcome = ${resolution.outcome}, resolution_note = ${note}
      where id = ${id}::int`);
    await record(tx, {
      ...actorOf(ctx),
      action: 'work_item.resolve',
      resource: `work_item/${id}`,
      patientId: item.patient_id === null ? null : Number(item.patient_id),
      detail: `${rowText(item.account_number)}: ${WORK_OUTCOME_LABELS[resolution.outcome].toLowerCase()}${
        note ? `; ${note}` : ''
      }`,
    });
    return itemById(tx, id);
  });
}

/**
 * Resolves a claim's open items of these sources with the action just taken on the claim (an appeal filed from the
 * claim view resolves its denials as appealed), in the caller's transaction, audited. Returns how many.
 */
export async function resolveClaimWorkItems(
  tx: Tx,
  ctx: RequestContext,
  claimId: number,
  sources: readonly WorkSource[],
  outcome: WorkOutcome,
  note: string,
): Promise<number> {
  const resolved = await rawRows(
    tx,
    sql`update work_items set resolved_at = ${ctx.now.toISOString()}::timestamptz, resolved_by = ${ctx.user.id}::int,
          outcome = ${outcome}, resolution_note = ${note}
        where claim_id = ${claimId}::int and resolved_at is null
          and source = any(${`{${sources.join(',')}}`}::text[])
        returning id, patient_id, account_number`,
  );
  await recordMany(tx, resolvedEntries(ctx, resolved, outcome, note));
  return resolved.length;
}

// ---------------------------------------------------------------------------------------------
// Auto-assignment rules (admin).

export async function listAssignmentRules(db: DbOrTx): Promise<AssignmentRule[]> {
  const rows = await rawRows(
    db,
    sql`select r.id, r.payer, r.category, r.assignee_id, u.name from work_assignment_rules r
        join users u on u.id = r.assignee_id
        order by r.payer nulls last, r.category nulls last, r.id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    payer: rowTextOrNull(r.payer),
    category: (r.category ?? null) as WorkCategory | null,
    assigneeId: Number(r.assignee_id),
    assignee: rowText(r.name),
  }));
}

export async function createAssignmentRule(
  db: Db,
  ctx: RequestContext,
  rule: NewAssignmentRule,
): Promise<AssignmentRule> {
  try {
    return await db.transaction(async (tx) => {
      const name = await assigneeName(tx, rule.assigneeId);
      const [row] = await rawRows(
        tx,
        sql`insert into work_assignment_rules (payer, category, assignee_id)
            values (${rule.payer}, ${rule.category}, ${rule.assigneeId}::int) returning id`,
      );
      await record(tx, {
        ...actorOf(ctx),
        action: 'work_rule.create',
        resource: `work_rule/${Number(row?.id)}`,
        detail: `payer ${rule.payer ?? 'any'}, category ${rule.category ?? 'any'} → ${name} (user ${rule.assigneeId})`,
      });
      return { id: Number(row?.id), ...rule, assignee: name };
    });
  } catch (err) {
    if (uniqueViolationOf(err) === 'work_assignment_rules_uq') {
      throw new HttpError(409, 'RULE_EXISTS', 'payer: a rule for that payer and category already exists', {
        fields: [{ field: 'payer', message: 'already has a rule for that category' }],
      });
    }
    throw err;
  }
}

export async function deleteAssignmentRule(db: Db, ctx: RequestContext, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await rawRows(
      tx,
      sql`delete from work_assignment_rules where id = ${id}::int returning payer, category, assignee_id`,
    );
    if (!row) throw new HttpError(404, 'NOT_FOUND', 'No assignment rule with that id.');
    await record(tx, {
      ...actorOf(ctx),
      action: 'work_rule.delete',
      resource: `work_rule/${id}`,
      detail: `payer ${rowTextOrNull(row.payer) ?? 'any'}, category ${rowTextOrNull(row.category) ?? 'any'} (user ${Number(row.assignee_id)})`,
    });
  });
}
