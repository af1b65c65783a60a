import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { today } from '@/shared/api';
import { actorOf, listReadEntry, record, recordNow, recordRead } from '@/features/audit/server/audit.queries';
import { patients } from '@/features/patients/server/patients.table';
import type { RequestContext } from '@/server/context';
import { containsPattern } from '@/server/db/like';
import type { Db, DbOrTx } from '@/server/db/types';
import { executePrepared, literalLimit, offsetClause } from '@/server/db/prepared';
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
import {
  AT_RISK_AFTER_DAYS,
  AUTHORIZATION_EXPORT_MAX_ROWS,
  authorizationStatusSchema,
  type Authorization,
  type AuthorizationDecision,
  type AuthorizationExport,
  type AuthorizationExportQuery,
  type AuthorizationFilter,
  type AuthorizationKpis,
  type AuthorizationList,
  type AuthorizationQuery,
  type AuthorizationSortKey,
} from '../authorizations.schema';
import { authorizations } from './authorizations.table';
import { authorizationsStatusRollup } from './authorizations.rollup.table';

/** Days from the request to the decision, or to today while pending (a decided request stops ageing). */
function ageSql(ctx: RequestContext) {
  return sql<number>`(coalesce(${authorizations.decidedOn}, ${today(ctx.now)}::date) - ${authorizations.requestedOn})::int`;
}

function rowColumns(ctx: RequestContext) {
  return {
    id: authorizations.id,
    patient: patients.name,
    service: authorizations.service,
    payer: authorizations.payer,
    status: authorizations.status,
    ageDays: ageSql(ctx),
    requestedOn: authorizations.requestedOn,
    decidedOn: authorizations.decidedOn,
    authNumber: authorizations.authNumber,
    approvedUnits: authorizations.approvedUnits,
    validFrom: authorizations.validFrom,
    validTo: authorizations.validTo,
    denialReason: authorizations.denialReason,
  };
}

type Row = { status: string; ageDays: number } & Omit<Authorization, 'status' | 'atRisk' | 'ageDays'>;

/**
 * Each field named rather than spread from the row with fields added: a list or an export builds one per
 * request, and V8 copies such a spread through a slow generic path (docs/performance.md, "Answers built
 * field by field"); a column the query adds stays out of the answer.
 */
function toAuthorization(row: Row): Authorization {
  const status = authorizationStatusSchema.parse(row.status);
  return {
    id: row.id,
    patient: row.patient,
    service: row.service,
    payer: row.payer,
    status,
    ageDays: row.ageDays,
    requestedOn: row.requestedOn,
    decidedOn: row.decidedOn,
    atRisk: status === 'Pending' && row.ageDays > AT_RISK_AFTER_DAYS,
    authNumber: row.authNumber,
    approvedUnits: row.approvedUnits,
    validFrom: row.validFrom,
    validTo: row.validTo,
    denialReason: row.denialReason,
  };
}

function filterCondition(filter: AuthorizationFilter): SQL | undefined {
  const pattern = filter.search === '' ? null : containsPattern(filter.search);
  return and(
    filter.payer ? eq(authorizations.payer, filter.payer) : undefined,
    filter.status ? eq(authorizations.status, filter.status) : undefined,
    pattern ? or(ilike(patients.name, pattern), ilike(authorizations.service, pattern)) : undefined,
  );
}

/**
 * The list's order for each sort: the key, then the id, all in one direction, so keyset paging can resume
 * after any row; status ties by request day; patient by name, then the patient, then the request.
 */
function orderBy(ctx: RequestContext, sort: AuthorizationSortKey, dir: 'asc' | 'desc'): SQL[] {
  const order = dir === 'asc' ? asc : desc;
  const keys = {
    patient: [sql`${patients.name}`, sql`${patients.id}`],
    service: [sql`${authorizations.service}`],
    payer: [sql`${authorizations.payer}`],
    status: [sql`${authorizations.status}`, sql`${authorizations.requestedOn}`],
    ageDays: [ageSql(ctx)],
  }[sort];
  return [...keys.map((key) => order(key)), order(authorizations.id)];
}

const KEY_KINDS: Record<AuthorizationSortKey, KeyKind[]> = {
  patient: ['text', 'int'],
  service: ['text'],
  payer: ['text'],
  status: ['text', 'date'],
  ageDays: ['int'],
};

/** Sorts on the request's own columns; each has a (key…, id) index (authorizations.table.ts). */
const COLUMN_KEYS: Partial<Record<AuthorizationSortKey, SQL[]>> = {
  service: [sql`${authorizations.service}`],
  payer: [sql`${authorizations.payer}`],
  status: [sql`${authorizations.status}`, sql`${authorizations.requestedOn}`],
};

