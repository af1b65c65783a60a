/**
 * Importing an 835 (docs/remittances.md): read and balance it, match each claim payment to a claim and its
 * lines, post to the ledger, set the claims' aggregates to their ledger's sums and send what needs a person to
 * the work queue, all in one transaction. Also the Remittances screen's list, detail and CSV.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { actorOf, recordMany, recordRead, type AuditInput } from '@/features/audit/server/audit.queries';
import type { ClaimStatus } from '@/features/claims/claims.schema';
import {
  applyPostedClaimTotals,
  insertPayerPayments,
  type PayerPayment,
  type PostedClaimTotals,
} from '@/features/claims/server/claims.remittance.queries';
import { followHandedOnBalances } from '@/features/claims/server/claims.next-policy.queries';
import { billNextPoliciesAfterPosting } from '@/features/coordination/server/coordination.queries';
import { openWorkItems, type OpenWorkItem } from '@/features/workqueue/server/workqueue.queries';
import type { WorkSource } from '@/features/workqueue/workqueue.schema';
import { X12Error } from '@/features/x12/x12.parse';
import { today } from '@/shared/api';
import { dayInZone } from '@/shared/practice-zone';
import type { RequestContext } from '@/server/context';
import { decodeCursor, encodeCursor } from '@/server/db/keyset';
import { rawRows, rowText, rowTextOrNull, type RawRow } from '@/server/db/sql-helpers';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import {
  claimImbalance,
  dollars,
  EraError,
  fileImbalance,
  readEras,
  type Era,
  type EraClaim,
  type EraLine,
} from '@/features/x12/x12.835';
import {
  adjustmentsOfClaim,
  bucketOf,
  CARC_DESCRIPTIONS,
  isDeniedLine,
  POSTED_STATUS_CODES,
  reasonOf,
  statusAfter,
  ZERO_TOTALS,
  type ClaimTotals,
} from '../remittances.posting';
import type {
  LedgerBucket,
  LedgerKind,
  RemittanceClaim,
  RemittanceDetail,
  RemittanceListQuery,
  RemittancePage,
  RemittanceRow,
  RemittanceSummary,
} from '../remittances.schema';

/**
 * The import's answer: each remittance of the file (one per 835 transaction set, in file order) with whether it
 * had been imported before, and whether all of them had (HTTP 200 then, else 201).
 */
export interface ImportResult {
  remittances: RemittanceSummary[];
  duplicate: boolean;
}

function refusal(status: number, code: string, message: string): HttpError {
  return new HttpError(status, code, `file: ${message}`, { fields: [{ field: 'file', message }] });
}

/**
 * Reads and balances every remittance of the file before any transaction: what is refused here touches
 * nothing. A file of several names the one at fault by where its ST is.
 */
export function readBalancedEras(text: string): Era[] {
  let eras: Era[];
  try {
    eras = readEras(text);
  } catch (err) {
    if (err instanceof X12Error) throw refusal(400, `X12_${err.code}`, err.message);
    if (err instanceof EraError)
      throw refusal(422, err.code === 'UNSUPPORTED_VERSION' ? err.code : 'INVALID_835', err.message);
    throw err;
  }
  const which = (era: Era) => (eras.length === 1 ? 'the remittance' : `the remittance at segment ${era.position}`);
  for (const era of eras) {
    const problem = fileImbalance(era);
    if (problem) throw refusal(422, 'UNBALANCED_FILE', `${which(era)} does not balance: ${problem}`);
  }
  // Two payments of one payer with one trace number cannot both be right; which to post is not ours to guess.
  const twice = eras.find(
    (era, i) => eras.findIndex((o) => payerKeyOf(o) === payerKeyOf(era) && o.traceNumber === era.traceNumber) !== i,
  );
  if (twice) {
    throw refusal(
      422,
      'INVALID_835',
      `${which(twice)} repeats trace number ${twice.traceNumber} of the same payer (TRN02) earlier in the file`,
    );
  }
  return eras;
}

/** What identifies a payer's remittances with its trace numbers (TRN03, else the payer's name). */
function payerKeyOf(era: Era): string {
  return era.originatorId || era.payerName;
}

interface MatchedClaim {
  id: number;
  patientId: number;
  accountNumber: string;
  billedCents: number;
  paidCents: number;
  contractualCents: number;
  patientCents: number;
  payer: string;
  /** The payers of the patient's coverages, past and present: a secondary payer pays on the claim too. */
  coveragePayers: string[];
  /** Billed after another payer's adjudication (claims.primary_claim_id): CARC 23 settles part of it. */
  billedAfterAnother: boolean;
  serviceDate: string;
  lines: { id: number; lineControlNumber: string; procedureCode: string; modifiers: string[]; chargeCents: number }[];
}

/**
 * Whether a remittance from `payer` may pay `claim`: the claim's own payer, or one of the patient's coverages'
 * (a secondary or a crossover payer pays the same claim number). A patient control number is only unique
 * within the practice, and another payer's CLP01 can name one of our claims by accident; such a payment is
 * not posted.
 */
