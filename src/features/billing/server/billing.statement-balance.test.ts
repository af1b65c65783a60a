import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORED_VISITS_SQL, type StoredVisit } from '@/testing/stored-visits';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import {
  STAFF_STATEMENT_CLAIM_LIMIT,
  STATEMENT_AMOUNT_KEYS,
  type Statement,
  type StatementAmounts,
} from '../billing.schema';

/**
 * A statement balances: per claim and in total, billed = insurance paid + contractual adjustment + other
 * adjustment + insurance pending + patient paid + amount due, each part never negative, over the seeded
 * data. Checked against the stored facts read here independently of the server.
 */
let t: TestApp;
let staff: SignedIn;
let patient: SignedIn;

async function sql<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T>(text, values)).rows;
}

const sum = (lines: readonly StatementAmounts[], key: keyof StatementAmounts) =>
  lines.reduce((total, line) => total + line[key], 0);

function expectBalanced(amounts: StatementAmounts, what: string) {
  for (const key of STATEMENT_AMOUNT_KEYS) expect(amounts[key], `${what} ${key}`).toBeGreaterThanOrEqual(0);
  expect(
    amounts.insurancePaidCents +
      amounts.contractualAdjustmentCents +
      amounts.otherAdjustmentCents +
      amounts.insurancePendingCents +
      amounts.patientPaidCents +
      amounts.amountDueCents,
    `${what}: the columns add up to what was billed`,
  ).toBe(amounts.billedCents);
}

/** The stored facts of a patient's visits: what the payers paid, the contracts adjusted, the patient paid and owes. */
async function storedClaims(patientId: number) {
  const rows = await sql<StoredVisit>(STORED_VISITS_SQL, [patientId]);
  return new Map(rows.map((row) => [row.id, row]));
}

beforeAll(async () => {
  t = await createTestApp();
  staff = await signInAs(t.app, 'billing_admin');
  patient = await signInAs(t.app, 'patient');
});
afterAll(async () => {
  await t.close();
});