function keyList(keys: readonly SQL[], kinds: readonly KeyKind[]): SQL {
  return sql.join(
    keys.map((key, i) => sql`(${key})${sql.raw(kinds[i] === 'date' ? '::text' : '')} as ${sql.identifier(`k${i}`)}`),
    sql`, `,
  );
}

/**
 * The ids and sort keys of one page plus one row, each sort walking an index from the cursor:
 * - own columns: a range of the (key…, id) index;
 * - patient without a search: patients in (name, id) order, each with its requests by id;
 * - age: decided requests have a fixed age (decided_on − requested_on, an expression index) and pending
 *   ones age with today (requested_on newest first); the page is the merge of the two streams.
 */
function pageKeysSql(ctx: RequestContext, query: AuthorizationQuery, cursor: Keyset | null): SQL {
  const kinds = KEY_KINDS[query.sort];
  const dir = direction(query.dir);
  const take = query.limit + 1 + query.offset;
  const where = filterCondition(query);
  const joinPatients = sql`join ${patients} on ${patients.id} = ${authorizations.patientId}`;
  const columns = COLUMN_KEYS[query.sort];
  // In the text (docs/performance.md, "Planning the hot reads once"), with no OFFSET for the usual 0.
  const limit = sql`${literalLimit(query.limit + 1)}${offsetClause(query.offset)}`;
  if (columns || (query.sort === 'patient' && query.search !== '')) {
    const keys = columns ?? [sql`${patients.name}`, sql`${patients.id}`];
    const after = cursor ? afterCursor(keys, sql`${authorizations.id}`, kinds, query.dir, cursor) : undefined;
    const join = columns && query.search === '' ? sql`` : joinPatients;
    return sql`select ${authorizations.id} as id, ${keyList(keys, kinds)} from ${authorizations} ${join}
      where ${and(where, after) ?? sql`true`}
      order by ${sql.join(
        [...keys, sql`${authorizations.id}`].map((k) => sql`${k} ${dir}`),
        sql`, `,
      )} ${limit}`;
  }
  const op = sql.raw(query.dir === 'asc' ? '>' : '<');
  if (query.sort === 'patient') {
    const opOrEqual = sql.raw(query.dir === 'asc' ? '>=' : '<=');
    const [name, personId] = cursor?.values ?? [];
    const people = cursor
      ? sql`(${patients.name}, ${patients.id}) ${opOrEqual} (${name}::text, ${personId}::int)`
      : sql`true`;
    const within = cursor
      ? sql`(person.id <> ${personId}::int or ${authorizations.id} ${op} ${cursor.id}::int)`
      : undefined;
    return sql`select a.id as id, person.name as k0, person.id as k1
      from (select ${patients.id} as id, ${patients.name} as name from ${patients} where ${people}) person
      cross join lateral (
        select ${authorizations.id} as id from ${authorizations}
        where ${authorizations.patientId} = person.id and ${and(where, within) ?? sql`true`}
        order by ${authorizations.id} ${dir} ${literalLimit(take)}
      ) a
      order by person.name ${dir}, person.id ${dir}, a.id ${dir} ${limit}`;
  }
  // ageDays (a search on the patient's name needs the patient in each stream)
  const from = query.search === '' ? sql`${authorizations}` : sql`${authorizations} ${joinPatients}`;
  const day = today(ctx.now);
  const back = direction(query.dir === 'asc' ? 'desc' : 'asc');
  const days = cursor ? Number(cursor.values[0]) : 0;
  const decidedAge = sql`(${authorizations.decidedOn} - ${authorizations.requestedOn})`;
  const boundary = sql`(${day}::date - ${days}::int)`;
  const pendingAfter = !cursor
    ? undefined
    : query.dir === 'asc'
      ? sql`${authorizations.requestedOn} <= ${boundary} and (${authorizations.requestedOn} < ${boundary} or ${authorizations.id} > ${cursor.id}::int)`
      : sql`${authorizations.requestedOn} >= ${boundary} and (${authorizations.requestedOn} > ${boundary} or ${authorizations.id} < ${cursor.id}::int)`;
  const decided = sql`(select ${authorizations.id} as id, ${decidedAge}::int as k0 from ${from}
    where ${and(sql`${authorizations.decidedOn} is not null`, where, cursor ? sql`(${decidedAge}, ${authorizations.id}) ${op} (${days}::int, ${cursor.id}::int)` : undefined)}
    order by ${decidedAge} ${dir}, ${authorizations.id} ${dir} ${literalLimit(take)})`;
  const pending = sql`(select ${authorizations.id} as id, (${day}::date - ${authorizations.requestedOn})::int as k0 from ${from}
    where ${and(sql`${authorizations.decidedOn} is null`, where, pendingAfter)}
    order by ${authorizations.requestedOn} ${back}, ${authorizations.id} ${dir} ${literalLimit(take)})`;
  return sql`select id, k0 from (${decided} union all ${pending}) merged order by k0 ${dir}, id ${dir} ${limit}`;
}

