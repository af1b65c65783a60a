import { randomBytes } from 'node:crypto';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { formatDollars, today } from '@/shared/api';
import { periodEndingToday, previousPeriod } from '@/shared/period';
import { countOf } from '@/shared/plural';
import { actorOf, record, recordNow } from '@/features/audit/server/audit.queries';
import {
  claimBalanceSql,
  claimStatementSql,
  denialRateSql,
  PATIENT_SIDE_SOURCES,
  PATIENT_SIDE_SOURCES_SQL,
} from '@/features/claims/server/claims.formulas';
import { procedureDescription } from '@/features/claims/claims.procedures';
import { remittanceLedger } from '@/features/remittances/server/remittances.table';
import { practiceLetterheadSql } from '@/features/settings/server/settings.queries';
import { DEFAULT_PRACTICE_LETTERHEAD, type PracticeLetterhead } from '@/features/settings/practice.schema';
import { findClaimByAccountAndDob, markPatientBalanceSettled } from '@/features/claims/server/claims.portal.queries';
import { deniedClaimSql, notVoidedSql } from '@/features/claims/server/claims.summary.queries';
import { claims, payments } from '@/features/claims/server/claims.table';
import { claimStatusSchema } from '@/features/claims/claims.schema';
import { listPatientNames } from '@/features/patients/server/patients.queries';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { executePrepared } from '@/server/db/prepared';
import { HttpError, RATE_LIMITED_MESSAGE } from '@/server/plugins/errors';
import {
  BILLING_PATIENT_SEARCH_LIMIT,
  BILLING_TOP_LIMIT,
  GUEST_LOOKUP_FAILURES_PER_HOUR,
  GUEST_STATEMENT_NOT_FOUND,
  STAFF_STATEMENT_CLAIM_LIMIT,
  STATEMENT_AMOUNT_KEYS,
  patientAccountNumber,
  paymentAmountUpTo,
  type BillingPatient,
  type GuestPaymentReceipt,
  type GuestStatement,
  type PatientPaymentReceipt,
  type PayerPerformance,
  type Statement,
  type StatementAmounts,
  type StatementClaim,
  type StatementPayment,
} from '../billing.schema';
import { billingPayerDaily } from './billing.rollup.table';
import { guestLookupFailures } from './billing.table';
import { statementVisitsOf, type StatementClaimFigures } from './billing.statement-visits';

export async function claimBalance(
  db: DbOrTx,
  claim: { id: number; patientResponsibilityCents: number },
): Promise<{ patientPaidCents: number; amountDueCents: number }> {
  const balance = claimBalanceSql(claim.id, claim.patientResponsibilityCents);
  const result = await db.execute<{ patient_paid_cents: number; amount_due_cents: number }>(
    sql`select ${balance.patientPaidCents} as patient_paid_cents, ${balance.amountDueCents} as amount_due_cents`,
  );
  const row = result.rows[0];
  return { patientPaidCents: row?.patient_paid_cents ?? 0, amountDueCents: row?.amount_due_cents ?? 0 };
}

/** A failed guest lookup is audited without the date of birth, then answered like every other miss. */
async function refuseLookup(db: Db, ctx: RequestContext, action: string, accountNumber: string): Promise<never> {
  await recordNow(db, {
    ...actorOf(ctx),
    action,
    resource: 'guest-statement',
    detail: `no match for account ${accountNumber.slice(0, 40)}`,
  });
  throw new HttpError(404, 'NOT_FOUND', GUEST_STATEMENT_NOT_FOUND);
}

const LOOKUP_WINDOW_MS = 3_600_000;

/**
 * Takes one of an account number's GUEST_LOOKUP_FAILURES_PER_HOUR lookups before the lookup is made, in
 * one statement, so servers and requests racing on one account cannot make more guesses than that between
 * them; a lookup that matches gives it back (returnLookup). Past the limit the account is locked for
 * lookups until its window (an hour from its first failure) ends: refused without looking, so the answer
 * (the 429 of every rate limit) is the same whether the date of birth was right, and audited. A payment's lookup counts the same.
 */
