import { and, asc, desc, eq, gte, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { maskText, seesField } from '@/shared/access';
import { formatCents, formatDollars, today } from '@/shared/api';
import { resolveClaimWorkItems } from '@/features/workqueue/server/workqueue.queries';
import { WORK_SOURCES } from '@/features/workqueue/workqueue.schema';
import { actorOf, listReadEntry, record, recordNow, recordRead } from '@/features/audit/server/audit.queries';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { uniqueViolationOf } from '@/server/db/sql-helpers';
import { executePrepared, literalLimit, offsetClause } from '@/server/db/prepared';
import { pageTotalColumn, pageTotalOf } from '@/server/db/page-total';
import { HttpError } from '@/server/plugins/errors';
import {
  afterCursor,
  decodeCursor,
  direction,
  encodeCursor,
  type KeyKind,
  type KeyValue,
  type Keyset,
} from '@/server/db/keyset';
import { patients } from '@/features/patients/server/patients.table';
import { payers } from '@/features/payers/server/payers.table';
import { providers } from '@/features/providers/server/providers.table';
import {
  APPEAL_LEVEL_LABELS,
  APPEAL_OUTCOME_LABELS,
  CLAIM_EXPORT_MAX_ROWS,
  claimAppealSchema,
  DENIAL_DESCRIPTIONS,
  TOP_DENIAL_REASONS,
  TREND_WEEKS,
  claimFrequencySchema,
  claimRowStatusSchema,
  APPEALABLE_STATUSES,
  CORRECTABLE_STATUSES,
  VOIDABLE_AT_PAYER_STATUSES,
  WRITE_OFF_STATUSES,
  claimStatusSchema,
  lineControlNumber,
  type ClaimExport,
  type ClaimExportQuery,
  type ClaimFilter,
  type ClaimListQuery,
  type ClaimOverview,
  type AppealLevel,
  type AppealOutcomeRequest,
  type ClaimAppeal,
  type ClaimPage,
  type ClaimProvider,
  type ClaimRow,
  type ClaimRowStatus,
  type ClaimSortKey,
  DEFAULT_CHARGE_CEILING_CENTS,
  type ChargeCeiling,
  type ChargeCeilingList,
  type ChargeCeilingUpdate,
  type ImportError,
  type CorrectClaim,
  type VoidAtPayer,
  type VoidClaim,
  type WriteOffClaim,
} from '../claims.schema';
import {
  parseClaimsCsv,
  resolveImportRows,
  sortImportErrors,
  UNKNOWN_REFERENCES_IN_FILE,
  type ImportReferences,
} from './claims.import';
import { chargeCeilings, claimAppeals, claimLines, claims, payments } from './claims.table';
import { users } from '@/features/auth/server/auth.table';
import { claimsDailyRollup, claimsStatusRollup } from './claims.rollup.table';
import { claimFilterDetail, claimsRollupWhere, claimsWhere } from './claims.filter.queries';
import { daysInArSql, deniedClaimSql, notVoidedSql } from './claims.summary.queries';
import { claimOpenBalanceSql, PAID_STATUSES_SQL } from './claims.formulas';
import { followHandedOnBalances } from './claims.next-policy.queries';

// ---------------------------------------------------------------------------------------------
// The Claims screen: list, overview, export, appeal and import. Everything is filtered,
// sorted, paged and aggregated by the database; no query loads all claims into JS.

function rowColumns(ctx: RequestContext) {
  return {
    id: claims.id,
    patient: patients.name,
    accountNumber: claims.accountNumber,
    procedure: claims.procedureCode,
    provider: providers.name,
    payer: claims.payer,
    serviceDate: claims.serviceDate,
    billedCents: claims.billedCents,
    paidCents: claims.paidCents,
    daysAR: daysInArSql(today(ctx.now)),
    balanceCents: claimOpenBalanceSql(),
    status: shownStatusSql,
    frequencyCode: claims.frequencyCode,
    reason: claims.reasonCode,
    denialDescription: claims.denialDescription,
  };
}

/** The status the list shows: Voided for a voided claim, else the stored one. */
const shownStatusSql = sql<string>`case when ${claims.voidedAt} is not null then 'Voided' else ${claims.status} end`;

/**
 * A claims list row. Each field is named rather than spread from the query's row: a list or an export
 * builds one per claim, and V8 copies a spread with an added field through a slow generic path
 * (docs/performance.md, "Answers built field by field"); a column the query adds stays out of the answer.
 */
function toClaimRow(
  row: Omit<ClaimRow, 'status' | 'frequencyCode'> & { status: string; frequencyCode: string },
): ClaimRow {
  return {
    id: row.id,
    patient: row.patient,
    accountNumber: row.accountNumber,
    procedure: row.procedure,
    provider: row.provider,
    payer: row.payer,
    serviceDate: row.serviceDate,
    billedCents: row.billedCents,
    paidCents: row.paidCents,
    daysAR: row.daysAR,
    balanceCents: row.balanceCents,
    status: claimRowStatusSchema.parse(row.status),
    frequencyCode: claimFrequencySchema.parse(row.frequencyCode),
    reason: row.reason,
    denialDescription: row.denialDescription,
  };
}

/**
 * The claims list's order for each sort: the key columns then the claim id, all in one direction, so
 * keyset paging can resume after any row and one btree index (read forwards or backwards) serves it.
 * - payer and status: ties by service date (claims_payer_idx, claims_status_service_date_idx);
 * - patient: by name, then the patient (names repeat), then the claim's service date;
 * - provider: names are unique, so by name then the claim's service date;
 * - daysAR: the days-in-A/R number, then the claim (served by the streams of `daysArPageIds`).
 * The export uses the same order, so the CSV lists the claims as the screen pages them (CLAIM_KEY_KINDS
 * and pageKeysSql say the same keys for the pages).
 */
function orderBy(ctx: RequestContext, sort: ClaimSortKey, dir: 'asc' | 'desc'): SQL[] {
  const order = dir === 'asc' ? asc : desc;
  const keys: (SQL | AnyPgColumn)[] = {
    serviceDate: [claims.serviceDate],
    patient: [patients.name, patients.id, claims.serviceDate],
    accountNumber: [claims.accountNumber],
    procedure: [claims.procedureCode],
    provider: [providers.name, claims.serviceDate],
    payer: [claims.payer, claims.serviceDate],
    billedCents: [claims.billedCents],
    paidCents: [claims.paidCents],
    daysAR: [daysInArSql(today(ctx.now))],
    status: [claims.status, claims.serviceDate],
  }[sort];
  return [...keys.map((key) => order(key)), order(claims.id)];
}

/** The kinds of a cursor's key values for each sort (the claim id always ends the cursor). */
const CLAIM_KEY_KINDS: Record<ClaimSortKey, KeyKind[]> = {
  serviceDate: ['date'],
  patient: ['text', 'int', 'date'],
  accountNumber: ['text'],
  procedure: ['text'],
  provider: ['text', 'date'],
  payer: ['text', 'date'],
  billedCents: ['int'],
  paidCents: ['int'],
  daysAR: ['int'],
  status: ['text', 'date'],
};

/** Sorts on the claim's own columns; each has a (key…, id) index (claims.table.ts). */
const COLUMN_KEYS: Partial<Record<ClaimSortKey, AnyPgColumn[]>> = {
  serviceDate: [claims.serviceDate],
  accountNumber: [claims.accountNumber],
  procedure: [claims.procedureCode],
  payer: [claims.payer, claims.serviceDate],
  billedCents: [claims.billedCents],
  paidCents: [claims.paidCents],
  // Within a status, newest service date first (as the list's default order): the filtered list's index
  // serves the sort too, so the claims table keeps one status index fewer to write.
  status: [claims.status, claims.serviceDate],
};

interface PageKey {
  id: number;
  keys: KeyValue[];
}

/** A key value as the cursor carries it: dates as text (they are selected as ::text), numbers as numbers. */
function keyColumns(keys: readonly (SQL | AnyPgColumn)[], kinds: readonly KeyKind[]): SQL {
  return sql.join(
    keys.map((key, i) => sql`${key}${sql.raw(kinds[i] === 'date' ? '::text' : '')} as ${sql.identifier(`k${i}`)}`),
    sql`, `,
  );
}

function toPageKeys(rows: Record<string, unknown>[], arity: number): PageKey[] {
  return rows.map((row) => ({
    id: Number(row.id),
    keys: Array.from({ length: arity }, (_, i) => row[`k${i}`] as KeyValue),
  }));
}

/**
 * The ids (and sort keys) of one page plus one more row (which says whether there is a next page).
 * Each sort's query walks an index from the cursor, so page N costs what page 1 does:
 * - the claim's own columns: a range scan of the (key…, id) index;
 * - patient and provider names: the people in name order (patients_name_id_idx, or the small providers
 *   table), and for each, its claims by service date (claims_patient_idx / claims_provider_service_date_idx,
 *   the indexes the patient and provider filters use), at most one page's worth each; a search instead finds
 *   its matches through the trigram indexes and sorts those;
 * - days in A/R: see `daysArPageIds`.
 */
function pageKeysSql(ctx: RequestContext, query: ClaimListQuery, cursor: Keyset | null): SQL {
  const kinds = CLAIM_KEY_KINDS[query.sort];
  const dir = direction(query.dir);
  const take = query.limit + 1;
  const where = claimsWhere(query);
  const columns = COLUMN_KEYS[query.sort];
  let statement: SQL;
  if (columns) {
    const after = cursor
      ? afterCursor(
          columns.map((c) => sql`${c}`),
          sql`${claims.id}`,
          kinds,
          query.dir,
          cursor,
        )
      : undefined;
    statement = sql`select ${claims.id} as id, ${keyColumns(columns, kinds)} from ${claims}
      where ${and(where, after) ?? sql`true`}
      order by ${sql.join(
        [...columns, claims.id].map((c) => sql`${c} ${dir}`),
        sql`, `,
      )}
      ${literalLimit(take)}${offsetClause(query.offset)}`;
  } else if (query.sort === 'daysAR') {
    statement = daysArPageIds(ctx, query, where, cursor);
  } else if (query.search !== '') {
    const person = query.sort === 'patient' ? patients : providers;
    const personKeys =
      query.sort === 'patient'
        ? [sql`${patients.name}`, sql`${patients.id}`, sql`${claims.serviceDate}`]
        : [sql`${providers.name}`, sql`${claims.serviceDate}`];
    const after = cursor ? afterCursor(personKeys, sql`${claims.id}`, kinds, query.dir, cursor) : undefined;
    const fk = query.sort === 'patient' ? claims.patientId : claims.providerId;
    statement = sql`select ${claims.id} as id, ${keyColumns(personKeys, kinds)} from ${claims}
      join ${person} on ${person.id} = ${fk}
      where ${and(where, after) ?? sql`true`}
      order by ${sql.join(
        [...personKeys, sql`${claims.id}`].map((c) => sql`${c} ${dir}`),
        sql`, `,
      )}
      ${literalLimit(take)}${offsetClause(query.offset)}`;
  } else {
    statement = byPersonPageIds(query, where, cursor);
  }
  return statement;
}

/**
 * Claims in (person name[, person id], service date, claim id) order without a search: the people walked in
 * name order through their index, and for each person its claims by service date through the claims index
 * the person's filter uses, at most a page's worth each, so reaching the page after any cursor reads about a
 * page of rows whatever its depth. Within a person the claims follow the sort's direction, as within a status.
 */
function byPersonPageIds(query: ClaimListQuery, where: SQL | undefined, cursor: Keyset | null): SQL {
  const dir = direction(query.dir);
  const take = query.limit + 1 + query.offset;
  const isPatient = query.sort === 'patient';
  const person = isPatient ? patients : providers;
  const fk = isPatient ? claims.patientId : claims.providerId;
  const op = sql.raw(query.dir === 'asc' ? '>' : '<');
  const opOrEqual = sql.raw(query.dir === 'asc' ? '>=' : '<=');
  // The cursor's person: from it (inclusive) in name order; within it, only claims after the cursor's.
  let people = sql`true`;
  let within = sql`true`;
  if (cursor) {
    const claimAfter = (day: KeyValue | undefined) =>
      sql`(${claims.serviceDate}, ${claims.id}) ${op} (${day}::date, ${cursor.id}::int)`;
    if (isPatient) {
      const [name, personId, day] = cursor.values;
      people = sql`(${patients.name}, ${patients.id}) ${opOrEqual} (${name}::text, ${personId}::int)`;
      within = sql`(person.id <> ${personId}::int or ${claimAfter(day)})`;
    } else {
      const [name, day] = cursor.values;
      people = sql`${providers.name} ${opOrEqual} ${name}::text`;
      within = sql`(person.name <> ${name}::text or ${claimAfter(day)})`;
    }
  }
  const personKeys = isPatient
    ? sql`person.name as k0, person.id as k1, c.service_date::text as k2`
    : sql`person.name as k0, c.service_date::text as k1`;
  const personOrder = isPatient ? sql`person.name ${dir}, person.id ${dir}` : sql`person.name ${dir}`;
  return sql`select c.id as id, ${personKeys}
    from (select ${person.id} as id, ${person.name} as name from ${person} where ${people}) person
    cross join lateral (
      select ${claims.id} as id, ${claims.serviceDate} as service_date from ${claims}
      where ${fk} = person.id and ${and(where, within) ?? sql`true`}
      order by ${claims.serviceDate} ${dir}, ${claims.id} ${dir} limit ${take}
    ) c
    order by ${personOrder}, c.service_date ${dir}, c.id ${dir}
    limit ${query.limit + 1} offset ${query.offset}`;
}

/**
 * Days in A/R is computed from today, so no single index holds its order; it is the merge of four
 * streams, each in days order through an index of its own, then the first page of the merge:
 * - resolved by today: days = greatest(0, resolved_on − service_date), a fixed number per claim
 *   (expression index claims_days_ar_resolved_idx);
 * - open and served before today: days = today − service_date, i.e. service date newest first
 *   (partial index claims_open_service_date_idx on (service_date desc, id));
 * - open and served today or later: 0 days, by id (a day's claims);
 * - resolved after today (only a back-dated clock sees these): days = greatest(0, today − service_date),
 *   found through claims_resolved_on_idx.
 */
function daysArPageIds(ctx: RequestContext, query: ClaimListQuery, where: SQL | undefined, cursor: Keyset | null): SQL {
  const day = today(ctx.now);
  const dir = direction(query.dir);
  const back = direction(query.dir === 'asc' ? 'desc' : 'asc');
  const asc_ = query.dir === 'asc';
  const take = query.limit + 1 + query.offset;
  const op = sql.raw(asc_ ? '>' : '<');
  const days = cursor ? Number(cursor.values[0]) : 0;
  const resolvedDays = sql`greatest(0, ${claims.resolvedOn} - ${claims.serviceDate})`;
  const stream = (condition: SQL, key: SQL, after: SQL | undefined, order: SQL) =>
    sql`(select ${claims.id} as id, (${key})::int as k0 from ${claims}
      where ${and(condition, where, after)} order by ${order} limit ${take})`;

  const resolved = stream(
    sql`${claims.resolvedOn} is not null and ${claims.resolvedOn} <= ${day}::date`,
    resolvedDays,
    cursor ? sql`(${resolvedDays}, ${claims.id}) ${op} (${days}::int, ${cursor.id}::int)` : undefined,
    sql`${resolvedDays} ${dir}, ${claims.id} ${dir}`,
  );
  // Open before today: days = today − service_date; (days, id) after the cursor in service-date terms.
  const boundary = sql`(${day}::date - ${days}::int)`;
  const openAfter = cursor
    ? asc_
      ? sql`${claims.serviceDate} <= ${boundary} and (${claims.serviceDate} < ${boundary} or ${claims.id} > ${cursor.id}::int)`
      : sql`${claims.serviceDate} >= ${boundary} and (${claims.serviceDate} > ${boundary} or ${claims.id} < ${cursor.id}::int)`
    : undefined;
  const open = stream(
    sql`${claims.resolvedOn} is null and ${claims.serviceDate} < ${day}::date`,
    sql`${day}::date - ${claims.serviceDate}`,
    openAfter,
    sql`${claims.serviceDate} ${back}, ${claims.id} ${dir}`,
  );
  // Open from today on: all 0 days.
  let todayAfter: SQL | undefined;
  if (cursor) {
    if (days === 0) todayAfter = sql`${claims.id} ${op} ${cursor.id}::int`;
    else if ((asc_ && days > 0) || (!asc_ && days < 0)) todayAfter = sql`false`;
  }
  const openToday = stream(
    sql`${claims.resolvedOn} is null and ${claims.serviceDate} >= ${day}::date`,
    sql`0`,
    todayAfter,
    sql`${claims.id} ${dir}`,
  );
  const lateDays = sql`greatest(0, ${day}::date - ${claims.serviceDate})`;
  const resolvedLater = stream(
    sql`${claims.resolvedOn} > ${day}::date`,
    lateDays,
    cursor ? sql`(${lateDays}, ${claims.id}) ${op} (${days}::int, ${cursor.id}::int)` : undefined,
    sql`${lateDays} ${dir}, ${claims.id} ${dir}`,
  );
  return sql`select id, k0 from (${resolved} union all ${open} union all ${openToday} union all ${resolvedLater}) merged
    order by k0 ${dir}, id ${dir} limit ${query.limit + 1} offset ${query.offset}`;
}

function claimRowsQuery(db: DbOrTx, ctx: RequestContext) {
  return db
    .select(rowColumns(ctx))
    .from(claims)
    .innerJoin(patients, eq(patients.id, claims.patientId))
    .innerJoin(providers, eq(providers.id, claims.providerId))
    .$dynamic();
}

/**
 * How many claims match the filters. A filter the rollups can answer (claims.filter.queries.ts) is counted
 * from the status rollup (kept exact in each claim write's transaction), so a million claims are not counted
 * row by row for every first page; a search counts its matches, which its indexes find.
 */
function matchingClaimsCountSql(filter: ClaimFilter): SQL<number> {
  const r = claimsStatusRollup;
  const rollupWhere = claimsRollupWhere(filter, r);
  if (rollupWhere === null) {
    return sql<number>`select count(*)::int from ${claims} where ${claimsWhere(filter) ?? sql`true`}`;
  }
  return sql<number>`select coalesce(sum(${r.claims}), 0)::int from ${r} where ${rollupWhere ?? sql`true`}`;
}

/**
 * One page of the filtered, sorted claims ('All Claims'), keyset-paged: `nextCursor` resumes
 * after its last row. `total` (how many match) is counted on a first page only (no cursor).
 *
 * The page is ONE statement: the index walk that finds the page's ids and sort keys (`pageKeysSql`),
 * joined to the rows it shows, in the page's order (the keys, then the id, all one direction). Each
 * database round trip costs a few tenths of a millisecond of system time, so a page is one of them, a
 * first page's count included (page-total.ts).
 */
type ListedClaim = Omit<ClaimRow, 'status'> & { status: string } & Record<string, unknown>;

export async function listClaims(db: Db, ctx: RequestContext, query: ClaimListQuery): Promise<ClaimPage> {
  const kinds = CLAIM_KEY_KINDS[query.sort];
  const cursor = query.cursor ? decodeCursor(query.cursor, query.sort, query.dir, kinds) : null;
  const dir = direction(query.dir);
  const pageOrder = sql.join(
    [
      ...kinds.map((kind, i) => sql`page.${sql.identifier(`k${i}`)}${sql.raw(kind === 'date' ? '::date' : '')}`),
      sql`page.id`,
    ].map((key) => sql`${key} ${dir}`),
    sql`, `,
  );
  // A first page carries how many claims match (page-total.ts).
  const count = cursor || query.count === 'false' ? null : matchingClaimsCountSql(query);
  const statement = sql`select ${patients.name} as patient,
      ${claims.accountNumber} as "accountNumber", ${claims.procedureCode} as procedure,
      ${providers.name} as provider, ${claims.payer} as payer, ${claims.serviceDate}::text as "serviceDate",
      ${claims.billedCents} as "billedCents", ${claims.paidCents} as "paidCents",
      ${daysInArSql(today(ctx.now))} as "daysAR", ${claimOpenBalanceSql()} as "balanceCents", ${shownStatusSql} as status, ${claims.reasonCode} as reason,
      ${claims.frequencyCode} as "frequencyCode", ${claims.denialDescription} as "denialDescription", ${claims.patientId} as "patientId", page.*
      ${pageTotalColumn(count)}
    from (${pageKeysSql(ctx, query, cursor)}) page
    join ${claims} on ${claims.id} = page.id
    join ${patients} on ${patients.id} = ${claims.patientId}
    join ${providers} on ${providers.id} = ${claims.providerId}
    order by ${pageOrder}`;
  // Prepared, but never for a text search: its texts' shares of the claims differ too much for one plan to
  // serve them all, and a search is typed far less often than a page is opened.
  const { rows: found } = await (query.search === ''
    ? executePrepared<ListedClaim>(db, statement)
    : db.execute<ListedClaim>(statement));
  const total = await pageTotalOf(db, found, count);
  const keys = toPageKeys(found, kinds.length);
  const page = found.slice(0, query.limit);
  const last = keys[page.length - 1];
  await recordRead(
    db,
    ctx,
    listReadEntry(
      'claims.list.view',
      '/api/claims',
      query,
      page.map((row) => Number(row.patientId)),
    ),
  );
  return {
    items: page.map(toClaimRow),
    nextCursor:
      found.length > query.limit && last
        ? encodeCursor(query.sort, query.dir, { values: last.keys, id: last.id })
        : null,
    total,
  };
}

/** The Sunday that starts the week of `day` (YYYY-MM-DD), and `weeks` weeks before it. */
function weekStarts(day: string, weeks: number): string[] {
  const date = new Date(`${day}T00:00:00Z`);
  const sunday = date.getTime() - date.getUTCDay() * 86_400_000;
  return Array.from({ length: weeks }, (_, i) =>
    new Date(sunday - (weeks - 1 - i) * 7 * 86_400_000).toISOString().slice(0, 10),
  );
}

/**
 * The Claims screen's summary line and charts for the current filters, each computed by the database:
 * Total Denied = billed amount of the denied claims; Denials by Payer = denied claims per payer;
 * Top Denial Reasons = the 5 commonest reason codes of denied claims; Weekly Claims Trend = claims per
 * service week over the last 8 weeks (Sunday to Saturday, ending with this week), and of them the paid
 * (status Paid) and the denied ones. The raw reference of claimsOverview (and its answer when searching).
 */
export async function claimsOverviewRaw(db: Db, ctx: RequestContext, filter: ClaimFilter): Promise<ClaimOverview> {
  const where = and(claimsWhere(filter), notVoidedSql);
  const weeks = weekStarts(today(ctx.now), TREND_WEEKS);
  const first = weeks[0] ?? today(ctx.now);
  const weekStart = sql`(${claims.serviceDate} - extract(dow from ${claims.serviceDate})::int)`;
  // Totals and denied totals are separate queries so each can read an index alone (the denied claims
  // have a partial index of their own).
  const [[totals], [deniedTotals], byPayer, reasons, trend] = await Promise.all([
    db
      .select({
        claims: sql<number>`count(*)::int`,
        billedCents: sql<string>`coalesce(sum(${claims.billedCents}), 0)::bigint`,
      })
      .from(claims)
      .where(where),
    db
      .select({
        claims: sql<number>`count(*)::int`,
        billedCents: sql<string>`coalesce(sum(${claims.billedCents}), 0)::bigint`,
      })
      .from(claims)
      .where(and(where, deniedClaimSql)),
    db
      .select({ payer: claims.payer, count: sql<number>`count(*)::int` })
      .from(claims)
      .where(and(where, deniedClaimSql))
      .groupBy(claims.payer)
      .orderBy(desc(sql`count(*)`), asc(claims.payer)),
    db
      .select({ reason: sql<string>`${claims.reasonCode}`, count: sql<number>`count(*)::int` })
      .from(claims)
      .where(and(where, deniedClaimSql, isNotNull(claims.reasonCode)))
      .groupBy(claims.reasonCode)
      .orderBy(desc(sql`count(*)`), asc(claims.reasonCode))
      .limit(TOP_DENIAL_REASONS),
    db
      .select({
        weekStart: sql<string>`to_char(${weekStart}, 'YYYY-MM-DD')`,
        claims: sql<number>`count(*)::int`,
        paid: sql<number>`(count(*) filter (where ${claims.status} in (${PAID_STATUSES_SQL})))::int`,
        denied: sql<number>`(count(*) filter (where ${deniedClaimSql}))::int`,
      })
      .from(claims)
      .where(and(where, gte(claims.serviceDate, first), lte(claims.serviceDate, today(ctx.now))))
      .groupBy(weekStart),
  ]);
  return assembleOverview(db, { weeks, totals, deniedTotals, byPayer, reasons, trend });
}

/**
 * The Claims overview from the claims rollups (kept exact by triggers in the same transaction as every
 * claim write); equals claimsOverviewRaw. A filter the rollups cannot answer (a text search; see
 * claims.filter.queries.ts) is answered by claimsOverviewRaw. One statement (one round trip): the totals,
 * denials by payer, top reasons with their stored descriptions and the weekly trend, the lists as JSON.
 */
export async function claimsOverview(db: Db, ctx: RequestContext, filter: ClaimFilter): Promise<ClaimOverview> {
  const r = claimsStatusRollup;
  const t = claimsDailyRollup;
  const where = claimsRollupWhere(filter, r);
  const dailyWhere = claimsRollupWhere(filter, t);
  if (where === null || dailyWhere === null) return claimsOverviewRaw(db, ctx, filter);
  const weeks = weekStarts(today(ctx.now), TREND_WEEKS);
  const first = weeks[0] ?? today(ctx.now);
  const trendWhere = and(dailyWhere, gte(t.serviceDate, first), lte(t.serviceDate, today(ctx.now)));
  const result = await db.execute<{
    claims: number;
    billed_cents: string;
    denied_claims: number;
    denied_billed_cents: string;
    by_payer: ClaimOverview['denialsByPayer'];
    reasons: { reason: string; count: number; description: string | null }[];
    trend: OverviewParts['trend'];
  }>(sql`
    with s as (
      select ${r.payer} as payer, ${r.reasonCode} as reason_code, ${r.deniedOnFirstAdjudication} as denied,
        ${r.claims} as claims, ${r.billedCents} as billed_cents
      from ${r} ${where ? sql`where ${where}` : sql``}
    ),
    by_payer as (
      select payer, sum(claims)::int as count from s where denied group by payer having sum(claims) > 0
    ),
    reasons as (
      select reason_code as reason, sum(claims)::int as count from s
      where denied and reason_code is not null
      group by reason_code having sum(claims) > 0
      order by sum(claims) desc, reason_code limit ${TOP_DENIAL_REASONS}
    ),
    -- Days first, then weeks: the week's start and its text are computed once per day, not per rollup row.
    days as (
      select ${t.serviceDate} as day, sum(${t.claims}) as claims, sum(${t.paidClaims}) as paid,
        sum(${t.deniedClaims}) as denied
      from ${t} where ${trendWhere} group by ${t.serviceDate}
    ),
    weeks as (
      select to_char(day - extract(dow from day)::int, 'YYYY-MM-DD') as week_start, sum(claims)::int as claims,
        sum(paid)::int as paid, sum(denied)::int as denied
      from days group by 1
    )
    select
      (select coalesce(sum(claims), 0)::int from s) as claims,
      (select coalesce(sum(billed_cents), 0)::bigint from s) as billed_cents,
      (select coalesce(sum(claims), 0)::int from s where denied) as denied_claims,
      (select coalesce(sum(billed_cents), 0)::bigint from s where denied) as denied_billed_cents,
      (select coalesce(json_agg(json_build_object('payer', payer, 'count', count) order by count desc, payer), '[]')
        from by_payer) as by_payer,
      (select coalesce(json_agg(json_build_object('reason', reason, 'count', count, 'description',
          ${storedDenialDescription(sql`reasons.reason`)}) order by count desc, reason), '[]')
        from reasons) as reasons,
      (select coalesce(json_agg(json_build_object('weekStart', week_start, 'claims', claims, 'paid', paid,
          'denied', denied)), '[]') from weeks) as trend`);
  const row = result.rows[0];
  if (!row) throw new Error('the overview query returned no row');
  const reasons = row.reasons;
  return assembleOverview(db, {
    weeks,
    totals: { claims: row.claims, billedCents: row.billed_cents },
    deniedTotals: { claims: row.denied_claims, billedCents: row.denied_billed_cents },
    byPayer: row.by_payer,
    reasons,
    trend: row.trend,
    descriptions: new Map(reasons.flatMap((r) => (r.description ? [[r.reason, r.description] as const] : []))),
  });
}

interface OverviewParts {
  weeks: string[];
  totals: { claims: number; billedCents: number | string | null } | undefined;
  deniedTotals: { claims: number; billedCents: number | string | null } | undefined;
  byPayer: ClaimOverview['denialsByPayer'];
  reasons: { reason: string; count: number }[];
  trend: { weekStart: string; claims: number; paid: number; denied: number }[];
  /** Each reason's stored description, when the parts came with them (otherwise looked up here). */
  descriptions?: Map<string, string>;
}

/** The overview's answer from its parts, whether they came from the raw rows or the rollups. */
async function assembleOverview(db: Db, parts: OverviewParts): Promise<ClaimOverview> {
  const { weeks, totals, deniedTotals, byPayer, reasons, trend } = parts;
  const descriptions =
    parts.descriptions ??
    (await denialDescriptionsOf(
      db,
      reasons.map((r) => r.reason),
    ));
  const byWeek = new Map(trend.map((w) => [w.weekStart, w]));
  return {
    summary: {
      claims: totals?.claims ?? 0,
      totalBilledCents: Number(totals?.billedCents ?? 0),
      deniedClaims: deniedTotals?.claims ?? 0,
      totalDeniedCents: Number(deniedTotals?.billedCents ?? 0),
    },
    denialsByPayer: byPayer,
    topDenialReasons: reasons.map((r) => ({
      reason: r.reason,
      // Our CARC wording first, as Analytics names the code; a code we do not word, by its stored text.
      description: DENIAL_DESCRIPTIONS[r.reason] ?? descriptions.get(r.reason) ?? '',
      count: r.count,
    })),
    // Weeks with no claims are still weeks of the trend: they are there with zeros.
    weeklyTrend: weeks.map((week) => {
      const found = byWeek.get(week);
      return { weekStart: week, claims: found?.claims ?? 0, paid: found?.paid ?? 0, denied: found?.denied ?? 0 };
    }),
  };
}

/**
 * A reason code's stored description: its newest first-pass denial's text (claims_denial_texts_idx, backwards).
 * One rule for the cached and the computed overview: a code whose claims carry different texts (an 835's
 * CARC wording, an older import's) is named the same way whichever answers.
 */
function storedDenialDescription(reason: SQL): SQL {
  return sql`(select ${claims.denialDescription} from ${claims}
    where ${claims.reasonCode} = ${reason} and ${deniedClaimSql} and ${claims.denialDescription} is not null
    order by ${claims.id} desc limit 1)`;
}

async function denialDescriptionsOf(db: Db, reasons: string[]): Promise<Map<string, string>> {
  if (reasons.length === 0) return new Map();
  const rows = await db.execute<{ reason: string; description: string | null }>(sql`
    select r.reason, ${storedDenialDescription(sql`r.reason`)} as description
    from unnest(${sql.param(reasons)}::text[]) as r(reason)`);
  return new Map(rows.rows.flatMap((r) => (r.description ? [[r.reason, r.description] as const] : [])));
}

/** The providers the Claims list can be filtered by, by name: every provider, since former ones keep their claims. */
export async function listClaimProviders(db: Db): Promise<ClaimProvider[]> {
  return db.select({ id: providers.id, name: providers.name }).from(providers).orderBy(asc(providers.name));
}

/**
 * Every claim matching the filters, for the browser's CSV. Serving them is the export, so it is audited
 * here, after the read and before the answer. Above CLAIM_EXPORT_MAX_ROWS the user narrows the filters.
 */
export async function exportClaims(db: Db, ctx: RequestContext, query: ClaimExportQuery): Promise<ClaimExport> {
  const rows = await db
    .select({ ...rowColumns(ctx), mrn: patients.mrn })
    .from(claims)
    .innerJoin(patients, eq(patients.id, claims.patientId))
    .innerJoin(providers, eq(providers.id, claims.providerId))
    .where(claimsWhere(query))
    .orderBy(...orderBy(ctx, query.sort, query.dir))
    .limit(CLAIM_EXPORT_MAX_ROWS + 1);
  if (rows.length > CLAIM_EXPORT_MAX_ROWS) {
    throw new HttpError(
      422,
      'EXPORT_TOO_LARGE',
      `More than ${CLAIM_EXPORT_MAX_ROWS.toLocaleString('en-US')} claims match: narrow the filters to export.`,
    );
  }
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'export.csv',
    resource: 'claims',
    detail: `claims CSV: ${rows.length} rows${claimFilterDetail(query)}`,
  });
  // Exports are masked as the screen they come from (access.md): the MRN as the role may see it.
  return {
    // Object.assign onto the new row, not a spread with the MRN added: see toClaimRow.
    items: rows.map((row) => Object.assign(toClaimRow(row), { patientMrn: maskText('mrn', row.mrn, ctx.user.role) })),
  };
}

