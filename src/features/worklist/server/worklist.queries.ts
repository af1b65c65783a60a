import { sql, type SQL } from 'drizzle-orm';
import { maskText, type Role } from '@/shared/access';
import { today } from '@/shared/api';
import { appointments } from '@/features/appointments/server/appointments.table';
import { actorOf, listReadEntry, record, recordNow, recordRead } from '@/features/audit/server/audit.queries';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import type { RequestContext } from '@/server/context';
import { afterCursor, decodeCursor, encodeCursor, type KeyKind, type Keyset } from '@/server/db/keyset';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { executePrepared, literalLimit } from '@/server/db/prepared';
import { pageTotalColumn, pageTotalOf } from '@/server/db/page-total';
import {
  CHRONIC_CODES,
  HIGH_RISK_CODES,
  RISK_CLASSES,
  THRESHOLDS,
  compareFollowUps,
  followUpPriority,
  recommendedAction,
  type RiskClass,
} from '../worklist.rules';
import {
  type FollowUpPriority,
  type OverdueFollowUp,
  type OverdueFollowUpPage,
  type WorklistFilterInput,
  type WorklistPageQuery,
  type WorklistSummary,
} from '../worklist.schema';
import { encounters, openFollowUps } from './worklist.table';

/** Appointment statuses that do not count as a visit booked: the patient will not be (or was not) seen. */
const NOT_A_VISIT = ['Cancelled', 'No-Show'];

function textArray(values: readonly string[]): SQL {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}::text`),
    sql`, `,
  )}]`;
}

/*
 * Which encounters are listed (docs/worklist.md) is answered from the stored open follow-ups (table
 * open_follow_ups, kept exact by triggers; migration worklist_open_follow_ups): per patient, the encounters
 * of the most recent encounter date that ask for a follow-up, while no later appointment other than
 * Cancelled or No-Show is booked. On a day, such a row `o` is listed when its follow-up is due before the
 * day and no other open row of the patient with a higher id is due too (several visits on one day: the last
 * one due counts), which the stored superseded_from (the earliest due date of those rows) answers. The definition computed from encounters and appointments directly is kept below
 * (`listOverdueFollowUpsRaw`) as the reference the stored set is tested against.
 */
function isListed(day: string): SQL {
  return sql`o.follow_up_due < ${day}::date and (o.superseded_from is null or o.superseded_from >= ${day}::date)`;
}

/**
 * The days overdue a priority covers for a risk class, by worklist.rules.ts's THRESHOLDS (followUpPriority:
 * High above the High threshold, Medium above the Medium one, Low otherwise; a listed row is at least one
 * day overdue); null when the class never has that priority.
 */
function daysRange(rank: number, risk: RiskClass): { min: number; max: number | null } | null {
  const t = THRESHOLDS[risk];
  const range =
    rank === 0
      ? t.high === null
        ? null
        : { min: t.high + 1, max: null }
      : rank === 1
        ? { min: t.medium + 1, max: t.high }
        : { min: 1, max: t.medium };
  return range && (range.max === null || range.min <= range.max) ? range : null;
}

/** The follow-up due dates of `range`, as a range of the (…, follow_up_due, encounter_id) indexes. */
function dueIn(day: string, range: { min: number; max: number | null }): SQL {
  const upper = sql`o.follow_up_due <= ${day}::date - ${range.min}::int`;
  return range.max === null ? upper : sql`${upper} and o.follow_up_due >= ${day}::date - ${range.max}::int`;
}

/** The priority's rank (0 High, 1 Medium, 2 Low) of a listed stored row, from its risk class and due date. */
function storedRank(day: string): SQL {
  const cases = [0, 1].flatMap((rank) =>
    RISK_CLASSES.flatMap((risk) => {
      const range = daysRange(rank, risk);
      return range === null ? [] : [sql`when o.risk_class = ${risk} and ${dueIn(day, range)} then ${rank}::int`];
    }),
  );
  return sql`(case ${sql.join(cases, sql` `)} else 2 end)`;
}