/**
 * The Authorizations screen's KPIs over the authorizations matching the filters (so the tiles agree with
 * 'Showing N of M'): counts by status; At Risk = pending and older than
 * AT_RISK_AFTER_DAYS; Avg Age = mean of ageDays, one decimal, 0 when there are none.
 */
async function kpisOf(
  db: DbOrTx,
  ctx: RequestContext,
  where: SQL | undefined,
  search: string,
): Promise<AuthorizationKpis> {
  const age = ageSql(ctx);
  const columns = {
    total: sql<number>`count(*)::int`,
    pending: sql<number>`(count(*) filter (where ${authorizations.status} = 'Pending'))::int`,
    approved: sql<number>`(count(*) filter (where ${authorizations.status} = 'Approved'))::int`,
    denied: sql<number>`(count(*) filter (where ${authorizations.status} = 'Denied'))::int`,
    atRisk: sql<number>`(count(*) filter (where ${authorizations.status} = 'Pending' and ${age} > ${AT_RISK_AFTER_DAYS}))::int`,
    avgAgeDays: sql<number>`coalesce(round(avg(${age}), 1), 0)::float8`,
  };
  // Every authorization has its patient (patient_id is required, and deleting a patient deletes theirs): the
  // patients are joined only for a search, which matches their names.
  const [kpis] = await (search === ''
    ? db.select(columns).from(authorizations).where(where)
    : db
        .select(columns)
        .from(authorizations)
        .innerJoin(patients, eq(patients.id, authorizations.patientId))
        .where(where));
  return kpis ?? { total: 0, pending: 0, approved: 0, denied: 0, atRisk: 0, avgAgeDays: 0 };
}

/**
 * kpisOf for no filter and no search, from the status rollup (kept exact by the write's own transaction):
 * the counts by status, and Avg Age from the rollup's summed ages; only At Risk reads rows, the Pending
 * ones (authorizations_status_idx). Counting every authorization was the mixed load's costliest statement.
 */
async function allKpis(db: DbOrTx, ctx: RequestContext): Promise<AuthorizationKpis> {
  const r = authorizationsStatusRollup;
  const age = ageSql(ctx);
  const todayDays = sql`(${today(ctx.now)}::date - date '2000-01-01')`;
  const [kpis] = await db
    .select({
      total: sql<number>`coalesce(sum(${r.authorizations}), 0)::int`,
      pending: sql<number>`coalesce(sum(${r.authorizations}) filter (where ${r.status} = 'Pending'), 0)::int`,
      approved: sql<number>`coalesce(sum(${r.authorizations}) filter (where ${r.status} = 'Approved'), 0)::int`,
      denied: sql<number>`coalesce(sum(${r.authorizations}) filter (where ${r.status} = 'Denied'), 0)::int`,
      atRisk: sql<number>`(select count(*)::int from ${authorizations}
        where ${authorizations.status} = 'Pending' and ${age} > ${AT_RISK_AFTER_DAYS})`,
      avgAgeDays: sql<number>`coalesce(round((sum(${r.decidedAgeDays}) + sum(${r.undecided}) * ${todayDays}
        - sum(${r.undecidedRequestedDays}))::numeric / nullif(sum(${r.authorizations}), 0), 1), 0)::float8`,
    })
    .from(r);
  return kpis ?? { total: 0, pending: 0, approved: 0, denied: 0, atRisk: 0, avgAgeDays: 0 };
}

/**
 * One page of the filtered, sorted list (keyset-paged: `nextCursor` resumes after its last row), and on a
 * first page (no cursor, and `count` not 'false') how many rows match and the KPIs over all rows: both
 * read every authorization, so turning pages does not recompute them (the client keeps the first page's).
 * The page itself is ONE statement: the index walk for its ids and keys joined to the rows it shows.
 */