/**
 * The claim, locked for the rest of the transaction, when an action may be taken in its status (a voided claim's
 * status is Voided); 404 when there is no such claim, 409 naming the status otherwise. Its balance and the
 * patient's share come with it for the action's audit entry.
 */
async function lockClaimFor(tx: Tx, id: number, allowed: readonly ClaimRowStatus[], done: string, refusal: string) {
  const [current] = await tx
    .select({
      status: claims.status,
      patientId: claims.patientId,
      accountNumber: claims.accountNumber,
      payer: claims.payer,
      primaryClaimId: claims.primaryClaimId,
      voidedAt: claims.voidedAt,
      balanceCents: claimOpenBalanceSql(),
      patientShareCents: claims.patientResponsibilityCents,
    })
    .from(claims)
    .where(eq(claims.id, id))
    .limit(1)
    .for('update');
  if (!current) throw new HttpError(404, 'NOT_FOUND', 'No claim with that id.');
  const status: ClaimRowStatus = current.voidedAt ? 'Voided' : claimStatusSchema.parse(current.status);
  if (!allowed.includes(status)) {
    const kinds = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : (allowed[0] ?? '');
    const message = `is ${status}: only ${/^[AEIOU]/.test(kinds) ? 'an' : 'a'} ${kinds} claim can be ${done}`;
    throw new HttpError(409, refusal, `status: ${message}`, { fields: [{ field: 'status', message }] });
  }
  return { ...current, status };
}

