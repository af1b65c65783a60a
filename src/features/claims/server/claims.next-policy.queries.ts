/**
 * What the claims know of the patient's next policy (secondary after primary, tertiary after secondary): whether
 * a claim's balance can be billed to it now and why not (the claim view shows it, and the coordination of benefits
 * feature bills it: features/coordination), and keeping a balance handed on to a later claim in step with what the
 * earlier payer decides (docs/x12-837.md, "After another payer"). The remittance tables are read by SQL here, as
 * the claims feature does not import the remittances feature.
 */
import { eq, sql } from 'drizzle-orm';
import { formatDollars } from '@/shared/api';
import { actorOf, recordMany, type AuditInput } from '@/features/audit/server/audit.queries';
import { openWorkItems, type OpenWorkItem } from '@/features/workqueue/server/workqueue.queries';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { executePrepared } from '@/server/db/prepared';
import { rawRows, rowText, rowTextOrNull, type RawRow } from '@/server/db/sql-helpers';
import type { ClaimNextPolicy, ClaimLink } from '../claims.schema';
import { claims } from './claims.table';

/** What decides whether a claim's balance can go to the patient's next policy, read in one statement. */
export async function readNextPolicy(db: DbOrTx, claimId: number): Promise<RawRow | undefined> {
  // Prepared: the claim view opens it every time (docs/performance.md, "Planning the hot reads once").
  const [row] = (
    await executePrepared<RawRow>(
      db,
      sql`select c.id, c.patient_id, c.provider_id, c.account_number, c.payer, c.place_of_service, c.diagnoses,
          c.referring_provider_name, c.referring_provider_npi,
          c.service_date::text as service_date, c.voided_at is not null as voided,
          c.billed_cents - c.paid_cents - c.contractual_adjustment_cents as left_cents,
          n.id as next_coverage_id, n.payer as next_payer,
          exists (select 1 from remittance_claims rc join remittances r on r.id = rc.remittance_id
            where rc.claim_id = c.id and rc.outcome = 'posted' and rc.reverses_id is null and r.payer = c.payer
              and not exists (select 1 from remittance_claims x where x.reverses_id = rc.id)) as adjudicated,
          coalesce((select sum(e.amount_cents) from remittance_ledger e
            where e.claim_id = c.id and e.bucket = 'forwarded'), 0)::int as forwarded_cents,
          pc.id as primary_id, pc.account_number as primary_account, pc.payer as primary_payer,
          (select coalesce(json_agg(json_build_object('id', l.id, 'accountNumber', l.account_number, 'payer', l.payer)
              order by l.id), '[]'::json)
            from claims l where l.primary_claim_id = c.id and l.voided_at is null) as later
        from claims c
        left join coverages v on v.id = c.coverage_id
        left join lateral (select o.id, o.payer from coverages o
            join payers py on py.name = o.payer and py.claim_filing_indicator <> '09'
          where o.patient_id = c.patient_id and o.priority > v.priority and o.effective_on <= c.service_date
            and (o.end_on is null or o.end_on >= c.service_date)
          order by o.priority, o.id limit 1) n on true
        left join claims pc on pc.id = c.primary_claim_id
        where c.id = ${claimId}`,
    )
  ).rows;
  return row;
}

/** Why the claim cannot be billed to its next policy now, or null when it can. */
export function refusalOf(row: RawRow): { code: string; field: string; message: string } | null {
  const payer = rowText(row.payer);
  if (row.voided === true) return { code: 'NOT_BILLABLE', field: 'status', message: 'the claim is voided' };
  if (row.next_coverage_id === null) {
    return {
      code: 'NO_NEXT_POLICY',
      field: 'coverageId',
      message: `the patient has no policy after ${payer}'s in force on ${rowText(row.service_date)}`,
    };
  }
  if (row.adjudicated !== true) {
    return { code: 'NOT_ADJUDICATED', field: 'status', message: `${payer} has not adjudicated the claim yet` };
  }
  if (Number(row.forwarded_cents) > 0) {
    return {
      code: 'CROSSED_OVER',
      field: 'status',
      message: `${payer} forwarded the balance to ${rowText(row.next_payer)} itself; billing it again would be a duplicate`,
    };
  }
  if (Number(row.left_cents) <= 0) {
    return { code: 'NOTHING_LEFT', field: 'balanceCents', message: `${payer} left no balance to bill` };
  }
  const later = row.later as ClaimLink[];
  if (later.length > 0) {
    return {
      code: 'ALREADY_BILLED',
      field: 'status',
      message: `is billed to ${later[0]!.payer} already, as ${later[0]!.accountNumber}`,
    };
  }
  return null;
}

