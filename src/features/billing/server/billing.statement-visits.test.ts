import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statementVisitsOf, type StatementClaimFigures } from './billing.statement-visits';

/** A claim's statement figures: a 200.00 office visit with nothing paid or adjusted yet, unless said otherwise. */
function claim(id: number, figures: Partial<StatementClaimFigures> = {}): StatementClaimFigures {
  return {
    id,
    accountNumber: `ACC-2026-${id}`,
    serviceDate: '2026-11-12',
    procedure: '99214',
    provider: 'Dr. Ana Ruiz',
    status: 'Submitted',
    primaryClaimId: null,
    priorPayersCents: 0,
    billedCents: 20000,
    insurancePaidCents: 0,
    contractualAdjustmentCents: 0,
    otherAdjustmentCents: 0,
    insurancePendingCents: 20000,
    patientPaidCents: 0,
    amountDueCents: 0,
    deductibleCents: 0,
    coinsuranceCents: 0,
    copayCents: 0,
    ...figures,
  };
}

/** Every billed dollar of a row in exactly one column (docs/statements.md). */
const columnsOf = (row: StatementClaimFigures) =>
  row.insurancePaidCents +
  row.contractualAdjustmentCents +
  row.otherAdjustmentCents +
  row.insurancePendingCents +
  row.patientPaidCents +
  row.amountDueCents;

/**
 * The first payer allowed 172.00 of the 200.00 charge (CO-45 28.00) and paid 144.00; the coinsurance, 28.00, was
 * billed to the patient's next policy, so it is insurance pending on this claim, not due (the balance rule).
 */
const FIRST = claim(1, {
  status: 'Partially Paid',
  insurancePaidCents: 14400,
  contractualAdjustmentCents: 2800,
  insurancePendingCents: 2800,
  coinsuranceCents: 2800,
});
/** The claim of the next policy: the whole charge, of which the first payer settled 172.00. */
const SECOND = claim(2, { accountNumber: 'ACC-2026-M2', primaryClaimId: 1, priorPayersCents: 17200 });

describe('statement rows, one per visit', () => {
  it('leaves a claim billed to one policy as it is', () => {
    const alone = claim(7, { status: 'Paid', insurancePaidCents: 15000, contractualAdjustmentCents: 5000 });
    expect(statementVisitsOf([alone])).toEqual([alone]);
  });

  it('shows a visit billed to its next policy once: the charge, and the coinsurance pending with that payer', () => {
    const [visit, ...rest] = statementVisitsOf([SECOND, FIRST]);
    expect(rest).toEqual([]);
    expect(visit).toMatchObject({
      id: 1,
      accountNumber: 'ACC-2026-1',
      status: 'Submitted',
      billedCents: 20000,
      insurancePaidCents: 14400,
      contractualAdjustmentCents: 2800,
      otherAdjustmentCents: 0,
      insurancePendingCents: 2800,
      patientPaidCents: 0,
      amountDueCents: 0,
    });
    expect(columnsOf(visit!)).toBe(visit!.billedCents);
  });

  it("adds the next payer's payment and its own adjustments, not the first payer's part it reports as CARC 23", () => {
    // The next payer allowed the coinsurance less 3.00 (CO-45), paid 20.00 and left 5.00 to the patient, of which
    // the patient paid 2.00; its contractual adjustment holds the first payer's 172.00 (CARC 23) and its 3.00.
    const answered = claim(2, {
      ...SECOND,
      status: 'Paid',
      insurancePaidCents: 2000,
      contractualAdjustmentCents: 17500,
      insurancePendingCents: 0,
      patientPaidCents: 200,
      amountDueCents: 300,
      coinsuranceCents: 500,
    });
    const [visit] = statementVisitsOf([answered, FIRST]);
    expect(visit).toMatchObject({
      status: 'Paid',
      billedCents: 20000,
      insurancePaidCents: 16400,
      contractualAdjustmentCents: 3100,
      otherAdjustmentCents: 0,
      insurancePendingCents: 0,
      patientPaidCents: 200,
      amountDueCents: 300,
      // The patient's share is the last payer's decision.
      coinsuranceCents: 500,
    });
    expect(columnsOf(visit!)).toBe(20000);
  });

  it('folds a third policy in too, and keeps the other visits where they were', () => {
    const other = claim(5, { serviceDate: '2026-11-20' });
    const answered = claim(2, {
      ...SECOND,
      status: 'Partially Paid',
      insurancePaidCents: 2000,
      contractualAdjustmentCents: 17200,
      insurancePendingCents: 800,
      coinsuranceCents: 800,
    });
    const third = claim(3, { accountNumber: 'ACC-2026-M3', primaryClaimId: 2, priorPayersCents: 19200 });
    const rows = statementVisitsOf([other, third, answered, FIRST]);
    expect(rows.map((r) => r.id)).toEqual([5, 1]);
    expect(rows[1]).toMatchObject({ status: 'Submitted', insurancePaidCents: 16400, insurancePendingCents: 800 });
    expect(columnsOf(rows[1]!)).toBe(20000);
  });

  it('lists a claim on its own when the claim it was billed after is not on the statement', () => {
    expect(statementVisitsOf([SECOND]).map((r) => r.id)).toEqual([2]);
  });

  it('keeps every row adding up and the charge counted once, down any chain of payers (property)', () => {
    // Each payer pays part of what the earlier ones left and adjusts part of the rest; the rest goes on to the next
    // policy, or to the patient after the last one, who pays part of it.
    const step = fc.record({ paid: fc.nat(100), adjusted: fc.nat(100) });
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 500_000 }),
        fc.array(step, { minLength: 1, maxLength: 4 }),
        fc.nat(100),
        (charge, steps, patientPart) => {
          let left = charge;
          const chain: StatementClaimFigures[] = steps.map((s, i) => {
            const paid = Math.floor((left * s.paid) / 100);
            const adjusted = Math.floor(((left - paid) * s.adjusted) / 100);
            const prior = charge - left;
            const isLast = i === steps.length - 1;
            const remains = left - paid - adjusted;
            const patientPaid = isLast ? Math.floor((remains * patientPart) / 100) : 0;
            left = remains;
            return claim(i + 1, {
              status: isLast ? 'Paid' : 'Partially Paid',
              primaryClaimId: i === 0 ? null : i,
              priorPayersCents: prior,
              billedCents: charge,
              insurancePaidCents: paid,
              // A later payer reports what the earlier ones settled as CARC 23, with its own adjustment.
              contractualAdjustmentCents: adjusted + prior,
              insurancePendingCents: isLast ? 0 : remains,
              patientPaidCents: patientPaid,
              amountDueCents: isLast ? remains - patientPaid : 0,
            });
          });
          const rows = statementVisitsOf([...chain].reverse());
          expect(rows).toHaveLength(1);
          expect(rows[0]!.billedCents).toBe(charge);
          expect(columnsOf(rows[0]!)).toBe(charge);
          expect(rows[0]!.insurancePendingCents).toBe(0);
          expect(rows[0]!.amountDueCents + rows[0]!.patientPaidCents).toBe(left);
        },
      ),
    );
  });
});