/**
 * Records an appeal of a Denied or Partially Paid claim with its reason and note; the claim
 * becomes Appealed. The appeal, the status and the audit entry commit together or not at all.
 */
export async function appealClaim(
  db: Db,
  ctx: RequestContext,
  id: number,
  appeal: { reason: string; note: string; level?: AppealLevel; deadline?: string | null },
): Promise<ClaimRow> {
  return db.transaction(async (tx) => {
    // Row lock: two people appealing at once cannot both see it Denied.
    const current = await lockClaimFor(tx, id, APPEALABLE_STATUSES, 'appealed', 'NOT_APPEALABLE');
    const { status } = current;
    await tx.insert(claimAppeals).values({
      claimId: id,
      reason: appeal.reason,
      note: appeal.note,
      level: appeal.level ?? 'first',
      deadline: appeal.deadline ?? null,
      createdBy: ctx.user.id,
    });
    await tx.update(claims).set({ status: 'Appealed' }).where(eq(claims.id, id));
    // The denial's items in the work queue are worked by this appeal: resolved with it, not left for someone else.
    await resolveClaimWorkItems(
      tx,
      ctx,
      id,
      ['denial'],
      'appealed',
      `${APPEAL_LEVEL_LABELS[appeal.level ?? 'first']} appeal filed from the claim: ${appeal.reason}`,
    );
    await record(tx, {
      ...actorOf(ctx),
      action: 'claim.appeal',
      resource: `claim/${id}`,
      detail:
        `${current.accountNumber}: status ${status} → Appealed; ${APPEAL_LEVEL_LABELS[appeal.level ?? 'first'].toLowerCase()} appeal` +
        `${appeal.deadline ? `, deadline ${appeal.deadline}` : ''}; reason: ${appeal.reason}`,
      patientId: current.patientId,
    });
    const [row] = await claimRowsQuery(tx, ctx).where(eq(claims.id, id));
    if (!row) throw new Error('appealed claim vanished');
    return toClaimRow(row);
  });
}