/** Provider names are unique: one provider id, or none (no rows) for an unknown name. */
function storedProviderFilter(provider: string | undefined): SQL | undefined {
  return provider === undefined
    ? undefined
    : sql`o.provider_id = (select id from ${providers} where name = ${provider})`;
}

function daysOverdue(day: string): SQL {
  return sql`(${day}::date - e.follow_up_due)`;
}

const RANK: Record<FollowUpPriority, number> = { High: 0, Medium: 1, Low: 2 };

function and(...parts: (SQL | undefined)[]): SQL {
  return sql.join(
    parts.filter((p): p is SQL => p !== undefined),
    sql` and `,
  );
}

interface Row {
  encounterId: number;
  patientId: number;
  patientName: string;
  phone: string;
  providerName: string;
  encounterDate: string;
  encounterType: string;
  chiefComplaint: string;
  diagnosis: string[];
  daysOverdue: number;
  rank: number;
  due: string;
}

/**
 * A listed follow-up, its phone as `role` may see it (the one masking policy, docs/access.md; null: unmasked,
 * for the reference the tests compare with). Each field is named rather than copied from the row with a
 * rest or spread: an export builds thousands of these, and V8 copies those through a slow generic path
 * (with its garbage, half of an export's CPU; docs/performance.md). A column added to the query stays out
 * of the answer until it is named here.
 */
function toItem(row: Row, role: Role | null): OverdueFollowUp {
  const priority = followUpPriority(row.diagnosis, row.daysOverdue);
  return {
    encounterId: row.encounterId,
    patientName: row.patientName,
    phone: role === null ? row.phone : maskText('phone', row.phone, role),
    providerName: row.providerName,
    encounterDate: row.encounterDate,
    encounterType: row.encounterType,
    chiefComplaint: row.chiefComplaint,
    diagnosis: row.diagnosis,
    daysOverdue: row.daysOverdue,
    priority,
    recommendedAction: recommendedAction(priority),
  };
}

/** The columns of a listed follow-up, for encounters `e` chosen by `chosen` (id, rank, due). */
function withColumns(day: string, chosen: SQL, count: SQL<number> | null = null): SQL {
  return sql`select e.id as "encounterId", e.patient_id as "patientId", p.name as "patientName", p.phone, v.name as "providerName",
      e.encounter_date::text as "encounterDate", e.encounter_type as "encounterType",
      e.chief_complaint as "chiefComplaint", e.diagnosis, ${daysOverdue(day)}::int as "daysOverdue",
      s.rank::int as rank, e.follow_up_due::text as due ${pageTotalColumn(count)}
    from (${chosen}) s
    join ${encounters} e on e.id = s.id
    join ${patients} p on p.id = e.patient_id
    join ${providers} v on v.id = e.provider_id`;
}

/**
 * Every overdue follow-up the filter selects, in the worklist's order (priority, longest overdue, id), as
 * `role` may see it.
 */
async function allOverdue(
  db: DbOrTx,
  day: string,
  filter: WorklistFilterInput,
  role: Role,
): Promise<OverdueFollowUp[]> {
  const rank = storedRank(day);
  const chosen = sql`select o.encounter_id as id, ${rank} as rank from ${openFollowUps} o
    where ${and(
      isListed(day),
      storedProviderFilter(filter.provider),
      filter.priority === undefined ? undefined : sql`${rank} = ${RANK[filter.priority]}::int`,
    )}`;
  const { rows } = await db.execute<Row & Record<string, unknown>>(withColumns(day, chosen));
  return rows.map((row) => toItem(row, role)).sort(compareFollowUps);
}

async function recordView(db: Tx, ctx: RequestContext, detail: string) {
  // The list names patients with their diagnoses: reading it is a PHI read, audited with the read.
  await record(db, {
    ...actorOf(ctx),
    action: 'worklist.view',
    resource: 'worklist/overdue-followups',
    detail,
  });
}

/**
 * A page's entry: the query and the patients it showed, like every audited list page (docs/audit.md), appended
 * with the other reads waiting (recordRead's group commit) before the page is answered.
 */
