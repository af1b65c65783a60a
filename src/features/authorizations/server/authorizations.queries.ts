import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { today } from '@/shared/api';
import { record } from '@/features/audit/server/audit.queries';
import { patients } from '@/features/patients/server/patients.table';
import type { RequestContext } from '@/server/context';
import { containsPattern } from '@/server/db/like';
import type { Db, DbOrTx } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import {
  AT_RISK_AFTER_DAYS,
  AUTHORIZATION_EXPORT_MAX_ROWS,
  authorizationStatusSchema,
  type Authorization,
  type AuthorizationExport,
  type AuthorizationExportQuery,
  type AuthorizationFilter,
  type AuthorizationKpis,
  type AuthorizationList,
  type AuthorizationQuery,
  type AuthorizationSortKey,
} from '../authorizations.schema';
import { authorizations } from './authorizations.table';

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
  };
}

type Row = { status: string; ageDays: number } & Omit<Authorization, 'status' | 'atRisk' | 'ageDays'>;

function toAuthorization(row: Row): Authorization {
  const status = authorizationStatusSchema.parse(row.status);
  return { ...row, status, atRisk: status === 'Pending' && row.ageDays > AT_RISK_AFTER_DAYS };
}

function filterCondition(filter: AuthorizationFilter): SQL | undefined {
  const pattern = filter.search === '' ? null : containsPattern(filter.search);
  return and(
    filter.payer ? eq(authorizations.payer, filter.payer) : undefined,
    filter.status ? eq(authorizations.status, filter.status) : undefined,
    pattern ? or(ilike(patients.name, pattern), ilike(authorizations.service, pattern)) : undefined,
  );
}

function orderBy(ctx: RequestContext, sort: AuthorizationSortKey, dir: 'asc' | 'desc'): SQL[] {
  const order = dir === 'asc' ? asc : desc;
  const column = {
    patient: sql`${patients.name}`,
    service: sql`${authorizations.service}`,
    payer: sql`${authorizations.payer}`,
    status: sql`${authorizations.status}`,
    ageDays: ageSql(ctx),
  }[sort];
  return [order(column), asc(authorizations.id)];
}

/**
 * SPEC 2.13 KPIs over every authorization: counts by status; At Risk = pending and older than
 * AT_RISK_AFTER_DAYS; Avg Age = mean of ageDays, one decimal, 0 when there are none.
 */
async function kpisOf(db: DbOrTx, ctx: RequestContext): Promise<AuthorizationKpis> {
  const age = ageSql(ctx);
  const [kpis] = await db
    .select({
      total: sql<number>`count(*)::int`,
      pending: sql<number>`(count(*) filter (where ${authorizations.status} = 'Pending'))::int`,
      approved: sql<number>`(count(*) filter (where ${authorizations.status} = 'Approved'))::int`,
      denied: sql<number>`(count(*) filter (where ${authorizations.status} = 'Denied'))::int`,
      atRisk: sql<number>`(count(*) filter (where ${authorizations.status} = 'Pending' and ${age} > ${AT_RISK_AFTER_DAYS}))::int`,
      avgAgeDays: sql<number>`coalesce(round(avg(${age}), 1), 0)::float8`,
    })
    .from(authorizations);
  return kpis ?? { total: 0, pending: 0, approved: 0, denied: 0, atRisk: 0, avgAgeDays: 0 };
}

/** One page of the filtered, sorted list, how many rows match, and the KPIs over all rows. */
export async function listAuthorizations(
  db: Db,
  ctx: RequestContext,
  query: AuthorizationQuery,
): Promise<AuthorizationList> {
  const where = filterCondition(query);
  const [rows, [matching], kpis] = await Promise.all([
    db
      .select(rowColumns(ctx))
      .from(authorizations)
      .innerJoin(patients, eq(patients.id, authorizations.patientId))
      .where(where)
      .orderBy(...orderBy(ctx, query.sort, query.dir))
      .limit(query.limit)
      .offset(query.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(authorizations)
      .innerJoin(patients, eq(patients.id, authorizations.patientId))
      .where(where),
    kpisOf(db, ctx),
  ]);
  return { items: rows.map(toAuthorization), total: matching?.total ?? 0, kpis };
}

/**
 * Every row matching the filters for the browser's CSV export. Serving them is the export, so it is
 * audited here, in the same transaction as the read.
 */
export async function exportAuthorizations(
  db: Db,
  ctx: RequestContext,
  query: AuthorizationExportQuery,
): Promise<AuthorizationExport> {
  return db.transaction(async (tx) => {
    const rows = await tx
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
    await record(tx, {
      actor: ctx.user.email,
      actorUserId: ctx.user.id,
      actorRole: ctx.user.role,
      action: 'export.csv',
      resource: 'authorizations',
      detail: `authorizations.csv: ${rows.length} rows${filters.length ? ` (${filters.join(', ')})` : ''}`,
      at: ctx.now,
    });
    return { items: rows.map(toAuthorization) };
  });
}

/** DECISIONS 4: a pending authorization can be approved or denied once; every decision is audited. */
export async function decideAuthorization(
  db: Db,
  ctx: RequestContext,
  id: number,
  status: 'Approved' | 'Denied',
): Promise<Authorization> {
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
      .set({ status, decidedOn: today(ctx.now), decidedBy: ctx.user.id })
      .where(eq(authorizations.id, id));
    await record(tx, {
      actor: ctx.user.email,
      actorUserId: ctx.user.id,
      actorRole: ctx.user.role,
      action: 'authorization.update',
      resource: `authorization/${id}`,
      detail: `status Pending → ${status}`,
      patientId: current.patientId,
      at: ctx.now,
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

/** Dashboard: every authorization counted per status by the database. */
export async function countAuthorizationsByStatus(db: Db): Promise<{ status: string; count: number }[]> {
  return db
    .select({ status: authorizations.status, count: sql<number>`count(*)::int` })
    .from(authorizations)
    .groupBy(authorizations.status)
    .orderBy(asc(authorizations.status));
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
