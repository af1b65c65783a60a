import { billingStaffHours, operatingExpenses } from '@/features/analytics/server/analytics.table';
import { claimAppeals, claimLines, claims, payments } from '@/features/claims/server/claims.table';
import { lineControlNumber, statusWhenSettled } from '@/features/claims/claims.schema';
import { categoryOfCarc } from '@/features/workqueue/workqueue.schema';
import type { Tx } from '../types';
import type { PracticeHours } from '@/features/settings/practice.schema';
import {
  ageOn,
  billedProcedures,
  drawVisit,
  isPracticeOpen,
  nearestOpenDay,
  visitFrequency,
  type PatientProfile,
  type ProviderOfSpecialty,
  type VisitKind,
} from './demo-clinical';
import { AUTHORIZATION_DENIAL_FACTOR, chargeOf, denialsFor, needsAuthorization, PAYER_MIX } from './demo-data';
import { addDays, daysBetween, Random } from './random';
import { codeLines, costSharedCents } from './claim-coding';
import { insertRows } from './insert-rows';

const CLAIM_COUNT = 3000;
/** How far back claims go (18 months). */
const HISTORY_DAYS = 548;
/**
 * A worked A/R: denials and payer underpayments adjudicated longer ago than this have been dealt with
 * (overturned and paid, corrected, or written off); only recent ones still stand open.
 */
const WORKED_AFTER_DAYS = 90;
/** Claims, payments, expenses and hours draw from their own stream: tuning them never reshuffles the rest. */
const FINANCE_STREAM = 0x5eed_c1a1;
/** The claims billed to a patient's second policy draw from another: adding them changed none of the above. */
const CROSSOVER_STREAM = 0x5eed_c20f;

/** A completed appointment: who was seen, by whom, on which day, for what, coded how. */
export interface CompletedVisit {
  patientId: number;
  providerId: number;
  date: string;
  kind: VisitKind;
  /** 'code label' entries, the principal one first. */
  diagnoses: readonly string[];
}

/** A service line of a seeded claim, before the claim has an id. */
interface LineDraft {
  procedureCode: string;
  modifiers: string[];
  units: number;
  chargeCents: number;
  diagnosisPointers: number[];
}

/**
 * One completed visit in this many is never billed (a missed charge), so Charge Capture Accuracy sits near
 * its 98 % target and its drill-down has visits to list.
 */
const MISSED_CHARGE_EVERY = 60;

export interface SeededClaims {
  claimIds: number[];
  payments: number;
  appeals: number;
}

interface PaymentDraft {
  patientId: number;
  claimIndex: number;
  amountCents: number;
  source: 'payer' | 'patient';
  receivedOn: string;
}

/**
 * The demo clinic's claims over 18 months with the stored facts the KPI engine computes from, the
 * payments on them, operating expenses per month and billing staff hours per weekday. Tuned so that over
 * the last 30 days most KPIs sit near their targets, some above and some below (docs/kpis.md):
 * submission lag of 0–6 days, adjudication 7–30 days later (two weeks more after a rejected first
 * submission), first-pass denials at each payer's rate, copays mostly collected at the visit, other
 * patient shares mostly paid within two weeks of the statement.
 */