async function recordPageView(db: Db, ctx: RequestContext, query: WorklistPageQuery, rows: readonly Row[]) {
  const entry = listReadEntry(
    'worklist.view',
    '/api/worklist/overdue-followups',
    query,
    rows.map((r) => r.patientId),
  );
  await recordRead(db, ctx, { ...entry, resource: 'worklist/overdue-followups' });
}

/**
 * The whole worklist (rules in worklist.rules.ts, docs/worklist.md), ordered by priority, then
 * the longest overdue first. The screen pages it (pageOverdueFollowUps); this complete list serves the
 * requirement checks. The read is audited.
 */
export async function listOverdueFollowUps(db: Db, ctx: RequestContext): Promise<OverdueFollowUp[]> {
  return db.transaction(async (tx) => {
    const rows = await allOverdue(tx, today(ctx.now), {}, ctx.user.role);
    await recordView(tx, ctx, `listed ${rows.length} overdue follow-ups`);
    return rows;
  });
}

/**
 * How each sort orders the list, as keyset keys before the encounter id (all in one direction):
 * `priority` asc is (rank, follow-up due, id) ascending — High first, then the longest overdue;
 * `daysOverdue` asc is (follow-up due, id) descending — the fewest days first.
 */
function keysOf(sort: WorklistPageQuery['sort']): { kinds: KeyKind[]; keys: SQL[] } {
  return sort === 'priority'
    ? { kinds: ['int', 'date'], keys: [sql`s.rank`, sql`s.due`] }
    : { kinds: ['date'], keys: [sql`s.due`] };
}

function indexDirection(sort: WorklistPageQuery['sort'], dir: 'asc' | 'desc'): 'asc' | 'desc' {
  if (sort === 'priority') return dir;
  return dir === 'asc' ? 'desc' : 'asc';
}

/** The priority's rank of a listed stored row of one risk class: a function of its due date alone. */
function classRank(day: string, risk: RiskClass): SQL {
  const cases = [0, 1].flatMap((rank) => {
    const range = daysRange(rank, risk);
    return range === null ? [] : [sql`when ${dueIn(day, range)} then ${rank}::int`];
  });
  return cases.length === 0 ? sql`2` : sql`(case ${sql.join(cases, sql` `)} else 2 end)`;
}

/**
 * The rows of one risk class after a priority-sort cursor (rank, due, id), or null when none can be.
 * Within a class the rank only grows as the due date gets later, so the class's rows in the priority
 * order are its rows in (due, id) order: the rows after the cursor are a suffix (asc) or prefix (desc)
 * of the class's index range. The exact test is (rank, due, id) after the cursor; the bound on the due
 * date, where that suffix starts, is what lets the walk start there in the index.
 */
function afterPriorityCursor(day: string, risk: RiskClass, dir: 'asc' | 'desc', cursor: Keyset): SQL | null {
  const cursorRank = Number(cursor.values[0]);
  const cursorDue = sql`${String(cursor.values[1] ?? '')}::date`;
  const rank = classRank(day, risk);
  const after = dir === 'asc' ? sql`>` : sql`<`;
  const exact = sql`(${rank} ${after} ${cursorRank}::int or (${rank} = ${cursorRank}::int
    and (o.follow_up_due, o.encounter_id) ${after} (${cursorDue}, ${cursor.id}::int)))`;
  // The first rank at or after the cursor's (in the page's direction) that the class can have.
  const next = (dir === 'asc' ? [0, 1, 2] : [2, 1, 0])
    .filter((r) => (dir === 'asc' ? r >= cursorRank : r <= cursorRank))
    .find((r) => daysRange(r, risk) !== null);
  if (next === undefined) return null;
  const range = daysRange(next, risk);
  if (range === null) return null;
  // The class's range of that rank, in due dates: [start, end] (start open when the rank has no upper limit).
  const start = range.max === null ? null : sql`${day}::date - ${range.max}::int`;
  const end = sql`${day}::date - ${range.min}::int`;
  if (dir === 'asc') {
    // Later due dates come later. In the cursor's rank, from the cursor's due date on, but never later than
    // the end of that rank's range (a cursor past it, from another class, leaves the next rank whole).
    const bound =
      next !== cursorRank
        ? start
        : sql`least(${start === null ? cursorDue : sql`greatest(${cursorDue}, ${start})`}, ${end} + 1)`;
    return bound === null ? exact : sql`o.follow_up_due >= ${bound} and ${exact}`;
  }
  const bound =
    next !== cursorRank
      ? end
      : start === null
        ? sql`least(${cursorDue}, ${end})`
        : sql`greatest(least(${cursorDue}, ${end}), ${start} - 1)`;
  return sql`o.follow_up_due <= ${bound} and ${exact}`;
}

