import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, maskText, type Role } from '@/shared/access';
import { STORED_VISITS_SQL, type StoredVisit } from '@/testing/stored-visits';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { STAFF_STATEMENT_CLAIM_LIMIT, type BillingPatient, type Statement } from '../billing.schema';

let t: TestApp;
const sessions = new Map<Role, SignedIn>();
let mariaId: number;

async function sql<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T>(text, values)).rows;
}

async function count(text: string, values: unknown[] = []): Promise<number> {
  const [row] = await sql<{ n: string }>(text, values);
  return Number(row?.n ?? 0);
}

const as = (role: Role) => sessions.get(role)!;

/**
 * Every claim of a patient with what is due on it, computed here independently of the server: the
 * patient's share less the payments made by the patient or a guest, never below 0.
 */
/** The patient's visits (a claim and those billed after it to later policies, folded), newest first. */
async function claimsOf(patientId: number) {
  return sql<StoredVisit>(STORED_VISITS_SQL, [patientId]);
}

async function expectedTotals(patientId: number) {
  const rows = await claimsOf(patientId);
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + pick(r), 0);
  return {
    claimCount: rows.length,
    totalBilledCents: sum((r) => r.billed),
    payerPaidCents: sum((r) => r.payer_paid),
    patientPaidCents: sum((r) => r.patient_paid),
    totalPaidCents: sum((r) => r.payer_paid + r.patient_paid),
    amountDueCents: sum((r) => r.due),
  };
}

const getOwn = (url = '/api/portal/statement') => as('patient').request({ method: 'GET', url });
const payOwn = (payload: Record<string, unknown>, url = '/api/portal/payments') =>
  as('patient').request({ method: 'POST', url, payload });

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) sessions.set(role, await signInAs(t.app, role));
  const [maria] = await sql<{ id: number }>(
    `select patient_id as id from users where email = 'patient@healthcare.demo'`,
  );
  mariaId = maria?.id ?? 0;
});
afterAll(async () => {
  await t.close();
});

describe('who may call the statement and payment endpoints', () => {
  const staffEndpoints = [
    { method: 'GET', url: '/api/billing/patients?search=a' },
    { method: 'GET', url: '/api/billing/statements/1' },
    { method: 'POST', url: '/api/billing/statements/1/export' },
    { method: 'GET', url: '/api/billing/payer-performance?periodDays=30' },
  ] as const;
  const portalEndpoints = [
    { method: 'GET', url: '/api/portal/statement' },
    { method: 'POST', url: '/api/portal/statement/export' },
  ] as const;

  it('lets doctor, billing_admin and admin use the billing endpoints; refuses nurse_manager, patient and guest (403) and no session (401)', async () => {
    for (const endpoint of staffEndpoints) {
      for (const role of ROLES) {
        const res = await as(role).request({ ...endpoint, payload: endpoint.method === 'POST' ? {} : undefined });
        const expected = ['doctor', 'billing_admin', 'admin'].includes(role) ? 200 : 403;
        expect(res.statusCode, `${role} ${endpoint.method} ${endpoint.url}`).toBe(expected);
      }
      const anonymous = await t.app.inject({ ...endpoint, payload: endpoint.method === 'POST' ? {} : undefined });
      expect(anonymous.statusCode, `no session ${endpoint.url}`).toBe(401);
    }
  });

  it('lets only the patient use the portal statement and payment endpoints', async () => {
    const endpoints = [...portalEndpoints, { method: 'POST', url: '/api/portal/payments' } as const];
    for (const endpoint of endpoints) {
      for (const role of ROLES.filter((r) => r !== 'patient')) {
        const res = await as(role).request({ ...endpoint, payload: { amountCents: 1 } });
        expect(res.statusCode, `${role} ${endpoint.method} ${endpoint.url}`).toBe(403);
      }
      const anonymous = await t.app.inject({ ...endpoint, payload: { amountCents: 1 } });
      expect(anonymous.statusCode, `no session ${endpoint.url}`).toBe(401);
    }
    for (const endpoint of portalEndpoints) {
      expect((await as('patient').request({ ...endpoint, payload: {} })).statusCode).toBe(200);
    }
  });
});

