import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '@/shared/access';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { GUEST_STATEMENT_NOT_FOUND, type GuestPaymentReceipt, type GuestStatement } from '../billing.schema';

let t: TestApp;
let guest: SignedIn;

interface OwedClaim {
  id: number;
  account_number: string;
  dob: string;
  due: number;
  service_date: string;
  procedure_code: string;
  billed_cents: number;
  paid_cents: number;
  contractual_adjustment_cents: number;
  patient_responsibility_cents: number;
  patient_paid: number;
  status: string;
}

/** Claims with something left for the patient to pay, computed here independently of the server's rule. */
async function owedClaims(): Promise<OwedClaim[]> {
  const { rows } = await t.database.pool.query<OwedClaim>(`
    select c.id, c.account_number, p.dob::text as dob, c.service_date::text as service_date, c.procedure_code,
      c.billed_cents, c.paid_cents, c.contractual_adjustment_cents, c.patient_responsibility_cents, c.status,
      coalesce(pp.paid, 0)::int as patient_paid,
      (c.patient_responsibility_cents - coalesce(pp.paid, 0))::int as due
    from claims c join patients p on p.id = c.patient_id
    left join (select claim_id, sum(amount_cents) as paid from payments
               where source in ('patient', 'guest') group by claim_id) pp on pp.claim_id = c.id
    where c.patient_responsibility_cents - coalesce(pp.paid, 0) > 1000
    order by c.id`);
  return rows;
}

async function scalar(query: string, params: unknown[] = []): Promise<number> {
  const result = await t.database.pool.query<{ n: string }>(query, params);
  return Number(result.rows[0]?.n ?? 0);
}

const statement = (who: SignedIn, payload: Record<string, unknown>) =>
  who.request({ method: 'POST', url: '/api/guest/statement', payload });
const pay = (who: SignedIn, payload: Record<string, unknown>) =>
  who.request({ method: 'POST', url: '/api/guest/payments', payload });

