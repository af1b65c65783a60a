// Claims figures and definitions that other features read: the dashboard, the global search and analytics.
import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { RequestContext } from '@/server/context';
import type { Db } from '@/server/db/types';
import { containsPattern } from '@/server/db/like';
import { patients } from '@/features/patients/server/patients.table';
import { claims } from './claims.table';
import { claimsStatusRollup } from './claims.rollup.table';

/** Global search: claims whose patient name or account number contains the text, newest first. */
export async function searchClaimsBrief(db: Db, _ctx: RequestContext, text: string, limit: number) {
  const pattern = containsPattern(text);
  return db
    .select({
      id: claims.id,
      patient: patients.name,
      accountNumber: claims.accountNumber,
      status: claims.status,
      // For the search's audit entry (the patients it showed); the route leaves it out of the answer.
      patientId: claims.patientId,
    })
    .from(claims)
    .innerJoin(patients, eq(patients.id, claims.patientId))
    .where(or(ilike(patients.name, pattern), ilike(claims.accountNumber, pattern)))
    .orderBy(desc(claims.serviceDate), desc(claims.id))
    .limit(limit);
}

/**
 * Dashboard: revenue collected (the sum of what payers paid, claims.paid_cents, over every claim) and
 * the claims counted per status, both computed by the database. The raw reference of summariseClaims.
 */
export async function summariseClaimsRaw(
  db: Db,
): Promise<{ collectedCents: number; byStatus: { status: string; count: number }[] }> {
  const [[totals], byStatus] = await Promise.all([
    db
      .select({ collectedCents: sql<string>`coalesce(sum(${claims.paidCents}), 0)::bigint` })
      .from(claims)
      .where(notVoidedSql),
    db
      .select({ status: claims.status, count: sql<number>`count(*)::int` })
      .from(claims)
      .where(notVoidedSql)
      .groupBy(claims.status)
      .orderBy(asc(claims.status)),
  ]);
  return { collectedCents: Number(totals?.collectedCents ?? 0), byStatus };
}

/** The dashboard's claim figures from the claims rollup (kept exact by triggers); equals summariseClaimsRaw. */
export async function summariseClaims(
  db: Db,
): Promise<{ collectedCents: number; byStatus: { status: string; count: number }[] }> {
  const result = await db.execute<{ summary: ClaimsSummaryJson }>(sql`select ${claimsSummarySql()} as summary`);
  return claimsSummaryOf(result.rows[0]?.summary);
}

/** summariseClaims as JSON from the database: cents as text (bigint), byStatus ordered by status. */
export interface ClaimsSummaryJson {
  collectedCents: string;
  byStatus: { status: string; count: number }[];
}

/** summariseClaims as a scalar subquery, for a caller that gathers several figures in one statement (dashboard). */
export function claimsSummarySql(): SQL<ClaimsSummaryJson> {
  const r = claimsStatusRollup;
  return sql`(select json_build_object(
      'collectedCents', (select coalesce(sum(${r.paidCents}), 0)::bigint::text from ${r}),
      'byStatus', (select coalesce(json_agg(json_build_object('status', status, 'count', count) order by status), '[]')
        from (select ${r.status} as status, sum(${r.claims})::int as count from ${r}
          group by ${r.status} having sum(${r.claims}) > 0) counted)))`;
}

/** The answer of summariseClaims from claimsSummarySql's JSON. */
export function claimsSummaryOf(json: ClaimsSummaryJson | null | undefined): {
  collectedCents: number;
  byStatus: { status: string; count: number }[];
} {
  return { collectedCents: Number(json?.collectedCents ?? 0), byStatus: json?.byStatus ?? [] };
}

/** Dashboard critical alerts: the most recently adjudicated claims that stand denied, newest first. */
export async function listNewestDenials(db: Db, limit: number) {
  return db
    .select({
      id: claims.id,
      patient: patients.name,
      accountNumber: claims.accountNumber,
      payer: claims.payer,
      reasonCode: claims.reasonCode,
      denialDescription: claims.denialDescription,
      billedCents: claims.billedCents,
      serviceDate: claims.serviceDate,
    })
    .from(claims)
    .innerJoin(patients, eq(patients.id, claims.patientId))
    .where(and(eq(claims.status, 'Denied'), notVoidedSql))
    .orderBy(sql`${claims.adjudicatedOn} desc nulls last`, desc(claims.serviceDate), desc(claims.id))
    .limit(limit);
}

/**
 * A claim's days in A/R: from its service date to its resolution, or to today (the server's clock day)
 * while it is unresolved.
 */
/**
 * DAYS IN A/R OF ONE CLAIM (the claims list's "Days AR"): whole days from the claim's service date to
 * the day its balance was resolved (claims.resolved_on), or to `asOf` (today) while it is unresolved;
 * never negative.
 *
 *   days_in_ar = greatest(0, least(coalesce(resolved_on, asOf), asOf) − service_date)
 *
 * Columns are written as "claims"."…", so use it in a query over the claims table (not an alias).
 */
export function daysInArSql(asOf: string): SQL<number> {
  return sql<number>`greatest(0, least(coalesce(${claims.resolvedOn}, ${asOf}::date), ${asOf}::date) - ${claims.serviceDate})::int`;
}

/**
 * A claim that counts: not voided. Voided claims (entered by mistake) stay listed but leave every KPI,
 * total and rollup (the rollups' one contribution definition skips them too; docs/payers.md).
 */
export const notVoidedSql = sql`${claims.voidedAt} is null`;

/**
 * A CAPTURED CHARGE is a claim not billed after another's adjudication: a claim for the patient's next policy
 * bills the same visit's charge again (claims.primary_claim_id), so the charges cohort (claims and billed per
 * service date) counts the visit once, on the claim first billed (docs/kpis.md).
 */
export const capturedChargeSql = sql`${claims.primaryClaimId} is null`;

/**
 * A DENIED CLAIM is one whose first adjudication was a denial (claims.denied_on_first_adjudication),
 * whatever happened next (appeal, payment, write-off). Its reason is a CARC denial code: CO-45 (contractual
 * adjustment) and PR-1/2/3 (deductible, coinsurance, copay) are never denials.
 */
export const deniedClaimSql: SQL<boolean> = sql<boolean>`${claims.deniedOnFirstAdjudication}`;

/** A reason code that is a denial reason: any but CO-45 and the PR (patient responsibility) group. */
export const denialReasonSql: SQL<boolean> = sql<boolean>`(${claims.reasonCode} is not null and ${claims.reasonCode} <> 'CO-45' and ${claims.reasonCode} not like 'PR-%')`;