/** A claim's appeals, oldest first, with who filed them and how each ended; 404 for an unknown claim. */
export async function listClaimAppeals(db: Db, _ctx: RequestContext, claimId: number): Promise<ClaimAppeal[]> {
  const [claim] = await db.select({ id: claims.id }).from(claims).where(eq(claims.id, claimId)).limit(1);
  if (!claim) throw new HttpError(404, 'NOT_FOUND', 'No claim with that id.');
  const rows = await db
    .select({
      id: claimAppeals.id,
      level: claimAppeals.level,
      reason: claimAppeals.reason,
      note: claimAppeals.note,
      deadline: claimAppeals.deadline,
      filedAt: sql<string>`to_char(${claimAppeals.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
      filedBy: users.name,
      outcome: claimAppeals.outcome,
      outcomeAmountCents: claimAppeals.outcomeAmountCents,
      decidedOn: claimAppeals.decidedOn,
    })
    .from(claimAppeals)
    .leftJoin(users, eq(users.id, claimAppeals.createdBy))
    .where(eq(claimAppeals.claimId, claimId))
    .orderBy(asc(claimAppeals.createdAt), asc(claimAppeals.id));
  return rows.map((row) => claimAppealSchema.parse(row));
}

/**
 * Records the payer's answer to an open appeal of an Appealed claim: won → Paid, partly won → Partially
 * Paid, lost → Denied again. What the payer pays on it is a payer payment (a remittance) and adds to the
 * claim's paid amount; it cannot exceed what was still owed by the payer (billed − paid − contractual
 * adjustment). A claim with nothing left owed is resolved today. Appeal, claim, payment and audit entry
 * commit together.
 */
export async function recordAppealOutcome(
  db: Db,
  ctx: RequestContext,
  claimId: number,
  appealId: number,
  answer: AppealOutcomeRequest,
): Promise<ClaimRow> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        status: claims.status,
        patientId: claims.patientId,
        accountNumber: claims.accountNumber,
        owedByPayer: sql<number>`(${claims.billedCents} - ${claims.paidCents} - ${claims.contractualAdjustmentCents})::int`,
      })
      .from(claims)
      .where(eq(claims.id, claimId))
      .limit(1)
      .for('update');
    if (!current) throw new HttpError(404, 'NOT_FOUND', 'No claim with that id.');
    const [appeal] = await tx
      .select({ outcome: claimAppeals.outcome, level: claimAppeals.level })
      .from(claimAppeals)
      .where(and(eq(claimAppeals.id, appealId), eq(claimAppeals.claimId, claimId)))
      .limit(1)
      .for('update');
    if (!appeal) throw new HttpError(404, 'NOT_FOUND', 'No appeal with that id on this claim.');
    if (appeal.outcome !== null || current.status !== 'Appealed') {
      const message =
        appeal.outcome !== null ? 'is already recorded' : `cannot be recorded: the claim is ${current.status}`;
      throw new HttpError(409, 'APPEAL_DECIDED', `outcome: ${message}`, { fields: [{ field: 'outcome', message }] });
    }
    if (answer.amountCents > current.owedByPayer) {
      const message = `must be at most ${formatCents(Math.max(0, current.owedByPayer))}, what the payer still owes`;
      throw new HttpError(400, 'VALIDATION', `amountCents: ${message}`, {
        fields: [{ field: 'amountCents', message }],
      });
    }
    const day = today(ctx.now);
    const status = { won: 'Paid', partial: 'Partially Paid', lost: 'Denied' }[answer.outcome];
    await tx
      .update(claimAppeals)
      .set({ outcome: answer.outcome, outcomeAmountCents: answer.amountCents, decidedOn: day, decidedBy: ctx.user.id })
      .where(eq(claimAppeals.id, appealId));
    await tx
      .update(claims)
      .set({ status, paidCents: sql`${claims.paidCents} + ${answer.amountCents}` })
      .where(eq(claims.id, claimId));
    if (answer.amountCents > 0) {
      await tx.insert(payments).values({
        patientId: current.patientId,
        claimId,
        amountCents: answer.amountCents,
        source: 'payer',
        receivedOn: day,
        reference: `Appeal #${appealId}`,
        createdBy: ctx.user.id,
      });
    }
    // Paid in full with nothing left owed, the claim closes (claims_closed_when_settled, docs/claims.md).
    const [settled] = await tx
      .update(claims)
      .set({ resolvedOn: day })
      .where(and(eq(claims.id, claimId), sql`${claimOpenBalanceSql()} = 0`))
      .returning({ status: claims.status });
    const statusAfter = settled?.status ?? status;
    await record(tx, {
      ...actorOf(ctx),
      action: 'claim.appeal.outcome',
      resource: `claim/${claimId}`,
      detail:
        `${current.accountNumber}: ${APPEAL_LEVEL_LABELS[appeal.level as AppealLevel].toLowerCase()} appeal ` +
        `${APPEAL_OUTCOME_LABELS[answer.outcome].toLowerCase()}, ${formatDollars(answer.amountCents)}; status Appealed → ${statusAfter}`,
      patientId: current.patientId,
    });
    const [row] = await claimRowsQuery(tx, ctx).where(eq(claims.id, claimId));
    if (!row) throw new Error('claim vanished');
    return toClaimRow(row);
  });
}