/**
 * One page of the worklist, keyset-paged (docs/paging.md), from the stored open follow-ups.
 * The priority sort (and any sort with a priority chosen) merges one walk per risk class of
 * open_follow_ups_risk_due_idx (per provider: open_follow_ups_provider_risk_due_idx), each in the page's
 * direction from the cursor on and stopping after a page; the daysOverdue sort without a priority is one
 * walk of (follow_up_due, encounter_id). Walks pass only listed rows (but for a second visit on one day,
 * rare), so page 1 and page 10,000 cost the same. `total` (the filtered count) comes with a first page
 * only. The read names patients: it is audited.
 */
export async function pageOverdueFollowUps(
  db: Db,
  ctx: RequestContext,
  query: WorklistPageQuery,
): Promise<OverdueFollowUpPage> {
  const day = today(ctx.now);
  const { kinds, keys } = keysOf(query.sort);
  const dir = indexDirection(query.sort, query.dir);
  const cursor = query.cursor ? decodeCursor(query.cursor, query.sort, query.dir, kinds) : null;
  const order = sql.raw(dir);
  const wanted = query.limit + 1;
  const walk = (rank: SQL, where: (SQL | undefined)[]) =>
    sql`(select o.encounter_id as id, ${rank} as rank, o.follow_up_due as due from ${openFollowUps} o
      where ${and(isListed(day), storedProviderFilter(query.provider), ...where)}
      order by o.follow_up_due ${order}, o.encounter_id ${order} ${literalLimit(wanted)})`;
  const walks =
    query.sort === 'daysOverdue' && query.priority === undefined
      ? [
          walk(storedRank(day), [
            cursor ? afterCursor([sql`o.follow_up_due`], sql`o.encounter_id`, ['date'], dir, cursor) : undefined,
          ]),
        ]
      : RISK_CLASSES.flatMap((risk) => {
          const only = query.priority === undefined ? undefined : daysRange(RANK[query.priority], risk);
          if (only === null) return [];
          const after =
            cursor === null
              ? undefined
              : query.sort === 'priority'
                ? afterPriorityCursor(day, risk, dir, cursor)
                : afterCursor([sql`o.follow_up_due`], sql`o.encounter_id`, ['date'], dir, cursor);
          if (after === null) return [];
          return [
            walk(classRank(day, risk), [
              // In the text: a bound class would leave the prepared page's generic plan guessing at its share.
              sql`o.risk_class = ${sql.raw(`'${risk}'`)}`,
              only === undefined ? undefined : dueIn(day, only),
              after,
            ]),
          ];
        });
  const chosen =
    walks.length === 0
      ? sql`select null::int as id, null::int as rank, null::date as due where false`
      : sql.join(walks, sql` union all `);
  const orderBy = sql.join(
    [...keys, sql`s.id`].map((k) => sql`${k} ${order}`),
    sql`, `,
  );
  // The page's ids first (at most a page from each walk, sorted), then their columns: joined before the
  // limit, the planner would read every encounter to join a few hundred walked rows.
  const page = sql`select * from (${chosen}) s order by ${orderBy} ${literalLimit(wanted)}`;
  // One statement, a first page's count with it (page-total.ts), and no transaction: the read's entry is
  // group-committed (recordRead), where a transaction's BEGIN, COMMIT and staged entry were four round trips.
  const count = cursor || query.count === 'false' ? null : overdueCountSql(day, query);
  // Prepared (docs/performance.md, "Planning the hot reads once"): planning it took longer than running it.
  const { rows } = await executePrepared<Row & Record<string, unknown>>(
    db,
    sql`${withColumns(day, page, count)} order by ${orderBy}`,
  );
  const total = await pageTotalOf(db, rows, count);
  const shown = rows.slice(0, query.limit);
  const last = shown[shown.length - 1];
  await recordPageView(db, ctx, query, shown);
  return {
    items: shown.map((row) => toItem(row, ctx.user.role)),
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor(query.sort, query.dir, {
            values: query.sort === 'priority' ? [last.rank, last.due] : [last.due],
            id: last.encounterId,
          })
        : null,
    total,
  };
}

