import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amt, eraFile, eraFileOfSets, eraHeader } from '@/testing/era-files';
import { today } from '@/shared/api';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { RemittanceDetail, RemittanceImport, RemittanceSummary } from '../remittances.schema';

/**
 * The 835 import against a real database (docs/remittances.md). Every file here is written by hand from the
 * ASC X12 005010X221A1 structure, on claims of the seeded clinic that the payer has not answered yet; posting
 * results are checked to the cent against SQL written independently of the import.
 */

let t: TestApp;
let billing: SignedIn;

interface Line {
  id: number;
  lcn: string;
  code: string;
  modifiers: string[];
  charge: number;
}
interface Claim {
  id: number;
  account: string;
  billed: number;
  patientId: number;
  lines: Line[];
}
let pending: Claim[] = [];

const query = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await t.database.pool.query(text, values)).rows as T[];

/** The summary of the one remittance an upload's answer holds. */
function only(res: { json<T>(): T }): RemittanceSummary {
  const { remittances } = res.json<RemittanceImport>();
  expect(remittances).toHaveLength(1);
  return remittances[0]!;
}

async function upload(text: string, contentType = 'application/edi-x12') {
  return billing.request({
    method: 'POST',
    url: '/api/remittances',
    payload: text,
    headers: { 'content-type': contentType },
  });
}

/** Σ of a claim's ledger by bucket, read straight from the ledger. */
async function ledgerOf(claimId: number) {
  const rows = await query<{ bucket: string; cents: string }>(
    `select bucket, sum(amount_cents) as cents from remittance_ledger where claim_id = $1 group by bucket`,
    [claimId],
  );
  return Object.fromEntries(rows.map((r) => [r.bucket, Number(r.cents)]));
}

async function claimRow(id: number) {
  const [row] = await query<{
    status: string;
    paid_cents: number;
    contractual_adjustment_cents: number;
    patient_responsibility_cents: number;
    reason_code: string | null;
    adjudicated_on: string | null;
    denied_on_first_adjudication: boolean;
  }>(
    `select status, paid_cents, contractual_adjustment_cents, patient_responsibility_cents, reason_code,
       adjudicated_on::text, denied_on_first_adjudication from claims where id = $1`,
    [id],
  );
  return row!;
}

/** A claim's CLP with one SVC per line, paid `paidOf(line)` with CO-45 for the rest, lines keyed by REF*6R. */
function simpleClaim(c: Claim, status: string, paidShare = 0.8): { lines: string[]; paid: number } {
  const out: string[] = [];
  let paid = 0;
  const body: string[] = [];
  for (const l of c.lines) {
    const p = Math.round(l.charge * paidShare);
    paid += p;
    body.push(`SVC*HC:${[l.code, ...l.modifiers].join(':')}*${amt(l.charge)}*${amt(p)}**1`, 'DTM*472*20261101');
    if (l.charge - p !== 0) body.push(`CAS*CO*45*${amt(l.charge - p)}`);
    body.push(`REF*6R*${l.lcn}`);
  }
  out.push(`CLP*${c.account}*${status}*${amt(c.billed)}*${amt(paid)}**12*ICN${c.id}`, 'NM1*QC*1*DOE*JANE', ...body);
  return { lines: out, paid };
}

/** One remittance (an ST set) paying claim `k` as `simpleClaim` does, under trace number `trace`. */
function paidInFull(k: Claim, trace: string): string[] {
  const { lines, paid } = simpleClaim(k, '1');
  return [...eraHeader({ paid: amt(paid), trace }), ...lines];
}

/** These claims with their lines, in id order, as the files here pay them. */
async function claimsWithLines(ids: readonly number[]): Promise<Claim[]> {
  const claims = await query<{ id: number; account_number: string; billed_cents: number; patient_id: number }>(
    `select id, account_number, billed_cents, patient_id from claims where id = any($1) order by id`,
    [ids],
  );
  const lines = await query<{
    id: number;
    claim_id: number;
    line_control_number: string;
    procedure_code: string;
    modifiers: string[];
    charge_cents: number;
  }>(
    `select id, claim_id, line_control_number, procedure_code, modifiers, charge_cents from claim_lines
     where claim_id = any($1) order by claim_id, line_number`,
    [ids],
  );
  return claims.map((c) => ({
    id: c.id,
    account: c.account_number,
    billed: c.billed_cents,
    patientId: c.patient_id,
    lines: lines
      .filter((l) => l.claim_id === c.id)
      .map((l) => ({
        id: l.id,
        lcn: l.line_control_number,
        code: l.procedure_code,
        modifiers: l.modifiers,
        charge: l.charge_cents,
      })),
  }));
}

