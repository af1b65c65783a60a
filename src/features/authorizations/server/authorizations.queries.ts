import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { today } from '@/shared/api';
import { record } from '@/features/audit/server/audit.queries';
import { patients } from '@/features/patients/server/patients.table';
import type { RequestContext } from '@/server/context';
import type { Db } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import {
  AT_RISK_AFTER_DAYS,
  authorizationStatusSchema,
  type Authorization,
  type AuthorizationList,
  type AuthorizationQuery,
} from '../authorizations.schema';
import { authorizations } from './authorizations.table';

function ageSql(ctx: RequestContext) {
  return sql<number>`(${today(ctx.now)}::date - ${authorizations.requestedOn})::int`;
}

export async function listAuthorizations(
  db: Db,
  ctx: RequestContext,
  query: AuthorizationQuery,
): Promise<AuthorizationList> {
  const age = ageSql(ctx);
  const where = and(
    query.payer ? eq(authorizations.payer, query.payer) : undefined,
    query.status ? eq(authorizations.status, query.status) : undefined,
  );
  const [rows, [kpis]] = await Promise.all([
    db
      .select({
        id: authorizations.id,
        patient: patients.name,
        service: authorizations.service,
        payer: authorizations.payer,
        status: authorizations.status,
        ageDays: age,
        requestedOn: authorizations.requestedOn,
      })
      .from(authorizations)
      .innerJoin(patients, eq(patients.id, authorizations.patientId))
      .where(where)
      .orderBy(desc(age), asc(authorizations.id)),
    db
      .select({
        total: sql<number>`count(*)::int`,
        pending: sql<number>`count(*) filter (where ${authorizations.status} = 'Pending')::int`,
        approved: sql<number>`count(*) filter (where ${authorizations.status} = 'Approved')::int`,
        denied: sql<number>`count(*) filter (where ${authorizations.status} = 'Denied')::int`,
        atRisk: sql<number>`count(*) filter (where ${authorizations.status} = 'Pending' and ${age} > ${AT_RISK_AFTER_DAYS})::int`,
        avgAgeDays: sql<number>`coalesce(round(avg(${age}), 1), 0)::float8`,
      })
      .from(authorizations),
  ]);
  const items: Authorization[] = rows.map((r) => {
    const status = authorizationStatusSchema.parse(r.status);
    return { ...r, status, atRisk: status === 'Pending' && r.ageDays > AT_RISK_AFTER_DAYS };
  });
  return { items, kpis: kpis ?? { total: 0, pending: 0, approved: 0, denied: 0, atRisk: 0, avgAgeDays: 0 } };
}

/** DECISIONS 4: a pending authorization can be approved or denied; every decision is audited. */
export async function decideAuthorization(
  db: Db,
  ctx: RequestContext,
  id: number,
  status: 'Approved' | 'Denied',
): Promise<Authorization> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(authorizations).where(eq(authorizations.id, id)).limit(1).for('update');
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
    const age = ageSql(ctx);
    const [row] = await tx
      .select({
        id: authorizations.id,
        patient: patients.name,
        service: authorizations.service,
        payer: authorizations.payer,
        ageDays: age,
        requestedOn: authorizations.requestedOn,
      })
      .from(authorizations)
      .innerJoin(patients, eq(patients.id, authorizations.patientId))
      .where(eq(authorizations.id, id));
    if (!row) throw new Error('decided authorization vanished');
    return { ...row, status, atRisk: false };
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