/** How many listed follow-ups the filter selects (the stored rows' own alias, `o`, inside its subquery). */
function overdueCountSql(day: string, filter: WorklistFilterInput): SQL<number> {
  return sql<number>`select count(*)::int from ${openFollowUps} o
    where ${and(
      isListed(day),
      filter.priority === undefined ? undefined : sql`${storedRank(day)} = ${RANK[filter.priority]}::int`,
      storedProviderFilter(filter.provider),
    )}`;
}

/**
 * The worklist's tiles over the whole unfiltered list, and the provider filter's choices, counted by the
 * database. Counts and staff names only (no PHI), so not an audited read.
 */
export async function summariseOverdueFollowUps(db: Db, ctx: RequestContext): Promise<WorklistSummary> {
  const day = today(ctx.now);
  return summaryOf(
    db,
    sql`select o.provider_id, ${storedRank(day)} as rank, (${day}::date - o.follow_up_due) as days
      from ${openFollowUps} o where ${isListed(day)}`,
  );
}

/** The tiles over `listed` (provider_id, rank, days). */
async function summaryOf(db: DbOrTx, listed: SQL): Promise<WorklistSummary> {
  const { rows } = await db.execute<{
    total: number;
    high: number;
    medium: number;
    low: number;
    days: number;
    providers: string[] | null;
  }>(sql`select count(*)::int as total,
      count(*) filter (where rank = 0)::int as high,
      count(*) filter (where rank = 1)::int as medium,
      count(*) filter (where rank = 2)::int as low,
      coalesce(sum(days), 0)::int as days,
      array_agg(distinct v.name) as providers
    from (${listed}) s
    join ${providers} v on v.id = s.provider_id`);
  const row = rows[0];
  const total = row?.total ?? 0;
  return {
    total,
    high: row?.high ?? 0,
    medium: row?.medium ?? 0,
    low: row?.low ?? 0,
    avgDaysOverdue: total === 0 ? 0 : Math.round((row?.days ?? 0) / total),
    providers: [...(row?.providers ?? [])].sort((a, b) => a.localeCompare(b)),
  };
}

/**
 * The CSV of the filtered worklist: every row the filters select, in the worklist's order,
 * with the export recorded in the audit log after the read and before the answer (docs/audit.md).
 */
export async function exportOverdueFollowUps(
  db: Db,
  ctx: RequestContext,
  filter: WorklistFilterInput,
): Promise<OverdueFollowUp[]> {
  const filters = [filter.priority && `priority ${filter.priority}`, filter.provider && `provider ${filter.provider}`]
    .filter(Boolean)
    .join(', ');
  const rows = await allOverdue(db, today(ctx.now), filter, ctx.user.role);
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'export.csv',
    resource: 'overdue-followups',
    detail: `overdue-followups.csv: ${rows.length} rows${filters ? ` (${filters})` : ''}`,
  });
  return rows;
}

/**
 * Rebuilds the stored open follow-ups from encounters and appointments (a repair; the triggers keep them
 * exact without it). Writers to encounters and appointments wait while it runs.
 */
export async function rebuildOpenFollowUps(db: DbOrTx): Promise<void> {
  await db.execute(sql`select open_follow_ups_rebuild()`);
}

/* ---- The reference: the definition evaluated on encounters and appointments directly (no stored set). ---- */