describe('GET /api/billing/patients', () => {
  it('finds patients by part of the name: names with date of birth and MRN as the role sees them, at most 20', async () => {
    const res = await as('billing_admin').request({ method: 'GET', url: '/api/billing/patients?search=LOPEZ' });
    expect(res.statusCode).toBe(200);
    const found = res.json<BillingPatient[]>();
    const expected = await sql<{ id: number; name: string; dob: string; mrn: string }>(
      `select id, name, dob::text as dob, mrn from patients where name ilike '%lopez%' order by name, id limit 20`,
    );
    // The billing administrator sees dates of birth in full and MRNs masked (docs/access.md).
    expect(found).toEqual(expected.map((p) => ({ ...p, mrn: maskText('mrn', p.mrn, 'billing_admin') })));
    expect(found.map((p) => p.id)).toContain(mariaId);
    for (const patient of found) expect(patient.mrn).toMatch(/^\*+.{2}$/);

    const all = (await as('billing_admin').request({ method: 'GET', url: '/api/billing/patients' })).json<unknown[]>();
    expect(await count('select count(*) as n from patients')).toBeGreaterThan(20);
    expect(all).toHaveLength(20);
  });
});

describe('GET /api/billing/statements/:patientId', () => {
  it('totals every claim of the patient as an independent SQL computation does, and lists the 3 most recent and every claim with an amount due', async () => {
    // Maria has claims in every state, payments by her, and a balance; the busiest patient has the most claims.
    const [busiest] = await sql<{ id: number }>(
      'select patient_id as id from claims group by patient_id order by count(*) desc, patient_id limit 1',
    );
    for (const patientId of [mariaId, busiest!.id]) {
      const res = await as('billing_admin').request({ method: 'GET', url: `/api/billing/statements/${patientId}` });
      expect(res.statusCode).toBe(200);
      const statement = res.json<Statement>();
      const [patient] = await sql<{ name: string }>('select name from patients where id = $1', [patientId]);
      expect(statement).toMatchObject({
        patientId,
        patientName: patient!.name,
        statementDate: '2026-11-22',
        ...(await expectedTotals(patientId)),
      });
      const recent = (await claimsOf(patientId)).filter((c, i) => i < STAFF_STATEMENT_CLAIM_LIMIT || c.due > 0);
      expect(statement.claims.map((c) => c.id)).toEqual(recent.map((c) => c.id));
      expect(statement.claims.map((c) => [c.serviceDate, c.billedCents, c.paidCents, c.amountDueCents])).toEqual(
        recent.map((c) => [c.service_date, c.billed, c.payer_paid + c.patient_paid, c.due]),
      );
    }
    const maria = await expectedTotals(mariaId);
    expect(maria.amountDueCents).toBeGreaterThan(0);
    expect(maria.patientPaidCents).toBeGreaterThan(0);
  });

  it('records the read as a PHI read of that patient', async () => {
    const before = await count(`select count(*) as n from audit_log where action = 'statement.view'`);
    await as('doctor').request({ method: 'GET', url: `/api/billing/statements/${mariaId}` });
    const [entry] = await sql<{
      action: string;
      patient_id: number;
      actor_role: string;
      resource: string;
      detail: string;
    }>('select action, patient_id, actor_role, resource, detail from audit_log order by id desc limit 1');
    const { claimCount } = await expectedTotals(mariaId);
    expect(entry).toMatchObject({
      action: 'statement.view',
      patient_id: mariaId,
      actor_role: 'doctor',
      resource: `patient/${mariaId}/statement`,
    });
    expect(entry?.detail).toMatch(new RegExp(`^viewed the billing statement \\(${claimCount} visits, amount due \\$`));
    expect(await count(`select count(*) as n from audit_log where action = 'statement.view'`)).toBe(before + 1);
  });

  it('answers 404 for a patient that does not exist, and 400 for an id that is not one', async () => {
    const missing = await as('admin').request({ method: 'GET', url: '/api/billing/statements/999999' });
    expect(missing.statusCode).toBe(404);
    const bad = await as('admin').request({ method: 'GET', url: '/api/billing/statements/abc' });
    expect(bad.statusCode).toBe(400);
  });

  it('serves the export with every claim, so its lines add up to the totals, and audits it as an export', async () => {
    const before = await count(`select count(*) as n from audit_log where action = 'statement.export'`);
    const res = await as('billing_admin').request({ method: 'POST', url: `/api/billing/statements/${mariaId}/export` });
    expect(res.statusCode).toBe(200);
    const statement = res.json<Statement>();
    expect(statement.claims.map((c) => c.id)).toEqual((await claimsOf(mariaId)).map((c) => c.id));
    expect(statement.claims.reduce((s, c) => s + c.amountDueCents, 0)).toBe(statement.amountDueCents);
    expect(statement.claims.reduce((s, c) => s + c.billedCents, 0)).toBe(statement.totalBilledCents);
    expect(statement.claims.reduce((s, c) => s + c.paidCents, 0)).toBe(statement.totalPaidCents);
    const [entry] = await sql<{ action: string; patient_id: number }>(
      'select action, patient_id from audit_log order by id desc limit 1',
    );
    expect(entry).toEqual({ action: 'statement.export', patient_id: mariaId });
    expect(await count(`select count(*) as n from audit_log where action = 'statement.export'`)).toBe(before + 1);
  });
});