async function takeLookup(db: Db, ctx: RequestContext, accountNumber: string): Promise<void> {
  const now = ctx.now.toISOString();
  const expired = new Date(ctx.now.getTime() - LOOKUP_WINDOW_MS).toISOString();
  const f = guestLookupFailures;
  const [row] = await db
    .insert(f)
    .values({ accountNumber, windowStartedAt: now, failures: 1 })
    .onConflictDoUpdate({
      target: f.accountNumber,
      set: {
        windowStartedAt: sql`case when ${f.windowStartedAt} <= ${expired}::timestamptz then ${now}::timestamptz else ${f.windowStartedAt} end`,
        // Capped: refused attempts keep the lock, they need not count on forever.
        failures: sql`case when ${f.windowStartedAt} <= ${expired}::timestamptz then 1 else least(${f.failures} + 1, ${GUEST_LOOKUP_FAILURES_PER_HOUR + 1}) end`,
      },
    })
    .returning({ failures: f.failures, windowStartedAt: f.windowStartedAt });
  if (!row || row.failures <= GUEST_LOOKUP_FAILURES_PER_HOUR) return;
  const until = new Date(new Date(row.windowStartedAt).getTime() + LOOKUP_WINDOW_MS);
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'guest.lookup.locked_out',
    resource: 'guest-statement',
    detail: `account ${accountNumber} locked for guest lookups until ${until.toISOString()} (${GUEST_LOOKUP_FAILURES_PER_HOUR} failed lookups)`,
  });
  throw new HttpError(429, 'RATE_LIMITED', RATE_LIMITED_MESSAGE, {
    retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - ctx.now.getTime()) / 1000)),
  });
}

/** A lookup that matched was no failure: it gives back the one takeLookup took. */
async function returnLookup(db: Db, accountNumber: string): Promise<void> {
  const f = guestLookupFailures;
  await db
    .update(f)
    .set({ failures: sql`greatest(${f.failures} - 1, 0)` })
    .where(eq(f.accountNumber, accountNumber));
}

/** The failed lookup that used up an account's last one is audited as the lock it starts. */
async function refuseFailedLookup(db: Db, ctx: RequestContext, action: string, accountNumber: string): Promise<never> {
  const [row] = await db
    .select({ failures: guestLookupFailures.failures })
    .from(guestLookupFailures)
    .where(eq(guestLookupFailures.accountNumber, accountNumber));
  if (row?.failures === GUEST_LOOKUP_FAILURES_PER_HOUR) {
    await recordNow(db, {
      ...actorOf(ctx),
      action: 'guest.lookup.locked',
      resource: 'guest-statement',
      detail: `account ${accountNumber} locked for guest lookups for the rest of the hour after ${GUEST_LOOKUP_FAILURES_PER_HOUR} failed lookups`,
    });
  }
  return refuseLookup(db, ctx, action, accountNumber);
}

/** Pay Bill as Guest, step 1: one claim account's statement for whoever knows its number and the dob. */
export async function lookupGuestStatement(
  db: Db,
  ctx: RequestContext,
  input: { accountNumber: string; dob: string },
): Promise<GuestStatement> {
  await takeLookup(db, ctx, input.accountNumber);
  const claim = await findClaimByAccountAndDob(db, input.accountNumber, input.dob);
  if (!claim) return refuseFailedLookup(db, ctx, 'guest.statement.not_found', input.accountNumber);
  await returnLookup(db, input.accountNumber);
  const balance = await claimBalance(db, claim);
  // A statement is part of the patient's record: reading it is audited like any PHI read (after the read,
  // before the answer, in one statement).
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'guest.statement.view',
    resource: `claim/${claim.id}`,
    detail: `guest statement for account ${claim.accountNumber}`,
    patientId: claim.patientId,
  });
  return {
    accountNumber: claim.accountNumber,
    serviceDate: claim.serviceDate,
    procedureCode: claim.procedureCode,
    billedCents: claim.billedCents,
    insurancePaidCents: claim.paidCents,
    adjustmentsCents: claim.contractualAdjustmentCents,
    patientResponsibilityCents: claim.patientResponsibilityCents,
    ...balance,
  };
}

