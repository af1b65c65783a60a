/**
 * Coordination of benefits: billing a claim's balance to the patient's next policy (secondary after primary,
 * tertiary after secondary), and what the 837P tells that payer about the earlier one's decision
 * (docs/x12-837.md, "After another payer").
 *
 * Once the payer of the policy billed has adjudicated the claim (a posted remittance, not reversed) and left a
 * balance, the billing staff bill the patient's next policy in force on the service date: a new Draft claim with
 * the same diagnoses and lines, linked to this one (claims.primary_claim_id). Whether it can be billed is the
 * claims' rule (claims.next-policy.queries.ts: the claim view shows it too). Its 837P carries the earlier payer's
 * adjudication from the posting ledger: loop 2320 CAS and AMT*D, loop 2430 per line (ASC X12 005010X222A1). The
 * remittance tables are read by SQL here, as this feature comes before the remittances feature.
 */
import { eq, sql } from 'drizzle-orm';
import type { RequestContext } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import { rawRows, rowText, rowTextOrNull, type RawRow } from '@/server/db/sql-helpers';
import type { Adjustment837, LineAdjudication837, PriorAdjudication837 } from '@/features/x12/x12.837p';
import type { ClaimDraft } from '@/features/claims/claims.schema';
import { insertDraftClaim, totalOf } from '@/features/claims/server/claims.draft.queries';
import { PAID_STATUSES_SQL } from '@/features/claims/server/claims.formulas';
import { serviceLineOf } from '@/features/claims/server/claims.line-rows.queries';
import { readNextPolicy, refusalOf } from '@/features/claims/server/claims.next-policy.queries';
import { claims } from '@/features/claims/server/claims.table';

/**
 * `POST /api/claims/:id/next-policy`: a Draft claim of the claim's balance for the patient's next policy, with the
 * claim's diagnoses and lines, linked to it. 409 naming the rule when it cannot be billed yet.
 */
export async function billNextPolicy(db: Db, ctx: RequestContext, claimId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const row = await lockAndReadNextPolicy(tx, claimId);
    if (!row) throw new HttpError(404, 'NOT_FOUND', 'No such claim.');
    const refusal = refusalOf(row);
    if (refusal) {
      throw new HttpError(409, refusal.code, `${refusal.field}: ${refusal.message}`, {
        fields: [{ field: refusal.field, message: refusal.message }],
      });
    }
    return insertNextPolicyClaim(tx, ctx, claimId, row);
  });
}

/**
 * Bills the patients' next policies for the claims a remittance has just posted as Paid, in its transaction: what a
 * biller would do next for each (a supplemental plan pays the deductible and coinsurance the first payer left), so
 * that the patient is not asked for a share another policy covers. A claim its payer forwarded itself (CLP02 19),
 * one billed already, or one with nothing left is passed over (refusalOf); a denied or partly paid claim is left to
 * the biller, who decides between correcting, appealing and billing on. Answers how many claims it made.
 */
export async function billNextPoliciesAfterPosting(
  tx: Tx,
  ctx: RequestContext,
  claimIds: readonly number[],
): Promise<number> {
  if (claimIds.length === 0) return 0;
  // Most patients have one policy: only the claims with a later policy in force on the service date are read whole.
  const candidates = await rawRows(
    tx,
    sql`select c.id from claims c join coverages v on v.id = c.coverage_id
        where c.id = any(${`{${claimIds.join(',')}}`}::int[]) and c.status in (${PAID_STATUSES_SQL}) and c.voided_at is null
          and exists (select 1 from coverages o where o.patient_id = c.patient_id and o.priority > v.priority
            and o.effective_on <= c.service_date and (o.end_on is null or o.end_on >= c.service_date))
        order by c.id`,
  );
  let made = 0;
  for (const candidate of candidates) {
    const claimId = Number(candidate.id);
    const row = await lockAndReadNextPolicy(tx, claimId);
    if (!row || refusalOf(row)) continue;
    await insertNextPolicyClaim(tx, ctx, claimId, row);
    made++;
  }
  return made;
}

/**
 * The claim locked, then what decides its next policy read in a statement of its own: a read that waited for the
 * lock would still see the claims as they were when it began, and miss one billed meanwhile by the holder of the
 * lock (READ COMMITTED takes a new snapshot per statement). Two clicks at once make one claim, the other a 409.
 */