describe('GET /api/portal/statement', () => {
  it("holds exactly the patient's own claims, all of them, with the totals of an independent SQL computation", async () => {
    const res = await getOwn();
    expect(res.statusCode).toBe(200);
    const statement = res.json<Statement>();
    const own = await claimsOf(mariaId);
    expect(own.length).toBeGreaterThan(STAFF_STATEMENT_CLAIM_LIMIT);
    expect(statement.claims.map((c) => c.id)).toEqual(own.map((c) => c.id));
    expect(statement).toMatchObject({
      patientId: mariaId,
      patientName: 'Maria Lopez',
      ...(await expectedTotals(mariaId)),
    });
  });

  it('ignores any patient id in the request', async () => {
    const [other] = await sql<{ id: number }>(
      'select patient_id as id from claims where patient_id <> $1 group by patient_id order by count(*) desc limit 1',
      [mariaId],
    );
    const own = (await getOwn()).json<Statement>();
    for (const url of [
      `/api/portal/statement?patientId=${other!.id}`,
      `/api/portal/statement?patient=${other!.id}&patient_id=${other!.id}`,
    ]) {
      const res = await getOwn(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json<Statement>(), url).toEqual(own);
    }
    expect((await getOwn(`/api/portal/statement/${other!.id}`)).statusCode).toBe(404);
  });

  it('audits the read and the download as reads of her own record', async () => {
    await getOwn();
    const [view] = await sql<{ action: string; patient_id: number; actor: string }>(
      'select action, patient_id, actor from audit_log order by id desc limit 1',
    );
    expect(view).toEqual({ action: 'statement.view', patient_id: mariaId, actor: 'patient@healthcare.demo' });
    const exported = await as('patient').request({ method: 'POST', url: '/api/portal/statement/export', payload: {} });
    expect(exported.statusCode).toBe(200);
    expect(exported.json<Statement>().claims).toHaveLength((await claimsOf(mariaId)).length);
    const [entry] = await sql<{ action: string; patient_id: number }>(
      'select action, patient_id from audit_log order by id desc limit 1',
    );
    expect(entry).toEqual({ action: 'statement.export', patient_id: mariaId });
  });
});