/** A receipt reference: GP- for guest payments, PP- for payments in the patient portal. */
function receiptReference(prefix: 'GP' | 'PP'): string {
  return `${prefix}-${randomBytes(5).toString('hex').toUpperCase()}`;
}

async function insertPatientSidePayment(
  tx: Tx,
  ctx: RequestContext,
  claim: { id: number; patientId: number },
  amountCents: number,
  source: (typeof PATIENT_SIDE_SOURCES)[number],
  reference: string,
): Promise<void> {
  await tx.insert(payments).values({
    patientId: claim.patientId,
    claimId: claim.id,
    amountCents,
    source,
    receivedOn: today(ctx.now),
    reference,
    createdBy: ctx.user.id,
  });
}

/**
 * Pay Bill as Guest, step 2: re-verifies the account and dob, then records the payment against the claim
 * (source 'guest') with its audit entry in one transaction. The claim row is locked, so two payments at
 * once cannot both pass the "at most the amount due" check.
 */
export async function payAsGuest(
  db: Db,
  ctx: RequestContext,
  input: { accountNumber: string; dob: string; amountCents: number },
): Promise<GuestPaymentReceipt> {
  // A payment names an account and a date of birth too: its lookup counts like a statement's.
  await takeLookup(db, ctx, input.accountNumber);
  let matched = false;
  const receipt = await db
    .transaction(async (tx) => {
      const claim = await findClaimByAccountAndDob(tx, input.accountNumber, input.dob, { forUpdate: true });
      if (!claim) return null;
      matched = true;
      const { amountDueCents } = await claimBalance(tx, claim);
      if (input.amountCents > amountDueCents) {
        const rule =
          amountDueCents === 0
            ? 'nothing is due on this account'
            : `must be at most the amount due, ${formatDollars(amountDueCents)}`;
        throw new HttpError(400, 'AMOUNT_TOO_HIGH', `amountCents: ${rule}`, {
          fields: [{ field: 'amountCents', message: rule }],
        });
      }
      const reference = receiptReference('GP');
      await insertPatientSidePayment(tx, ctx, claim, input.amountCents, 'guest', reference);
      const after = await claimBalance(tx, claim);
      if (after.amountDueCents === 0) await markPatientBalanceSettled(tx, claim.id, today(ctx.now));
      await record(tx, {
        ...actorOf(ctx),
        action: 'payment.guest',
        resource: `claim/${claim.id}`,
        detail: `guest payment of ${formatDollars(input.amountCents)} on account ${claim.accountNumber}, receipt ${reference}`,
        patientId: claim.patientId,
      });
      return { receiptReference: reference, amountPaidCents: input.amountCents, amountDueCents: after.amountDueCents };
    })
    .finally(async () => {
      // Given back even when the amount is refused: the account and date of birth did match.
      if (matched) await returnLookup(db, input.accountNumber);
    });
  return receipt ?? refuseFailedLookup(db, ctx, 'guest.payment.not_found', input.accountNumber);
}

// ---------------------------------------------------------------------------------------------
// Statements (staff and patient), the patient's own payments, and payer performance.

/**
 * A claim's posted patient responsibility of one CARC (PR-1 deductible, PR-2 coinsurance, PR-3 copay). The
 * code is written into the text (one of three constants): bound, it would leave the prepared statement's
 * generic plan guessing at its share of the ledger.
 */