export async function listAuthorizations(
  db: Db,
  ctx: RequestContext,
  query: AuthorizationQuery,
): Promise<AuthorizationList> {
  const kinds = KEY_KINDS[query.sort];
  const cursor = query.cursor ? decodeCursor(query.cursor, query.sort, query.dir, kinds) : null;
  const where = filterCondition(query);
  const firstPage = !cursor && query.count !== 'false';
  const dir = direction(query.dir);
  const pageOrder = sql.join(
    [
      ...kinds.map((kind, i) => sql`page.${sql.identifier(`k${i}`)}${sql.raw(kind === 'date' ? '::date' : '')}`),
      sql`page.id`,
    ].map((key) => sql`${key} ${dir}`),
    sql`, `,
  );
  const statement = sql`select ${patients.name} as patient, ${authorizations.service} as service,
      ${authorizations.payer} as payer, ${authorizations.status} as status, ${ageSql(ctx)} as "ageDays",
      ${authorizations.requestedOn}::text as "requestedOn", ${authorizations.decidedOn}::text as "decidedOn",
      ${authorizations.authNumber} as "authNumber", ${authorizations.approvedUnits} as "approvedUnits",
      ${authorizations.validFrom}::text as "validFrom", ${authorizations.validTo}::text as "validTo",
      ${authorizations.denialReason} as "denialReason",
      ${authorizations.patientId} as "patientId", page.*
    from (${pageKeysSql(ctx, query, cursor)}) page
    join ${authorizations} on ${authorizations.id} = page.id
    join ${patients} on ${patients.id} = ${authorizations.patientId}
    order by ${pageOrder}`;
  // How many match is the KPIs' total: one pass over the matching rows gives both.
  const [found, kpis, overallCount] = await Promise.all([
    // Prepared but for a text search (its texts' shares differ too much for one plan) and a jump by
    // offset (whose every value would be a statement of its own).
    (query.search === '' && query.offset === 0
      ? executePrepared<Row & Record<string, unknown>>(db, statement)
      : db.execute<Row & Record<string, unknown>>(statement)
    ).then((result) => result.rows),
    firstPage
      ? where === undefined && query.search === ''
        ? allKpis(db, ctx)
        : kpisOf(db, ctx, where, query.search)
      : Promise.resolve(null),
    // Unfiltered, the KPIs' total is every authorization: no second read of the rollup.
    firstPage && !(where === undefined && query.search === '')
      ? db
          .select({ total: sql<number>`coalesce(sum(${authorizationsStatusRollup.authorizations}), 0)::int` })
          .from(authorizationsStatusRollup)
          .then(([row]) => row?.total ?? 0)
      : Promise.resolve(null),
  ]);
  const total = kpis ? kpis.total : null;
  const overallTotal = firstPage ? (overallCount ?? total) : null;
  const page = found.slice(0, query.limit);
  const last = page[page.length - 1];
  await recordRead(
    db,
    ctx,
    listReadEntry(
      'authorizations.list.view',
      '/api/authorizations',
      query,
      page.map((row) => Number(row.patientId)),
    ),
  );
  return {
    items: page.map((row) =>
      toAuthorization({
        id: Number(row.id),
        patient: row.patient,
        service: row.service,
        payer: row.payer,
        status: row.status,
        ageDays: row.ageDays,
        requestedOn: row.requestedOn,
        decidedOn: row.decidedOn,
        authNumber: row.authNumber,
        approvedUnits: row.approvedUnits,
        validFrom: row.validFrom,
        validTo: row.validTo,
        denialReason: row.denialReason,
      }),
    ),
    nextCursor:
      found.length > query.limit && last
        ? encodeCursor(query.sort, query.dir, {
            values: kinds.map((_, i) => last[`k${i}`] as KeyValue),
            id: Number(last.id),
          })
        : null,
    total,
    kpis,
    overallTotal,
  };
}

/**
 * Every row matching the filters for the browser's CSV export. Serving them is the export, so it is
 * audited here, after the read and before the answer.
 */
export async function exportAuthorizations(
  db: Db,
  ctx: RequestContext,
  query: AuthorizationExportQuery,
): Promise<AuthorizationExport> {
  const rows = await db
    .select(rowColumns(ctx))
    .from(authorizations)
    .innerJoin(patients, eq(patients.id, authorizations.patientId))
    .where(filterCondition(query))
    .orderBy(...orderBy(ctx, query.sort, query.dir))
    .limit(AUTHORIZATION_EXPORT_MAX_ROWS + 1);
  if (rows.length > AUTHORIZATION_EXPORT_MAX_ROWS) {
    throw new HttpError(
      422,
      'EXPORT_TOO_LARGE',
      `More than ${AUTHORIZATION_EXPORT_MAX_ROWS} authorizations match: narrow the filters to export.`,
    );
  }
  const filters = [
    query.payer && `payer ${query.payer}`,
    query.status && `status ${query.status}`,
    query.search && `search "${query.search}"`,
  ].filter(Boolean);
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'export.csv',
    resource: 'authorizations',
    detail: `authorizations.csv: ${rows.length} rows${filters.length ? ` (${filters.join(', ')})` : ''}`,
  });
  return { items: rows.map(toAuthorization) };
}

