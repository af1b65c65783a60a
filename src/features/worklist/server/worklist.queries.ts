import { sql, type SQL } from 'drizzle-orm';
import { today } from '@/shared/api';
import { appointments } from '@/features/appointments/server/appointments.table';
import { record } from '@/features/audit/server/audit.queries';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import type { RequestContext } from '@/server/context';
import { afterCursor, decodeCursor, encodeCursor, type KeyKind } from '@/server/db/keyset';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import {
  CHRONIC_CODES,
  HIGH_RISK_CODES,
  THRESHOLDS,
  compareFollowUps,
  followUpPriority,
  recommendedAction,
} from '../worklist.rules';
import {
  type FollowUpPriority,
  type OverdueFollowUp,
  type OverdueFollowUpPage,
  type WorklistFilterInput,
  type WorklistPageQuery,
  type WorklistSummary,
} from '../worklist.schema';
import { encounters } from './worklist.table';

/** Appointment statuses that do not count as a visit booked: the patient will not be (or was not) seen. */
const NOT_A_VISIT = ['Cancelled', 'No-Show'];

function textArray(values: readonly string[]): SQL {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}::text`),
    sql`, `,
  )}]`;
}

/**
 * DECISIONS 4, for the encounter `e`: its follow-up is due before `day` (the server's calendar day) and no
 * later visit exists for the patient: no appointment dated after the encounter that is not Cancelled or
 * No-Show, and no later encounter (a visit that already happened). Only the patient's most recent such
 * encounter counts (on one day, the highest id), so the list counts patients. Each test is an index probe
 * (appointments_patient_idx, encounters_patient_idx), so a walk in index order can stop after a page.
 */