function patientShareSql(carc: '1' | '2' | '3') {
  return sql<number>`(select coalesce(sum(${remittanceLedger.amountCents}), 0)::int from ${remittanceLedger}
    where ${remittanceLedger.claimId} = ${claims.id} and ${remittanceLedger.groupCode} = 'PR'
      and ${remittanceLedger.reasonCode} = ${sql.raw(`'${carc}'`)} and ${remittanceLedger.bucket} = 'patient')`;
}

interface StatementPaymentRow {
  id: number;
  receivedOn: string;
  receiptNumber: string;
  accountNumber: string | null;
  source: string;
  amountCents: number;
}

/** Every claim of a patient (newest service date first, by the caller), each with where its billed dollars are. */
function statementClaimsSql(patientId: number): SQL {
  const balance = claimBalanceSql(claims.id, claims.patientResponsibilityCents);
  const breakdown = claimStatementSql(claims);
  return sql`select ${claims.id} as id, ${claims.accountNumber} as "accountNumber",
      ${claims.serviceDate}::text as "serviceDate", ${claims.procedureCode} as procedure, ${providers.name} as provider,
      ${claims.status} as status, ${claims.billedCents} as "billedCents", ${claims.paidCents} as "insurancePaidCents",
      ${claims.contractualAdjustmentCents} as "contractualAdjustmentCents",
      ${breakdown.otherAdjustmentCents} as "otherAdjustmentCents",
      ${breakdown.insurancePendingCents} as "insurancePendingCents", ${balance.patientPaidCents} as "patientPaidCents",
      ${balance.amountDueCents} as "amountDueCents", ${patientShareSql('1')} as "deductibleCents",
      ${patientShareSql('2')} as "coinsuranceCents", ${patientShareSql('3')} as "copayCents",
      ${claims.primaryClaimId} as "primaryClaimId", ${claims.priorPayersCents} as "priorPayersCents"
    from ${claims}
    join ${providers} on ${providers.id} = ${claims.providerId}
    where ${claims.patientId} = ${patientId} and ${notVoidedSql}`;
}

/** The patient's own payments (by them or a guest for them), each with its receipt number. */
function statementPaymentsSql(patientId: number): SQL {
  // A payment taken at the desk has no reference: its receipt number is its own number.
  return sql`select ${payments.id} as id, ${payments.receivedOn}::text as "receivedOn",
      coalesce(nullif(${payments.reference}, ''), 'R-' || lpad(${payments.id}::text, 6, '0')) as "receiptNumber",
      ${claims.accountNumber} as "accountNumber", ${payments.source} as source, ${payments.amountCents} as "amountCents"
    from ${payments}
    left join ${claims} on ${claims.id} = ${payments.claimId}
    where ${payments.patientId} = ${patientId} and ${payments.source} in (${PATIENT_SIDE_SOURCES_SQL})`;
}

/**
 * A statement's patient, claims and payments and the practice's letterhead, read by ONE statement: one
 * snapshot without a transaction, so a payment landing meanwhile cannot make the lines disagree with the
 * totals, in one round trip where a REPEATABLE READ transaction took seven (docs/performance.md). Named, since
 * every statement view and portal visit runs it (docs/performance.md, "Planning the hot reads once").
 */