function paysFor(claim: MatchedClaim, payer: string): boolean {
  const name = payer.toLowerCase();
  return claim.payer.toLowerCase() === name || claim.coveragePayers.some((p) => p.toLowerCase() === name);
}

interface Entry {
  claimId: number;
  claimLineId: number | null;
  remittanceClaimId: number | null;
  kind: LedgerKind;
  groupCode: string | null;
  reasonCode: string | null;
  bucket: LedgerBucket;
  amountCents: number;
}

interface ClaimState {
  totals: ClaimTotals;
  /** Whether the claim has ledger entries (else its current figures are written as opening entries first). */
  hasLedger: boolean;
  /** Postings not reversed, oldest first: a reversal negates the last. */
  open: { id: number; chargeCents: number; paidCents: number; entries: Entry[] }[];
  final: PostedClaimTotals | null;
}

interface ClaimOutcome {
  id: number;
  seq: number;
  claim: EraClaim;
  matched: MatchedClaim | null;
  outcome: 'posted' | 'exception';
  exceptionSource: WorkSource | null;
  exceptionReason: string | null;
  reversesId: number | null;
}

const intArray = (values: readonly number[]) => sql`${`{${values.join(',')}}`}::int[]`;
const textArray = (values: readonly string[]) =>
  sql`${`{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]`;

function addTo(totals: ClaimTotals, bucket: LedgerBucket, cents: number): ClaimTotals {
  return { ...totals, [bucket]: totals[bucket] + cents };
}

/** A claim voided here that a remittance names: said in the exception, since the payer was not always told. */
interface VoidedClaim {
  id: number;
  patientId: number;
  payer: string;
  serviceDate: string;
  voidedOn: string;
  reason: string | null;
}

/**
 * The claims named by the file's patient control numbers, locked, with their lines and ledger state; and apart, the
 * voided ones among them (an account number is never reused, so a number names a live claim or a voided one),
 * which match nothing: a payer that was not asked to void the claim (the Claims list's Void) still answers for it,
 * and the person who settles that payment needs to know which claim it was.
 */
async function loadClaims(tx: Tx, era: Era) {
  const numbers = [...new Set(era.claims.map((c) => c.patientControlNumber))];
  const claims = new Map<string, MatchedClaim>();
  const states = new Map<number, ClaimState>();
  const voided = new Map<string, VoidedClaim>();
  if (numbers.length === 0) return { claims, states, voided };
  const headers = await rawRows(
    tx,
    sql`select id, patient_id, account_number, billed_cents, paid_cents, contractual_adjustment_cents,
          patient_responsibility_cents, payer, service_date::text as service_date,
          array(select distinct v.payer from coverages v where v.patient_id = claims.patient_id) as coverage_payers,
          primary_claim_id is not null as billed_after_another,
          (extract(epoch from voided_at) * 1000)::bigint as voided_ms, void_reason
        from claims where account_number = any(${textArray(numbers)})
        order by id for update`,
  );
  for (const h of headers) {
    if (h.voided_ms !== null) {
      voided.set(rowText(h.account_number), {
        id: Number(h.id),
        patientId: Number(h.patient_id),
        payer: rowText(h.payer),
        serviceDate: rowText(h.service_date),
        // The practice's day it was voided on, as every day the app shows.
        voidedOn: dayInZone(new Date(Number(h.voided_ms))),
        reason: rowTextOrNull(h.void_reason),
      });
      continue;
    }
    claims.set(rowText(h.account_number), {
      id: Number(h.id),
      patientId: Number(h.patient_id),
      accountNumber: rowText(h.account_number),
      billedCents: Number(h.billed_cents),
      paidCents: Number(h.paid_cents),
      contractualCents: Number(h.contractual_adjustment_cents),
      patientCents: Number(h.patient_responsibility_cents),
      payer: rowText(h.payer),
      coveragePayers: (h.coverage_payers as string[] | null) ?? [],
      billedAfterAnother: h.billed_after_another === true,
      serviceDate: rowText(h.service_date),
      lines: [],
    });
  }
  const byId = new Map([...claims.values()].map((c) => [c.id, c]));
  const ids = [...byId.keys()];
  if (ids.length === 0) return { claims, states, voided };
  const lines = await rawRows(
    tx,
    sql`select id, claim_id, line_control_number, procedure_code, modifiers, charge_cents
        from claim_lines where claim_id = any(${intArray(ids)}) order by claim_id, line_number`,
  );
  for (const l of lines) {
    byId.get(Number(l.claim_id))?.lines.push({
      id: Number(l.id),
      lineControlNumber: rowText(l.line_control_number),
      procedureCode: rowText(l.procedure_code),
      modifiers: (l.modifiers as string[] | null) ?? [],
      chargeCents: Number(l.charge_cents),
    });
  }
  const sums = await rawRows(
    tx,
    sql`select claim_id, bucket, sum(amount_cents)::bigint as cents from remittance_ledger
        where claim_id = any(${intArray(ids)}) group by claim_id, bucket`,
  );
  for (const c of byId.values()) {
    states.set(c.id, {
      totals: { ...ZERO_TOTALS, paid: c.paidCents, contractual: c.contractualCents, patient: c.patientCents },
      hasLedger: false,
      open: [],
      final: null,
    });
  }
  const fromLedger = new Map<number, ClaimTotals>();
  for (const s of sums) {
    const id = Number(s.claim_id);
    fromLedger.set(id, addTo(fromLedger.get(id) ?? { ...ZERO_TOTALS }, s.bucket as LedgerBucket, Number(s.cents)));
  }
  for (const [id, totals] of fromLedger) {
    const state = states.get(id);
    if (state) Object.assign(state, { totals, hasLedger: true });
  }
  // Postings that a reversal in this file could negate: only the claims the file reverses.
  const reversed = [
    ...new Set(
      era.claims
        .filter((c) => c.statusCode === '22')
        .map((c) => claims.get(c.patientControlNumber)?.id)
        .filter((id): id is number => id !== undefined),
    ),
  ];
  if (reversed.length > 0) {
    const postings = await rawRows(
      tx,
      sql`select rc.id, rc.claim_id, rc.charge_cents, rc.paid_cents,
            coalesce((select json_agg(json_build_object('claimLineId', l.claim_line_id, 'kind', l.kind,
                'groupCode', l.group_code, 'reasonCode', l.reason_code, 'bucket', l.bucket, 'amountCents', l.amount_cents)
                order by l.id) from remittance_ledger l where l.remittance_claim_id = rc.id), '[]') as entries
          from remittance_claims rc
          where rc.claim_id = any(${intArray(reversed)}) and rc.outcome = 'posted' and rc.status_code <> '22'
            and not exists (select 1 from remittance_claims r2 where r2.reverses_id = rc.id)
          order by rc.id`,
    );
    for (const p of postings) {
      const claimId = Number(p.claim_id);
      states.get(claimId)?.open.push({
        id: Number(p.id),
        chargeCents: Number(p.charge_cents),
        paidCents: Number(p.paid_cents),
        entries: (p.entries as Omit<Entry, 'claimId' | 'remittanceClaimId'>[]).map((e) => ({
          ...e,
          claimId,
          remittanceClaimId: Number(p.id),
        })),
      });
    }
  }
  return { claims, states, voided };
}

/** The claim's line for a service line: by REF*6R, else by procedure code, modifiers and charge. */
function matchLines(claim: EraClaim, matched: MatchedClaim): { lineIds: number[] } | { unmatched: EraLine } {
  const taken = new Set<number>();
  const lineIds: number[] = [];
  for (const svc of claim.lines) {
    let found = svc.lineControlNumber
      ? matched.lines.find((l) => l.lineControlNumber === svc.lineControlNumber && !taken.has(l.id))
      : undefined;
    if (!found) {
      const billed = svc.submitted ?? svc;
      const modifiers = billed.modifiers.join(':');
      found = matched.lines.find(
        (l) =>
          !taken.has(l.id) &&
          l.procedureCode === billed.procedureCode &&
          l.modifiers.join(':') === modifiers &&
          l.chargeCents === svc.chargeCents,
      );
    }
    if (!found) return { unmatched: svc };
    taken.add(found.id);
    lineIds.push(found.id);
  }
  return { lineIds };
}

/** The ledger entries of a CLP that posts anew (not a reversal): payments per line and every CAS adjustment. */
function entriesOf(claim: EraClaim, matched: MatchedClaim, lineIds: readonly number[], postingId: number): Entry[] {
  const entries: Entry[] = [];
  const base = { claimId: matched.id, remittanceClaimId: postingId };
  const adjust = (lineId: number | null, a: EraClaim['adjustments'][number]) => {
    if (a.amountCents !== 0) {
      entries.push({
        ...base,
        claimLineId: lineId,
        kind: 'adjustment',
        groupCode: a.group,
        reasonCode: a.reason,
        bucket: bucketOf(a.group, a.reason, claim.statusCode, matched.billedAfterAnother),
        amountCents: a.amountCents,
      });
    }
  };
  claim.lines.forEach((line, i) => {
    const lineId = lineIds[i] ?? null;
    if (line.paidCents !== 0) {
      entries.push({
        ...base,
        claimLineId: lineId,
        kind: 'payment',
        groupCode: null,
        reasonCode: null,
        bucket: 'paid',
        amountCents: line.paidCents,
      });
    }
    for (const a of line.adjustments) adjust(lineId, a);
  });
  for (const a of claim.adjustments) adjust(null, a);
  // A claim paid without service lines, or with a payment the lines do not carry (claim-level payment).
  const linePaid = claim.lines.reduce((s, l) => s + l.paidCents, 0);
  const rest = claim.lines.length === 0 ? claim.paidCents : 0;
  if (rest !== 0 && linePaid === 0) {
    entries.push({
      ...base,
      claimLineId: null,
      kind: 'payment',
      groupCode: null,
      reasonCode: null,
      bucket: 'paid',
      amountCents: rest,
    });
  }
  return entries;
}

function totalsOf(entries: readonly Entry[]): ClaimTotals {
  return entries.reduce((t, e) => addTo(t, e.bucket, e.amountCents), { ...ZERO_TOTALS });
}

function plus(a: ClaimTotals, b: ClaimTotals): ClaimTotals {
  return {
    paid: a.paid + b.paid,
    contractual: a.contractual + b.contractual,
    patient: a.patient + b.patient,
    forwarded: a.forwarded + b.forwarded,
    other: a.other + b.other,
  };
}

/**
 * Imports a file of 835s (POST /api/remittances): every remittance in it, in file order, in one transaction, so
 * a file is posted whole or not at all. Each keeps the whole file's hash and size.
 */
export async function importRemittances(db: DbOrTx, ctx: RequestContext, text: string): Promise<ImportResult> {
  const eras = readBalancedEras(text);
  const file = { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) };
  return db.transaction(async (tx) => {
    await lockWhatTheFileTouches(tx, eras);
    const remittances: RemittanceSummary[] = [];
    // One after another: a later remittance of the file may post to a claim an earlier one posted to.
    for (const era of eras) remittances.push(await importOne(tx, ctx, era, file));
    return { remittances, duplicate: remittances.every((r) => r.duplicate) };
  });
}

/**
 * Takes, before anything else, the locks a file's import will need, each kind in one global order: its
 * remittances' (payer, trace number) keys as advisory locks, sorted, then the claims it names, by id. Posting
 * in file order would otherwise take them in the file's order: two uploads holding the same remittances or
 * claims in opposite orders (a clearinghouse's re-delivery, split differently) would each hold what the other
 * waits for, and PostgreSQL would end the deadlock by failing one of them. In one order, the later upload
 * waits for the earlier to commit and finds its remittances imported.
 */
async function lockWhatTheFileTouches(tx: Tx, eras: Era[]): Promise<void> {
  const keys = [...new Set(eras.map((era) => `remittance:${payerKeyOf(era)}|${era.traceNumber}`))].sort();
  for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
  const numbers = [...new Set(eras.flatMap((era) => era.claims.map((c) => c.patientControlNumber)))];
  if (numbers.length > 0) {
    await tx.execute(
      sql`select id from claims where account_number = any(${textArray(numbers)}) and voided_at is null
          order by id for update`,
    );
  }
}

/** Posts one remittance of a file in the caller's transaction; its summary says whether it came before. */
async function importOne(
  tx: Tx,
  ctx: RequestContext,
  era: Era,
  file: { sha256: string; bytes: number },
): Promise<RemittanceSummary> {
  const day = today(ctx.now);
  const postedOn = era.paymentDate ?? era.productionDate ?? day;
  const [payer] = await rawRows(
    tx,
    sql`select name from payers
          where (${era.payerIdentifier} <> '' and payer_id = upper(${era.payerIdentifier}))
             or lower(name) = lower(${era.payerName})
          order by (payer_id = upper(${era.payerIdentifier})) desc nulls last limit 1`,
  );
  const payerName = payer ? rowText(payer.name) : era.payerName;
  const payerKey = payerKeyOf(era);
  const [inserted] = await rawRows(
    tx,
    sql`insert into remittances (payer_key, trace_number, payer, payer_name_sent, payment_cents, method, payment_date,
            production_date, posted_on, claims_posted, claims_exceptions, posted_cents, exception_cents,
            provider_adjustment_cents, file_sha256, file_bytes, imported_by, imported_at)
          values (${payerKey}, ${era.traceNumber}, ${payerName}, ${era.payerName}, ${era.paymentCents}, ${era.method},
            ${era.paymentDate}::date, ${era.productionDate}::date, ${postedOn}::date, 0, 0, 0, 0, 0, ${file.sha256},
            ${file.bytes}, ${ctx.user.id}::int, ${ctx.now.toISOString()}::timestamptz)
          on conflict (payer_key, trace_number) do nothing
          returning id`,
  );
  if (!inserted) {
    const [earlier] = await rawRows(
      tx,
      sql`select ${remittanceColumns} from remittances r left join users u on u.id = r.imported_by
            where r.payer_key = ${payerKey} and r.trace_number = ${era.traceNumber}`,
    );
    if (!earlier) throw new Error('the earlier remittance vanished');
    const summary = { ...summaryOf(toRow(earlier)), duplicate: true };
    await recordMany(tx, [
      {
        ...actorOf(ctx),
        action: 'remittance.import.duplicate',
        resource: `remittance/${summary.remittanceId}`,
        detail: `${payerName} trace ${era.traceNumber}: already imported, nothing posted`,
      },
    ]);
    return summary;
  }
  const remittanceId = Number(inserted.id);
  const { claims, states, voided: voidedClaims } = await loadClaims(tx, era);

  const ids = await rawRows(
    tx,
    sql`select nextval(pg_get_serial_sequence('remittance_claims', 'id')) as id
          from generate_series(1, ${Math.max(1, era.claims.length)}::int)`,
  );
  const outcomes: ClaimOutcome[] = [];
  const entries: Entry[] = [];
  const work: OpenWorkItem[] = [];
  const payments: PayerPayment[] = [];
  const sourceKey = (seq: number, suffix = '') => `${payerKey}/${era.traceNumber}/${seq}${suffix}`;

  era.claims.forEach((claim, index) => {
    const id = Number(ids[index]?.id);
    const seq = index + 1;
    const candidate = claims.get(claim.patientControlNumber) ?? null;
    const matched = candidate && paysFor(candidate, payerName) ? candidate : null;
    const voided = candidate ? undefined : voidedClaims.get(claim.patientControlNumber);
    const outcome: ClaimOutcome = {
      id,
      seq,
      claim,
      matched,
      outcome: 'exception',
      exceptionSource: null,
      exceptionReason: null,
      reversesId: null,
    };
    outcomes.push(outcome);
    const except = (
      source: WorkSource,
      reason: string,
      dollarsAtRisk = Math.abs(claim.chargeCents - claim.paidCents),
    ) => {
      outcome.exceptionSource = source;
      outcome.exceptionReason = reason;
      const about = candidate ?? voided;
      work.push({
        source,
        sourceKey: sourceKey(seq),
        claimId: about?.id ?? null,
        patientId: about?.patientId ?? null,
        accountNumber: claim.patientControlNumber,
        payer: about?.payer ?? payerName,
        carc: reasonOf(adjustmentsOfClaim(claim)),
        reason,
        dollarsAtRiskCents: dollarsAtRisk,
        serviceDate: about?.serviceDate ?? null,
        decidedOn: postedOn,
      });
    };
    if (!matched) {
      except(
        'unmatched_claim',
        candidate
          ? `CLP01 ${claim.patientControlNumber} (segment ${claim.position}) is a claim billed to ${candidate.payer}; ` +
              `${payerName} is not its payer nor a payer of the patient's coverages`
          : voided
            ? `CLP01 ${claim.patientControlNumber} (segment ${claim.position}) is a claim voided here on ` +
              `${voided.voidedOn}${voided.reason ? ` (${voided.reason})` : ''}: nothing is posted to a voided claim`
            : `CLP01 ${claim.patientControlNumber} (segment ${claim.position}) matches no claim`,
      );
      return;
    }
    const imbalance = claimImbalance(claim);
    if (imbalance) {
      except('balancing', `Does not balance: ${imbalance}`);
      return;
    }
    if (!(POSTED_STATUS_CODES as readonly string[]).includes(claim.statusCode)) {
      except('review', `CLP02 ${claim.statusCode} (segment ${claim.position}) is not posted automatically`);
      return;
    }
    const state = states.get(matched.id)!;
    let posting: Entry[];
    if (claim.statusCode === '22') {
      const earlier = state.open[state.open.length - 1];
      if (!earlier) {
        except('review', `Reversal (CLP02 22, segment ${claim.position}) of a payment that was never posted here`, 0);
        return;
      }
      if (claim.paidCents !== -earlier.paidCents || claim.chargeCents !== -earlier.chargeCents) {
        except(
          'balancing',
          `Reversal (segment ${claim.position}) of charge ${dollars(claim.chargeCents)}, paid ${dollars(claim.paidCents)} ` +
            `does not negate the posting it reverses (charge ${dollars(earlier.chargeCents)}, paid ${dollars(earlier.paidCents)})`,
          0,
        );
        return;
      }
      posting = earlier.entries.map((e) => ({ ...e, remittanceClaimId: id, amountCents: -e.amountCents }));
      outcome.reversesId = earlier.id;
    } else {
      const lines = matchLines(claim, matched);
      if ('unmatched' in lines) {
        const svc = lines.unmatched;
        except(
          'unmatched_line',
          `Service line ${svc.procedureCode}${svc.modifiers.length ? `-${svc.modifiers.join('-')}` : ''} ` +
            `${dollars(svc.chargeCents)} (segment ${svc.position}) matches no line of ${matched.accountNumber}`,
        );
        return;
      }
      posting = entriesOf(claim, matched, lines.lineIds, id);
    }
    const opening: Entry[] = [];
    if (!state.hasLedger) {
      for (const [bucket, cents] of [
        ['paid', state.totals.paid],
        ['contractual', state.totals.contractual],
        ['patient', state.totals.patient],
      ] as const) {
        if (cents !== 0) {
          opening.push({
            claimId: matched.id,
            claimLineId: null,
            remittanceClaimId: null,
            kind: 'opening',
            groupCode: null,
            reasonCode: null,
            bucket,
            amountCents: cents,
          });
        }
      }
    }
    const totals = plus(state.totals, totalsOf(posting));
    if (totals.paid < 0 || totals.contractual < 0 || totals.patient < 0) {
      except(
        'review',
        `Posting segment ${claim.position} would leave ${matched.accountNumber} with a negative paid or adjusted amount`,
        0,
      );
      return;
    }
    outcome.outcome = 'posted';
    entries.push(...opening, ...posting);
    state.hasLedger = true;
    state.totals = totals;
    if (claim.statusCode === '22') state.open.pop();
    else state.open.push({ id, chargeCents: claim.chargeCents, paidCents: claim.paidCents, entries: posting });
    const status: ClaimStatus = statusAfter(claim.statusCode, totals, matched.billedCents);
    const reason = claim.statusCode === '22' ? null : reasonOf(adjustmentsOfClaim(claim));
    const carc = reason?.slice(reason.indexOf('-') + 1) ?? '';
    state.final = {
      claimId: matched.id,
      paidCents: totals.paid,
      contractualAdjustmentCents: totals.contractual,
      patientResponsibilityCents: totals.patient,
      status,
      reasonCode: reason,
      remarkCode: claim.remarkCodes[0] ?? claim.lines.flatMap((l) => l.remarkCodes)[0] ?? null,
      denialDescription: reason ? (CARC_DESCRIPTIONS[carc] ?? null) : null,
      adjudicatedOn: postedOn,
      deniedOnFirstAdjudication: state.final ? state.final.deniedOnFirstAdjudication : status === 'Denied',
    };
    const paid = totalsOf(posting).paid;
    if (paid !== 0) {
      payments.push({
        claimId: matched.id,
        patientId: matched.patientId,
        amountCents: paid,
        receivedOn: postedOn,
        reference: `ERA ${era.traceNumber}`,
      });
    }
    // What a person must act on although the claim posted: a denial, or lines denied within a processed claim.
    if (claim.statusCode === '4') {
      const atRisk = totalsOf(posting).other || claim.chargeCents;
      work.push({
        source: 'denial',
        sourceKey: sourceKey(seq),
        claimId: matched.id,
        patientId: matched.patientId,
        accountNumber: matched.accountNumber,
        payer: matched.payer,
        carc: reason,
        reason: `Denied${reason ? ` ${reason}` : ''}${
          reason && CARC_DESCRIPTIONS[carc] ? `: ${CARC_DESCRIPTIONS[carc]}` : ''
        } (trace ${era.traceNumber})`,
        dollarsAtRiskCents: atRisk,
        serviceDate: matched.serviceDate,
        decidedOn: postedOn,
      });
    } else if (claim.statusCode !== '22') {
      claim.lines.forEach((line, i) => {
        if (!isDeniedLine(line)) return;
        const lineReason = reasonOf(line.adjustments);
        const lineCarc = lineReason?.slice(lineReason.indexOf('-') + 1) ?? '';
        work.push({
          source: 'denial',
          sourceKey: sourceKey(seq, `/line/${i + 1}`),
          claimId: matched.id,
          patientId: matched.patientId,
          accountNumber: matched.accountNumber,
          payer: matched.payer,
          carc: lineReason,
          reason: `Line ${line.procedureCode} paid $0.00${lineReason ? ` (${lineReason}` : ''}${
            lineReason && CARC_DESCRIPTIONS[lineCarc] ? `: ${CARC_DESCRIPTIONS[lineCarc]})` : lineReason ? ')' : ''
          } (trace ${era.traceNumber})`,
          dollarsAtRiskCents: line.adjustments
            .filter((a) => a.group !== 'PR' && !(a.group === 'CO' && a.reason === '45'))
            .reduce((s, a) => s + a.amountCents, 0),
          serviceDate: matched.serviceDate,
          decidedOn: postedOn,
        });
      });
    }
  });

  await tx.execute(sql`insert into remittance_claims (id, remittance_id, seq, segment_position, claim_id,
        patient_control_number, status_code, charge_cents, paid_cents, patient_responsibility_cents, payer_claim_number,
        outcome, exception_source, exception_reason, reverses_id)
      select x.id, ${remittanceId}::int, x.seq, x.position, x.claim, x.pcn, x.status, x.charge, x.paid, x.pr, x.icn,
        x.outcome, x.source, x.reason, x.reverses
      from jsonb_to_recordset(${JSON.stringify(
        outcomes.map((o) => ({
          id: o.id,
          seq: o.seq,
          position: o.claim.position,
          claim: o.matched?.id ?? null,
          pcn: o.claim.patientControlNumber,
          status: o.claim.statusCode,
          charge: o.claim.chargeCents,
          paid: o.claim.paidCents,
          pr: o.claim.patientResponsibilityCents,
          icn: o.claim.payerClaimNumber,
          outcome: o.outcome,
          source: o.exceptionSource,
          reason: o.exceptionReason,
          reverses: o.reversesId,
        })),
      )}::jsonb) as x(id int, seq int, position int, claim int, pcn text, status text, charge int, paid int, pr int,
        icn text, outcome text, source text, reason text, reverses int)
      order by x.id`);
  if (entries.length > 0) {
    await tx.execute(sql`insert into remittance_ledger (claim_id, claim_line_id, remittance_id, remittance_claim_id,
          kind, group_code, reason_code, bucket, amount_cents, posted_on, created_at)
        select x."claimId", x."claimLineId", ${remittanceId}::int, x."remittanceClaimId", x.kind, x."groupCode",
          x."reasonCode", x.bucket, x."amountCents", ${postedOn}::date, ${ctx.now.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as x("claimId" int,
          "claimLineId" int, "remittanceClaimId" int, kind text, "groupCode" text, "reasonCode" text, bucket text,
          "amountCents" int)`);
  }
  if (era.providerAdjustments.length > 0) {
    await tx.execute(sql`insert into provider_adjustments (remittance_id, provider_identifier, fiscal_period, reason,
          reference, amount_cents, posted_on)
        select ${remittanceId}::int, x."providerId", x."fiscalPeriod", x.reason, x.reference, x."amountCents",
          ${postedOn}::date
        from jsonb_to_recordset(${JSON.stringify(era.providerAdjustments)}::jsonb) as x("providerId" text,
          "fiscalPeriod" date, reason text, reference text, "amountCents" int)`);
  }
  const finals = [...states.values()].flatMap((s) => (s.final ? [s.final] : []));
  await applyPostedClaimTotals(tx, finals, postedOn);
  await followHandedOnBalances(
    tx,
    ctx,
    finals.map((f) => f.claimId),
    { decidedOn: postedOn, reference: `remittance ${remittanceId}, trace ${era.traceNumber}` },
  );
  // A claim paid with a share left that another policy of the patient covers goes on to that policy, as a Draft.
  const billedNext = await billNextPoliciesAfterPosting(
    tx,
    ctx,
    finals.map((f) => f.claimId),
  );
  await insertPayerPayments(tx, { userId: ctx.user.id, now: ctx.now }, payments);
  await openWorkItems(tx, ctx, work);

  const posted = outcomes.filter((o) => o.outcome === 'posted');
  const excepted = outcomes.filter((o) => o.outcome === 'exception');
  const postedCents = posted.reduce((s, o) => s + o.claim.paidCents, 0);
  const exceptionCents = excepted.reduce((s, o) => s + o.claim.paidCents, 0);
  const plbCents = era.providerAdjustments.reduce((s, p) => s + p.amountCents, 0);
  await tx.execute(sql`update remittances set claims_posted = ${posted.length}::int,
        claims_exceptions = ${excepted.length}::int, claims_billed_next = ${billedNext}::int,
        posted_cents = ${postedCents}, exception_cents = ${exceptionCents},
        provider_adjustment_cents = ${plbCents}
      where id = ${remittanceId}::int`);

  const audit: AuditInput[] = [
    {
      ...actorOf(ctx),
      action: 'remittance.import',
      resource: `remittance/${remittanceId}`,
      detail:
        `${payerName} trace ${era.traceNumber}: payment $${dollars(era.paymentCents)} (${era.method || 'no method'}), ` +
        `${posted.length} claims posted ($${dollars(postedCents)}), ${excepted.length} to the work queue ` +
        `($${dollars(exceptionCents)}), provider adjustments $${dollars(plbCents)}` +
        (billedNext > 0 ? `, ${billedNext} billed on to a next policy` : ''),
    },
    ...posted.map((o) => ({
      ...actorOf(ctx),
      action: 'claim.remittance.post',
      resource: `claim/${o.matched!.id}`,
      patientId: o.matched!.patientId,
      detail:
        `${o.matched!.accountNumber}: CLP02 ${o.claim.statusCode}, charge $${dollars(o.claim.chargeCents)}, ` +
        `paid $${dollars(o.claim.paidCents)}${o.reversesId === null ? '' : ', reversal'} (remittance ${remittanceId}, trace ${era.traceNumber})`,
    })),
  ];
  await recordMany(tx, audit);
  return {
    remittanceId,
    payer: payerName,
    traceNumber: era.traceNumber,
    paymentCents: era.paymentCents,
    paymentDate: era.paymentDate,
    claimsPosted: posted.length,
    claimsExceptions: excepted.length,
    claimsBilledNext: billedNext,
    postedCents,
    exceptionCents,
    providerAdjustmentCents: plbCents,
    duplicate: false,
  };
}