export async function seedClaimsAndFinances(
  tx: Tx,
  options: {
    today: string;
    seed: number;
    demoPatientId: number;
    /** Every patient: their age, conditions and insurer decide what is billed to whom. */
    profiles: ReadonlyMap<number, PatientProfile>;
    providers: readonly ProviderOfSpecialty[];
    appealedBy: number | null;
    /** Completed visits (oldest first): each is billed on its day, but for one in MISSED_CHARGE_EVERY. */
    completedVisits?: readonly CompletedVisit[];
    /** The practice's working days: older claims are for services on the days it was open. */
    hours: PracticeHours;
    /** Each insured patient's primary coverage: the policy their claims are billed to. */
    primaryCoverage: ReadonlyMap<number, number>;
    /** The second policy of a patient who has one (a Medicare patient's supplemental plan, or Medicare second). */
    secondaryCoverage?: ReadonlyMap<number, { id: number; payer: string }>;
  },
): Promise<SeededClaims> {
  const r = new Random((options.seed ^ FINANCE_STREAM) >>> 0);
  const { today, demoPatientId, profiles, providers, hours } = options;
  const byFrequency = [...profiles.values()].map((p) => [p, visitFrequency(p, today)] as const);
  const claimValues: (typeof claims.$inferInsert)[] = [];
  const lineDrafts: LineDraft[][] = [];
  const paymentValues: PaymentDraft[] = [];
  const appealNotes: { index: number; reason: string; note: string }[] = [];
  const crossovers: Crossover[] = [];
  // Every completed visit is billed on its day (but for the missed ones); the other claims fall before the
  // first visit, so the claims of the visits' weeks are the visits' own.
  const visits = options.completedVisits ?? [];
  const billedVisits = visits.filter((_, i) => i % MISSED_CHARGE_EVERY !== MISSED_CHARGE_EVERY - 1);
  const firstVisit = visits.reduce<string | null>(
    (first, v) => (first === null || v.date < first ? v.date : first),
    null,
  );
  const olderThanVisits = firstVisit === null ? 1 : daysBetween(firstVisit, today) + 1;
  const claimPatients = [...Array.from({ length: 6 }, () => demoPatientId)];
  while (claimPatients.length < CLAIM_COUNT - billedVisits.length) claimPatients.push(r.weighted(byFrequency).id);
  const visitOf = new Map(billedVisits.map((visit, i) => [claimPatients.length + i, visit]));
  claimPatients.push(...billedVisits.map((visit) => visit.patientId));

  claimPatients.forEach((patientId, index) => {
    const visit = visitOf.get(index);
    const earliest = index < 6 ? 1 : Math.min(olderThanVisits, HISTORY_DAYS);
    const profile = profiles.get(patientId);
    if (!profile) throw new Error(`no profile for patient ${patientId}`);
    const serviceDate = visit?.date ?? nearestOpenDay(addDays(today, -r.int(earliest, HISTORY_DAYS)), -1, hours);
    if (!isPracticeOpen(serviceDate, hours)) throw new Error(`claim on ${serviceDate}, a day the practice is closed`);
    // An older claim is for a visit of its own: one that suits the patient, with a provider who sees it.
    const seen = visit ?? drawVisit(r, profile, serviceDate, providers);
    const payerInfo = PAYER_MIX.find((p) => p.payer === profile.payer);
    if (!payerInfo) throw new Error(`${profile.payer} is not in PAYER_MIX`);
    const codes = billedProcedures(r, seen.kind, ageOn(profile.dob, serviceDate), profile.payer);
    // ICD-10-CM codes as a claim carries them (the HI segment): the visit's, principal first.
    const diagnoses = seen.diagnoses.map((d) => d.split(' ')[0] ?? d).slice(0, 12);
    // The visit's line answers all its diagnoses (up to 4 pointers); a test or lab done at it the principal one.
    const coding = codeLines(codes, profile.payer);
    const lines = codes.map((code, i) => {
      const { modifiers, units } = coding[i] ?? { modifiers: [], units: 1 };
      return {
        procedureCode: code,
        modifiers,
        units,
        chargeCents: chargeOf(code) * units,
        diagnosisPointers: i === 0 ? diagnoses.slice(0, 4).map((_, p) => p + 1) : [1],
      };
    });
    lineDrafts[index] = lines;
    const billed = lines.reduce((sum, line) => sum + line.chargeCents, 0);
    const procedureCode = codes[0] ?? '99213';
    const accountNumber = `ACC-${serviceDate.slice(0, 4)}-${String(100000 + index).padStart(6, '0')}`;
    const telehealth = seen.kind.encounterTypes.includes('Telehealth') && r.chance(0.15);
    const base = {
      patientId,
      providerId: seen.providerId,
      accountNumber,
      procedureCode,
      payer: payerInfo.payer,
      serviceDate,
      billedCents: billed,
      coverageId: options.primaryCoverage.get(patientId) ?? null,
      placeOfService: telehealth ? '10' : '11',
      diagnoses,
    };
    const pay = (amountCents: number, source: PaymentDraft['source'], receivedOn: string) =>
      paymentValues.push({ patientId, claimIndex: index, amountCents, source, receivedOn });
    const lag = r.weighted([
      [0, 10],
      [1, 35],
      [2, 25],
      [3, 14],
      [4, 8],
      [5, 5],
      [6, 3],
    ] as const);
    const submittedOn = addDays(serviceDate, lag);
    if (submittedOn > today) {
      claimValues.push({ ...base, status: 'Draft', cleanSubmission: true });
      return;
    }
    const cleanSubmission = !r.chance(0.04);
    const adjudicatedOn = addDays(submittedOn, r.int(7, 30) + (cleanSubmission ? 0 : 14));

    if (payerInfo.payer === 'Self-Pay') {
      // No payer: the whole charge is the patient's, less the practice's self-pay discount.
      const discount = Math.round(billed * 0.3);
      const due = billed - discount;
      // Most self-pay patients settle at the front desk on the day; others pay the statement within a month.
      const paidOn = r.chance(0.6) ? serviceDate : addDays(submittedOn, r.int(3, 30));
      const pays = paidOn <= today && r.chance(0.85);
      if (pays) pay(due, 'patient', paidOn);
      claimValues.push({
        ...base,
        submittedOn,
        adjudicatedOn: submittedOn,
        resolvedOn: pays ? paidOn : null,
        contractualAdjustmentCents: discount,
        patientResponsibilityCents: due,
        status: pays ? 'Paid' : 'Pending',
        reasonCode: 'PR-2',
        cleanSubmission,
      });
      return;
    }
    if (adjudicatedOn > today) {
      claimValues.push({
        ...base,
        submittedOn,
        status: daysBetween(submittedOn, today) < 7 ? 'Submitted' : 'Pending',
        cleanSubmission,
      });
      return;
    }
    const worked = daysBetween(adjudicatedOn, today) > WORKED_AFTER_DAYS;

    // Payers deny services that need an authorization more often, and only those for a missing one.
    const denialRate = payerInfo.denialRate * (codes.some(needsAuthorization) ? AUTHORIZATION_DENIAL_FACTOR : 1);
    if (r.chance(denialRate)) {
      const denial = r.weighted(denialsFor(codes).map((d) => [d, d.weight] as const));
      const outcome = worked
        ? r.weighted([
            ['Paid', 70],
            ['Written Off', 30],
          ] as const)
        : r.weighted([
            ['Denied', 35],
            ['Appealed', 25],
            ['Paid', 30],
            ['Written Off', 10],
          ] as const);
      const common = {
        ...base,
        submittedOn,
        adjudicatedOn,
        reasonCode: denial.code,
        remarkCode: denial.remark,
        denialDescription: denial.description,
        cleanSubmission,
        deniedOnFirstAdjudication: true,
      };
      const appeal = () =>
        appealNotes.push({
          index,
          reason: 'Medical records attached',
          note: `Appealing ${denial.code}: ${denial.description.toLowerCase()}.`,
        });
      if (outcome === 'Paid') {
        // Overturned on appeal and paid later; the first-adjudication denial stays a fact.
        const allowed = Math.round(billed * (0.6 + r.next() * 0.2));
        const paidOn = addDays(adjudicatedOn, r.int(14, 45));
        // A coding denial (missing information, a modifier or diagnosis that does not fit) is not appealed but
        // corrected: the claim was sent again as a replacement (frequency 7) of the payer's claim number.
        const corrected = worked && categoryOfCarc(denial.code) === 'coding';
        if (paidOn > today) {
          claimValues.push({ ...common, status: 'Appealed' });
          appeal();
          return;
        }
        pay(allowed, 'payer', paidOn);
        claimValues.push({
          ...common,
          status: 'Paid',
          paidCents: allowed,
          contractualAdjustmentCents: billed - allowed,
          resolvedOn: paidOn,
          ...(corrected ? { frequencyCode: '7', originalClaimNumber: payerClaimNumber(adjudicatedOn, index) } : {}),
        });
        if (corrected) return;
        appealNotes.push({
          index,
          reason: 'Corrected claim with documentation',
          note: `Overturned after appeal of ${denial.code}.`,
        });
        return;
      }
      if (outcome === 'Written Off') {
        const writtenOff = addDays(adjudicatedOn, r.int(20, 60));
        claimValues.push({ ...common, status: 'Written Off', resolvedOn: writtenOff > today ? today : writtenOff });
        return;
      }
      claimValues.push({ ...common, status: outcome });
      if (outcome === 'Appealed') appeal();
      return;
    }

    const allowed = Math.round(billed * (0.55 + r.next() * 0.25));
    const contractual = billed - allowed;
    // The demo patient's recent claims leave her coinsurance on a statement not yet paid, so the portal
    // always has a balance to show and to pay.
    const demoOwes = patientId === demoPatientId && !worked;
    const share = demoOwes
      ? 'PR-2'
      : r.weighted([
          ['none', 45],
          ['PR-3', 22],
          ['PR-2', 18],
          ['PR-1', 15],
        ] as const);
    // A copay is a flat amount; coinsurance about a fifth of the allowed amount; a deductible a larger part.
    const drawnShare =
      share === 'none'
        ? 0
        : share === 'PR-3'
          ? Math.min(allowed, r.pick([2000, 2500, 3000, 4000]))
          : Math.round(allowed * (share === 'PR-2' ? 0.2 : 0.2 + r.next() * 0.4));
    // Only on the lines whose cost the patient shares (Medicare waives it for its annual wellness visit). The draws
    // below follow the drawn share all the same, so that no other claim's values change.
    const sharedCents = costSharedCents(lines, profile.payer);
    const patientShare = sharedCents === billed ? drawnShare : Math.round((drawnShare * sharedCents) / billed);
    const partial = !worked && r.chance(0.03);
    const payerPaid = partial ? Math.round((allowed - patientShare) * 0.6) : allowed - patientShare;
    // A copay can cover a cheap service entirely: then the payer pays nothing.
    if (payerPaid > 0) pay(payerPaid, 'payer', adjudicatedOn);
    // A second policy (a Medicare patient's supplemental plan, Medicare behind an employer's plan) pays the deductible
    // and coinsurance the first payer left: the claim crosses over to it (billed after it, below), and the patient is
    // not asked for that share.
    // The patient's draws below are made all the same, so that no other claim's values change.
    const secondPolicy = options.secondaryCoverage?.get(patientId);
    const crossesOver =
      secondPolicy !== undefined && !partial && !demoOwes && patientShare > 0 && (share === 'PR-1' || share === 'PR-2');
    if (crossesOver) crossovers.push({ index, shareCents: patientShare, adjudicatedOn, policy: secondPolicy });
    let patientPaidInFullOn: string | null = patientShare === 0 ? adjudicatedOn : null;
    if (share === 'PR-3') {
      // Copays are collected at the front desk on the day of the visit.
      if (r.chance(0.95) && patientShare > 0) {
        pay(patientShare, 'patient', serviceDate);
        patientPaidInFullOn = adjudicatedOn;
      }
    } else if (drawnShare > 0) {
      const paidOn = addDays(adjudicatedOn, r.int(2, 14));
      if (paidOn <= today && !demoOwes && r.chance(0.92)) {
        const full = r.chance(0.93);
        if (!crossesOver && patientShare > 0) {
          pay(full ? patientShare : Math.max(1, Math.round(patientShare / 2)), 'patient', paidOn);
          if (full) patientPaidInFullOn = paidOn;
        }
      }
    }
    claimValues.push({
      ...base,
      submittedOn,
      adjudicatedOn,
      resolvedOn: partial ? null : patientPaidInFullOn,
      paidCents: payerPaid,
      contractualAdjustmentCents: contractual,
      patientResponsibilityCents: patientShare,
      status: partial ? 'Partially Paid' : 'Paid',
      reasonCode: patientShare === 0 ? 'CO-45' : share,
      cleanSubmission,
    });
  });

  const firstBilled = claimValues.length;
  billCrossovers(
    new Random((options.seed ^ CROSSOVER_STREAM) >>> 0),
    today,
    crossovers,
    claimValues,
    lineDrafts,
    paymentValues,
  );
  // Every claim sent was scrubbed first; whether that first scrub was clean is its clean submission.
  const scrubbed = (c: typeof claims.$inferInsert) => ({
    ...c,
    // A paid claim with nothing left owed is Closed (as the database would make it).
    status: statusWhenSettled(c.status, c.resolvedOn != null),
    firstScrubClean: c.status === 'Draft' ? null : (c.cleanSubmission ?? true),
  });
  const firstIds = await insertRows(tx, claims, claimValues.slice(0, firstBilled).map(scrubbed), {
    returningIds: true,
  });
  // The claims billed after another name it: inserted once its id is known.
  const laterIds = await insertRows(
    tx,
    claims,
    claimValues.slice(firstBilled).map((c, i) => ({
      ...scrubbed(c),
      primaryClaimId: firstIds[crossovers[i]?.index ?? -1] ?? null,
    })),
    { returningIds: true },
  );
  const claimIds = [...firstIds, ...laterIds];
  // The claims' service lines (their total is already the claim's billed amount, as the trigger keeps it).
  const lineValues = claimValues.flatMap((claim, index) =>
    (lineDrafts[index] ?? []).map((line, i) => ({
      claimId: claimIds[index] ?? 0,
      lineNumber: i + 1,
      procedureCode: line.procedureCode,
      modifiers: line.modifiers,
      units: line.units,
      chargeCents: line.chargeCents,
      diagnosisPointers: line.diagnosisPointers,
      serviceDate: claim.serviceDate,
      lineControlNumber: lineControlNumber(claim.accountNumber, i + 1),
    })),
  );
  await insertRows(tx, claimLines, lineValues);
  await insertRows(
    tx,
    payments,
    paymentValues.map(({ claimIndex, ...p }) => ({
      ...p,
      claimId: claimIds[claimIndex] ?? null,
      reference: p.source === 'payer' ? `ERA-${claimIndex + 1}` : '',
    })),
  );
  await insertRows(
    tx,
    claimAppeals,
    appealNotes.map((a) => ({
      claimId: claimIds[a.index] ?? 0,
      reason: a.reason,
      note: a.note,
      createdBy: options.appealedBy,
    })),
  );

  await insertRows(tx, operatingExpenses, expenseRows(r, today, paymentValues));
  // A small clinic's part-time biller: well under an hour a day for ~170 claims a month.
  const hoursRows: (typeof billingStaffHours.$inferInsert)[] = [];
  for (let offset = -HISTORY_DAYS; offset <= 0; offset += 1) {
    const day = addDays(today, offset);
    if (isPracticeOpen(day, hours)) hoursRows.push({ day, hours: (0.32 + r.next() * 0.1).toFixed(2) });
  }
  await insertRows(tx, billingStaffHours, hoursRows);

  return { claimIds, payments: paymentValues.length, appeals: appealNotes.length };
}

