/**
 * The scale seed's claims, their payments and their audit entries, generated in JavaScript and streamed
 * with COPY (scale-seed.ts). A claim costs a few hundred nanoseconds here; the same rules as SQL
 * expressions cost about 30 µs a row, which made a million claims take half a minute on their own.
 *
 * Every random choice is a hash of the claim's number and a salt, so the same count and day always give
 * the same rows. The rules are the demo seed's (demo-seed.ts): dates, money, statuses, reason codes and
 * first-pass flags agree with one another, and the payments are what the claims say was paid.
 */
import { statusWhenSettled } from '@/features/claims/claims.schema';
import { currentHashVersion, entryHash, type AuditInput } from '@/features/audit/server/audit.queries';
import { DIAGNOSES, isPracticeOpen } from './demo-clinical';
import { AUTHORIZATION_DENIAL_FACTOR, denialsFor, needsAuthorization, PAYER_MIX, PROCEDURES } from './demo-data';
import { copyText, type CopyType, type CopyValue } from './copy-rows';
import { codeLines, costSharedCents, type LineCoding } from './claim-coding';

/** Claims' service dates reach this many days back, like the demo seed's. */
export const HISTORY_DAYS = 548;
const DAY_MS = 86_400_000;

/** murmur3's 32-bit finaliser: a cheap, well-mixed hash of an integer. */
function mix(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A uniform number in [0, 1) from a row key and a salt: the same key and salt always give the same number. */
export function uniformOf(seed: number): (key: number, salt: number) => number {
  const salts = Array.from({ length: 64 }, (_, salt) => mix(seed + salt * 0x9e3779b9));
  return (key, salt) => mix(Math.imul(key, 0x9e3779b1) ^ (salts[salt] ?? 0)) / 4_294_967_296;
}

/** 0-based positions repeated by weight: a uniform draw from the list picks a position by weight. */
function byWeight(weights: readonly number[]): number[] {
  return weights.flatMap((w, i) => Array.from({ length: w }, () => i));
}

function pickIndex(table: readonly number[], u: number): number {
  return table[Math.floor(u * table.length)] ?? 0;
}

export interface Actor {
  email: string;
  id: number | null;
  role: string | null;
}

/** Each of the scale clinic's patients' payer, by 0-based patient position: a PAYER_MIX position, by weight. */
export function patientPayersOf(seed: number, patientCount: number): Uint8Array {
  const u = uniformOf(seed);
  const payerIndex = byWeight(PAYER_MIX.map((p) => p.weight));
  const payers = new Uint8Array(patientCount);
  for (let p = 0; p < patientCount; p += 1) payers[p] = pickIndex(payerIndex, u(p, 40));
  return payers;
}

export interface ClaimsPlan {
  n: number;
  seed: number;
  /** YYYY-MM-DD */
  today: string;
  firstClaimId: number;
  firstPatientId: number;
  patientCount: number;
  providerIds: readonly number[];
  /**
   * Each patient's payer, a position in PAYER_MIX, by patient position (patientPayersOf): every claim of a
   * patient is billed to their primary coverage, as a real practice bills.
   */
  patientPayers: Uint8Array;
  /** The id of the primary coverage of the patient at position p is firstCoverageId + p (none for self-pay). */
  firstCoverageId: number;
  /** Who imports the claim files (a billing administrator). */
  importer: Actor;
  /** Who pays patient balances online (the guest payment flow). */
  payer: Actor;
}

export const CLAIM_COLUMNS = [
  'id',
  'patient_id',
  'provider_id',
  'account_number',
  'procedure_code',
  'payer',
  'service_date',
  'submitted_on',
  'adjudicated_on',
  'resolved_on',
  'billed_cents',
  'paid_cents',
  'contractual_adjustment_cents',
  'patient_responsibility_cents',
  'status',
  'reason_code',
  'remark_code',
  'denial_description',
  'clean_submission',
  'denied_on_first_adjudication',
  'diagnoses',
  'coverage_id',
] as const;

/** Each claims column's type, for the binary COPY (dates are day numbers in the rows). */
const CLAIM_COLUMN_TYPES: Record<(typeof CLAIM_COLUMNS)[number], CopyType> = {
  id: 'int4',
  patient_id: 'int4',
  provider_id: 'int4',
  account_number: 'text',
  procedure_code: 'text',
  payer: 'text',
  service_date: 'date',
  submitted_on: 'date',
  adjudicated_on: 'date',
  resolved_on: 'date',
  billed_cents: 'int4',
  paid_cents: 'int4',
  contractual_adjustment_cents: 'int4',
  patient_responsibility_cents: 'int4',
  status: 'text',
  reason_code: 'text',
  remark_code: 'text',
  denial_description: 'text',
  clean_submission: 'bool',
  denied_on_first_adjudication: 'bool',
  diagnoses: 'text[]',
  coverage_id: 'int4',
};
export const CLAIM_TYPES = CLAIM_COLUMNS.map((column) => CLAIM_COLUMN_TYPES[column]);

/** Columns of `claim_lines` the COPY writes (the id is the table's own). */
export const CLAIM_LINE_COLUMNS = [
  'claim_id',
  'line_number',
  'procedure_code',
  'modifiers',
  'units',
  'charge_cents',
  'diagnosis_pointers',
  'service_date',
  'line_control_number',
] as const;

export const CLAIM_LINE_TYPES = CLAIM_LINE_COLUMNS.map(
  (column) =>
    (
      ({
        claim_id: 'int4',
        line_number: 'int4',
        procedure_code: 'text',
        modifiers: 'text[]',
        units: 'int4',
        charge_cents: 'int4',
        diagnosis_pointers: 'int4[]',
        service_date: 'date',
        line_control_number: 'text',
      }) satisfies Record<(typeof CLAIM_LINE_COLUMNS)[number], CopyType>
    )[column],
);

/**
 * The lines' modifiers and units (claim-coding.ts) of a claim of this procedure (a PROCEDURES position), payer (a
 * PAYER_MIX position) and blood draw: a few hundred combinations, each coded once, not once per claim.
 */
const codings = new Map<number, LineCoding[]>();
function codingOf(procedureAt: number, payerAt: number, drawsBlood: boolean): LineCoding[] {
  const key = (procedureAt * PAYER_MIX.length + payerAt) * 2 + (drawsBlood ? 1 : 0);
  let coding = codings.get(key);
  if (!coding) {
    const code = PROCEDURES[procedureAt]?.code ?? '';
    coding = codeLines(drawsBlood ? [code, VENIPUNCTURE.code] : [code], PAYER_MIX[payerAt]?.payer ?? '');
    codings.set(key, coding);
  }
  return coding;
}

/**
 * The part of a claim's charge whose cost the patient shares (costSharedCents), from its procedure, payer and blood
 * draw, which also fix its charge: 1 for nearly every claim. Worked out once per combination, as codingOf is.
 */
const sharedShares = new Map<number, number>();
function sharedShare(procedureAt: number, payerAt: number, drawsBlood: boolean, billed: number): number {
  const key = (procedureAt * PAYER_MIX.length + payerAt) * 2 + (drawsBlood ? 1 : 0);
  let shared = sharedShares.get(key);
  if (shared === undefined) {
    const procedure = PROCEDURES[procedureAt];
    const lines = [
      { procedureCode: procedure?.code ?? '', chargeCents: billed - (drawsBlood ? VENIPUNCTURE.cents : 0) },
    ];
    if (drawsBlood) lines.push({ procedureCode: VENIPUNCTURE.code, chargeCents: VENIPUNCTURE.cents });
    shared = billed === 0 ? 1 : costSharedCents(lines, PAYER_MIX[payerAt]?.payer ?? '') / billed;
    sharedShares.set(key, shared);
  }
  return shared;
}

/** A blood draw billed beside a visit or a panel: the generated claims' second line, on about a third. */
const VENIPUNCTURE = { code: '36415', cents: 1_700 };
const VENIPUNCTURE_SHARE = 0.3;
/** The ICD-10-CM codes the generated claims carry (the demo clinic's, without their labels). */
const DIAGNOSIS_CODES = DIAGNOSES.map((d) => d.split(' ')[0] ?? d);

export const PAYMENT_COLUMNS = [
  'patient_id',
  'claim_id',
  'amount_cents',
  'source',
  'received_on',
  'reference',
] as const;

export const PAYMENT_TYPES = PAYMENT_COLUMNS.map(
  (column) =>
    (
      ({
        patient_id: 'int4',
        claim_id: 'int4',
        amount_cents: 'int4',
        source: 'text',
        received_on: 'date',
        reference: 'text',
      }) satisfies Record<(typeof PAYMENT_COLUMNS)[number], CopyType>
    )[column],
);

/** A row for a binary COPY (binaryCopyChunks): its fields in the columns' order, dates as day numbers. */
export type CopyRow = CopyValue[];

export interface GeneratedClaims {
  /** Rows for `claims` (CLAIM_COLUMNS, CLAIM_TYPES), in id order. Iterate once, before the other two. */
  claimLines(): Generator<CopyRow>;
  /** Rows for `claim_lines` (CLAIM_LINE_COLUMNS), after the claims: each claim's 1–2 service lines. */
  serviceLines(): Generator<CopyRow>;
  /** Rows for `payments` (PAYMENT_COLUMNS): payer remittances, then patient payments. */
  paymentLines(): Generator<CopyRow>;
  /** The audit entries these writes would have made, oldest first (not yet chained). */
  auditEntries(): Generator<AuditInput>;
}

const formatCents = (cents: number) => (cents / 100).toFixed(2);

/**
 * Lines are produced while COPY consumes them, and what the payments and audit entries need is kept in
 * typed arrays: holding a million finished lines at once made the garbage collector the bottleneck.
 */
export function generateClaims(plan: ClaimsPlan): GeneratedClaims {
  const { n } = plan;
  const u = uniformOf(plan.seed);
  const T = Math.round(Date.parse(`${plan.today}T00:00:00Z`) / DAY_MS);
  // Every date a claim can carry, formatted once.
  const firstDay = T - HISTORY_DAYS - 10;
  const dayText: string[] = [];
  const yearText: string[] = [];
  for (let d = firstDay; d <= T + 200; d += 1) {
    const iso = new Date(d * DAY_MS).toISOString();
    dayText.push(iso.slice(0, 10));
    yearText.push(iso.slice(0, 4));
  }
  // Out of range is a bug in the rules above: fail loudly rather than COPY a date no rule meant.
  const day = (d: number) => {
    if (dayText[d - firstDay] === undefined)
      throw new Error(`claim date ${d - T} days from today is outside the generated range`);
    return d;
  };
  // The days the practice was open (its default working days, holidays aside), looked up once per day.
  const openDays = Uint8Array.from(dayText, (text) => (isPracticeOpen(text) ? 1 : 0));
  const isOpen = (d: number) => openDays[d - firstDay] === 1;
  // A practice numbers its claims as they arrive: the claim at position `at` in service-date order (1-based) gets
  // the at-th number, so recent claims sit together at the end of the account-number index as they do in a real
  // clinic's (drawn numbers scattered them: a batch of recent claims touched a page of that index each).
  const accountOf = (at: number, service: number) =>
    `ACC-${yearText[service - firstDay] ?? ''}-S${String(at).padStart(8, '0')}`;

  // Claims arrive in date order in a real clinic: service dates are drawn first and the claims numbered
  // by (service date, draw), so ids (and the table's pages) follow the service date.
  const serviceOf = new Int32Array(n + 1);
  // A draw that lands on a closed day moves back to the last open day before it: a Sunday to the Friday,
  // at most four days when a holiday falls next to a weekend.
  const maxBack = HISTORY_DAYS + 4;
  const perDay = new Int32Array(maxBack + 1);
  for (let g = 1; g <= n; g += 1) {
    const d0 = T - (1 + Math.floor(u(g, 1) * HISTORY_DAYS));
    let service = d0;
    while (!isOpen(service)) service -= 1;
    serviceOf[g] = service;
    perDay[T - service] = (perDay[T - service] ?? 0) + 1;
  }
  // Counting sort, oldest day first.
  const start = new Int32Array(maxBack + 1);
  for (let back = maxBack, at = 0; back >= 0; back -= 1) {
    start[back] = at;
    at += perDay[back] ?? 0;
  }
  const order = new Int32Array(n);
  for (let g = 1; g <= n; g += 1) {
    const back = T - (serviceOf[g] ?? 0);
    order[start[back] ?? 0] = g;
    start[back] = (start[back] ?? 0) + 1;
  }

  const procedureIndex = byWeight(PROCEDURES.map((p) => p.weight));
  const lags = byWeight([10, 35, 25, 14, 8, 5, 3]);
  const shareCodes = ['PR-1', 'PR-1', 'PR-1', 'PR-2', 'PR-2', 'PR-2', 'PR-2', 'PR-3', 'PR-3', 'PR-3', 'PR-3', 'PR-3'];
  // Authorization denials (CO-197, CO-15) only on services that need one, which payers deny more often.
  const denialsOf = PROCEDURES.map((p) => {
    const list = denialsFor([p.code]).map((d) => ({ code: d.code, remark: d.remark, description: d.description }));
    return {
      list,
      index: byWeight(denialsFor([p.code]).map((d) => d.weight)),
      rateFactor: needsAuthorization(p.code) ? AUTHORIZATION_DENIAL_FACTOR : 1,
    };
  });

  // Filled while the claims stream: what the payments and the audit entries need, by claim position.
  const patientOf = new Int32Array(n);
  const payerCents = new Int32Array(n);
  const payerDay = new Int32Array(n);
  const patientCents = new Int32Array(n);
  const patientDay = new Int32Array(n);
  const procedureOf = new Int16Array(n);
  const drawsBlood = new Uint8Array(n);
  /** One import per provider and service day: the day's claims arrive as one CSV file. */
  const imports: { day: number; provider: number; count: number }[] = [];
  let generated = false;

  function* claimLines(): Generator<CopyRow> {
    let batchDay = -1;
    const batchByProvider = new Map<number, number>();
    const flushBatches = () => {
      for (const [provider, count] of [...batchByProvider].sort((a, b) => a[0] - b[0])) {
        imports.push({ day: batchDay, provider, count });
      }
      batchByProvider.clear();
    };
    for (let i = 0; i < n; i += 1) {
      const g = order[i] ?? 0;
      const id = plan.firstClaimId + i;
      const service = serviceOf[g] ?? 0;
      const patientAt = Math.floor(u(g, 20) * plan.patientCount);
      const patientId = plan.firstPatientId + patientAt;
      const providerId = plan.providerIds[Math.floor(u(g, 21) * plan.providerIds.length)] ?? 0;
      const payerRule = PAYER_MIX[plan.patientPayers[patientAt] ?? 0] ?? PAYER_MIX[0];
      const procedureAt = pickIndex(procedureIndex, u(g, 3));
      const procedure = PROCEDURES[procedureAt];
      const denials = denialsOf[procedureAt];
      if (!payerRule || !procedure || !denials) throw new Error('empty reference data');
      const submitted = service + pickIndex(lags, u(g, 4));
      const clean = u(g, 5) >= 0.055;
      // Diagnosed with one of the clinic's conditions; about a third also have blood drawn (a second line).
      const diagnosis = DIAGNOSIS_CODES[Math.floor(u(g, 24) * DIAGNOSIS_CODES.length)] ?? 'Z00.00';
      const venipuncture = u(g, 23) < VENIPUNCTURE_SHARE;
      procedureOf[i] = procedureAt;
      drawsBlood[i] = venipuncture ? 1 : 0;
      const billed =
        procedure.cents * (codingOf(procedureAt, plan.patientPayers[patientAt] ?? 0, venipuncture)[0]?.units ?? 1) +
        (venipuncture ? VENIPUNCTURE.cents : 0);
      const adjudicated = submitted + 10 + Math.floor(u(g, 6) * 31) + (clean ? 0 : 14);
      const path =
        submitted > T
          ? 'draft'
          : payerRule.payer === 'Self-Pay'
            ? 'selfpay'
            : adjudicated > T
              ? 'waiting'
              : u(g, 7) < payerRule.denialRate * denials.rateFactor
                ? 'denied'
                : 'paid';
      const denial = denials.list[pickIndex(denials.index, u(g, 8))];
      if (!denial) throw new Error('empty reference data');
      const u9 = u(g, 9);
      const outcome = u9 < 0.55 ? 'Denied' : u9 < 0.77 ? 'Appealed' : u9 < 0.9 ? 'Overturned' : 'Written Off';
      const overturnPaidOn = adjudicated + 20 + Math.floor(u(g, 10) * 26);
      const u11 = u(g, 11);
      const overturnAllowed = Math.round(billed * (0.6 + u11 * 0.2));
      const writtenOffOn = Math.min(adjudicated + 30 + Math.floor(u(g, 12) * 61), T);
      const allowed = Math.round(billed * (0.55 + u11 * 0.25));
      const partial = u(g, 13) < 0.08;
      const u14 = u(g, 14);
      const u15 = u(g, 15);
      const sharePaidOn = adjudicated + 5 + Math.floor(u14 * 41);
      const sharePaidFully = u15 < 0.82 && u(g, 16) < 0.8;
      const discount = Math.round(billed * 0.3);
      // Only on the lines whose cost the patient shares (Medicare waives it for its annual wellness visit).
      const shared = sharedShare(procedureAt, plan.patientPayers[patientAt] ?? 0, venipuncture, billed);
      const share = u(g, 17) < 0.55 ? Math.round(allowed * (0.1 + u(g, 18) * 0.2) * shared) : 0;
      const selfPaidOn = submitted + 5 + Math.floor(u14 * 36);
      const selfPays = selfPaidOn <= T && u15 < 0.75;
      const overturnedPaid = outcome === 'Overturned' && overturnPaidOn <= T;

      let adjudicatedOn = 0;
      let resolvedOn = 0;
      let paid = 0;
      let contractual = 0;
      let patientShare = 0;
      let status: string;
      let reason: string | null = null;
      let remark: string | null = null;
      let description: string | null = null;
      switch (path) {
        case 'draft':
          status = 'Draft';
          break;
        case 'selfpay':
          adjudicatedOn = submitted;
          resolvedOn = selfPays ? selfPaidOn : 0;
          contractual = discount;
          patientShare = billed - discount;
          status = selfPays ? 'Paid' : 'Pending';
          reason = 'PR-2';
          break;
        case 'waiting':
          status = T - submitted < 7 ? 'Submitted' : 'Pending';
          break;
        case 'denied':
          adjudicatedOn = adjudicated;
          resolvedOn = overturnedPaid ? overturnPaidOn : outcome === 'Written Off' ? writtenOffOn : 0;
          paid = overturnedPaid ? overturnAllowed : 0;
          contractual = overturnedPaid ? billed - overturnAllowed : 0;
          status = outcome === 'Overturned' ? (overturnedPaid ? 'Paid' : 'Denied') : outcome;
          reason = denial.code;
          remark = denial.remark;
          description = denial.description;
          break;
        default:
          adjudicatedOn = adjudicated;
          resolvedOn =
            share > 0 ? (sharePaidOn <= T && sharePaidFully && !partial ? sharePaidOn : 0) : partial ? 0 : adjudicated;
          paid = partial ? Math.round((allowed - share) * 0.6) : allowed - share;
          contractual = billed - allowed;
          patientShare = share;
          status = partial ? 'Partially Paid' : 'Paid';
          reason = share > 0 ? (shareCodes[Math.floor(u(g, 22) * shareCodes.length)] ?? 'PR-2') : 'CO-45';
      }
      patientOf[i] = patientId;
      if (paid > 0) {
        payerCents[i] = paid;
        payerDay[i] = path === 'denied' ? resolvedOn : adjudicatedOn;
      }
      if (patientShare > 0 && resolvedOn !== 0 && status === 'Paid') {
        patientCents[i] = patientShare;
        patientDay[i] = resolvedOn;
      }
      if (service !== batchDay) {
        flushBatches();
        batchDay = service;
      }
      batchByProvider.set(providerId, (batchByProvider.get(providerId) ?? 0) + 1);

      yield [
        id,
        patientId,
        providerId,
        accountOf(i + 1, service),
        procedure.code,
        payerRule.payer,
        day(service),
        path === 'draft' ? null : day(submitted),
        adjudicatedOn ? day(adjudicatedOn) : null,
        resolvedOn ? day(resolvedOn) : null,
        billed,
        paid,
        contractual,
        patientShare,
        statusWhenSettled(status, resolvedOn !== 0),
        reason,
        remark,
        description,
        path === 'draft' || clean,
        path === 'denied',
        [diagnosis],
        payerRule.payer === 'Self-Pay' ? null : plan.firstCoverageId + patientAt,
      ];
    }
    flushBatches();
    generated = true;
  }

  function* serviceLines(): Generator<CopyRow> {
    if (!generated) throw new Error('stream the claims first');
    for (let i = 0; i < n; i += 1) {
      const g = order[i] ?? 0;
      const id = plan.firstClaimId + i;
      const service = serviceOf[g] ?? 0;
      const account = accountOf(i + 1, service);
      const procedure = PROCEDURES[procedureOf[i] ?? 0];
      if (!procedure) throw new Error('empty reference data');
      const payerAt = plan.patientPayers[Math.floor(u(g, 20) * plan.patientCount)] ?? 0;
      const [first, blood] = codingOf(procedureOf[i] ?? 0, payerAt, drawsBlood[i] === 1);
      const units = first?.units ?? 1;
      yield [
        id,
        1,
        procedure.code,
        first?.modifiers ?? [],
        units,
        procedure.cents * units,
        [1],
        day(service),
        `${account}-1`,
      ];
      if (blood) {
        yield [id, 2, VENIPUNCTURE.code, blood.modifiers, 1, VENIPUNCTURE.cents, [1], day(service), `${account}-2`];
      }
    }
  }

  function* paymentLines(): Generator<CopyRow> {
    if (!generated) throw new Error('stream the claims first');
    for (let i = 0; i < n; i += 1) {
      const cents = payerCents[i] ?? 0;
      if (cents > 0) {
        const id = plan.firstClaimId + i;
        yield [patientOf[i] ?? 0, id, cents, 'payer', day(payerDay[i] ?? 0), `ERA-S${id}`];
      }
    }
    for (let i = 0; i < n; i += 1) {
      const cents = patientCents[i] ?? 0;
      if (cents > 0) {
        const id = plan.firstClaimId + i;
        yield [patientOf[i] ?? 0, id, cents, 'patient', day(patientDay[i] ?? 0), `GP-S${id}`];
      }
    }
  }

  /** One import per provider and day, one guest payment per patient payment; built one at a time, in time order. */
  function* auditEntries(): Generator<AuditInput> {
    if (!generated) throw new Error('stream the claims first');
    const payments: number[] = [];
    for (let i = 0; i < n; i += 1) if ((patientCents[i] ?? 0) > 0) payments.push(i);
    // Entry k < imports.length is an import, otherwise payment k - imports.length. Imports at 18:00 UTC
    // on the service day, a minute apart per provider; payments during the day they were made.
    const count = imports.length + payments.length;
    const at = new Float64Array(count);
    imports.forEach((b, k) => {
      at[k] = b.day * DAY_MS + 18 * 3_600_000 + (b.provider % 600) * 60_000;
    });
    payments.forEach((i, k) => {
      at[imports.length + k] =
        (patientDay[i] ?? 0) * DAY_MS + 8 * 3_600_000 + Math.floor(u(order[i] ?? 0, 23) * 12 * 3_600_000);
    });
    // Oldest first, as the chain requires (ties keep their order).
    const sorted = Uint32Array.from({ length: count }, (_, k) => k).sort(
      (x, y) => (at[x] ?? 0) - (at[y] ?? 0) || x - y,
    );
    for (const k of sorted) {
      const when = new Date(at[k] ?? 0);
      const batch = imports[k];
      if (batch) {
        yield {
          actor: plan.importer.email,
          actorUserId: plan.importer.id,
          actorRole: plan.importer.role,
          action: 'claims.import',
          resource: 'claims',
          detail: `imported ${batch.count} claims from a CSV file`,
          at: when,
        };
        continue;
      }
      const i = payments[k - imports.length] ?? 0;
      const id = plan.firstClaimId + i;
      const g = order[i] ?? 0;
      yield {
        actor: plan.payer.email,
        actorUserId: plan.payer.id,
        actorRole: plan.payer.role,
        action: 'payment.guest',
        resource: `claim/${id}`,
        detail: `guest payment of $${formatCents(patientCents[i] ?? 0)} on account ${accountOf(i + 1, serviceOf[g] ?? 0)}, receipt GP-S${id}`,
        patientId: patientOf[i] ?? null,
        at: when,
      };
    }
  }

  return { claimLines, serviceLines, paymentLines, auditEntries };
}

export const AUDIT_COLUMNS = [
  'occurred_at',
  'actor',
  'actor_user_id',
  'actor_role',
  'action',
  'resource',
  'detail',
  'patient_id',
  'prev_hash',
  'hash',
  'hash_version',
] as const;

/** COPY lines for `audit_log` (AUDIT_COLUMNS), chained on from `lastHash` exactly as recordMany chains. */
export function* chainedAuditLines(entries: Iterable<AuditInput>, lastHash: string): Generator<string> {
  let prevHash = lastHash;
  const hashVersion = currentHashVersion();
  for (const e of entries) {
    const content = {
      occurredAtMs: e.at.getTime(),
      actor: e.actor,
      actorUserId: e.actorUserId ?? null,
      actorRole: e.actorRole ?? null,
      action: e.action,
      resource: e.resource,
      detail: e.detail ?? null,
      patientId: e.patientId ?? null,
    };
    const hash = entryHash(prevHash, content, hashVersion);
    yield (
      [
        e.at.toISOString(),
        copyText(content.actor),
        copyText(content.actorUserId),
        copyText(content.actorRole),
        copyText(content.action),
        copyText(content.resource),
        copyText(content.detail),
        copyText(content.patientId),
        prevHash,
        hash,
        hashVersion,
      ].join('\t') + '\n'
    );
    prevHash = hash;
  }
}