beforeAll(async () => {
  t = await createTestApp();
  billing = await signInAs(t.app, 'billing_admin');
  const claims = await query<{ id: number; account_number: string; billed_cents: number; patient_id: number }>(
    `select id, account_number, billed_cents, patient_id from claims
     where status in ('Submitted', 'Pending') and paid_cents = 0 and contractual_adjustment_cents = 0
       and patient_responsibility_cents = 0 and voided_at is null and billed_cents >= 10000
       and (select count(*) from claim_lines l where l.claim_id = claims.id) = 1
     order by id limit 19`,
  );
  // The files here come from Aetna (eraHeader's payer), which pays only its own claims and those of patients it
  // covers: the chosen claims are billed to it.
  await query(`update claims set payer = 'Aetna' where id = any($1)`, [claims.map((c) => c.id)]);
  pending = await claimsWithLines(claims.map((c) => c.id));
  expect(pending.length).toBe(19);
});

afterAll(async () => {
  await t.close();
});

describe('importing an 835', () => {
  it('posts each CLP02 status and CAS group to the cent, sends the rest to the work queue, and posts PLB; a second import posts nothing', async () => {
    const [a, b, c, d, e, g, f] = pending as [Claim, Claim, Claim, Claim, Claim, Claim, Claim];
    const la = a.lines[0]!;
    // A: processed as primary; deductible, coinsurance and copay (PR-1/2/3) and the contractual CO-45. Matched by
    // procedure code and charge (no REF*6R).
    const aPaid = la.charge - 3000 - 1500 - 1000 - 500;
    const claimA = [
      `CLP*${a.account}*1*${amt(a.billed)}*${amt(aPaid)}*${amt(5500)}*12*ICNA`,
      'NM1*QC*1*DOE*JANE',
      'DTM*232*20261101',
      `SVC*HC:${[la.code, ...la.modifiers].join(':')}*${amt(la.charge)}*${amt(aPaid)}**1`,
      'DTM*472*20261101',
      `CAS*PR*1*${amt(3000)}**2*${amt(1500)}**3*${amt(1000)}`,
      `CAS*CO*45*${amt(500)}`,
      `AMT*B6*${amt(la.charge - 500)}`,
    ];
    // B: processed as secondary, adjusted at claim level only (no service lines): OA-23 (the prior payer's
    // adjudication) and PI-94.
    const claimB = [
      `CLP*${b.account}*2*${amt(b.billed)}*${amt(b.billed - 2000 - 700)}**12*ICNB`,
      `CAS*OA*23*${amt(2000)}`,
      `CAS*PI*94*${amt(700)}`,
    ];
    // C: denied, no authorization (CO-197).
    const lc = c.lines[0]!;
    const claimC = [
      `CLP*${c.account}*4*${amt(c.billed)}*0**12*ICNC`,
      `SVC*HC:${[lc.code, ...lc.modifiers].join(':')}*${amt(lc.charge)}*0**1`,
      `CAS*CO*197*${amt(lc.charge)}`,
      `REF*6R*${lc.lcn}`,
    ];
    // D: processed as primary and forwarded (19); the coinsurance goes on to the next payer.
    const ld = d.lines[0]!;
    const claimD = [
      `CLP*${d.account}*19*${amt(d.billed)}*${amt(ld.charge - 2000)}*${amt(2000)}*12*ICND`,
      `SVC*HC:${[ld.code, ...ld.modifiers].join(':')}*${amt(ld.charge)}*${amt(ld.charge - 2000)}**1`,
      `CAS*PR*2*${amt(2000)}`,
      `REF*6R*${ld.lcn}`,
    ];
    // E: does not balance (the line's CAS is a dollar short).
    const le = e.lines[0]!;
    const claimE = [
      `CLP*${e.account}*1*${amt(e.billed)}*${amt(le.charge - 1000)}**12*ICNE`,
      `SVC*HC:${[le.code, ...le.modifiers].join(':')}*${amt(le.charge)}*${amt(le.charge - 1000)}**1`,
      `CAS*CO*45*${amt(900)}`,
      `REF*6R*${le.lcn}`,
    ];
    // G: a line that matches none of the claim's (another code, no REF*6R).
    const lg = g.lines[0]!;
    const claimG = [
      `CLP*${g.account}*1*${amt(g.billed)}*${amt(lg.charge)}**12*ICNG`,
      `SVC*HC:J9999*${amt(lg.charge)}*${amt(lg.charge)}**1`,
    ];
    // An unknown patient control number.
    const claimX = ['CLP*NO-SUCH-ACCOUNT*1*1.00*1.00**12*ICNX', 'SVC*HC:99213*1.00*1.00**1'];
    // F: a second line-level denial inside a processed claim: paid 0 with CO-97 (bundled).
    const lf = f.lines[0]!;
    const claimF = [
      `CLP*${f.account}*1*${amt(f.billed)}*0**12*ICNF`,
      `SVC*HC:${[lf.code, ...lf.modifiers].join(':')}*${amt(lf.charge)}*0**1`,
      `CAS*CO*97*${amt(lf.charge)}`,
      `REF*6R*${lf.lcn}`,
    ];
    const claimsPaid = aPaid + (b.billed - 2700) + 0 + (ld.charge - 2000) + (le.charge - 1000) + lg.charge + 100 + 0;
    // PLB: an overpayment recovered (WO, reduces the payment), interest (L6, adds) and a forwarding balance (FB).
    const plb = `PLB*1234567893*20261231*WO:OVERPAY1*${amt(2500)}*L6:INT1*${amt(-320)}*FB:FWD7*${amt(1000)}`;
    const payment = claimsPaid - 2500 + 320 - 1000;
    const file = eraFile([
      ...eraHeader({ paid: amt(payment), trace: 'EFT-1001' }),
      ...claimA,
      ...claimB,
      ...claimC,
      ...claimD,
      ...claimE,
      ...claimG,
      ...claimX,
      ...claimF,
      plb,
    ]);

    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(201);
    const summary = only(res);
    expect(summary).toMatchObject({
      payer: 'Aetna',
      traceNumber: 'EFT-1001',
      paymentCents: payment,
      paymentDate: '2026-11-18',
      claimsPosted: 5,
      claimsExceptions: 3,
      postedCents: aPaid + (b.billed - 2700) + (ld.charge - 2000),
      exceptionCents: le.charge - 1000 + lg.charge + 100,
      providerAdjustmentCents: 2500 - 320 + 1000,
      duplicate: false,
    });

    // The claims' aggregates are the sums of their ledgers, and the ledgers hold exactly what the file says.
    expect(await ledgerOf(a.id)).toEqual({ paid: aPaid, patient: 5500, contractual: 500 });
    expect(await claimRow(a.id)).toMatchObject({
      status: 'Paid',
      paid_cents: aPaid,
      patient_responsibility_cents: 5500,
      contractual_adjustment_cents: 500,
      reason_code: 'CO-45',
      adjudicated_on: '2026-11-18',
    });
    const split = await query<{ reason_code: string; cents: string }>(
      `select reason_code, sum(amount_cents) as cents from remittance_ledger where claim_id = $1 and group_code = 'PR'
       group by reason_code order by reason_code`,
      [a.id],
    );
    expect(split.map((s) => [s.reason_code, Number(s.cents)])).toEqual([
      ['1', 3000],
      ['2', 1500],
      ['3', 1000],
    ]);
    // The statement shows the payer's split of what the patient owes, and owes exactly that.
    const statement = await billing.request({ method: 'GET', url: `/api/billing/statements/${a.patientId}` });
    const onStatement = statement
      .json<{ claims: { id: number; amountDueCents: number; patientShare: Record<string, number> }[] }>()
      .claims.find((x) => x.id === a.id);
    expect(onStatement).toMatchObject({
      amountDueCents: 5500,
      patientShare: { deductibleCents: 3000, coinsuranceCents: 1500, copayCents: 1000 },
    });
    expect(await ledgerOf(b.id)).toEqual({ paid: b.billed - 2700, other: 2700 });
    expect(await claimRow(b.id)).toMatchObject({
      status: 'Partially Paid',
      paid_cents: b.billed - 2700,
      reason_code: 'OA-23',
    });
    expect(await ledgerOf(c.id)).toEqual({ other: lc.charge });
    expect(await claimRow(c.id)).toMatchObject({
      status: 'Denied',
      paid_cents: 0,
      reason_code: 'CO-197',
      denied_on_first_adjudication: true,
    });
    expect(await ledgerOf(d.id)).toEqual({ paid: ld.charge - 2000, forwarded: 2000 });
    expect(await claimRow(d.id)).toMatchObject({ status: 'Partially Paid', patient_responsibility_cents: 0 });
    expect(await claimRow(f.id)).toMatchObject({ status: 'Denied', reason_code: 'CO-97' });
    // Nothing of the exceptions is posted.
    for (const x of [e, g]) {
      expect(await ledgerOf(x.id)).toEqual({});
      expect(await claimRow(x.id)).toMatchObject({ paid_cents: 0, adjudicated_on: null });
    }
    // Payer payments, one per claim paid, dated the payment's day: collections count them.
    const paid = await query<{ claim_id: number; amount_cents: number; received_on: string }>(
      `select claim_id, amount_cents, received_on::text from payments where source = 'payer' and reference = 'ERA EFT-1001'
       order by claim_id`,
    );
    expect(paid.map((p) => [p.claim_id, p.amount_cents, p.received_on])).toEqual(
      [
        [a.id, aPaid, '2026-11-18'],
        [b.id, b.billed - 2700, '2026-11-18'],
        [d.id, ld.charge - 2000, '2026-11-18'],
      ].sort((x, y) => Number(x[0]) - Number(y[0])),
    );
    // PLB: posted to the provider-level ledger, not dropped.
    const plbRows = await query<{ reason: string; reference: string; amount_cents: number }>(
      `select reason, reference, amount_cents from provider_adjustments order by id`,
    );
    expect(plbRows.map((p) => [p.reason, p.reference, p.amount_cents])).toEqual([
      ['WO', 'OVERPAY1', 2500],
      ['L6', 'INT1', -320],
      ['FB', 'FWD7', 1000],
    ]);
    // The work queue: the denial (authorization), the line denial (coding), and the three exceptions.
    const items = await query<{
      source: string;
      account_number: string;
      category: string;
      carc: string | null;
      dollars_at_risk_cents: number;
    }>(`select source, account_number, category, carc, dollars_at_risk_cents from work_items order by id`);
    expect(items.map((i) => [i.source, i.account_number, i.category, i.carc])).toEqual(
      expect.arrayContaining([
        ['denial', c.account, 'authorization', 'CO-197'],
        ['denial', f.account, 'coding', 'CO-97'],
        ['balancing', e.account, 'other', 'CO-45'],
        ['unmatched_line', g.account, 'other', null],
        ['unmatched_claim', 'NO-SUCH-ACCOUNT', 'other', null],
      ]),
    );
    expect(items).toHaveLength(5);
    expect(items.find((i) => i.account_number === c.account)?.dollars_at_risk_cents).toBe(lc.charge);

    // The same file again: 200 with the earlier summary, nothing posted, no second work item.
    const counts = async () =>
      (
        await query<{ n: string }>(
          `select (select count(*) from remittance_ledger) || '/' || (select count(*) from work_items) || '/' ||
           (select count(*) from payments) || '/' || (select count(*) from provider_adjustments) as n`,
        )
      )[0]!.n;
    const before = await counts();
    const again = await upload(file, 'text/plain');
    expect(again.statusCode).toBe(200);
    expect(only(again)).toEqual({ ...summary, duplicate: true });
    expect(await counts()).toBe(before);

    // The detail shows each claim's posting; the CSV export is audited as export.csv.
    const detail = await billing.request({ method: 'GET', url: `/api/remittances/${summary.remittanceId}` });
    const shown = detail.json<RemittanceDetail>();
    expect(shown.claims).toHaveLength(8);
    expect(shown.claims[0]).toMatchObject({ patientControlNumber: a.account, outcome: 'posted' });
    expect(shown.claims[0]!.entries.filter((x) => x.groupCode === 'PR').map((x) => x.reasonCode)).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect(shown.providerAdjustments).toHaveLength(3);
    await billing.request({ method: 'GET', url: `/api/remittances/${summary.remittanceId}/export` });
    const audited = await query<{ action: string }>(`select action from audit_log where resource = $1 order by id`, [
      `remittance/${summary.remittanceId}`,
    ]);
    expect(audited.map((x) => x.action)).toEqual([
      'remittance.import',
      'remittance.import.duplicate',
      'remittance.view',
      'export.csv',
    ]);
  });

  it('a reversal and its correction net to the corrected payment, in one file or across files', async () => {
    const [h, i] = pending.slice(8) as [Claim, Claim];
    const original = (c: Claim, paid: number) => {
      const l = c.lines[0]!;
      return [
        `CLP*${c.account}*1*${amt(l.charge)}*${amt(paid)}**12*ICN${c.id}`,
        `SVC*HC:${[l.code, ...l.modifiers].join(':')}*${amt(l.charge)}*${amt(paid)}**1`,
        `CAS*CO*45*${amt(l.charge - paid)}`,
        `REF*6R*${l.lcn}`,
      ];
    };
    const reversal = (c: Claim, paid: number) => {
      const l = c.lines[0]!;
      return [
        `CLP*${c.account}*22*${amt(-l.charge)}*${amt(-paid)}**12*ICN${c.id}`,
        `SVC*HC:${[l.code, ...l.modifiers].join(':')}*${amt(-l.charge)}*${amt(-paid)}**1`,
        `CAS*CO*45*${amt(-(l.charge - paid))}`,
        `REF*6R*${l.lcn}`,
      ];
    };
    // H: paid 120.00 in one file; reversed and corrected to 100.00 in the next.
    const first = await upload(eraFile([...eraHeader({ paid: amt(12000), trace: 'CHK-2001' }), ...original(h, 12000)]));
    expect(first.statusCode, first.body).toBe(201);
    expect((await claimRow(h.id)).paid_cents).toBe(12000);
    const second = await upload(
      eraFile(
        [
          ...eraHeader({ paid: amt(-12000 + 10000), trace: 'CHK-2002' }),
          ...reversal(h, 12000),
          ...original(h, 10000),
        ].map((s) => (s.startsWith('BPR') ? s.replace('*-20.00*C*', '*20.00*D*') : s)),
      ),
    );
    expect(second.statusCode, second.body).toBe(201);
    expect(only(second)).toMatchObject({
      claimsPosted: 2,
      postedCents: -2000,
      paymentCents: -2000,
    });
    expect(await ledgerOf(h.id)).toEqual({ paid: 10000, contractual: h.lines[0]!.charge - 10000 });
    expect(await claimRow(h.id)).toMatchObject({
      status: 'Closed',
      paid_cents: 10000,
      contractual_adjustment_cents: h.lines[0]!.charge - 10000,
    });
    const hPayments = await query<{ amount_cents: number }>(
      `select amount_cents from payments where claim_id = $1 and source = 'payer' order by id`,
      [h.id],
    );
    expect(hPayments.map((p) => p.amount_cents)).toEqual([12000, -12000, 10000]);

    // I: original, reversal and correction in one file.
    const one = await upload(
      eraFile([
        ...eraHeader({ paid: amt(10000), trace: 'EFT-2003' }),
        ...original(i, 12000),
        ...reversal(i, 12000),
        ...original(i, 10000),
      ]),
    );
    expect(one.statusCode, one.body).toBe(201);
    expect(await ledgerOf(i.id)).toEqual({ paid: 10000, contractual: i.lines[0]!.charge - 10000 });
    expect((await claimRow(i.id)).paid_cents).toBe(10000);

    // A reversal of a posting already reversed goes to the work queue, with nothing posted.
    const twice = await upload(
      eraFile([
        ...eraHeader({ paid: amt(-12000), trace: 'EFT-2004' }).map((s) =>
          s.startsWith('BPR') ? s.replace('*-120.00*C*', '*120.00*D*') : s,
        ),
        ...reversal(i, 12000),
      ]),
    );
    expect(twice.statusCode, twice.body).toBe(201);
    expect(only(twice)).toMatchObject({ claimsPosted: 0, claimsExceptions: 1 });
    expect((await claimRow(i.id)).paid_cents).toBe(10000);
  });

  it('closes a claim paid in full with nothing left owed; a reversal reopens it until its correction', async () => {
    const k = pending[18]!;
    const l = k.lines[0]!;
    const paidFile = (trace: string, paid: number) =>
      eraFile([
        ...eraHeader({ paid: amt(paid), trace }),
        `CLP*${k.account}*1*${amt(l.charge)}*${amt(paid)}**12*ICN${k.id}`,
        `SVC*HC:${[l.code, ...l.modifiers].join(':')}*${amt(l.charge)}*${amt(paid)}**1`,
        `CAS*CO*45*${amt(l.charge - paid)}`,
        `REF*6R*${l.lcn}`,
      ]);
    const settled = async () =>
      (
        await query<{ status: string; resolved_on: string | null }>(
          `select status, resolved_on::text from claims where id = $1`,
          [k.id],
        )
      )[0];
    expect((await upload(paidFile('CLOSE-1', 9000))).statusCode).toBe(201);
    // Paid in full, CO-45 for the rest, no patient share: nothing is owed on it by anyone.
    expect(await settled()).toEqual({ status: 'Closed', resolved_on: '2026-11-18' });

    const reversed = await upload(
      eraFile([
        ...eraHeader({ paid: amt(-9000), trace: 'CLOSE-2' }).map((x) =>
          x.startsWith('BPR') ? x.replace('*-90.00*C*', '*90.00*D*') : x,
        ),
        `CLP*${k.account}*22*${amt(-l.charge)}*${amt(-9000)}**12*ICN${k.id}`,
        `SVC*HC:${[l.code, ...l.modifiers].join(':')}*${amt(-l.charge)}*${amt(-9000)}**1`,
        `CAS*CO*45*${amt(-(l.charge - 9000))}`,
        `REF*6R*${l.lcn}`,
      ]),
    );
    expect(reversed.statusCode, reversed.body).toBe(201);
    // The payer took its payment back: the claim is owed again, with the payer, and no longer closed.
    expect(await settled()).toEqual({ status: 'Pending', resolved_on: null });

    expect((await upload(paidFile('CLOSE-3', 8000))).statusCode).toBe(201);
    expect(await settled()).toEqual({ status: 'Closed', resolved_on: '2026-11-18' });
  });

  it('refuses a file that does not balance, naming the numbers, and posts nothing', async () => {
    const k = pending[10]!;
    const { lines, paid } = simpleClaim(k, '1');
    const before = await query<{ n: string }>(`select count(*) as n from remittances`);
    const res = await upload(eraFile([...eraHeader({ paid: amt(paid + 1), trace: 'EFT-3001' }), ...lines]));
    expect(res.statusCode).toBe(422);
    expect(res.json<{ error: { code: string; message: string } }>().error).toMatchObject({ code: 'UNBALANCED_FILE' });
    expect(res.body).toContain(`BPR02 payment ${amt(paid + 1)}`);
    expect(res.body).toContain(`claims paid (ΣCLP04) ${amt(paid)}`);
    expect(await query(`select count(*) as n from remittances`)).toEqual(before);
    expect((await claimRow(k.id)).paid_cents).toBe(0);
  });

  it('refuses a 4010 file, another guide, a broken envelope and a JSON body, each with a 4xx', async () => {
    const k = pending[10]!;
    const { lines, paid } = simpleClaim(k, '1');
    const good = eraFile([...eraHeader({ paid: amt(paid), trace: 'EFT-4001' }), ...lines]);
    const v4010 = good.replace('*^*00501*', '*^*00401*').replace(/005010X221A1/g, '004010X091A1');
    const old = await upload(v4010);
    expect(old.statusCode).toBe(400);
    expect(old.json<{ error: { code: string } }>().error.code).toBe('X12_ISA_VERSION');
    const other = await upload(
      eraFile([...eraHeader({ paid: amt(paid), trace: 'EFT-4001' }), ...lines], { version: '005010X222A1' }),
    );
    expect(other.statusCode).toBe(422);
    expect(other.body).toContain('GS08');
    const broken = await upload(good.replace(/SE\*(\d+)\*/, (_, n: string) => `SE*${Number(n) + 1}*`));
    expect(broken.statusCode).toBe(400);
    expect(broken.json<{ error: { code: string } }>().error.code).toBe('X12_SE_COUNT');
    const json = await billing.request({ method: 'POST', url: '/api/remittances', payload: { file: good } });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', fields: [{ field: 'body' }] } });
    expect((await claimRow(k.id)).paid_cents).toBe(0);
  });

  it('is one transaction: a failure after posting began leaves nothing posted', async () => {
    const k = pending[11]!;
    const { lines, paid } = simpleClaim(k, '1');
    // The work queue refuses an item for this account: the import fails after the ledger and claims were written.
    await t.database.ownerPool.query(`create function test_refuse_item() returns trigger language plpgsql as $$
      begin if new.account_number = 'BOOM-1' then raise exception 'refused for the test'; end if; return new; end $$`);
    await t.database.ownerPool.query(
      `create trigger test_refuse_item before insert on work_items for each row execute function test_refuse_item()`,
    );
    try {
      const res = await upload(
        eraFile([
          ...eraHeader({ paid: amt(paid + 100), trace: 'EFT-5001' }),
          ...lines,
          'CLP*BOOM-1*1*1*1**12*X',
          'SVC*HC:99213*1*1**1',
        ]),
      );
      expect(res.statusCode).toBe(500);
    } finally {
      await t.database.ownerPool.query(`drop trigger test_refuse_item on work_items; drop function test_refuse_item()`);
    }
    expect(await query(`select 1 from remittances where trace_number = 'EFT-5001'`)).toEqual([]);
    expect(await ledgerOf(k.id)).toEqual({});
    expect(['Paid', 'Closed']).not.toContain((await claimRow(k.id)).status);
  });

  it('two uploads of one file at once post it once: one answers 201, the other 200 with the same summary', async () => {
    const k = pending[12]!;
    const { lines, paid } = simpleClaim(k, '1');
    const file = eraFile([...eraHeader({ paid: amt(paid), trace: 'EFT-6001' }), ...lines]);
    const [one, two] = await Promise.all([upload(file), upload(file)]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 201]);
    expect({ ...only(one), duplicate: false }).toEqual({
      ...only(two),
      duplicate: false,
    });
    expect(await ledgerOf(k.id)).toEqual({ paid, contractual: k.billed - paid });
  });

  it('posts every remittance of a file that holds several, in file order, in one transaction', async () => {
    const [k1, k2, k3] = pending.slice(13) as [Claim, Claim, Claim];
    const set = paidInFull;
    // The second set does not balance: the first, which does, is not posted either.
    const unbalanced = set(k2, 'EFT-7002').map((s) => s.replace(/^BPR\*I\*[\d.]+\*/, 'BPR*I*1.00*'));
    const refused = await upload(eraFileOfSets([set(k1, 'EFT-7001'), unbalanced]));
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'UNBALANCED_FILE',
      message: expect.stringMatching(
        /^file: the remittance at segment \d+ does not balance: BPR02 payment 1\.00/,
      ) as string,
    });
    // One payer's trace number twice in a file: which payment is right is not ours to guess.
    const twice = await upload(eraFileOfSets([set(k1, 'EFT-7001'), set(k2, 'EFT-7001')]));
    expect(twice.statusCode).toBe(422);
    expect(twice.body).toContain('repeats trace number EFT-7001');
    expect(await query(`select 1 from remittances where trace_number like 'EFT-70%'`)).toEqual([]);
    expect((await claimRow(k1.id)).paid_cents).toBe(0);

    const file = eraFileOfSets([set(k1, 'EFT-7001'), set(k2, 'EFT-7002')]);
    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(201);
    const { remittances } = res.json<RemittanceImport>();
    expect(remittances.map((r) => [r.traceNumber, r.claimsPosted, r.claimsExceptions, r.duplicate])).toEqual([
      ['EFT-7001', 1, 0, false],
      ['EFT-7002', 1, 0, false],
    ]);
    expect(new Set(remittances.map((r) => r.remittanceId)).size).toBe(2);
    for (const k of [k1, k2]) expect((await claimRow(k.id)).status).toBe('Closed');

    // The same file again posts nothing; a file of one new payment and one imported before posts the new one.
    const again = await upload(file);
    expect(again.statusCode).toBe(200);
    expect(again.json<RemittanceImport>().remittances.map((r) => r.duplicate)).toEqual([true, true]);
    const mixed = await upload(eraFileOfSets([set(k2, 'EFT-7002'), set(k3, 'EFT-7003')]));
    expect(mixed.statusCode).toBe(201);
    expect(mixed.json<RemittanceImport>().remittances.map((r) => [r.traceNumber, r.duplicate])).toEqual([
      ['EFT-7002', true],
      ['EFT-7003', false],
    ]);
    expect((await claimRow(k3.id)).status).toBe('Closed');
    const { paid } = simpleClaim(k2, '1');
    expect(await ledgerOf(k2.id)).toEqual({ paid, contractual: k2.billed - paid });
  });

  it('two uploads at once of files that hold the same two remittances in opposite orders post each once', async () => {
    // Each upload's transaction would insert its first remittance, then wait for the other's: a deadlock,
    // which PostgreSQL ends by failing one upload (a 500), unless both take their locks in one order.
    const [a, b] = pending.slice(16) as [Claim, Claim];
    const first = eraFileOfSets([paidInFull(a, 'EFT-8001'), paidInFull(b, 'EFT-8002')]);
    const second = eraFileOfSets([paidInFull(b, 'EFT-8002'), paidInFull(a, 'EFT-8001')]);
    const [one, two] = await Promise.all([upload(first), upload(second)]);
    expect([one.statusCode, two.statusCode].sort(), `${one.body}\n${two.body}`).toEqual([200, 201]);
    const later = one.statusCode === 200 ? one : two;
    expect(later.json<RemittanceImport>().remittances.map((r) => r.duplicate)).toEqual([true, true]);
    expect(await query(`select trace_number from remittances where trace_number like 'EFT-80%' order by 1`)).toEqual([
      { trace_number: 'EFT-8001' },
      { trace_number: 'EFT-8002' },
    ]);
    for (const k of [a, b]) {
      const { paid } = simpleClaim(k, '1');
      expect(await ledgerOf(k.id)).toEqual({ paid, contractual: k.billed - paid });
    }
  });

  it('names a claim voided here when a remittance pays it: nothing posted, the work item on that claim', async () => {
    // An unanswered claim voided here (the Claims list's Void, which does not tell the payer); the payer pays it.
    const [pick] = await query<{ id: number }>(
      `select c.id from claims c
       where c.status in ('Submitted', 'Pending') and c.paid_cents = 0 and c.voided_at is null
         and c.id <> all($1) and not exists (select 1 from payments p where p.claim_id = c.id)
       order by c.id desc limit 1`,
      [pending.map((k) => k.id)],
    );
    const [k] = (await claimsWithLines([pick!.id])) as [Claim];
    const voided = await billing.request({
      method: 'POST',
      url: `/api/claims/${k.id}/void`,
      payload: { reason: 'Entered twice by the import' },
    });
    expect(voided.statusCode, voided.body).toBe(200);

    const answer = await upload(eraFile(paidInFull(k, 'EFT-9201')));
    expect(answer.statusCode, answer.body).toBe(201);
    const refused = only(answer);
    expect([refused.claimsPosted, refused.claimsExceptions]).toEqual([0, 1]);
    expect(await ledgerOf(k.id)).toEqual({});
    const [item] = await query<{ source: string; claim_id: number; patient_id: number; reason: string }>(
      `select source, claim_id, patient_id, reason from work_items where account_number = $1`,
      [k.account],
    );
    expect(item).toMatchObject({ source: 'unmatched_claim', claim_id: k.id, patient_id: k.patientId });
    expect(item!.reason).toBe(
      `CLP01 ${k.account} (segment 13) is a claim voided here on ${today(t.clock())} (Entered twice by the import): ` +
        'nothing is posted to a voided claim',
    );
  });

  it("posts a claim payment only from the claim's payer or a payer of the patient's coverages", async () => {
    // A patient with two coverages of different payers and an unanswered one-line claim billed to the first.
    const [pick] = await query<{ id: number; primary: string; secondary: string }>(
      `select c.id, c.payer as primary, v2.payer as secondary from claims c
       join coverages v2 on v2.patient_id = c.patient_id and v2.payer <> c.payer
       where c.status in ('Submitted', 'Pending') and c.paid_cents = 0 and c.contractual_adjustment_cents = 0
         and c.patient_responsibility_cents = 0 and c.voided_at is null and c.billed_cents >= 10000
         and c.id <> all($1) and (select count(*) from claim_lines l where l.claim_id = c.id) = 1
       order by c.id limit 1`,
      [pending.map((k) => k.id)],
    );
    expect(pick).toBeDefined();
    const [stranger] = await query<{ name: string }>(
      `select name from payers where name <> all(array(select payer from coverages where patient_id =
         (select patient_id from claims where id = $1)) || $2::text) and name <> 'Self-Pay' order by name limit 1`,
      [pick!.id, pick!.primary],
    );
    const [k] = (await claimsWithLines([pick!.id])) as [Claim];

    // A payer that neither billed claim nor coverage names: nothing posts; the payment waits in the work queue on
    // the claim its CLP01 names, saying why.
    const foreign = simpleClaim(k, '1');
    const refused = only(
      await upload(
        eraFile([
          ...eraHeader({ paid: amt(foreign.paid), trace: 'EFT-9101', payer: stranger!.name }),
          ...foreign.lines,
        ]),
      ),
    );
    expect([refused.claimsPosted, refused.claimsExceptions]).toEqual([0, 1]);
    expect(await ledgerOf(k.id)).toEqual({});
    const [item] = await query<{ source: string; claim_id: number; reason: string }>(
      `select source, claim_id, reason from work_items where account_number = $1`,
      [k.account],
    );
    expect(item).toMatchObject({ source: 'unmatched_claim', claim_id: k.id });
    expect(item!.reason).toContain(`is a claim billed to ${pick!.primary}; ${stranger!.name} is not its payer`);

    // The patient's other coverage's payer, processing it as secondary (CLP02 2): posted.
    const secondary = simpleClaim(k, '2');
    const posted = only(
      await upload(
        eraFile([
          ...eraHeader({ paid: amt(secondary.paid), trace: 'EFT-9102', payer: pick!.secondary }),
          ...secondary.lines,
        ]),
      ),
    );
    expect([posted.claimsPosted, posted.claimsExceptions]).toEqual([1, 0]);
    expect(await ledgerOf(k.id)).toEqual({ paid: secondary.paid, contractual: k.billed - secondary.paid });
  });

  it('keeps the ledger append-only', async () => {
    await expect(t.database.pool.query(`update remittance_ledger set amount_cents = 1`)).rejects.toThrow(/append-only/);
    await expect(t.database.pool.query(`delete from provider_adjustments`)).rejects.toThrow(/append-only/);
  });

  it('is open to billing admins and admins only', async () => {
    const doctor = await signInAs(t.app, 'doctor');
    expect((await doctor.request({ method: 'GET', url: '/api/remittances' })).statusCode).toBe(403);
    const admin = await signInAs(t.app, 'admin');
    const list = await admin.request({ method: 'GET', url: '/api/remittances?limit=2' });
    expect(list.statusCode).toBe(200);
    const page = list.json<{ items: { traceNumber: string }[]; nextCursor: string | null; total: number }>();
    expect(page.items).toHaveLength(2);
    const next = await admin.request({ method: 'GET', url: `/api/remittances?limit=2&cursor=${page.nextCursor}` });
    expect(next.json<{ items: { traceNumber: string }[] }>().items[0]?.traceNumber).not.toBe(
      page.items[1]?.traceNumber,
    );
  });
});