/**
 * 409 for a claim with payments recorded against it, which neither void may take: money was received on it (the
 * payer takes its own back by a reversal; a patient's payment would be left on nothing).
 */
async function refuseClaimWithPayments(tx: Tx, id: number): Promise<void> {
  const [paid] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .where(eq(payments.claimId, id));
  if ((paid?.n ?? 0) > 0) {
    const message = 'has payments recorded against it: only a claim without payments can be voided';
    throw new HttpError(409, 'HAS_PAYMENTS', `status: ${message}`, { fields: [{ field: 'status', message }] });
  }
}

/**
 * Voids a claim entered by mistake (a bad import): it stays in the list as Voided and in the audit trail
 * with its values, and leaves every KPI, rollup and dashboard total (the rollups skip voided claims). A claim
 * with payments is refused: money was received against it, so it is not a mistake to erase.
 */
export async function voidClaim(db: Db, ctx: RequestContext, id: number, input: VoidClaim): Promise<ClaimRow> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        accountNumber: claims.accountNumber,
        patientId: claims.patientId,
        billedCents: claims.billedCents,
        serviceDate: claims.serviceDate,
        voidedAt: claims.voidedAt,
        primaryClaimId: claims.primaryClaimId,
      })
      .from(claims)
      .where(eq(claims.id, id))
      .limit(1)
      .for('update');
    if (!current) throw new HttpError(404, 'NOT_FOUND', 'No claim with that id.');
    if (current.voidedAt) {
      const message = 'is already voided';
      throw new HttpError(409, 'ALREADY_VOIDED', `status: ${message}`, { fields: [{ field: 'status', message }] });
    }
    await refuseClaimWithPayments(tx, id);
    await tx
      .update(claims)
      .set({ voidedAt: ctx.now, voidedBy: ctx.user.id, voidReason: input.reason })
      .where(eq(claims.id, id));
    // A voided claim of the patient's next policy bills nothing: the balance it took over is its first claim's again.
    if (current.primaryClaimId !== null) {
      await tx.update(claims).set({ handedOnCents: 0 }).where(eq(claims.id, current.primaryClaimId));
    }
    await record(tx, {
      ...actorOf(ctx),
      action: 'claim.void',
      resource: `claim/${id}`,
      detail: `${current.accountNumber}: voided (service date ${current.serviceDate}, billed ${current.billedCents} cents); reason: ${input.reason}`,
      patientId: current.patientId,
    });
    const [row] = await claimRowsQuery(tx, ctx).where(eq(claims.id, id));
    if (!row) throw new Error('voided claim vanished');
    return toClaimRow(row);
  });
}