function isOverdue(day: string): SQL {
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

function daysOverdue(day: string): SQL {
  return sql`(${day}::date - e.follow_up_due)`;
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
function priorityRank(day: string): SQL {
  const days = daysOverdue(day);
  const classes = Object.entries(THRESHOLDS);
  const high = classes
    .filter(([, t]) => t.high !== null)
    .map(([risk, t]) => sql`when ${RISK_CLASS} = ${risk} and ${days} > ${t.high}::int then 0`);
  const medium = classes.map(([risk, t]) => sql`when ${RISK_CLASS} = ${risk} and ${days} > ${t.medium}::int then 1`);
  return sql`(case ${sql.join([...high, ...medium], sql` `)} else 2 end)`;
}

const RANK: Record<FollowUpPriority, number> = { High: 0, Medium: 1, Low: 2 };

/**
 * The follow-up due dates a priority can have, whatever the risk class, as an index range: High needs more
 * than the smallest High threshold of days, Low at most the largest Medium threshold.
 */
function dueRange(rank: number, day: string): SQL | undefined {
  const t = Object.values(THRESHOLDS);
  if (rank === 0) {
    const least = Math.min(...t.flatMap((x) => (x.high === null ? [] : [x.high])));
    return sql`e.follow_up_due < ${day}::date - ${least}::int`;
  }
  if (rank === 2) return sql`e.follow_up_due >= ${day}::date - ${Math.max(...t.map((x) => x.medium))}::int`;
  return undefined;
}

function providerFilter(provider: string | undefined): SQL | undefined {
  return provider === undefined
    ? undefined
    : sql`e.provider_id in (select id from ${providers} where name = ${provider})`;
}

function and(...parts: (SQL | undefined)[]): SQL {
  return sql.join(
    parts.filter((p): p is SQL => p !== undefined),
    sql` and `,
  );
}

interface Row {
  encounterId: number;
  patientName: string;
  providerName: string;
  encounterDate: string;
  encounterType: string;
  chiefComplaint: string;
  diagnosis: string[];
  daysOverdue: number;
  rank: number;
  due: string;
}

function toItem({ rank: _rank, due: _due, ...row }: Row): OverdueFollowUp {
  const priority = followUpPriority(row.diagnosis, row.daysOverdue);
  return { ...row, priority, recommendedAction: recommendedAction(priority) };
}

/** The columns of a listed follow-up, for encounters `e` chosen by `chosen` (id, rank, due). */
function withColumns(day: string, chosen: SQL): SQL {
  return sql`select e.id as "encounterId", p.name as "patientName", v.name as "providerName",
      e.encounter_date::text as "encounterDate", e.encounter_type as "encounterType",
      e.chief_complaint as "chiefComplaint", e.diagnosis, ${daysOverdue(day)}::int as "daysOverdue",
      s.rank::int as rank, e.follow_up_due::text as due
    from (${chosen}) s
    join ${encounters} e on e.id = s.id
    join ${patients} p on p.id = e.patient_id
    join ${providers} v on v.id = e.provider_id`;
}

/** Every overdue follow-up the filter selects, in the worklist's order (priority, longest overdue, id). */
async function allOverdue(db: DbOrTx, day: string, filter: WorklistFilterInput): Promise<OverdueFollowUp[]> {
  const rank = filter.priority === undefined ? undefined : RANK[filter.priority];
  const chosen = sql`select e.id, ${priorityRank(day)} as rank from ${encounters} e
    where ${and(isOverdue(day), providerFilter(filter.provider), rank === undefined ? undefined : sql`${priorityRank(day)} = ${rank}::int`)}`;
  const { rows } = await db.execute<Row & Record<string, unknown>>(withColumns(day, chosen));
  return rows.map(toItem).sort(compareFollowUps);
}

async function recordView(db: Tx, ctx: RequestContext, detail: string) {
  // The list names patients with their diagnoses: reading it is a PHI read, audited with the read.
  await record(db, {
    actor: ctx.user.email,
    actorUserId: ctx.user.id,
    actorRole: ctx.user.role,
    action: 'worklist.view',
    resource: 'worklist/overdue-followups',
    detail,
    at: ctx.now,
  });
}

/**
 * The whole worklist (DECISIONS 4; rules in worklist.rules.ts, docs/worklist.md), ordered by priority, then
 * the longest overdue first. The screen pages it (pageOverdueFollowUps); this complete list serves the
 * requirement checks. The read is audited.
 */
export async function listOverdueFollowUps(db: Db, ctx: RequestContext): Promise<OverdueFollowUp[]> {
  return db.transaction(async (tx) => {
    const rows = await allOverdue(tx, today(ctx.now), {});
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

/**
 * One page of the worklist (SPEC 2.17), keyset-paged (docs/paging.md). Each priority is a walk of the
 * follow-up due index (per provider when one is chosen) in the page's direction, from the cursor on,
 * keeping the encounters that are overdue and have that priority, until a page is full; the priority
 * sort takes the walks one after another (High, Medium, Low), so no walk sorts more than a page. `total`
 * (the filtered count) comes with a first page only. The read names patients: it is audited.
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
  const ranks = (query.priority === undefined ? [0, 1, 2] : [RANK[query.priority]])
    .filter(
      (r) =>
        query.sort !== 'priority' ||
        cursor === null ||
        (dir === 'asc' ? r >= Number(cursor.values[0]) : r <= Number(cursor.values[0])),
    )
    .sort((a, b) => (dir === 'asc' ? a - b : b - a));
  const rank = priorityRank(day);
  const walk = (r: number | undefined) => {
    const after =
      cursor === null
        ? undefined
        : query.sort === 'priority'
          ? r === Number(cursor.values[0])
            ? afterCursor([sql`e.follow_up_due`], sql`e.id`, ['date'], dir, {
                values: [cursor.values[1] ?? ''],
                id: cursor.id,
              })
            : undefined
          : afterCursor([sql`e.follow_up_due`], sql`e.id`, ['date'], dir, cursor);
    return sql`(select e.id, ${r === undefined ? rank : sql`${r}::int`} as rank, e.follow_up_due as due from ${encounters} e
      where ${and(
        isOverdue(day),
        r === undefined ? undefined : sql`${rank} = ${r}::int`,
        r === undefined ? undefined : dueRange(r, day),
        providerFilter(query.provider),
        after,
      )}
      order by e.follow_up_due ${order}, e.id ${order} limit ${wanted})`;
  };
  const walks =
    query.sort === 'priority' || query.priority !== undefined ? ranks.map((r) => walk(r)) : [walk(undefined)];
  const chosen =
    walks.length === 0
      ? sql`select null::int as id, null::int as rank, null::date as due where false`
      : sql.join(walks, sql` union all `);
  return db.transaction(async (tx) => {
    const [{ rows }, total] = await Promise.all([
      tx.execute<Row & Record<string, unknown>>(
        sql`${withColumns(day, chosen)} order by ${sql.join(
          [...keys, sql`s.id`].map((k) => sql`${k} ${order}`),
          sql`, `,
        )} limit ${wanted}`,
      ),
      cursor || query.count === 'false' ? Promise.resolve(null) : countOverdue(tx, day, query),
    ]);
    const shown = rows.slice(0, query.limit);
    const last = shown[shown.length - 1];
    await recordView(tx, ctx, `listed ${shown.length} overdue follow-ups (a page)`);
    return {
      items: shown.map(toItem),
      nextCursor:
        rows.length > query.limit && last
          ? encodeCursor(query.sort, query.dir, {
              values: query.sort === 'priority' ? [last.rank, last.due] : [last.due],
              id: last.encounterId,
            })
          : null,
      total,
    };
  });
}

async function countOverdue(db: DbOrTx, day: string, filter: WorklistFilterInput): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${encounters} e
    where ${and(
      isOverdue(day),
      filter.priority === undefined ? undefined : sql`${priorityRank(day)} = ${RANK[filter.priority]}::int`,
      providerFilter(filter.provider),
    )}`);
  return rows[0]?.n ?? 0;
}

/**
 * SPEC 2.17 tiles over the whole unfiltered list, and the provider filter's choices, counted by the
 * database. Counts and staff names only (no PHI), so not an audited read.
 */
export async function summariseOverdueFollowUps(db: Db, ctx: RequestContext): Promise<WorklistSummary> {
  const day = today(ctx.now);
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
    from (select e.provider_id, ${priorityRank(day)} as rank, ${daysOverdue(day)} as days
      from ${encounters} e where ${isOverdue(day)}) s
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
 * The CSV of the filtered worklist (SPEC 2.17): every row the filters select, in the worklist's order,
 * with the export recorded in the audit log in the same transaction (DECISIONS 6).
 */
export async function exportOverdueFollowUps(
  db: Db,
  ctx: RequestContext,
  filter: WorklistFilterInput,
): Promise<OverdueFollowUp[]> {
  const filters = [filter.priority && `priority ${filter.priority}`, filter.provider && `provider ${filter.provider}`]
    .filter(Boolean)
    .join(', ');
  return db.transaction(async (tx) => {
    const rows = await allOverdue(tx, today(ctx.now), filter);
    await record(tx, {
      actor: ctx.user.email,
      actorUserId: ctx.user.id,
      actorRole: ctx.user.role,
      action: 'export.csv',
      resource: 'overdue-followups',
      detail: `overdue-followups.csv: ${rows.length} rows${filters ? ` (${filters})` : ''}`,
      at: ctx.now,
    });
    return rows;
  });
}