// ---------------------------------------------------------------------------------------------
// The Remittances screen.

const remittanceColumns = sql`r.id, r.payer, r.trace_number, r.payment_cents, r.payment_date::text as payment_date,
  r.method, r.claims_posted, r.claims_exceptions, r.claims_billed_next, r.posted_cents, r.exception_cents, r.provider_adjustment_cents,
  to_char(r.imported_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as imported_at, u.name as imported_by`;

function toRow(r: RawRow): RemittanceRow {
  return {
    remittanceId: Number(r.id),
    payer: rowText(r.payer),
    traceNumber: rowText(r.trace_number),
    paymentCents: Number(r.payment_cents),
    paymentDate: rowTextOrNull(r.payment_date),
    method: rowText(r.method),
    claimsPosted: Number(r.claims_posted),
    claimsExceptions: Number(r.claims_exceptions),
    claimsBilledNext: Number(r.claims_billed_next),
    postedCents: Number(r.posted_cents),
    exceptionCents: Number(r.exception_cents),
    providerAdjustmentCents: Number(r.provider_adjustment_cents),
    importedAt: rowText(r.imported_at),
    importedBy: rowTextOrNull(r.imported_by),
  };
}

function summaryOf(row: RemittanceRow): Omit<RemittanceSummary, 'duplicate'> {
  return {
    remittanceId: row.remittanceId,
    payer: row.payer,
    traceNumber: row.traceNumber,
    paymentCents: row.paymentCents,
    paymentDate: row.paymentDate,
    claimsPosted: row.claimsPosted,
    claimsExceptions: row.claimsExceptions,
    claimsBilledNext: row.claimsBilledNext,
    postedCents: row.postedCents,
    exceptionCents: row.exceptionCents,
    providerAdjustmentCents: row.providerAdjustmentCents,
  };
}