/**
 * Writes off the rest of a Denied or Partially Paid claim's balance: the practice will not pursue it (an appeal
 * not worth its cost, a payer that will not pay). The claim becomes Written Off and resolved today, which moves its
 * balance from outstanding A/R to revenue lost (docs/kpis.md); the patient's own share stays theirs (the balance
 * rule). Its open work-queue items are resolved as written off with the reason. Audited with the amount.
 */
export async function writeOffClaim(db: Db, ctx: RequestContext, id: number, input: WriteOffClaim): Promise<ClaimRow> {
  return db.transaction(async (tx) => {
    const current = await lockClaimFor(tx, id, WRITE_OFF_STATUSES, 'written off', 'NOT_WRITABLE_OFF');
    const { status } = current;
    await tx
      .update(claims)
      .set({ status: 'Written Off', resolvedOn: today(ctx.now) })
      .where(eq(claims.id, id));
    await resolveClaimWorkItems(tx, ctx, id, WORK_SOURCES, 'written_off', `Claim written off: ${input.reason}`);
    await record(tx, {
      ...actorOf(ctx),
      action: 'claim.write_off',
      resource: `claim/${id}`,
      detail:
        `${current.accountNumber}: status ${status} → Written Off, balance ${formatDollars(current.balanceCents)} ` +
        `(the patient's share of ${formatDollars(current.patientShareCents)} stays due); reason: ${input.reason}`,
      patientId: current.patientId,
    });
    const [row] = await claimRowsQuery(tx, ctx).where(eq(claims.id, id));
    if (!row) throw new Error('written-off claim vanished');
    return toClaimRow(row);
  });
}

