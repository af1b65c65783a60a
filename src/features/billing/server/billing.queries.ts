import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { formatCents, today } from '@/shared/api';
import { record, recordNow } from '@/features/audit/server/audit.queries';
import { findClaimByAccountAndDob, markPatientBalanceSettled } from '@/features/claims/server/claims.queries';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { qualified } from '@/server/db/sql-helpers';
import { HttpError } from '@/server/plugins/errors';
import {
  GUEST_STATEMENT_NOT_FOUND,
  type GuestPaymentReceipt,
  type GuestStatement,
  type PaymentSource,
} from '../billing.schema';
import { payments } from './billing.table';

/** Payments that pay down the patient's own share; payer remittances are already in claims.paid_cents. */
const PATIENT_SIDE_SOURCES = ['patient', 'guest'] as const satisfies readonly PaymentSource[];

/**
 * THE BALANCE RULE, defined here once for every screen that shows what a patient owes:
 *
 *   amount due of a claim = claims.patient_responsibility_cents
 *                           − the sum of its payments whose source is 'patient' or 'guest'
 *                           never below 0.
 *
 * patient_responsibility_cents is what the payer moved to the patient (deductible, coinsurance, copay:
 * PR-1/2/3), or for self-pay the charge less the self-pay discount. Payer payments (source 'payer') are
 * reflected in claims.paid_cents and never reduce the patient's share. An overpayment does not make the
 * balance negative (it would be a refund, not a credit on this claim).
 *
 * Returns both parts as SQL over a claim's id and responsibility columns (or values), so lists can
 * compute balances in the database.
 */
export function claimBalanceSql(claimId: AnyPgColumn | number, responsibility: AnyPgColumn | number) {
  const ref = (v: AnyPgColumn | number) => (typeof v === 'number' ? sql`${v}::int` : qualified(v));
  const patientPaid = sql<number>`(select coalesce(sum(${payments.amountCents}), 0)::int from ${payments}
    where ${payments.claimId} = ${ref(claimId)}
    and ${payments.source} in (${sql.join(
      PATIENT_SIDE_SOURCES.map((source) => sql`${source}`),
      sql`, `,
    )}))`;
  return {
    patientPaidCents: patientPaid,
    amountDueCents: sql<number>`greatest(0, ${ref(responsibility)} - ${patientPaid})::int`,
  };
}

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

function actorOf(ctx: RequestContext) {
  return { actor: ctx.user.email, actorUserId: ctx.user.id, actorRole: ctx.user.role, at: ctx.now };
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

/** Pay Bill as Guest, step 1: one claim account's statement for whoever knows its number and the dob. */
export async function lookupGuestStatement(
  db: Db,
  ctx: RequestContext,
  input: { accountNumber: string; dob: string },
): Promise<GuestStatement> {
  const statement = await db.transaction(async (tx) => {
    const claim = await findClaimByAccountAndDob(tx, input.accountNumber, input.dob);
    if (!claim) return null;
    const balance = await claimBalance(tx, claim);
    // A statement is part of the patient's record: reading it is audited like any PHI read.
    await record(tx, {
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
  });
  return statement ?? refuseLookup(db, ctx, 'guest.statement.not_found', input.accountNumber);
}

function receiptReference(): string {
  return `GP-${randomBytes(5).toString('hex').toUpperCase()}`;
}

async function insertPatientSidePayment(
  tx: Tx,
  ctx: RequestContext,
  claim: { id: number; patientId: number },
  amountCents: number,
  source: (typeof PATIENT_SIDE_SOURCES)[number],
): Promise<string> {
  const reference = receiptReference();
  await tx.insert(payments).values({
    patientId: claim.patientId,
    claimId: claim.id,
    amountCents,
    source,
    receivedOn: today(ctx.now),
    reference,
    createdBy: ctx.user.id,
  });
  return reference;
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
  const receipt = await db.transaction(async (tx) => {
    const claim = await findClaimByAccountAndDob(tx, input.accountNumber, input.dob, { forUpdate: true });
    if (!claim) return null;
    const { amountDueCents } = await claimBalance(tx, claim);
    if (input.amountCents > amountDueCents) {
      const rule =
        amountDueCents === 0
          ? 'nothing is due on this account'
          : `must be at most the amount due, $${formatCents(amountDueCents)}`;
      throw new HttpError(400, 'AMOUNT_TOO_HIGH', `amountCents: ${rule}`, {
        fields: [{ field: 'amountCents', message: rule }],
      });
    }
    const reference = await insertPatientSidePayment(tx, ctx, claim, input.amountCents, 'guest');
    const after = await claimBalance(tx, claim);
    if (after.amountDueCents === 0) await markPatientBalanceSettled(tx, claim.id, today(ctx.now));
    await record(tx, {
      ...actorOf(ctx),
      action: 'payment.guest',
      resource: `claim/${claim.id}`,
      detail: `guest payment of $${formatCents(input.amountCents)} on account ${claim.accountNumber}, receipt ${reference}`,
      patientId: claim.patientId,
    });
    return { receiptReference: reference, amountPaidCents: input.amountCents, amountDueCents: after.amountDueCents };
  });
  return receipt ?? refuseLookup(db, ctx, 'guest.payment.not_found', input.accountNumber);
}
