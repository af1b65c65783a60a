/**
 * One statement row per visit (docs/statements.md). A visit billed to two policies is two claims with the same
 * charge (docs/x12-837.md "After another payer"): the first payer's, whose balance was handed on, and the next
 * payer's, billed for the whole charge with what the earlier payers settled (`priorPayersCents`). Listed apart,
 * each would add up on its own and the statement would count the visit's charge twice; folded, the visit shows its
 * charge once with every payer's payments and adjustments, and what is still pending or due on it.
 */
import { PAYER_SETTLED_STATUSES } from '@/features/claims/server/claims.formulas';

/** A claim's statement figures as the statement's read returns them (claimStatementSql, the balance rule). */
export interface StatementClaimFigures {
  id: number;
  accountNumber: string;
  serviceDate: string;
  procedure: string;
  provider: string;
  status: string;
  /** The claim it was billed after (claims.primary_claim_id), null for a claim first billed. */
  primaryClaimId: number | null;
  /** What the earlier payers settled of this claim's charge (claims.prior_payers_cents), 0 when first billed. */
  priorPayersCents: number;
  billedCents: number;
  insurancePaidCents: number;
  contractualAdjustmentCents: number;
  otherAdjustmentCents: number;
  insurancePendingCents: number;
  patientPaidCents: number;
  amountDueCents: number;
  deductibleCents: number;
  coinsuranceCents: number;
  copayCents: number;
}

const isSettled = (status: string) => (PAYER_SETTLED_STATUSES as readonly string[]).includes(status);

/**
 * The claim first billed, with the claims billed after it (oldest first) folded in:
 *
 * - billed: the visit's charge (the first claim's);
 * - insurance paid, patient paid and amount due: summed over the claims (an earlier claim's amount due is 0, as
 *   its patient share waits for the next payer: the balance rule);
 * - contractual adjustment: the first payer's, plus each later payer's own beyond what the earlier payers had
 *   settled (its remittance reports that part as CARC 23, which is not a new adjustment of the charge);
 * - what is left of the charge: an other adjustment once the last payer is done with the visit, else pending;
 * - status and the patient share's parts (deductible, coinsurance, copay): the last claim's, whose payer answers
 *   for the visit now.
 */
function foldVisit(first: StatementClaimFigures, later: readonly StatementClaimFigures[]): StatementClaimFigures {
  const last = later[later.length - 1] ?? first;
  const claims = [first, ...later];
  const sum = (figure: (claim: StatementClaimFigures) => number) => claims.reduce((s, c) => s + figure(c), 0);
  const insurancePaidCents = sum((c) => c.insurancePaidCents);
  const patientPaidCents = sum((c) => c.patientPaidCents);
  const amountDueCents = sum((c) => c.amountDueCents);
  const contractualAdjustmentCents =
    first.contractualAdjustmentCents +
    later.reduce((s, c) => s + Math.max(c.contractualAdjustmentCents, c.priorPayersCents) - c.priorPayersCents, 0);
  const left = first.billedCents - insurancePaidCents - contractualAdjustmentCents - patientPaidCents - amountDueCents;
  const settled = isSettled(last.status);
  return {
    id: first.id,
    accountNumber: first.accountNumber,
    serviceDate: first.serviceDate,
    procedure: first.procedure,
    provider: first.provider,
    status: last.status,
    primaryClaimId: null,
    priorPayersCents: 0,
    billedCents: first.billedCents,
    insurancePaidCents,
    contractualAdjustmentCents,
    otherAdjustmentCents: settled ? left : 0,
    insurancePendingCents: settled ? 0 : left,
    patientPaidCents,
    amountDueCents,
    deductibleCents: last.deductibleCents,
    coinsuranceCents: last.coinsuranceCents,
    copayCents: last.copayCents,
  };
}

/**
 * The statement's rows, in the order read: each claim first billed (or whose earlier claim is not on the
 * statement), with the claims billed after it folded in; a claim billed to one policy is its own row, unchanged.
 */
export function statementVisitsOf(claims: readonly StatementClaimFigures[]): StatementClaimFigures[] {
  const listed = new Set(claims.map((c) => c.id));
  const laterOf = new Map<number, StatementClaimFigures[]>();
  for (const claim of claims) {
    if (claim.primaryClaimId === null || !listed.has(claim.primaryClaimId)) continue;
    const later = laterOf.get(claim.primaryClaimId);
    if (later) later.push(claim);
    else laterOf.set(claim.primaryClaimId, [claim]);
  }
  if (laterOf.size === 0) return [...claims];
  // Every claim billed after one, down the chain (secondary, then tertiary), oldest first.
  const chainOf = (id: number): StatementClaimFigures[] =>
    (laterOf.get(id) ?? []).flatMap((claim) => [claim, ...chainOf(claim.id)]).sort((a, b) => a.id - b.id);
  return claims
    .filter((claim) => claim.primaryClaimId === null || !listed.has(claim.primaryClaimId))
    .map((claim) => (laterOf.has(claim.id) ? foldVisit(claim, chainOf(claim.id)) : claim));
}