/**
 * Reopens a claim the payer has (accepted, pending or answered) to be corrected and sent again as a replacement
 * (X12 CLM05-3 frequency 7) of the payer's claim number (payersClaimNumber). The claim becomes Draft and open again
 * (edited, scrubbed and batched as any Draft; its adjudication stays until the payer's answer to the replacement
 * reverses it), and its open denial and review items are resolved as corrected and resubmitted. Audited with the
 * reason and the number.
 */
export async function correctClaim(db: Db, ctx: RequestContext, id: number, input: CorrectClaim): Promise<ClaimRow> {
  return db.transaction(async (tx) => {
    const current = await lockClaimFor(tx, id, CORRECTABLE_STATUSES, 'corrected', 'NOT_CORRECTABLE');
    const number = await payersClaimNumber(tx, id);
    await tx
      .update(claims)
      .set({
        status: 'Draft',
        frequencyCode: '7',
        originalClaimNumber: number ?? sql`${claims.originalClaimNumber}`,
        resolvedOn: null,
      })
      .where(eq(claims.id, id));
    // A claim billed after another: its replacement answers for what the earlier payer leaves now, which a changed
    // decision of that payer may have moved since it was sent.
    if (current.primaryClaimId !== null) {
      await followHandedOnBalances(tx, ctx, [current.primaryClaimId], {
        decidedOn: today(ctx.now),
        reference: `${current.accountNumber} reopened to correct`,
      });
    }
    await resolveClaimWorkItems(
      tx,
      ctx,
      id,
      ['denial', 'review'],
      'corrected_resubmitted',
      `Claim reopened to be corrected and sent again as a replacement: ${input.reason}`,
    );
    await record(tx, {
      ...actorOf(ctx),
      action: 'claim.correct',
      resource: `claim/${id}`,
      detail:
        `${current.accountNumber}: status ${current.status} → Draft, to be sent to ${current.payer} again as a ` +
        `replacement (frequency 7) of ${claimNumberText(number)}; reason: ${input.reason}`,
      patientId: current.patientId,
    });
    const [row] = await claimRowsQuery(tx, ctx).where(eq(claims.id, id));
    if (!row) throw new Error('corrected claim vanished');
    return toClaimRow(row);
  });
}

/**
 * Asks the payer to cancel a claim it has and paid nothing on (a claim sent for the wrong patient, payer or visit):
 * the claim is reopened as a Draft void (X12 CLM05-3 frequency 8) of the payer's claim number, with the same lines,
 * to be scrubbed and sent in a batch. It stays in A/R until the payer takes the void: the 277CA accepting it voids
 * the claim here (applyAcknowledgement), with the reason and the user kept now. A claim with payments, or with a
 * claim billed after it to the patient's next policy that is not voided, is refused (409): the payer would take
 * its money back, and the next payer was told what this one decided. Its open denial and review items are resolved
 * as corrected and resubmitted (a void is a corrected claim in X12 terms). Audited with the reason and the number.
 */
export async function voidClaimAtPayer(db: Db, ctx: RequestContext, id: number, input: VoidAtPayer): Promise<ClaimRow> {
  return db.transaction(async (tx) => {
    const current = await lockClaimFor(tx, id, VOIDABLE_AT_PAYER_STATUSES, 'voided at its payer', 'NOT_VOIDABLE');
    await refuseClaimWithPayments(tx, id);
    const [blocking] = (
      await tx.execute<{ later: string | null }>(
        sql`select string_agg(l.account_number, ', ' order by l.id) as later from claims l
            where l.primary_claim_id = ${id}::int and l.voided_at is null`,
      )
    ).rows;
    if (typeof blocking?.later === 'string') {
      const message = `was billed on to the patient's next policy as ${blocking.later}: void that claim first`;
      throw new HttpError(409, 'HAS_LATER_CLAIM', `status: ${message}`, { fields: [{ field: 'status', message }] });
    }
    const number = await payersClaimNumber(tx, id);
    await tx
      .update(claims)
      .set({
        status: 'Draft',
        frequencyCode: '8',
        originalClaimNumber: number ?? sql`${claims.originalClaimNumber}`,
        resolvedOn: null,
        voidedBy: ctx.user.id,
        voidReason: input.reason,
      })
      .where(eq(claims.id, id));
    await resolveClaimWorkItems(
      tx,
      ctx,
      id,
      ['denial', 'review'],
      'corrected_resubmitted',
      `Claim reopened to be voided at the payer (frequency 8): ${input.reason}`,
    );
    await record(tx, {
      ...actorOf(ctx),
      action: 'claim.void_at_payer',
      resource: `claim/${id}`,
      detail:
        `${current.accountNumber}: status ${current.status} → Draft, to be sent to ${current.payer} as a void ` +
        `(frequency 8) of ${claimNumberText(number)}; voided here once the payer accepts it; reason: ${input.reason}`,
      patientId: current.patientId,
    });
    const [row] = await claimRowsQuery(tx, ctx).where(eq(claims.id, id));
    if (!row) throw new Error('claim to void vanished');
    return toClaimRow(row);
  });
}

/**
 * The payer's number of a claim, which a replacement or void names (REF*F8): the latest a posted 835 gave (CLP07),
 * else the 277CA's (REF*1K); null with neither (it is then entered in the claim form, and the scrubber holds the
 * claim until it is).
 */
async function payersClaimNumber(tx: Tx, id: number): Promise<string | null> {
  const [known] = (
    await tx.execute<{ number: string | null }>(sql`select coalesce(
        (select nullif(rc.payer_claim_number, '') from remittance_claims rc
          where rc.claim_id = ${id}::int and rc.outcome = 'posted' and nullif(rc.payer_claim_number, '') is not null
          order by rc.id desc limit 1),
        (select bc.payer_claim_number from claim_batch_claims bc
          where bc.claim_id = ${id}::int and bc.payer_claim_number is not null
          order by bc.batch_id desc limit 1)) as number`)
  ).rows;
  return known?.number ?? null;
}

/**
 * A claim here that the payer knows by this number (as payersClaimNumber reads it: a posted 835's CLP07 or a
 * 277CA's REF*1K), other than `exceptId` and not voided: what a replacement or void entered by hand must not name,
 * since that claim would stay owed beside it (its own Correct or Void at payer carries its balance instead).
 */
export async function claimKnownByPayerNumber(
  tx: Tx,
  payer: string,
  number: string,
  exceptId: number | null,
): Promise<{ accountNumber: string; status: string } | null> {
  // Found from the number (remittance_claims_payer_number_idx, claim_batch_claims_payer_number_idx), then its claim.
  const [known] = (
    await tx.execute<{ account_number: string; status: string }>(sql`select c.account_number, c.status from claims c
        where c.id in (
            select rc.claim_id from remittance_claims rc
              where rc.payer_claim_number = ${number} and rc.outcome = 'posted' and rc.claim_id is not null
            union
            select bc.claim_id from claim_batch_claims bc where bc.payer_claim_number = ${number})
          and c.payer = ${payer} and c.voided_at is null and c.id <> ${exceptId ?? 0}::int
        order by c.id limit 1`)
  ).rows;
  return known ? { accountNumber: known.account_number, status: known.status } : null;
}