async function lockAndReadNextPolicy(tx: Tx, claimId: number): Promise<RawRow | undefined> {
  const [locked] = await rawRows(tx, sql`select id from claims where id = ${claimId} for update`);
  return locked ? readNextPolicy(tx, claimId) : undefined;
}

/** The next policy's Draft claim, with the claim's diagnoses and lines; the balance it takes over is handed on. */
async function insertNextPolicyClaim(tx: Tx, ctx: RequestContext, claimId: number, row: RawRow): Promise<number> {
  const lines = await rawRows(
    tx,
    sql`select procedure_code, modifiers, units, charge_cents, diagnosis_pointers, service_date::text as service_date
        from claim_lines where claim_id = ${claimId} order by line_number`,
  );
  const draft: ClaimDraft = {
    patientId: Number(row.patient_id),
    providerId: Number(row.provider_id),
    coverageId: Number(row.next_coverage_id),
    placeOfService: rowText(row.place_of_service),
    frequencyCode: '1',
    originalClaimNumber: null,
    referringProvider:
      row.referring_provider_npi === null
        ? null
        : { name: rowText(row.referring_provider_name), npi: rowText(row.referring_provider_npi) },
    diagnoses: (row.diagnoses as string[] | null) ?? [],
    lines: lines.map(serviceLineOf),
  };
  // What this payer's adjudication left (as its remittance and the new claim's 837P report it) is the next
  // payer's to answer now: it leaves this claim's balance and A/R, and the new claim owes only that much of the
  // charge until its payer answers (claimChargeLeftSql, docs/x12-837.md).
  const leftCents = Number(row.left_cents);
  await tx.update(claims).set({ handedOnCents: leftCents }).where(eq(claims.id, claimId));
  return insertDraftClaim(tx, ctx, draft, {
    primaryClaimId: claimId,
    primaryAccountNumber: rowText(row.account_number),
    primaryPayer: rowText(row.payer),
    priorPayersCents: Math.max(0, totalOf(draft) - leftCents),
  });
}

/** The earlier payer's adjudication a claim billed after it reports, and which of the patient's policies it was. */
export interface PriorAdjudication {
  /** The coverage the earlier claim billed: its loop 2320 carries the adjudication. */
  coverageId: number | null;
  primaryAccountNumber: string;
  primaryPayer: string;
  adjudication: PriorAdjudication837 | null;
  /** Why it cannot be written, when it cannot (the lines differ, nothing posted). */
  problem: string | null;
}

interface LedgerRow {
  claimId: number;
  line: number | null;
  procedureCode: string;
  modifiers: string[];
  units: number;
  kind: string;
  groupCode: string | null;
  reasonCode: string | null;
  cents: number;
}

function adjustmentsOf(rows: readonly LedgerRow[]): Adjustment837[] {
  const byCode = new Map<string, Adjustment837>();
  for (const r of rows) {
    if (r.kind !== 'adjustment' || r.groupCode === null || r.reasonCode === null) continue;
    const key = `${r.groupCode}-${r.reasonCode}`;
    const found = byCode.get(key);
    if (found) found.amountCents += r.cents;
    else byCode.set(key, { groupCode: r.groupCode, reasonCode: r.reasonCode, amountCents: r.cents });
  }
  // A reversal and its correction net out; what nets to nothing is not reported.
  return [...byCode.values()].filter((a) => a.amountCents !== 0);
}

const paidOf = (rows: readonly LedgerRow[]) =>
  rows.filter((r) => r.kind === 'payment').reduce((s, r) => s + r.cents, 0);
const sumOf = (adjustments: readonly Adjustment837[]) => adjustments.reduce((s, a) => s + a.amountCents, 0);

/**
 * For each of these claims that was billed after another's adjudication (primary_claim_id): that payer's decision
 * as posted from its remittances (reversals netted), matched to this claim's lines by position and code. A claim
 * whose lines differ from the earlier claim's, or whose earlier claim has nothing posted, gets a problem instead.
 */