async function readStatement(db: DbOrTx, patientId: number) {
  const { rows } = await executePrepared<{
    patient: { id: number; name: string } | null;
    claims: StatementClaimFigures[];
    payments: StatementPaymentRow[];
    practice: PracticeLetterhead | null;
  }>(
    db,
    sql`select
      (select json_build_object('id', ${patients.id}, 'name', ${patients.name}) from ${patients}
        where ${patients.id} = ${patientId}) as patient,
      (select coalesce(json_agg(c order by c."serviceDate" desc, c.id desc), '[]')
        from (${statementClaimsSql(patientId)}) c) as claims,
      (select coalesce(json_agg(p order by p."receivedOn" desc, p.id desc), '[]')
        from (${statementPaymentsSql(patientId)}) p) as payments,
      ${practiceLetterheadSql()} as practice`,
  );
  const row = rows[0];
  if (!row?.patient) return null;
  // Each field named rather than a rest and a spread of the row, which V8 copies through a slow generic path
  // (docs/performance.md, "Answers built field by field").
  // A visit billed to two policies is one row (billing.statement-visits.ts).
  const claimLines: StatementClaim[] = statementVisitsOf(row.claims).map((c) => ({
    id: c.id,
    accountNumber: c.accountNumber,
    serviceDate: c.serviceDate,
    procedure: c.procedure,
    procedureDescription: procedureDescription(c.procedure),
    provider: c.provider,
    status: claimStatusSchema.parse(c.status),
    billedCents: c.billedCents,
    insurancePaidCents: c.insurancePaidCents,
    contractualAdjustmentCents: c.contractualAdjustmentCents,
    otherAdjustmentCents: c.otherAdjustmentCents,
    insurancePendingCents: c.insurancePendingCents,
    patientPaidCents: c.patientPaidCents,
    amountDueCents: c.amountDueCents,
    paidCents: c.insurancePaidCents + c.patientPaidCents,
    patientShare: {
      deductibleCents: c.deductibleCents,
      coinsuranceCents: c.coinsuranceCents,
      copayCents: c.copayCents,
    },
  }));
  const paymentLines: StatementPayment[] = row.payments.map((p) => ({
    id: p.id,
    receivedOn: p.receivedOn,
    receiptNumber: p.receiptNumber,
    accountNumber: p.accountNumber,
    source: p.source === 'guest' ? 'guest' : 'patient',
    amountCents: p.amountCents,
  }));
  return {
    patient: row.patient,
    claims: claimLines,
    payments: paymentLines,
    practice: row.practice ?? DEFAULT_PRACTICE_LETTERHEAD,
  };
}

function sumAmounts(lines: readonly StatementAmounts[]): StatementAmounts {
  const total = Object.fromEntries(STATEMENT_AMOUNT_KEYS.map((key) => [key, 0])) as StatementAmounts;
  for (const line of lines) for (const key of STATEMENT_AMOUNT_KEYS) total[key] += line[key];
  return total;
}

/**
 * The statement of one patient as of `ctx.now`, or null when there is no such patient. `listed` picks the
 * claims shown line by line; the rest are summed in otherClaims, so the lines add up to the totals.
 */
async function buildStatement(
  db: DbOrTx,
  ctx: RequestContext,
  patientId: number,
  listed: 'all' | 'recent-and-owing',
): Promise<Statement | null> {
  const read = await readStatement(db, patientId);
  if (!read) return null;
  const { patient, claims: all } = read;
  const shown =
    listed === 'all'
      ? all
      : all.filter((claim, index) => index < STAFF_STATEMENT_CLAIM_LIMIT || claim.amountDueCents > 0);
  const shownIds = new Set(shown.map((claim) => claim.id));
  const others = all.filter((claim) => !shownIds.has(claim.id));
  const totals = sumAmounts(all);
  return {
    practice: read.practice,
    patientId: patient.id,
    accountNumber: patientAccountNumber(patient.id),
    patientName: patient.name,
    statementDate: today(ctx.now),
    claimCount: all.length,
    ...totals,
    totalBilledCents: totals.billedCents,
    payerPaidCents: totals.insurancePaidCents,
    totalPaidCents: totals.insurancePaidCents + totals.patientPaidCents,
    claims: shown,
    otherClaims: { claimCount: others.length, ...sumAmounts(others) },
    payments: read.payments,
  };
}