describe('a statement balances', () => {
  it('holds for every seeded claim: no claim was paid or adjusted past its charge, nor a patient past their share', async () => {
    const broken = await sql<{ id: number }>(
      `select c.id from claims c
       left join (select claim_id, sum(amount_cents) as paid from payments
                  where source in ('patient', 'guest') group by claim_id) pp on pp.claim_id = c.id
       where c.billed_cents - c.paid_cents - c.contractual_adjustment_cents - c.patient_responsibility_cents < 0
          or coalesce(pp.paid, 0) > c.patient_responsibility_cents`,
    );
    expect(broken).toEqual([]);
  });

  it('per claim and in total, for patients whose claims cover every status, on the staff and the patient statement', async () => {
    // One patient per claim status (the most claims first), the demo patient and the patient with most claims.
    const chosen = await sql<{ id: number }>(
      `(select distinct on (status) patient_id as id from claims
        group by status, patient_id order by status, count(*) desc, patient_id)
       union (select patient_id from claims group by patient_id order by count(*) desc, patient_id limit 1)
       union (select patient_id from users where email = 'patient@healthcare.demo')`,
    );
    const statuses = await sql<{ n: number }>('select count(distinct status)::int as n from claims');
    expect(chosen.length).toBeGreaterThanOrEqual(statuses[0]!.n);

    for (const { id } of chosen) {
      const res = await staff.request({ method: 'GET', url: `/api/billing/statements/${id}` });
      expect(res.statusCode).toBe(200);
      const statement = res.json<Statement>();
      const stored = await storedClaims(id);
      expect(statement.claimCount).toBe(stored.size);

      for (const claim of statement.claims) {
        const facts = stored.get(claim.id)!;
        expect([claim.billedCents, claim.insurancePaidCents, claim.contractualAdjustmentCents]).toEqual([
          facts.billed,
          facts.payer_paid,
          facts.contractual,
        ]);
        expect([claim.patientPaidCents, claim.amountDueCents]).toEqual([facts.patient_paid, facts.due]);
        expectBalanced(claim, `patient ${id} claim ${claim.id} (${claim.status})`);
      }
      expectBalanced(statement, `patient ${id} totals`);
      expectBalanced(statement.otherClaims, `patient ${id} claims not listed`);

      // Every claim with something due is listed, with the most recent ones; the lines and the rest add up.
      const owing = [...stored.values()].filter((c) => c.due > 0).map((c) => c.id);
      const listed = statement.claims.map((c) => c.id);
      for (const claimId of owing) expect(listed, `patient ${id} owes on claim ${claimId}`).toContain(claimId);
      expect(listed.length).toBeGreaterThanOrEqual(Math.min(STAFF_STATEMENT_CLAIM_LIMIT, stored.size));
      expect(statement.otherClaims.claimCount + listed.length).toBe(stored.size);
      expect(statement.otherClaims.amountDueCents).toBe(0);
      for (const key of STATEMENT_AMOUNT_KEYS) {
        expect(sum(statement.claims, key) + statement.otherClaims[key], `patient ${id} ${key}`).toBe(statement[key]);
        expect(statement[key]).toBe(sum([...statement.claims, statement.otherClaims], key));
      }
      expect(statement.billedCents).toBe([...stored.values()].reduce((s, c) => s + c.billed, 0));
      expect(statement.amountDueCents).toBe([...stored.values()].reduce((s, c) => s + c.due, 0));
    }

    const own = (await patient.request({ method: 'GET', url: '/api/portal/statement' })).json<Statement>();
    expect(own.otherClaims.claimCount).toBe(0);
    for (const claim of own.claims) expectBalanced(claim, `own claim ${claim.id}`);
    expectBalanced(own, 'own totals');
    for (const key of STATEMENT_AMOUNT_KEYS) expect(sum(own.claims, key)).toBe(own[key]);
  });

  it("lists the patient's payments with a receipt number each, adding up to what the patient paid", async () => {
    const own = (await patient.request({ method: 'GET', url: '/api/portal/statement' })).json<Statement>();
    expect(own.payments.length).toBeGreaterThan(0);
    expect(own.payments.reduce((s, p) => s + p.amountCents, 0)).toBe(own.patientPaidCents);
    const receipts = own.payments.map((p) => p.receiptNumber);
    for (const receipt of receipts) expect(receipt).toMatch(/^(PP|GP|R)-[0-9A-F]+$/);
    expect(new Set(receipts).size).toBe(receipts.length);
    const dates = own.payments.map((p) => p.receivedOn);
    expect(dates).toEqual([...dates].sort().reverse());

    const paid = await patient.request({ method: 'POST', url: '/api/portal/payments', payload: { amountCents: 1 } });
    expect(paid.statusCode).toBe(201);
    const receipt = paid.json<Statement & { receiptReference: string }>();
    expect(receipt.receiptReference).toMatch(/^PP-[0-9A-F]{10}$/);
    expect(receipt.payments[0]).toMatchObject({ receiptNumber: receipt.receiptReference, amountCents: 1 });
  });

  it('carries the practice letterhead and an account number, not the record id alone', async () => {
    const [maria] = await sql<{ id: number }>(
      `select patient_id as id from users where email = 'patient@healthcare.demo'`,
    );
    const statement = (
      await staff.request({ method: 'GET', url: `/api/billing/statements/${maria!.id}` })
    ).json<Statement>();
    const [practice] = await sql<{ name: string; address: string; phone: string }>(
      'select name, address, phone from practice_settings order by practice_id limit 1',
    );
    expect(statement.practice).toEqual(
      practice ?? {
        name: 'Riverside Family Practice',
        address: '1200 Main Street, Suite 200, Springfield, IL 62701',
        phone: '(217) 555-0142',
      },
    );
    expect(statement.accountNumber).toBe(`PA-${String(maria!.id).padStart(6, '0')}`);
    for (const claim of statement.claims) expect(claim.procedureDescription, claim.procedure).toBeTruthy();
  });
});