async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await check()); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a statement read while a payment lands', () => {
  it('shows its lines, totals and payments as of one moment, so they agree with each other', async () => {
    const { pool } = t.database;
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const before = (await getOwn()).json<Statement>();
    const owing = before.claims.find((claim) => claim.amountDueCents > 0);
    if (!owing) throw new Error('the demo patient needs a claim with something due');

    // The claims' part joins providers and the payments' part does not: holding providers locked stops the
    // read while a payment lands and commits, which a read made of separate queries would see in one part
    // and not in the other.
    const blocker = await pool.connect();
    let statement: Statement;
    try {
      await blocker.query('begin');
      await blocker.query('lock table providers in access exclusive mode');
      const answer = getOwn();
      await waitUntil(async () => {
        const { rows } = await pool.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
           where wait_event_type = 'Lock' and query like '%"providers"%' and pid <> pg_backend_pid()`,
        );
        return (rows[0]?.n ?? 0) > 0;
      }, "the statement's read waits for providers");
      await pool.query(
        `insert into payments (patient_id, claim_id, amount_cents, source, received_on, reference)
         values ($1, $2, 1, 'guest', current_date, 'GP-SNAPSHOT-TEST')`,
        [before.patientId, owing.id],
      );
      await blocker.query('commit');
      const res = await answer;
      expect(res.statusCode).toBe(200);
      statement = res.json<Statement>();
    } finally {
      await blocker.query('rollback').catch(() => {});
      blocker.release();
    }

    // One moment, before the payment or after it, the same in every part.
    expect(statement.claims).toHaveLength(statement.claimCount);
    expect(sum(statement.claims.map((claim) => claim.amountDueCents))).toBe(statement.amountDueCents);
    expect(sum(statement.claims.map((claim) => claim.paidCents))).toBe(statement.totalPaidCents);
    for (const claim of statement.claims) {
      const paid = statement.payments.filter((p) => p.accountNumber === claim.accountNumber).map((p) => p.amountCents);
      expect(sum(paid), claim.accountNumber).toBe(claim.patientPaidCents);
    }
    const sawPayment = statement.payments.some((p) => p.receiptNumber === 'GP-SNAPSHOT-TEST');
    expect(statement.amountDueCents).toBe(before.amountDueCents - (sawPayment ? 1 : 0));

    // The next read sees the payment, in its totals and its line alike.
    const after = (await getOwn()).json<Statement>();
    expect(after.amountDueCents).toBe(before.amountDueCents - 1);
    expect(after.claims.find((claim) => claim.id === owing.id)?.amountDueCents).toBe(owing.amountDueCents - 1);
  });
});

describe('POST /api/portal/payments', () => {
  beforeAll(async () => {
    // Whatever the seed left open, Maria gets three more patient shares to pay, on claims of different
    // ages that the payer has paid in full: the allocation then has several claims to spread over.
    const opened = await sql<{ id: number }>(
      `update claims c set patient_responsibility_cents = share.cents, resolved_on = null
       from (select id, (array[5000, 4200, 3100])[row_number() over (order by service_date, id)] as cents
             from claims where patient_id = $1 and status in ('Paid', 'Closed') and patient_responsibility_cents = 0
             order by service_date, id limit 3) share
       where c.id = share.id returning c.id`,
      [mariaId],
    );
    expect(opened).toHaveLength(3);
  });

  it('refuses 0, a negative, a fractional or a too large amount with a 400 naming amountCents, writing nothing', async () => {
    const { amountDueCents } = await expectedTotals(mariaId);
    const paymentsBefore = await count('select count(*) as n from payments');
    const auditBefore = await count('select count(*) as n from audit_log');
    for (const amountCents of [0, -500, 12.5, amountDueCents + 1, '100', null]) {
      const res = await payOwn({ amountCents });
      expect(res.statusCode, String(amountCents)).toBe(400);
      const fields = res.json<{ error: { fields: { field: string; message: string }[] } }>().error.fields;
      expect(fields.map((f) => f.field)).toEqual(['amountCents']);
    }
    const tooMuch = await payOwn({ amountCents: amountDueCents + 1 });
    expect(tooMuch.json<{ error: { fields: { message: string }[] } }>().error.fields[0]?.message).toMatch(
      /^must be at most your balance, \$[\d,]+\.\d{2}$/,
    );
    expect(await count('select count(*) as n from payments')).toBe(paymentsBefore);
    expect(await count('select count(*) as n from audit_log')).toBe(auditBefore);
  });

  it('lowers the balance by exactly a part payment, records it as a patient payment and audits it', async () => {
    const before = await expectedTotals(mariaId);
    const part = 1234;
    const res = await payOwn({ amountCents: part });
    expect(res.statusCode).toBe(201);
    const statement = res.json<Statement>();
    expect(statement.amountDueCents).toBe(before.amountDueCents - part);
    expect(statement.patientPaidCents).toBe(before.patientPaidCents + part);
    expect(await expectedTotals(mariaId)).toMatchObject({ amountDueCents: before.amountDueCents - part });
    const [payment] = await sql<{ amount_cents: number; source: string; received_on: string; reference: string }>(
      `select amount_cents, source, received_on::text as received_on, reference from payments order by id desc limit 1`,
    );
    expect(payment).toMatchObject({ amount_cents: part, source: 'patient', received_on: '2026-11-22' });
    expect(payment?.reference).toMatch(/^PP-[0-9A-F]{10}$/);
    const [entry] = await sql<{ action: string; patient_id: number; actor_role: string; detail: string }>(
      'select action, patient_id, actor_role, detail from audit_log order by id desc limit 1',
    );
    expect(entry).toMatchObject({ action: 'payment.patient', patient_id: mariaId, actor_role: 'patient' });
    expect(entry?.detail).toContain('$12.34');
    expect(entry?.detail).toContain(payment!.reference);
  });

  it('pays the oldest claims first, settles each one it clears, and ignores a patient id in the body', async () => {
    const [other] = await sql<{ id: number }>('select id from patients where id <> $1 order by id limit 1', [mariaId]);
    const otherPaymentsBefore = await count('select count(*) as n from payments where patient_id = $1', [other!.id]);
    const owed = (await claimsOf(mariaId)).filter((c) => c.due > 0).reverse();
    expect(owed.length).toBeGreaterThan(2);
    const [oldest, second, third] = owed as [(typeof owed)[0], (typeof owed)[0], (typeof owed)[0]];
    const amount = oldest.due + Math.floor(second.due / 2);
    const maxIdBefore = await count('select coalesce(max(id), 0) as n from payments');

    const res = await payOwn({ amountCents: amount, patientId: other!.id, patient_id: other!.id });
    expect(res.statusCode).toBe(201);

    const made = await sql<{ claim_id: number; amount_cents: number; patient_id: number }>(
      'select claim_id, amount_cents, patient_id from payments where id > $1 order by id',
      [maxIdBefore],
    );
    expect(made).toEqual([
      { claim_id: oldest.id, amount_cents: oldest.due, patient_id: mariaId },
      { claim_id: second.id, amount_cents: Math.floor(second.due / 2), patient_id: mariaId },
    ]);
    const after = new Map((await claimsOf(mariaId)).map((c) => [c.id, c]));
    expect(after.get(oldest.id)?.due).toBe(0);
    expect(after.get(second.id)?.due).toBe(second.due - Math.floor(second.due / 2));
    expect(after.get(third.id)?.due).toBe(third.due);
    // A settled claim the payer had paid is resolved today, and Closed; one still waiting on the payer is not.
    expect(oldest.status).toBe('Paid');
    expect(after.get(oldest.id)?.resolved_on).toBe('2026-11-22');
    expect(after.get(oldest.id)?.status).toBe('Closed');
    expect(after.get(second.id)?.status).toBe(second.status);
    expect(after.get(second.id)?.resolved_on).toBe(second.resolved_on);
    expect(await count('select count(*) as n from payments where patient_id = $1', [other!.id])).toBe(
      otherPaymentsBefore,
    );
  });

  it('clears the whole balance, after which Pay Balance has nothing to pay', async () => {
    const { amountDueCents } = await expectedTotals(mariaId);
    const res = await payOwn({ amountCents: amountDueCents });
    expect(res.statusCode).toBe(201);
    expect(res.json<Statement>().amountDueCents).toBe(0);
    expect(res.json<Statement>().claims.every((c) => c.amountDueCents === 0)).toBe(true);
    // Every claim the payer paid is settled now: none is left Paid (owed by the patient), all are Closed.
    const unsettled = await sql<{ id: number }>(`select id from claims where patient_id = $1 and status = 'Paid'`, [
      mariaId,
    ]);
    expect(unsettled).toEqual([]);
    const again = await payOwn({ amountCents: 1 });
    expect(again.statusCode).toBe(400);
    expect(again.json<{ error: { fields: { field: string; message: string }[] } }>().error.fields).toEqual([
      { field: 'amountCents', message: 'nothing is due on your balance' },
    ]);
  });
});