/** After the read, before the answer, in one statement (no transaction holds the audit chain's lock). */
async function auditStatement(db: Db, ctx: RequestContext, statement: Statement, action: string, what: string) {
  await recordNow(db, {
    ...actorOf(ctx),
    action,
    resource: `patient/${statement.patientId}/statement`,
    // Its rows are visits: a visit billed to two policies is one row (statementVisitsOf), not two claims.
    detail: `${what} (${countOf(statement.claimCount, 'visit')}, amount due ${formatDollars(statement.amountDueCents)})`,
    patientId: statement.patientId,
  });
}

/** The statement generator's picker: name, date of birth and MRN (masked for the role), at most 20. */
export async function searchStatementPatients(db: Db, ctx: RequestContext, search: string): Promise<BillingPatient[]> {
  return listPatientNames(db, ctx, search, BILLING_PATIENT_SEARCH_LIMIT, '/api/billing/patients');
}

const STATEMENT_NOT_FOUND = 'No patient has that id.';

/**
 * A staff member's statement of one patient (the 3 most recent claims and every other with an amount due,
 * totals over all). Reading it is a PHI
 * read of that patient; exporting it is audited as an export. Both are recorded with the read.
 */
export async function getStaffStatement(
  db: Db,
  ctx: RequestContext,
  patientId: number,
  purpose: 'view' | 'export',
): Promise<Statement> {
  // The export carries every claim, so its lines add up to the totals.
  const statement = await buildStatement(db, ctx, patientId, purpose === 'view' ? 'recent-and-owing' : 'all');
  if (!statement) throw new HttpError(404, 'NOT_FOUND', STATEMENT_NOT_FOUND);
  await (purpose === 'view'
    ? auditStatement(db, ctx, statement, 'statement.view', 'viewed the billing statement')
    : auditStatement(db, ctx, statement, 'statement.export', 'exported the billing statement as CSV'));
  return statement;
}

/** The session's linked patient; a patient user without a record has no statement. */
function ownPatientId(ctx: RequestContext): number {
  if (ctx.user.patientId === null)
    throw new HttpError(404, 'NOT_FOUND', 'No patient record is linked to this account.');
  return ctx.user.patientId;
}

/**
 * The signed-in patient's own statement with all their claims (the patient comes from the
 * session only, docs/access.md). Audited as a read (or an export) of their own record.
 */
export async function getOwnStatement(db: Db, ctx: RequestContext, purpose: 'view' | 'export'): Promise<Statement> {
  const patientId = ownPatientId(ctx);
  const statement = await buildStatement(db, ctx, patientId, 'all');
  if (!statement) throw new HttpError(404, 'NOT_FOUND', 'No patient record is linked to this account.');
  await (purpose === 'view'
    ? auditStatement(db, ctx, statement, 'statement.view', 'viewed own billing statement in the patient portal')
    : auditStatement(db, ctx, statement, 'statement.export', 'downloaded own billing statement as CSV'));
  return statement;
}

/**
 * 'Pay Balance': the signed-in patient pays part or all of their balance. The amount is
 * spread over the claims with something due, oldest service date first, as payments with source 'patient'
 * sharing one receipt reference; a claim whose amount due reaches 0 is settled. All of it and its audit
 * entry happen in one transaction. The patient's claim rows are locked first, so two payments at once
 * cannot both pass the "at most the balance" check.
 */