/** The imports, newest first, keyset-paged by (imported_at, id). Names no patient: not a PHI read. */
export async function listRemittances(db: Db, query: RemittanceListQuery): Promise<RemittancePage> {
  const after = query.cursor ? decodeCursor(query.cursor, 'imported', 'desc', ['text']) : null;
  const rows = await rawRows(
    db,
    sql`select ${remittanceColumns}, r.imported_at::text as key from remittances r
        left join users u on u.id = r.imported_by
        ${after ? sql`where (r.imported_at, r.id) < (${after.values[0]}::timestamptz, ${after.id}::int)` : sql``}
        order by r.imported_at desc, r.id desc limit ${query.limit + 1}`,
  );
  const items = rows.slice(0, query.limit).map(toRow);
  const last = rows[query.limit - 1];
  const nextCursor =
    rows.length > query.limit && last
      ? encodeCursor('imported', 'desc', { values: [rowText(last.key)], id: Number(last.id) })
      : null;
  let total: number | null = null;
  if (!query.cursor) {
    const [counted] = await rawRows(db, sql`select count(*)::int as n from remittances`);
    total = Number(counted?.n ?? 0);
  }
  return { items, nextCursor, total };
}

/** One remittance with each claim's posting and adjustments; a PHI read (patients' names), audited. */
export async function remittanceDetail(
  db: Db,
  ctx: RequestContext,
  id: number,
  action: 'remittance.view' | 'export.csv' = 'remittance.view',
): Promise<RemittanceDetail> {
  const [head] = await rawRows(
    db,
    sql`select ${remittanceColumns} from remittances r left join users u on u.id = r.imported_by where r.id = ${id}::int`,
  );
  if (!head) throw new HttpError(404, 'NOT_FOUND', 'No remittance with that id.');
  const claimRows = await rawRows(
    db,
    sql`select rc.seq, rc.claim_id, rc.patient_control_number, rc.status_code, rc.charge_cents, rc.paid_cents,
          rc.patient_responsibility_cents, rc.payer_claim_number, rc.outcome, rc.exception_reason,
          rc.reverses_id is not null as reversal, c.patient_id, p.name as patient_name,
          coalesce((select json_agg(json_build_object('lineControlNumber', cl.line_control_number,
              'procedureCode', cl.procedure_code, 'kind', l.kind, 'groupCode', l.group_code, 'reasonCode', l.reason_code,
              'bucket', l.bucket, 'amountCents', l.amount_cents) order by l.id)
            from remittance_ledger l left join claim_lines cl on cl.id = l.claim_line_id
            where l.remittance_claim_id = rc.id), '[]') as entries
        from remittance_claims rc left join claims c on c.id = rc.claim_id left join patients p on p.id = c.patient_id
        where rc.remittance_id = ${id}::int order by rc.seq`,
  );
  const plb = await rawRows(
    db,
    sql`select provider_identifier, fiscal_period::text as fiscal_period, reason, reference, amount_cents
        from provider_adjustments where remittance_id = ${id}::int order by id`,
  );
  const claims: RemittanceClaim[] = claimRows.map((r) => ({
    seq: Number(r.seq),
    claimId: r.claim_id === null ? null : Number(r.claim_id),
    patientControlNumber: rowText(r.patient_control_number),
    patientName: rowTextOrNull(r.patient_name),
    statusCode: rowText(r.status_code),
    chargeCents: Number(r.charge_cents),
    paidCents: Number(r.paid_cents),
    patientResponsibilityCents: Number(r.patient_responsibility_cents),
    payerClaimNumber: rowText(r.payer_claim_number),
    outcome: r.outcome as RemittanceClaim['outcome'],
    exceptionReason: rowTextOrNull(r.exception_reason),
    reversal: r.reversal === true,
    entries: r.entries as RemittanceClaim['entries'],
  }));
  const patientIds = [
    ...new Set(
      claimRows
        .map((r) => r.patient_id)
        .filter((p) => p !== null)
        .map(Number),
    ),
  ].sort((a, b) => a - b);
  await recordRead(db, ctx, {
    action,
    resource: `remittance/${id}`,
    detail: `remittance ${id} (${rowText(head.payer)} trace ${rowText(head.trace_number)})${
      action === 'export.csv' ? ' as CSV' : ''
    }: ${patientIds.length > 100 ? `${patientIds.length} patients` : `patients [${patientIds.join(',')}]`}`,
    patientId: patientIds.length === 1 ? (patientIds[0] ?? null) : null,
  });
  return {
    remittance: toRow(head),
    claims,
    providerAdjustments: plb.map((p) => ({
      providerIdentifier: rowText(p.provider_identifier),
      fiscalPeriod: rowTextOrNull(p.fiscal_period),
      reason: rowText(p.reason),
      reference: rowText(p.reference),
      amountCents: Number(p.amount_cents),
    })),
  };
}