/** A claim whose patient share the patient's second policy is billed for, as the first payer left it. */
interface Crossover {
  index: number;
  shareCents: number;
  adjudicatedOn: string;
  policy: { id: number; payer: string };
}

/**
 * Each crossover as a claim of the second policy, billed after the first (docs/x12-837.md "After another payer"):
 * the same lines and diagnoses, sent within two days of the first payer's adjudication (Medicare forwards it to a
 * supplemental plan itself; none waits as a Draft), answered one to three weeks later. The first claim hands its share on; the new one owes
 * only that share (what the first payer settled is its prior payers' part), and once answered the plan has paid it
 * all, reporting the first payer's part as CARC 23. Appended to the claims, their lines and payments.
 */
function billCrossovers(
  r: Random,
  today: string,
  crossovers: readonly Crossover[],
  claimValues: (typeof claims.$inferInsert)[],
  lineDrafts: LineDraft[][],
  paymentValues: PaymentDraft[],
): void {
  for (const crossover of crossovers) {
    const first = claimValues[crossover.index];
    if (!first) throw new Error(`no claim ${crossover.index} to cross over`);
    const index = claimValues.length;
    const billed = first.billedCents ?? 0;
    const share = crossover.shareCents;
    first.handedOnCents = share;
    lineDrafts[index] = lineDrafts[crossover.index] ?? [];
    const forwarded = addDays(crossover.adjudicatedOn, r.int(0, 2));
    const submittedOn = forwarded > today ? today : forwarded;
    const adjudicatedOn = addDays(submittedOn, r.int(7, 21));
    const base = {
      patientId: first.patientId,
      providerId: first.providerId,
      accountNumber: `ACC-${first.serviceDate.slice(0, 4)}-${String(100000 + index).padStart(6, '0')}`,
      procedureCode: first.procedureCode,
      payer: crossover.policy.payer,
      serviceDate: first.serviceDate,
      billedCents: billed,
      coverageId: crossover.policy.id,
      placeOfService: first.placeOfService,
      diagnoses: first.diagnoses,
      priorPayersCents: billed - share,
      cleanSubmission: true,
      submittedOn,
    };
    if (adjudicatedOn > today) {
      claimValues.push({ ...base, status: daysBetween(submittedOn, today) < 7 ? 'Submitted' : 'Pending' });
    } else {
      paymentValues.push({
        patientId: first.patientId,
        claimIndex: index,
        amountCents: share,
        source: 'payer',
        receivedOn: adjudicatedOn,
      });
      claimValues.push({
        ...base,
        adjudicatedOn,
        resolvedOn: adjudicatedOn,
        paidCents: share,
        contractualAdjustmentCents: billed - share,
        patientResponsibilityCents: 0,
        status: 'Paid',
        reasonCode: 'OA-23',
      });
      // Nothing is owed on the visit any more: the first claim is resolved too.
      first.resolvedOn = adjudicatedOn;
    }
  }
}