export async function payOwnBalance(db: Db, ctx: RequestContext, amountCents: number): Promise<PatientPaymentReceipt> {
  const patientId = ownPatientId(ctx);
  return db.transaction(async (tx) => {
    await tx
      .select({ id: claims.id })
      .from(claims)
      .where(eq(claims.patientId, patientId))
      .orderBy(asc(claims.id))
      .for('update');
    // A new statement after the lock, so balances include any payment that committed while we waited.
    const balance = claimBalanceSql(claims.id, claims.patientResponsibilityCents);
    const owed = (
      await tx
        .select({ id: claims.id, accountNumber: claims.accountNumber, amountDueCents: balance.amountDueCents })
        .from(claims)
        .where(and(eq(claims.patientId, patientId), notVoidedSql))
        .orderBy(asc(claims.serviceDate), asc(claims.id))
    ).filter((claim) => claim.amountDueCents > 0);
    const balanceCents = owed.reduce((sum, claim) => sum + claim.amountDueCents, 0);
    const check = paymentAmountUpTo(balanceCents).safeParse(amountCents);
    if (!check.success) {
      const rule = check.error.issues[0]?.message ?? 'is invalid';
      throw new HttpError(400, 'AMOUNT_TOO_HIGH', `amountCents: ${rule}`, {
        fields: [{ field: 'amountCents', message: rule }],
      });
    }
    const reference = receiptReference('PP');
    const day = today(ctx.now);
    const paidTo: string[] = [];
    let remaining = amountCents;
    for (const claim of owed) {
      if (remaining === 0) break;
      const part = Math.min(remaining, claim.amountDueCents);
      await insertPatientSidePayment(tx, ctx, { id: claim.id, patientId }, part, 'patient', reference);
      if (part === claim.amountDueCents) await markPatientBalanceSettled(tx, claim.id, day);
      paidTo.push(`${claim.accountNumber} ${formatDollars(part)}`);
      remaining -= part;
    }
    await record(tx, {
      ...actorOf(ctx),
      action: 'payment.patient',
      resource: `patient/${patientId}/statement`,
      detail: `paid ${formatDollars(amountCents)} in the patient portal, receipt ${reference}: ${paidTo.join(', ')}`,
      patientId,
    });
    const statement = await buildStatement(tx, ctx, patientId, 'all');
    if (!statement) throw new HttpError(404, 'NOT_FOUND', 'No patient record is linked to this account.');
    return { ...statement, receiptReference: reference };
  });
}

/**
 * Denial rate of a period over every payer, claims adjudicated in it (adjudicated_on within it); null when
 * nothing was adjudicated.
 */
async function denialRate(db: Db, period: { start: string; end: string }): Promise<number | null> {
  const [row] = await db
    .select({
      rate: denialRateSql(sql`count(*) filter (where ${deniedClaimSql})`, sql`count(*)`),
    })
    .from(claims)
    .where(sql`${claims.adjudicatedOn} between ${period.start} and ${period.end} and ${notVoidedSql}`);
  return row?.rate ?? null;
}

/**
 * Payer Performance: the 5 payers that paid the most in the period (payer payments received in it), each
 * with its denial rate over the claims it adjudicated in the period; and the overall denial rate of this
 * period against the one before. Self-Pay is the patient, not a payer, so it is not ranked. Computed by
 * the database from the raw tables: the reference getPayerPerformance (from the rollup) is tested against.
 */
export async function getPayerPerformanceRaw(
  db: Db,
  ctx: RequestContext,
  periodDays: number,
): Promise<PayerPerformance> {
  const current = periodEndingToday(ctx.now, periodDays);
  const previous = previousPeriod(current);
  const ranked = await db.execute<{
    payer: string;
    collections_cents: string;
    adjudicated_claims: number;
    denied_claims: number;
    denial_rate: number | null;
  }>(sql`
    with adjudicated as (
      select ${claims.payer} as payer, count(*)::int as adjudicated_claims,
        (count(*) filter (where ${deniedClaimSql}))::int as denied_claims
      from ${claims}
      where ${claims.adjudicatedOn} between ${current.start} and ${current.end} and ${notVoidedSql}
      group by ${claims.payer}
    ), collected as (
      select ${claims.payer} as payer, sum(${payments.amountCents})::bigint as collections_cents
      from ${payments} join ${claims} on ${claims.id} = ${payments.claimId}
      where ${payments.source} = 'payer' and ${payments.receivedOn} between ${current.start} and ${current.end}
      group by ${claims.payer}
    )
    select coalesce(c.payer, a.payer) as payer, coalesce(c.collections_cents, 0)::bigint as collections_cents,
      coalesce(a.adjudicated_claims, 0)::int as adjudicated_claims, coalesce(a.denied_claims, 0)::int as denied_claims,
      ${denialRateSql(sql`a.denied_claims`, sql`a.adjudicated_claims`)} as denial_rate
    from collected c full join adjudicated a on a.payer = c.payer
    where coalesce(c.payer, a.payer) <> 'Self-Pay'
    order by collections_cents desc, payer asc
    limit ${BILLING_TOP_LIMIT}`);
  const [currentRate, previousRate] = [await denialRate(db, current), await denialRate(db, previous)];
  return {
    periodDays,
    periodStart: current.start,
    periodEnd: current.end,
    payers: ranked.rows.map((row) => ({
      payer: row.payer,
      collectionsCents: Number(row.collections_cents),
      adjudicatedClaims: row.adjudicated_claims,
      deniedClaims: row.denied_claims,
      denialRate: row.denial_rate,
    })),
    denialTrend: {
      currentRate,
      previousRate,
      previousPeriodStart: previous.start,
      previousPeriodEnd: previous.end,
    },
  };
}