/**
 * Overdue (docs/worklist.md), for the encounter `e`: its follow-up is due before `day` (the server's calendar day) and no
 * later visit exists for the patient: no appointment dated after the encounter that is not Cancelled or
 * No-Show, and no later encounter (a visit that already happened). Only the patient's most recent such
 * encounter counts (on one day, the highest id), so the list counts patients. Each test is an index probe
 * (appointments_patient_idx, encounters_patient_idx), so a walk in index order can stop after a page.
 */
function isOverdueRaw(day: string): SQL {
  return sql`e.follow_up_due < ${day}::date
    and not exists (select 1 from ${appointments} a where a.patient_id = e.patient_id
      and a.date > e.encounter_date and a.status not in (${sql.join(
        NOT_A_VISIT.map((s) => sql`${s}`),
        sql`, `,
      )}))
    and not exists (select 1 from ${encounters} l where l.patient_id = e.patient_id
      and (l.encounter_date > e.encounter_date
        or (l.encounter_date = e.encounter_date and l.id > e.id and l.follow_up_due < ${day}::date)))`;
}

/** worklist.rules.ts's risk class of `e`'s diagnoses, in SQL (a diagnosis's code is its first word). */
const RISK_CLASS = sql`(case
  when exists (select 1 from unnest(e.diagnosis) d
    where upper(substring(d from '^\\s*(\\S+)')) = any(${textArray(HIGH_RISK_CODES)})) then 'high-risk'
  when exists (select 1 from unnest(e.diagnosis) d
    where upper(substring(d from '^\\s*(\\S+)')) = any(${textArray(CHRONIC_CODES)})) then 'chronic'
  else 'routine' end)`;

/**
 * The priority's rank (0 High, 1 Medium, 2 Low) by worklist.rules.ts's THRESHOLDS, in SQL, so the
 * database can order and filter by it; the answer's priority is still computed by the rules in TS.
 */
function priorityRankRaw(day: string): SQL {
  const days = daysOverdue(day);
  const classes = Object.entries(THRESHOLDS);
  const high = classes
    .filter(([, t]) => t.high !== null)
    .map(([risk, t]) => sql`when ${RISK_CLASS} = ${risk} and ${days} > ${t.high}::int then 0`);
  const medium = classes.map(([risk, t]) => sql`when ${RISK_CLASS} = ${risk} and ${days} > ${t.medium}::int then 1`);
  return sql`(case ${sql.join([...high, ...medium], sql` `)} else 2 end)`;
}

function providerFilterRaw(provider: string | undefined): SQL | undefined {
  return provider === undefined
    ? undefined
    : sql`e.provider_id in (select id from ${providers} where name = ${provider})`;
}

/**
 * The worklist the filter selects, in the worklist's order, computed from encounters and appointments
 * without the stored open follow-ups: the reference the stored set is tested against
 * (worklist.open-follow-ups.test.ts). Not audited: tests only.
 */
export async function listOverdueFollowUpsRaw(
  db: DbOrTx,
  day: string,
  filter: WorklistFilterInput,
): Promise<OverdueFollowUp[]> {
  const rank = filter.priority === undefined ? undefined : RANK[filter.priority];
  const chosen = sql`select e.id, ${priorityRankRaw(day)} as rank from ${encounters} e
    where ${and(isOverdueRaw(day), providerFilterRaw(filter.provider), rank === undefined ? undefined : sql`${priorityRankRaw(day)} = ${rank}::int`)}`;
  const { rows } = await db.execute<Row & Record<string, unknown>>(withColumns(day, chosen));
  return rows.map((row) => toItem(row, null)).sort(compareFollowUps);
}

/** The tiles computed without the stored open follow-ups (the reference, for tests). */
export async function summariseOverdueFollowUpsRaw(db: DbOrTx, day: string): Promise<WorklistSummary> {
  return summaryOf(
    db,
    sql`select e.provider_id, ${priorityRankRaw(day)} as rank, ${daysOverdue(day)} as days
      from ${encounters} e where ${isOverdueRaw(day)}`,
  );
}