/** The claim view's part: the claim it follows, the claims that follow it, and its next policy. */
export async function nextPolicyOf(
  db: Db,
  claimId: number,
): Promise<{ primaryClaim: ClaimLink | null; laterClaims: ClaimLink[]; nextPolicy: ClaimNextPolicy | null }> {
  const row = await readNextPolicy(db, claimId);
  if (!row) return { primaryClaim: null, laterClaims: [], nextPolicy: null };
  const refusal = refusalOf(row);
  return {
    primaryClaim:
      row.primary_id === null
        ? null
        : {
            id: Number(row.primary_id),
            accountNumber: rowText(row.primary_account),
            payer: rowText(row.primary_payer),
          },
    laterClaims: row.later as ClaimLink[],
    nextPolicy:
      row.next_coverage_id === null
        ? null
        : { payer: rowText(row.next_payer), billable: refusal === null, reason: refusal?.message ?? null },
  };
}

/**
 * After a remittance changes what a payer settled of claims whose balance was already billed to the patient's next
 * policy (a reversal and a new decision, a late adjustment), in the posting's transaction: what they now leave is
 * what the next payer's claim must answer for.
 *
 * - While that claim is not sent (Draft or Ready), both are kept in step: the first claim hands on what it now leaves,
 *   and the new claim owes that (its earlier payers' part follows); its 837P reads the new decision when it is sent.
 *   Audited on both (`claim.next_policy.follow`).
 * - Once it is sent, its payer has the old figures: the claim must go again as a replacement. A work item says so
 *   on it, with the difference at risk; the first claim keeps what it handed on, so the difference shows as its own
 *   balance until a person acts.
 */
export async function followHandedOnBalances(
  tx: Tx,
  ctx: RequestContext,
  claimIds: readonly number[],
  decision: { decidedOn: string; reference: string },
): Promise<void> {
  if (claimIds.length === 0) return;
  const rows = await rawRows(
    tx,
    sql`select f.id, f.account_number, f.payer, f.patient_id, f.handed_on_cents,
          greatest(0, f.billed_cents - f.paid_cents - f.contractual_adjustment_cents) as left_cents,
          l.id as later_id, l.account_number as later_account, l.payer as later_payer, l.status as later_status,
          l.billed_cents as later_billed, l.service_date::text as service_date
        from claims f
        join claims l on l.primary_claim_id = f.id and l.voided_at is null
        where f.id = any(${`{${claimIds.join(',')}}`}::int[])
          and f.handed_on_cents <> greatest(0, f.billed_cents - f.paid_cents - f.contractual_adjustment_cents)
        order by f.id, l.id
        for update of f, l`,
  );
  const audit: AuditInput[] = [];
  const work: OpenWorkItem[] = [];
  for (const row of rows) {
    const was = Number(row.handed_on_cents);
    const now = Number(row.left_cents);
    const first = rowText(row.account_number);
    const later = rowText(row.later_account);
    const patientId = Number(row.patient_id);
    const change = `${rowText(row.payer)}'s decision on ${first} now leaves ${formatDollars(now)}, not ${formatDollars(was)}`;
    if (['Draft', 'Ready'].includes(rowText(row.later_status))) {
      const prior = Math.max(0, Number(row.later_billed) - now);
      await tx
        .update(claims)
        .set({ handedOnCents: now })
        .where(eq(claims.id, Number(row.id)));
      await tx
        .update(claims)
        .set({ priorPayersCents: prior })
        .where(eq(claims.id, Number(row.later_id)));
      for (const [id, detail] of [
        [Number(row.id), `${change}: handed on to ${later} instead (${decision.reference})`],
        [
          Number(row.later_id),
          `${change}: ${later} owes that now, earlier payers' part ${formatDollars(prior)} (${decision.reference})`,
        ],
      ] as const) {
        audit.push({ ...actorOf(ctx), action: 'claim.next_policy.follow', resource: `claim/${id}`, patientId, detail });
      }
    } else {
      work.push({
        source: 'review',
        sourceKey: `claim/${Number(row.later_id)}/prior-changed/${decision.reference}`,
        claimId: Number(row.later_id),
        patientId,
        accountNumber: later,
        payer: rowText(row.later_payer),
        category: 'other',
        reason: `${change} (${decision.reference}); ${later} was sent to ${rowText(row.later_payer)} with the old figures: send it again as a replacement (frequency 7)`,
        dollarsAtRiskCents: Math.abs(now - was),
        serviceDate: rowTextOrNull(row.service_date),
        decidedOn: decision.decidedOn,
      });
    }
  }
  await recordMany(tx, audit);
  await openWorkItems(tx, ctx, work);
}