interface RankedPayer {
  payer: string;
  collectionsCents: number | string;
  adjudicatedClaims: number;
  deniedClaims: number;
  denialRate: number | null;
}

/**
 * Payer Performance from the per-day × payer rollup (billing.rollup.table.ts, kept exact in the same
 * transaction as every claim and payment write), in one statement; equals getPayerPerformanceRaw: the same
 * sums over the period's days, the same ranking, formula and rounding.
 */
export async function getPayerPerformance(db: Db, ctx: RequestContext, periodDays: number): Promise<PayerPerformance> {
  const current = periodEndingToday(ctx.now, periodDays);
  const previous = previousPeriod(current);
  const r = billingPayerDaily;
  const rateOf = (period: { start: string; end: string }) => sql`(
    select ${denialRateSql(sql`sum(${r.deniedClaims})`, sql`sum(${r.adjudicatedClaims})`)} from ${r}
    where ${r.day} between ${period.start} and ${period.end})`;
  const result = await db.execute<{
    payers: RankedPayer[] | null;
    current_rate: number | null;
    previous_rate: number | null;
  }>(sql`
    with ranked as (
      select ${r.payer} as payer, sum(${r.payerCollectionsCents})::bigint as collections_cents,
        sum(${r.adjudicatedClaims})::int as adjudicated_claims, sum(${r.deniedClaims})::int as denied_claims,
        ${denialRateSql(sql`sum(${r.deniedClaims})`, sql`sum(${r.adjudicatedClaims})`)} as denial_rate
      from ${r}
      where ${r.day} between ${current.start} and ${current.end} and ${r.payer} <> 'Self-Pay'
      group by ${r.payer}
      -- A payer is ranked when it adjudicated a claim or was paid in the period, as in the raw full join.
      having sum(${r.adjudicatedClaims}) > 0 or sum(${r.payerCollectionsCents}) <> 0
      order by collections_cents desc, payer asc
      limit ${BILLING_TOP_LIMIT}
    )
    select (select json_agg(json_build_object('payer', payer, 'collectionsCents', collections_cents,
        'adjudicatedClaims', adjudicated_claims, 'deniedClaims', denied_claims, 'denialRate', denial_rate)
        order by collections_cents desc, payer asc) from ranked) as payers,
      ${rateOf(current)} as current_rate, ${rateOf(previous)} as previous_rate`);
  const row = result.rows[0];
  return {
    periodDays,
    periodStart: current.start,
    periodEnd: current.end,
    payers: (row?.payers ?? []).map((p) => ({ ...p, collectionsCents: Number(p.collectionsCents) })),
    denialTrend: {
      currentRate: row?.current_rate ?? null,
      previousRate: row?.previous_rate ?? null,
      previousPeriodStart: previous.start,
      previousPeriodEnd: previous.end,
    },
  };
}