export async function priorAdjudications(tx: Tx, claimIds: readonly number[]): Promise<Map<number, PriorAdjudication>> {
  const found = new Map<number, PriorAdjudication>();
  if (claimIds.length === 0) return found;
  const ids = sql`${`{${claimIds.join(',')}}`}::int[]`;
  const heads = await rawRows(
    tx,
    sql`select s.id, p.coverage_id, p.account_number, p.payer, s.billed_cents,
          (select max(coalesce(r.payment_date, r.posted_on))::text from remittance_claims rc
            join remittances r on r.id = rc.remittance_id
            where rc.claim_id = p.id and rc.outcome = 'posted' and r.payer = p.payer) as adjudicated_on
        from claims s join claims p on p.id = s.primary_claim_id
        where s.id = any(${ids})`,
  );
  if (heads.length === 0) return found;
  const ledger = (
    await rawRows(
      tx,
      sql`select s.id as claim_id, pl.line_number, pl.procedure_code, pl.modifiers, pl.units, e.kind, e.group_code,
            e.reason_code, sum(e.amount_cents)::int as cents
          from claims s
          join claims p on p.id = s.primary_claim_id
          join remittance_ledger e on e.claim_id = p.id and e.kind <> 'opening'
          join remittances r on r.id = e.remittance_id and r.payer = p.payer
          left join claim_lines pl on pl.id = e.claim_line_id
          where s.id = any(${ids})
          group by s.id, pl.line_number, pl.procedure_code, pl.modifiers, pl.units, e.kind, e.group_code, e.reason_code
          order by s.id, pl.line_number nulls first`,
    )
  ).map((r): LedgerRow => ({
    claimId: Number(r.claim_id),
    line: r.line_number === null ? null : Number(r.line_number),
    procedureCode: rowText(r.procedure_code),
    modifiers: (r.modifiers as string[] | null) ?? [],
    units: Number(r.units),
    kind: rowText(r.kind),
    groupCode: rowTextOrNull(r.group_code),
    reasonCode: rowTextOrNull(r.reason_code),
    cents: Number(r.cents),
  }));
  const lines = await rawRows(
    tx,
    sql`select claim_id, line_number, procedure_code, charge_cents from claim_lines
        where claim_id = any(${ids}) order by claim_id, line_number`,
  );
  for (const head of heads) {
    const id = Number(head.id);
    const rows = ledger.filter((r) => r.claimId === id);
    const base = {
      coverageId: head.coverage_id === null ? null : Number(head.coverage_id),
      primaryAccountNumber: rowText(head.account_number),
      primaryPayer: rowText(head.payer),
    };
    const adjudicatedOn = rowTextOrNull(head.adjudicated_on);
    if (rows.length === 0 || adjudicatedOn === null) {
      found.set(id, {
        ...base,
        adjudication: null,
        problem: `${base.primaryPayer} has no posted adjudication of ${base.primaryAccountNumber} to report`,
      });
      continue;
    }
    const mine = lines.filter((l) => Number(l.claim_id) === id);
    const claimRows = rows.filter((r) => r.line === null);
    const lineAdjudications = mine.map((l): LineAdjudication837 | null => {
      const of = rows.filter((r) => r.line === Number(l.line_number));
      if (of.length === 0 || of[0]!.procedureCode !== rowText(l.procedure_code)) return null;
      return {
        paidCents: paidOf(of),
        procedureCode: of[0]!.procedureCode,
        modifiers: of[0]!.modifiers,
        units: of[0]!.units,
        adjustments: adjustmentsOf(of),
      };
    });
    const adjudication: PriorAdjudication837 = {
      paidCents: paidOf(rows),
      adjustments: adjustmentsOf(claimRows),
      adjudicatedOn,
      lines: lineAdjudications,
    };
    // What the payer checks: this claim's charges, less everything the earlier payer adjusted, are what it paid.
    const lineProblem = mine.find((l, i) => {
      const a = lineAdjudications[i];
      return a !== null && a !== undefined && Number(l.charge_cents) - sumOf(a.adjustments) !== a.paidCents;
    });
    const adjusted =
      sumOf(adjudication.adjustments) + lineAdjudications.reduce((s, a) => s + (a ? sumOf(a.adjustments) : 0), 0);
    const balances = !lineProblem && Number(head.billed_cents) - adjusted === adjudication.paidCents;
    found.set(id, {
      ...base,
      adjudication: balances ? adjudication : null,
      problem: balances
        ? null
        : `its lines differ from ${base.primaryAccountNumber}'s, which ${base.primaryPayer} adjudicated: ` +
          'the adjudication cannot be reported against them (loops 2320 and 2430)',
    });
  }
  return found;
}