function otherDay(dob: string): string {
  const d = new Date(`${dob}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

beforeAll(async () => {
  t = await createTestApp();
  guest = await signInAs(t.app, 'guest');
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/guest/statement', () => {
  it("returns that account's statement when the account number and date of birth match, and audits the read", async () => {
    const [claim] = await owedClaims();
    expect(claim).toBeDefined();
    const res = await statement(guest, { accountNumber: claim!.account_number.toLowerCase(), dob: claim!.dob });
    expect(res.statusCode).toBe(200);
    expect(res.json<GuestStatement>()).toEqual({
      accountNumber: claim!.account_number,
      serviceDate: claim!.service_date,
      procedureCode: claim!.procedure_code,
      billedCents: claim!.billed_cents,
      insurancePaidCents: claim!.paid_cents,
      adjustmentsCents: claim!.contractual_adjustment_cents,
      patientResponsibilityCents: claim!.patient_responsibility_cents,
      patientPaidCents: claim!.patient_paid,
      amountDueCents: claim!.due,
    });
    // Only the statement: no name, MRN, phone or other PHI.
    expect(Object.keys(res.json<object>())).not.toContain('patient');
    expect(
      await scalar("select count(*) as n from audit_log where action = 'guest.statement.view' and resource = $1", [
        `claim/${claim!.id}`,
      ]),
    ).toBe(1);
  });

  it('gives an unknown account and a wrong date of birth the same answer, audited without the dob', async () => {
    const [claim] = await owedClaims();
    const wrongDob = await statement(guest, { accountNumber: claim!.account_number, dob: otherDay(claim!.dob) });
    const unknown = await statement(guest, { accountNumber: 'ACC-0000-000000', dob: claim!.dob });
    expect(wrongDob.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(wrongDob.body).toBe(unknown.body);
    expect(wrongDob.json<{ error: { message: string } }>().error.message).toBe(GUEST_STATEMENT_NOT_FOUND);
    const failures = await t.database.pool.query<{ detail: string }>(
      "select detail from audit_log where action = 'guest.statement.not_found' order by id",
    );
    expect(failures.rows).toHaveLength(2);
    for (const row of failures.rows) {
      expect(row.detail).not.toContain(claim!.dob);
      expect(row.detail).not.toContain(otherDay(claim!.dob));
    }
  });

  it('refuses a missing account number or a malformed date, naming the field', async () => {
    const noAccount = await statement(guest, { dob: '1980-01-01' });
    expect(noAccount.statusCode).toBe(400);
    expect(noAccount.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('accountNumber');
    const badDob = await statement(guest, { accountNumber: 'ACC-1', dob: '01/02/1980' });
    expect(badDob.statusCode).toBe(400);
    expect(badDob.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('dob');
  });
});

describe('POST /api/guest/payments', () => {
  it('refuses an amount of 0, below 0, fractional, or above the amount due, naming amountCents; nothing is written', async () => {
    const [claim] = await owedClaims();
    const paymentsBefore = await scalar('select count(*) as n from payments');
    const auditBefore = await scalar("select count(*) as n from audit_log where action = 'payment.guest'");
    for (const amountCents of [0, -100, 10.5, claim!.due + 1]) {
      const res = await pay(guest, { accountNumber: claim!.account_number, dob: claim!.dob, amountCents });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields.map((f) => f.field)).toEqual([
        'amountCents',
      ]);
    }
    expect(await scalar('select count(*) as n from payments')).toBe(paymentsBefore);
    expect(await scalar("select count(*) as n from audit_log where action = 'payment.guest'")).toBe(auditBefore);
  });

  it('refuses a payment whose account and dob do not match with the same 404, writing no payment', async () => {
    const [claim] = await owedClaims();
    const paymentsBefore = await scalar('select count(*) as n from payments');
    const res = await pay(guest, { accountNumber: claim!.account_number, dob: otherDay(claim!.dob), amountCents: 100 });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ error: { message: string } }>().error.message).toBe(GUEST_STATEMENT_NOT_FOUND);
    expect(await scalar('select count(*) as n from payments')).toBe(paymentsBefore);
  });

  it('records a part payment as a guest payment against the claim, audits it, and lowers the balance', async () => {
    const [claim] = await owedClaims();
    const part = Math.floor(claim!.due / 3);
    const res = await pay(guest, { accountNumber: claim!.account_number, dob: claim!.dob, amountCents: part });
    expect(res.statusCode).toBe(201);
    const receipt = res.json<GuestPaymentReceipt>();
    expect(receipt).toMatchObject({ amountPaidCents: part, amountDueCents: claim!.due - part });
    expect(receipt.receiptReference).toMatch(/^GP-[0-9A-F]{10}$/);
    const { rows } = await t.database.pool.query(
      'select claim_id, amount_cents, source, reference, received_on::text as received_on from payments where reference = $1',
      [receipt.receiptReference],
    );
    expect(rows).toEqual([
      {
        claim_id: claim!.id,
        amount_cents: part,
        source: 'guest',
        reference: receipt.receiptReference,
        received_on: '2026-11-22',
      },
    ]);
    const audit = await t.database.pool.query<{ actor_role: string; detail: string }>(
      "select actor_role, detail from audit_log where action = 'payment.guest' and resource = $1",
      [`claim/${claim!.id}`],
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]?.actor_role).toBe('guest');
    expect(audit.rows[0]?.detail).toContain(receipt.receiptReference);

    const after = await statement(guest, { accountNumber: claim!.account_number, dob: claim!.dob });
    expect(after.json<GuestStatement>().amountDueCents).toBe(claim!.due - part);
    expect(after.json<GuestStatement>().patientPaidCents).toBe(claim!.patient_paid + part);
  });

  it('settles the claim when the rest is paid, after which nothing more can be paid', async () => {
    const owed = await owedClaims();
    const claim = owed.find((c) => c.status === 'Paid') ?? owed[0]!;
    const res = await pay(guest, { accountNumber: claim.account_number, dob: claim.dob, amountCents: claim.due });
    expect(res.statusCode).toBe(201);
    expect(res.json<GuestPaymentReceipt>().amountDueCents).toBe(0);
    const settled = await t.database.pool.query<{ status: string; resolved_on: string | null }>(
      'select status, resolved_on::text as resolved_on from claims where id = $1',
      [claim.id],
    );
    // Paid by the payer and now by the patient: nothing is left owed, so the claim is Closed.
    expect(settled.rows[0]).toEqual({ status: 'Closed', resolved_on: '2026-11-22' });
    const again = await pay(guest, { accountNumber: claim.account_number, dob: claim.dob, amountCents: 1 });
    expect(again.statusCode).toBe(400);
    expect(again.json<{ error: { fields: { field: string; message: string }[] } }>().error.fields[0]).toEqual({
      field: 'amountCents',
      message: 'nothing is due on this account',
    });
  });
});

describe('who may use guest payment', () => {
  for (const role of ROLES.filter((r) => r !== 'guest')) {
    it(`refuses ${role} with 403`, async () => {
      const [claim] = await owedClaims();
      const who = await signInAs(t.app, role);
      const body = { accountNumber: claim!.account_number, dob: claim!.dob };
      expect((await statement(who, body)).statusCode).toBe(403);
      expect((await pay(who, { ...body, amountCents: 100 })).statusCode).toBe(403);
    });
  }

  it('answers 401 without a session', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/guest/statement', payload: {} });
    expect(res.statusCode).toBe(401);
  });

  it('rate-limits statement lookups like sign-in', async () => {
    const limited = await createTestApp({ loginRateLimitPerMinute: 3 });
    try {
      const who = await signInAs(limited.app, 'guest');
      const codes: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const res = await who.request({
          method: 'POST',
          url: '/api/guest/statement',
          payload: { accountNumber: `ACC-GUESS-${i}`, dob: '1980-01-01' },
        });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([404, 404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('failed guest lookups per account number', () => {
  // Its own app with a high per-address limit, so that only the per-account lock can refuse.
  let own: TestApp;
  let who: SignedIn;
  const ownScalar = async (query: string, params: unknown[] = []) =>
    Number((await own.database.pool.query<{ n: string }>(query, params)).rows[0]?.n ?? 0);
  const ownClaims = async () =>
    (
      await own.database.pool.query<{ account_number: string; dob: string }>(`
        select c.account_number, p.dob::text as dob from claims c join patients p on p.id = c.patient_id
        where c.patient_responsibility_cents > 0 order by c.id limit 3`)
    ).rows;

  beforeAll(async () => {
    own = await createTestApp({ loginRateLimitPerMinute: 1000 });
    who = await signInAs(own.app, 'guest');
  });
  afterAll(async () => {
    await own.close();
  });

  it('locks an account for lookups after 5 failures (payments count), whatever the dob, for the rest of the hour', async () => {
    const [claim, other] = await ownClaims();
    const right = { accountNumber: claim!.account_number, dob: claim!.dob };
    const wrong = { ...right, dob: otherDay(claim!.dob) };
    const codes: number[] = [];
    for (let i = 0; i < 3; i += 1) codes.push((await statement(who, wrong)).statusCode);
    // A payment attempt is a lookup too: a wrong dob with 1 cent is a failure.
    for (let i = 0; i < 2; i += 1) codes.push((await pay(who, { ...wrong, amountCents: 1 })).statusCode);
    expect(codes).toEqual([404, 404, 404, 404, 404]);
    expect(
      await ownScalar("select count(*) as n from audit_log where action = 'guest.lookup.locked' and detail like $1", [
        `%${claim!.account_number}%`,
      ]),
    ).toBe(1);

    // Locked: the right and a wrong dob get the same answer, and no payment is taken.
    const payments = await ownScalar('select count(*) as n from payments');
    const lockedRight = await statement(who, right);
    const lockedWrong = await statement(who, wrong);
    const lockedPay = await pay(who, { ...right, amountCents: 1 });
    for (const res of [lockedRight, lockedWrong, lockedPay]) expect(res.statusCode).toBe(429);
    expect(lockedRight.json()).toEqual(lockedWrong.json());
    expect(lockedRight.json()).toEqual(lockedPay.json());
    expect(lockedRight.headers['retry-after']).toBe(lockedWrong.headers['retry-after']);
    expect(await ownScalar('select count(*) as n from payments')).toBe(payments);
    expect(
      await ownScalar(
        "select count(*) as n from audit_log where action = 'guest.lookup.locked_out' and detail like $1",
        [`%${claim!.account_number}%`],
      ),
    ).toBe(3);
    // Counted in the database, where every app server sees it.
    expect(
      await ownScalar('select failures as n from guest_lookup_failures where account_number = $1', [
        claim!.account_number,
      ]),
    ).toBeGreaterThanOrEqual(5);

    // Per account: another account is not locked.
    expect((await statement(who, { accountNumber: other!.account_number, dob: other!.dob })).statusCode).toBe(200);

    // An hour after the first failure the account may be looked up again.
    own.clock.advance(60 * 60 * 1000);
    try {
      const later = await signInAs(own.app, 'guest');
      expect((await statement(later, right)).statusCode).toBe(200);
    } finally {
      own.clock.advance(-60 * 60 * 1000);
    }
  });

  it('does not count a lookup that matches', async () => {
    const [, , claim] = await ownClaims();
    const right = { accountNumber: claim!.account_number, dob: claim!.dob };
    const wrong = { ...right, dob: otherDay(claim!.dob) };
    const codes: number[] = [];
    for (let i = 0; i < 4; i += 1) codes.push((await statement(who, wrong)).statusCode);
    for (let i = 0; i < 6; i += 1) codes.push((await statement(who, right)).statusCode);
    codes.push((await statement(who, wrong)).statusCode, (await statement(who, wrong)).statusCode);
    expect(codes).toEqual([404, 404, 404, 404, 200, 200, 200, 200, 200, 200, 404, 429]);
  });
});