/** A pending authorization can be approved or denied once; every decision is audited. */
export async function decideAuthorization(
  db: Db,
  ctx: RequestContext,
  id: number,
  decision: AuthorizationDecision,
): Promise<Authorization> {
  const { status } = decision;
  return db.transaction(async (tx) => {
    // Row lock: two people deciding at once cannot both see it pending.
    const [current] = await tx
      .select({ status: authorizations.status, patientId: authorizations.patientId })
      .from(authorizations)
      .where(eq(authorizations.id, id))
      .limit(1)
      .for('update');
    if (!current) throw new HttpError(404, 'NOT_FOUND', 'No authorization with that id.');
    if (current.status !== 'Pending') {
      throw new HttpError(409, 'ALREADY_DECIDED', `status: this authorization is already ${current.status}`, {
        fields: [{ field: 'status', message: `already ${current.status}` }],
      });
    }
    await tx
      .update(authorizations)
      .set({
        status,
        decidedOn: today(ctx.now),
        decidedBy: ctx.user.id,
        ...(decision.status === 'Approved'
          ? {
              authNumber: decision.authNumber,
              approvedUnits: decision.units,
              validFrom: decision.validFrom,
              validTo: decision.validTo,
            }
          : { denialReason: decision.reason }),
      })
      .where(eq(authorizations.id, id));
    await record(tx, {
      ...actorOf(ctx),
      action: 'authorization.update',
      resource: `authorization/${id}`,
      detail:
        `status Pending → ${status}` +
        (decision.status === 'Approved'
          ? `; authorization ${decision.authNumber}, ${decision.units} unit${decision.units === 1 ? '' : 's'}, valid ${decision.validFrom} to ${decision.validTo}`
          : `; reason: ${decision.reason}`),
      patientId: current.patientId,
    });
    const [row] = await tx
      .select(rowColumns(ctx))
      .from(authorizations)
      .innerJoin(patients, eq(patients.id, authorizations.patientId))
      .where(eq(authorizations.id, id));
    if (!row) throw new Error('decided authorization vanished');
    return toAuthorization(row);
  });
}

/**
 * Dashboard: every authorization counted per status, read from the per-status counts the triggers of
 * migration 0015 keep exact in the same transaction as every write (no scan of authorizations).
 */
export async function countAuthorizationsByStatus(db: Db): Promise<{ status: string; count: number }[]> {
  const result = await db.execute<{ counts: { status: string; count: number }[] }>(
    sql`select ${authorizationStatusCountsSql()} as counts`,
  );
  return result.rows[0]?.counts ?? [];
}

/**
 * countAuthorizationsByStatus as a scalar subquery (a JSON array of { status, count }, by status), for a
 * caller that gathers several figures in one statement (dashboard).
 */
export function authorizationStatusCountsSql(): SQL<{ status: string; count: number }[]> {
  const r = authorizationsStatusRollup;
  return sql`(select coalesce(json_agg(json_build_object('status', ${r.status}, 'count', ${r.authorizations}::int)
    order by ${r.status}), '[]') from ${r} where ${r.authorizations} > 0)`;
}

/** Dashboard critical alerts: pending authorizations older than `olderThanDays`, oldest first. */
export async function listAgedPendingAuthorizations(
  db: Db,
  ctx: RequestContext,
  olderThanDays: number,
  limit: number,
): Promise<{ id: number; patient: string; service: string; payer: string; ageDays: number }[]> {
  const age = ageSql(ctx);
  return db
    .select({
      id: authorizations.id,
      patient: patients.name,
      service: authorizations.service,
      payer: authorizations.payer,
      ageDays: age,
    })
    .from(authorizations)
    .innerJoin(patients, eq(patients.id, authorizations.patientId))
    .where(and(eq(authorizations.status, 'Pending'), sql`${age} > ${olderThanDays}`))
    .orderBy(asc(authorizations.requestedOn), asc(authorizations.id))
    .limit(limit);
}