function claimNumberText(number: string | null): string {
  return number === null ? 'a claim number not yet known' : `claim number ${number}`;
}

/** The charge ceilings the import flags charges above (Settings → Charge ceilings), by code. */
export async function listChargeCeilings(db: Db): Promise<ChargeCeilingList> {
  const items = await db
    .select({ procedureCode: chargeCeilings.procedureCode, ceilingCents: chargeCeilings.ceilingCents })
    .from(chargeCeilings)
    .orderBy(asc(chargeCeilings.procedureCode));
  return { items, defaultCeilingCents: DEFAULT_CHARGE_CEILING_CENTS };
}

/** Sets a code's ceiling (adding the code when it has none); audited in the same transaction. */
export async function setChargeCeiling(
  db: Db,
  ctx: RequestContext,
  procedureCode: string,
  update: ChargeCeilingUpdate,
): Promise<ChargeCeiling> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ cents: chargeCeilings.ceilingCents })
      .from(chargeCeilings)
      .where(eq(chargeCeilings.procedureCode, procedureCode))
      .for('update');
    const [row] = await tx
      .insert(chargeCeilings)
      .values({ procedureCode, ceilingCents: update.ceilingCents })
      .onConflictDoUpdate({ target: chargeCeilings.procedureCode, set: { ceilingCents: update.ceilingCents } })
      .returning({ procedureCode: chargeCeilings.procedureCode, ceilingCents: chargeCeilings.ceilingCents });
    if (!row) throw new Error('charge ceiling upsert returned nothing');
    const was = before ? formatDollars(before.cents) : `the default ${formatDollars(DEFAULT_CHARGE_CEILING_CENTS)}`;
    await record(tx, {
      ...actorOf(ctx),
      action: 'claims.charge_ceiling.update',
      resource: `charge_ceiling/${procedureCode}`,
      detail: `${procedureCode}: ceiling ${was} -> ${formatDollars(row.ceilingCents)}`,
    });
    return row;
  });
}

/**
 * The database's part of checking an import: which MRNs and provider names exist, and which account
 * numbers are taken. Only the values the file names are looked up.
 */
async function lookupImportReferences(
  db: DbOrTx,
  values: { mrns: string[]; accountNumbers: string[]; procedureCodes: string[] },
): Promise<ImportReferences> {
  const [patientRows, providerRows, payerRows, ceilingRows, takenRows] = await Promise.all([
    values.mrns.length
      ? db.select({ id: patients.id, mrn: patients.mrn }).from(patients).where(inArray(patients.mrn, values.mrns))
      : [],
    db.select({ id: providers.id, name: providers.name }).from(providers),
    db
      .select({ name: payers.name, timelyFilingDays: payers.timelyFilingDays })
      .from(payers)
      .where(eq(payers.active, true))
      .orderBy(asc(payers.name)),
    values.procedureCodes.length
      ? db
          .select({ code: chargeCeilings.procedureCode, cents: chargeCeilings.ceilingCents })
          .from(chargeCeilings)
          .where(inArray(chargeCeilings.procedureCode, values.procedureCodes))
      : [],
    values.accountNumbers.length
      ? db
          .select({ accountNumber: claims.accountNumber })
          .from(claims)
          .where(inArray(claims.accountNumber, values.accountNumbers))
      : [],
  ]);
  return {
    patientIdByMrn: new Map(patientRows.map((p) => [p.mrn, p.id])),
    providerIdByName: new Map(providerRows.map((p) => [p.name.toLowerCase(), p.id])),
    payerByName: new Map(payerRows.map((p) => [p.name.toLowerCase(), p])),
    ceilingByCode: new Map(ceilingRows.map((c) => [c.code, c.cents])),
    takenAccounts: new Set(takenRows.map((r) => r.accountNumber)),
  };
}

/** Inserts every checked row in one transaction with one audit entry; a clash on an account number adds nothing. */
async function insertImportedClaims(
  db: Db,
  ctx: RequestContext,
  rows: (typeof claims.$inferInsert)[],
  flagged: number,
): Promise<number> {
  try {
    return await db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += 1000) {
        const inserted = await tx
          .insert(claims)
          .values(rows.slice(i, i + 1000))
          .returning({
            id: claims.id,
            accountNumber: claims.accountNumber,
            procedureCode: claims.procedureCode,
            billedCents: claims.billedCents,
            serviceDate: claims.serviceDate,
          });
        // A CSV row is one service: the claim's line 1 (its total and code stay what the row says).
        await tx.insert(claimLines).values(
          inserted.map((c) => ({
            claimId: c.id,
            lineNumber: 1,
            procedureCode: c.procedureCode,
            chargeCents: c.billedCents,
            serviceDate: c.serviceDate,
            lineControlNumber: lineControlNumber(c.accountNumber, 1),
          })),
        );
      }
      await record(tx, {
        ...actorOf(ctx),
        action: 'claims.import',
        resource: 'claims',
        detail: `imported ${rows.length} claims from a CSV file${flagged > 0 ? ` (${flagged} charge${flagged === 1 ? '' : 's'} above the code's ceiling)` : ''}`,
      });
      return rows.length;
    });
  } catch (err) {
    if (uniqueViolationOf(err) === null) throw err;
    throw new HttpError(
      409,
      'ACCOUNT_TAKEN',
      'accountNumber: another import added one of these account numbers first; nothing was imported.',
      {
        fields: [{ field: 'accountNumber', message: 'is already taken' }],
      },
    );
  }
}

export type ImportOutcome =
  | { ok: true; imported: number; warnings: ImportError[] }
  | { ok: false; errors: ImportError[]; warnings: ImportError[] };

/**
 * Upload File: every row is checked (each field, then MRN, provider, payer, account number and the payer's
 * timely-filing limit against the database); any problem rejects the whole file with the list of problems,
 * and nothing is written. Charges above their code's ceiling are warnings: imported, and listed.
 */
export async function importClaims(db: Db, ctx: RequestContext, csv: string): Promise<ImportOutcome> {
  const parsed = parseClaimsCsv(csv);
  const refs = await lookupImportReferences(db, {
    mrns: [...new Set(parsed.rows.map((r) => r.raw.patientMrn).filter(Boolean))],
    accountNumbers: [...new Set(parsed.rows.map((r) => r.raw.accountNumber).filter(Boolean))],
    procedureCodes: [...new Set(parsed.rows.map((r) => r.fields.procedureCode).filter((c) => c !== undefined))],
  });
  const namesReferenceRows = seesField(ctx.user.role, 'mrn');
  const resolved = resolveImportRows(parsed.rows, refs, today(ctx.now), namesReferenceRows);
  const errors = [...parsed.errors, ...resolved.errors];
  // A role that sees MRNs masked hears of unknown MRNs and taken account numbers only once the file is otherwise
  // right, and then for the file as a whole: row by row (or only beside other problems) the answer would tell
  // which of the file's MRNs belong to a patient.
  if (errors.length === 0 && resolved.unlistedReferenceRows > 0) {
    errors.push({ row: 1, field: 'csv', message: UNKNOWN_REFERENCES_IN_FILE });
  }
  const warnings = sortImportErrors(resolved.warnings);
  if (errors.length > 0) {
    // Repeated refused files are how references would be probed: each is audited, with counts and no values.
    const rows = new Set(errors.map((e) => e.row)).size;
    await recordNow(db, {
      ...actorOf(ctx),
      action: 'claims.import.refused',
      resource: 'claims',
      detail: `refused a CSV file: ${errors.length} problem${errors.length === 1 ? '' : 's'} in ${rows} row${rows === 1 ? '' : 's'}`,
    });
    return { ok: false, errors: sortImportErrors(errors), warnings };
  }
  return { ok: true, imported: await insertImportedClaims(db, ctx, resolved.values, warnings.length), warnings };
}
