/**
 * The posting rules of a remittance (docs/remittances.md), pure so that they are tested alone: where each CAS
 * adjustment counts on the claim, the claim's status after a CLP02 claim status code, the reason code it shows,
 * and which line or claim a person must look at.
 */
import type { ClaimStatus } from '@/features/claims/claims.schema';
import type { CasGroup, EraAdjustment, EraClaim } from '@/features/x12/x12.835';
import type { LedgerBucket } from './remittances.schema';

/** CLP02 codes the import posts; others (23 not our claim, 25 predetermination) go to the work queue. */
export const PROCESSED_CODES = ['1', '2', '3', '19', '20', '21'] as const;
export const FORWARDED_CODES = ['19', '20', '21'] as const;
export const POSTED_STATUS_CODES = [...PROCESSED_CODES, '4', '22'] as const;

/**
 * CO adjustments that are the contract itself, not a loss: CARC 45 (charge exceeds the fee schedule), 42, 59
 * (multiple procedure rules), 94, 131 (claim-specific negotiated discount), 253 (sequestration). They are the
 * claim's contractual adjustment; any other CO, PI, OA or CR adjustment stays owed until a person acts on it.
 */
export const CONTRACTUAL_CARCS: ReadonlySet<string> = new Set(['45', '42', '59', '94', '131', '253']);

/** CARC 23: the impact of prior payer(s) adjudication, including payments and adjustments. */
export const PRIOR_PAYER_CARC = '23';

/**
 * Where an adjustment counts (docs/remittances.md, "Posting rules"). On a claim billed after another payer's
 * adjudication (`billedAfterAnother`: a secondary claim of its own), CARC 23 is the part of the charge that earlier
 * payer settled, on its own claim: it settles that part here too, as a contractual adjustment does. On the earlier
 * payer's own claim (a crossover posted on it) it repeats what is posted there already, and counts nowhere.
 */
export function bucketOf(
  group: CasGroup,
  reason: string,
  statusCode: string,
  billedAfterAnother = false,
): LedgerBucket {
  if (group === 'PR') return (FORWARDED_CODES as readonly string[]).includes(statusCode) ? 'forwarded' : 'patient';
  if (group === 'CO' && CONTRACTUAL_CARCS.has(reason)) return 'contractual';
  if (reason === PRIOR_PAYER_CARC && billedAfterAnother) return 'contractual';
  return 'other';
}

/** PR-1 deductible, PR-2 coinsurance, PR-3 copay (CARC). */
export const PATIENT_SHARE_CARCS = { deductible: '1', coinsurance: '2', copay: '3' } as const;

export interface ClaimTotals {
  paid: number;
  contractual: number;
  patient: number;
  forwarded: number;
  other: number;
}

export const ZERO_TOTALS: Readonly<ClaimTotals> = Object.freeze({
  paid: 0,
  contractual: 0,
  patient: 0,
  forwarded: 0,
  other: 0,
});

/**
 * The claim's status once a posting of this CLP02 is in its ledger: 4 denied; 1/2/3 and 19/20/21 Paid when the
 * payer paid, adjusted by contract or moved to the patient the whole charge (nothing forwarded to another payer),
 * Partially Paid otherwise, Denied when nothing was paid or moved to the patient; 22 (a reversal not yet followed
 * by its correction) Pending, back with the payer. A claim forwarded (19–21) stays Partially Paid until the next
 * payer's own posting.
 */
export function statusAfter(statusCode: string, totals: ClaimTotals, billedCents: number): ClaimStatus {
  if (statusCode === '4') return 'Denied';
  if (statusCode === '22') return 'Pending';
  if (totals.paid <= 0 && totals.patient <= 0 && totals.forwarded <= 0) return 'Denied';
  // While the claim sits with the next payer (this posting forwarded it), it is not paid in full.
  const forwarded = (FORWARDED_CODES as readonly string[]).includes(statusCode) && totals.forwarded > 0;
  if (!forwarded && totals.paid + totals.contractual + totals.patient >= billedCents) return 'Paid';
  return 'Partially Paid';
}

/**
 * The claim's reason code after a posting: the largest adjustment that is neither contractual nor the patient's
 * (a denial, a payer reduction), else the largest contractual one; null when there is none.
 */
export function reasonOf(adjustments: readonly EraAdjustment[]): string | null {
  const pick = (list: readonly EraAdjustment[]) =>
    list.reduce<EraAdjustment | null>(
      (best, a) => (best === null || a.amountCents > best.amountCents ? a : best),
      null,
    );
  const notPatient = adjustments.filter((a) => a.group !== 'PR' && a.amountCents > 0);
  const loss = pick(notPatient.filter((a) => !(a.group === 'CO' && CONTRACTUAL_CARCS.has(a.reason))));
  const chosen = loss ?? pick(notPatient);
  return chosen ? `${chosen.group}-${chosen.reason}` : null;
}

/** Every adjustment of a claim, its own and its lines'. */
export function adjustmentsOfClaim(claim: EraClaim): EraAdjustment[] {
  return [...claim.adjustments, ...claim.lines.flatMap((l) => l.adjustments)];
}

/**
 * A line the payer paid nothing on for a reason a person can act on: paid 0 with an adjustment other than CO-45
 * or the patient's share. It is a denial of that line even when the claim was processed.
 */
export function isDeniedLine(line: EraClaim['lines'][number]): boolean {
  return (
    line.paidCents === 0 &&
    line.chargeCents > 0 &&
    line.adjustments.some((a) => a.amountCents > 0 && a.group !== 'PR' && !(a.group === 'CO' && a.reason === '45'))
  );
}

/** Short descriptions of the CARCs the practice meets most (CARC code list, X12 external code source 139). */
export const CARC_DESCRIPTIONS: Readonly<Record<string, string>> = {
  '1': 'Deductible amount',
  '2': 'Coinsurance amount',
  '3': 'Co-payment amount',
  '4': 'The procedure code is inconsistent with the modifier used',
  '11': 'The diagnosis is inconsistent with the procedure',
  '15': 'The authorization number is missing, invalid, or does not apply',
  '16': 'Claim/service lacks information or has submission/billing errors',
  '18': 'Exact duplicate claim/service',
  '22': 'This care may be covered by another payer per coordination of benefits',
  '23': 'The impact of prior payer(s) adjudication',
  '27': 'Expenses incurred after coverage terminated',
  '29': 'The time limit for filing has expired',
  '31': 'Patient cannot be identified as our insured',
  '45': 'Charge exceeds fee schedule/maximum allowable or contracted/legislated fee arrangement',
  '50': 'These are non-covered services because this is not deemed a medical necessity by the payer',
  '96': 'Non-covered charge(s)',
  '97': 'The benefit for this service is included in the payment/allowance for another service already adjudicated',
  '109': 'Claim/service not covered by this payer/contractor',
  '197': 'Precertification/authorization/notification/pre-treatment absent',
  '253': 'Sequestration - reduction in federal payment',
};