/**
 * The payer's number for the claim it adjudicated on a day, shaped like Medicare's 13-digit internal control
 * number: a region, the year and day of the year it was received, a batch and a sequence.
 */
function payerClaimNumber(adjudicatedOn: string, index: number): string {
  const dayOfYear = daysBetween(`${adjudicatedOn.slice(0, 4)}-01-01`, adjudicatedOn) + 1;
  return `10${adjudicatedOn.slice(2, 4)}${String(dayOfYear).padStart(3, '0')}${String(index).padStart(6, '0')}`;
}

function monthStart(today: string, monthsBack: number): string {
  const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - monthsBack);
  return d.toISOString().slice(0, 10);
}

/**
 * Operating expenses for each of the last 19 months (the current one included): 81–87% of a typical
 * month's collections (the mean of the last twelve complete months), so the margin hovers around its 15%
 * target whatever day the seed runs.
 */
function expenseRows(r: Random, today: string, paymentValues: readonly PaymentDraft[]) {
  const collectionsByMonth = new Map<string, number>();
  for (const p of paymentValues) {
    const month = `${p.receivedOn.slice(0, 7)}-01`;
    collectionsByMonth.set(month, (collectionsByMonth.get(month) ?? 0) + p.amountCents);
  }
  const completeMonths = Array.from({ length: 12 }, (_, i) => collectionsByMonth.get(monthStart(today, i + 1)) ?? 0);
  const typicalMonth = completeMonths.reduce((sum, c) => sum + c, 0) / completeMonths.length;
  return Array.from({ length: 19 }, (_, i) => ({
    month: monthStart(today, 18 - i),
    amountCents: Math.round(typicalMonth * (0.81 + r.next() * 0.06)),
  }));
}
