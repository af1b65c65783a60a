import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amt, eraFile, eraHeader } from '@/testing/era-files';
import { ack277CA } from '@/testing/x12-acknowledgements';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { x12Amount } from '@/features/x12/x12.837p';
import type { CreatedClaimBatches } from '@/features/submission/submission.schema';
import type { ClaimDetail, ClaimScrubResult } from '@/features/claims/claims.schema';
import type { Statement } from '@/features/billing/billing.schema';

/**
 * Billing a claim's balance to the patient's next policy (docs/x12-837.md, "After another payer"), against a real
 * database: the rules that refuse it, the Draft it makes, and the 837P that reports the first payer's decision. The
 * 835s are written by hand from the ASC X12 005010X221A1 structure.
 */

let t: TestApp;
let biller: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  biller = await signInAs(t.app, 'billing_admin');
});
afterAll(async () => {
  await t.close();
});

async function sql<T extends object>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T>(text, params)).rows;
}

const billNext = (claimId: number) => biller.request({ method: 'POST', url: `/api/claims/${claimId}/next-policy` });

async function detail(claimId: number): Promise<ClaimDetail> {
  const res = await biller.request({ method: 'GET', url: `/api/claims/${claimId}` });
  expect(res.statusCode).toBe(200);
  return res.json<ClaimDetail>();
}

interface Visit {
  id: number;
  account: string;
  payer: string;
  nextPayer: string;
  lines: { lcn: string; code: string; modifiers: string[]; charge: number }[];
}

/**
 * `n` unanswered claims billed to a patient's first policy, each patient given a second one in force on the
 * service date with another payer (a supplemental plan, as many Medicare patients have).
 */
async function visitsWithANextPolicy(n: number): Promise<Visit[]> {
  const claims = await sql<{ id: number; account_number: string; payer: string; patient_id: number }>(
    `select distinct on (c.patient_id) c.id, c.account_number, c.payer, c.patient_id from claims c
     join coverages v on v.id = c.coverage_id and v.priority = 1 and v.payer = c.payer
     where c.status in ('Submitted', 'Pending') and c.paid_cents = 0 and c.contractual_adjustment_cents = 0
       and c.patient_responsibility_cents = 0 and c.voided_at is null
       and not exists (select 1 from coverages o where o.patient_id = c.patient_id and o.priority > 1)
     order by c.patient_id, c.id limit $1`,
    [n],
  );
  if (claims.length !== n) throw new Error(`the seed has ${claims.length} such claims, not ${n}`);
  for (const c of claims) {
    await sql(
      `insert into coverages (patient_id, payer, priority, member_id, group_number, relationship, effective_on)
       values ($1, $2, 2, $3, 'GRP100200', 'self', '2000-01-01')`,
      [c.patient_id, c.payer === 'Cigna' ? 'Aetna' : 'Cigna', `SUP${c.id}`],
    );
  }
  const lines = await sql<{
    claim_id: number;
    line_control_number: string;
    procedure_code: string;
    modifiers: string[];
    charge_cents: number;
  }>(
    `select claim_id, line_control_number, procedure_code, modifiers, charge_cents from claim_lines
     where claim_id = any($1) order by claim_id, line_number`,
    [claims.map((c) => c.id)],
  );
  return claims.map((c) => ({
    id: c.id,
    account: c.account_number,
    payer: c.payer,
    nextPayer: c.payer === 'Cigna' ? 'Aetna' : 'Cigna',
    lines: lines
      .filter((l) => l.claim_id === c.id)
      .map((l) => ({
        lcn: l.line_control_number,
        code: l.procedure_code,
        modifiers: l.modifiers,
        charge: l.charge_cents,
      })),
  }));
}

/**
 * The first payer's remittance for a visit: each line allowed 70% of its charge (CO-45 for the rest), paid 80% of
 * what it allowed, the other 20% the patient's coinsurance (PR-2); CLP02 `status` (1 processed as primary, 19 and
 * forwarded to the next payer).
 */
function remittanceOf(v: Visit, trace: string, status = '1') {
  let paid = 0;
  let coinsurance = 0;
  const body: string[] = [];
  for (const l of v.lines) {
    const allowed = Math.round(l.charge * 0.7);
    const linePaid = Math.round(allowed * 0.8);
    paid += linePaid;
    coinsurance += allowed - linePaid;
    body.push(
      `SVC*HC:${[l.code, ...l.modifiers].join(':')}*${amt(l.charge)}*${amt(linePaid)}**1`,
      'DTM*472*20261101',
      `CAS*CO*45*${amt(l.charge - allowed)}`,
      `CAS*PR*2*${amt(allowed - linePaid)}`,
      `REF*6R*${l.lcn}`,
    );
  }
  const charge = v.lines.reduce((s, l) => s + l.charge, 0);
  const file = eraFile([
    ...eraHeader({ paid: amt(paid), trace, payer: v.payer, date: '20261120' }),
    `CLP*${v.account}*${status}*${amt(charge)}*${amt(paid)}*${amt(coinsurance)}*MB*ICN${v.id}`,
    'NM1*QC*1*DOE*JANE',
    ...body,
  ]);
  return { file, paid, coinsurance };
}

async function importEra(text: string): Promise<{ claimsBilledNext: number }> {
  const res = await biller.request({
    method: 'POST',
    url: '/api/remittances',
    payload: text,
    headers: { 'content-type': 'application/edi-x12' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ remittances: { claimsBilledNext: number }[] }>().remittances[0]!;
}

/** The claim the import of the first payer's remittance made for the visit's next policy. */
async function billedOnImport(v: Visit): Promise<ClaimDetail> {
  const later = (await detail(v.id)).laterClaims;
  expect(later).toHaveLength(1);
  return detail(later[0]!.id);
}

describe("billing a claim's balance to the patient's next policy", () => {
  it('waits for the first payer, then makes a linked Draft whose 837P reports that payer’s adjudication', async () => {
    const [v] = await visitsWithANextPolicy(1);
    const claimCount = async () => Number((await sql<{ n: string }>('select count(*) as n from claims'))[0]!.n);
    const before = await claimCount();

    // Not adjudicated yet: refused, naming the rule, nothing written; the claim view says why.
    const early = await billNext(v!.id);
    expect(early.statusCode).toBe(409);
    expect(early.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'NOT_ADJUDICATED',
      message: `status: ${v!.payer} has not adjudicated the claim yet`,
    });
    expect(await claimCount()).toBe(before);
    expect((await detail(v!.id)).nextPolicy).toEqual({
      payer: v!.nextPayer,
      billable: false,
      reason: `${v!.payer} has not adjudicated the claim yet`,
    });

    // The first payer paid and left the coinsurance: posting its remittance bills the next policy, as a Draft.
    const era = remittanceOf(v!, 'NEXT-1001');
    expect((await importEra(era.file)).claimsBilledNext).toBe(1);
    expect(await claimCount()).toBe(before + 1);
    const next = await billedOnImport(v!);
    expect(next).toMatchObject({
      status: 'Draft',
      payer: v!.nextPayer,
      frequencyCode: '1',
      primaryClaim: { id: v!.id, accountNumber: v!.account, payer: v!.payer },
      laterClaims: [],
    });
    expect(next.coverage).toMatchObject({ payer: v!.nextPayer, priority: 2 });
    expect(next.lines.map((l) => [l.procedureCode, l.modifiers, l.chargeCents])).toEqual(
      v!.lines.map((l) => [l.code, l.modifiers, l.charge]),
    );
    expect(next.accountNumber).not.toBe(v!.account);
    const [audit] = await sql<{ detail: string }>(
      `select detail from audit_log where action = 'claim.create' and resource = $1`,
      [`claim/${next.id}`],
    );
    expect(audit!.detail).toContain(`billed after ${v!.payer}'s adjudication of ${v!.account}`);

    // Once billed, the first claim links to it and is not billed there twice.
    const first = await detail(v!.id);
    expect(first.laterClaims).toEqual([{ id: next.id, accountNumber: next.accountNumber, payer: v!.nextPayer }]);
    expect(first.nextPolicy).toEqual({
      payer: v!.nextPayer,
      billable: false,
      reason: `is billed to ${v!.nextPayer} already, as ${next.accountNumber}`,
    });
    const twice = await billNext(v!.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json<{ error: { code: string } }>().error.code).toBe('ALREADY_BILLED');

    // Its lines are the first claim's by design: the scrubber does not hold it as a duplicate of that claim.
    const scrubbed = await biller.request({ method: 'POST', url: `/api/claims/${next.id}/scrub`, payload: {} });
    expect(scrubbed.statusCode, scrubbed.body).toBe(200);
    expect(scrubbed.json<ClaimScrubResult>().edits.map((e) => e.code)).not.toContain('DUPLICATE_SERVICE');

    // Sent: loop 2320 for the first payer carries its CAS-free claim level and AMT*D (what it paid); each line's
    // 2430 its SVD, CAS (CO-45 and PR-2), DTP*573 and the patient's remaining liability (AMT*EAF, the PR-2),
    // balancing as the 835 did.
    await sql(`update claims set status = 'Ready' where id = $1`, [next.id]);
    const batch = await biller.request({ method: 'POST', url: '/api/claim-batches', payload: { claimIds: [next.id] } });
    expect(batch.statusCode, batch.body).toBe(201);
    const [made] = batch.json<CreatedClaimBatches>().batches;
    const file = (await biller.request({ method: 'GET', url: `/api/claim-batches/${made!.id}/837` })).body;
    const segments = file.split(/~\s*/);
    const clm = segments.findIndex((s) => s.startsWith(`CLM*${next.accountNumber}*`));
    const sbrOfFirst = segments.findIndex((s, i) => i > clm && s.startsWith('SBR*P*'));
    expect(segments[sbrOfFirst + 1]).toBe(`AMT*D*${x12Amount(era.paid)}`);
    const svds = segments.filter((s) => s.startsWith('SVD*'));
    expect(svds).toHaveLength(v!.lines.length);
    const firstLine = v!.lines[0]!;
    const allowed = Math.round(firstLine.charge * 0.7);
    const svd = segments.findIndex((s) => s.startsWith('SVD*'));
    const coinsurance = allowed - Math.round(allowed * 0.8);
    expect(segments.slice(svd + 1, svd + 5)).toEqual([
      `CAS*CO*45*${x12Amount(firstLine.charge - allowed)}`,
      `CAS*PR*2*${x12Amount(coinsurance)}`,
      'DTP*573*D8*20261120',
      `AMT*EAF*${x12Amount(coinsurance)}`,
    ]);
    expect(segments.filter((s) => s.startsWith('AMT*EAF*'))).toHaveLength(v!.lines.length);
  });

  it("posts the next payer's remittance on the new claim: what the first payer settled (OA-23) is not owed again", async () => {
    const [v] = await visitsWithANextPolicy(1);
    const first = remittanceOf(v!, 'NEXT-2001');
    const [{ patient_id: patientId } = { patient_id: 0 }] = await sql<{ patient_id: number }>(
      'select patient_id from claims where id = $1',
      [v!.id],
    );
    const statement = async () =>
      (await biller.request({ method: 'GET', url: `/api/billing/statements/${patientId}` })).json<{
        amountDueCents: number;
      }>();
    const fullStatement = async () => {
      const res = await biller.request({ method: 'POST', url: `/api/billing/statements/${patientId}/export` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Statement>();
    };
    const due = (await statement()).amountDueCents;
    const statementBefore = await fullStatement();
    // The first payer leaves the coinsurance, and the import bills it to the next policy at once: the patient is
    // never asked for it, as the next payer answers for it first.
    await importEra(first.file);
    const made = await billedOnImport(v!);
    expect((await statement()).amountDueCents).toBe(due);
    // What is owed on the visit is owed once: the new claim's balance is the coinsurance, the first claim's none.
    expect(made.balanceCents).toBe(first.coinsurance);
    const handedOn = await detail(v!.id);
    expect(handedOn).toMatchObject({ balanceCents: 0, handedOnCents: first.coinsurance, priorPayersCents: 0 });
    expect(made).toMatchObject({
      handedOnCents: 0,
      priorPayersCents: v!.lines.reduce((s, l) => s + l.charge, 0) - first.coinsurance,
    });
    // The statement shows the visit once: its charge, the first payer's decision, the coinsurance pending.
    const charge = v!.lines.reduce((s, l) => s + l.charge, 0);
    const billedThere = await fullStatement();
    expect(billedThere.claims.map((c) => c.accountNumber)).not.toContain(made.accountNumber);
    expect(billedThere.claims.find((c) => c.accountNumber === v!.account)).toMatchObject({
      status: 'Draft',
      billedCents: charge,
      insurancePaidCents: first.paid,
      contractualAdjustmentCents: charge - first.paid - first.coinsurance,
      otherAdjustmentCents: 0,
      insurancePendingCents: first.coinsurance,
      amountDueCents: 0,
    });
    expect(billedThere.totalBilledCents).toBe(statementBefore.totalBilledCents);
    expect(billedThere.claimCount).toBe(statementBefore.claimCount);
    // The second payer pays the coinsurance the first left; the rest of the charge is the first payer's (CARC 23).
    const settledBefore = charge - first.coinsurance;
    // Its lines, each paid its coinsurance (sign 1), or that payment reversed (sign -1).
    const linesOf = (sign: 1 | -1) =>
      made.lines.flatMap((l, i) => {
        const line = v!.lines[i]!;
        const allowed = Math.round(line.charge * 0.7);
        const coinsurance = allowed - Math.round(allowed * 0.8);
        return [
          `SVC*HC:${[l.procedureCode, ...l.modifiers].join(':')}*${amt(sign * l.chargeCents)}*${amt(sign * coinsurance)}**1`,
          'DTM*472*20261101',
          `CAS*OA*23*${amt(sign * (l.chargeCents - coinsurance))}`,
          `REF*6R*${l.lineControlNumber}`,
        ];
      });
    await importEra(
      eraFile([
        ...eraHeader({ paid: amt(first.coinsurance), trace: 'NEXT-2002', payer: v!.nextPayer, date: '20261125' }),
        `CLP*${made.accountNumber}*2*${amt(charge)}*${amt(first.coinsurance)}**12*ICN2${v!.id}`,
        'NM1*QC*1*DOE*JANE',
        ...linesOf(1),
      ]),
    );
    const after = await detail(made.id);
    // Nothing is left owed on the visit: the next payer's claim is Closed, and so is the first, on the same day.
    expect(after).toMatchObject({
      status: 'Closed',
      paidCents: first.coinsurance,
      contractualAdjustmentCents: settledBefore,
      balanceCents: 0,
    });
    // The next payer paid the whole coinsurance: the patient owes nothing for the visit, on either claim.
    expect((await statement()).amountDueCents).toBe(due);
    expect((await fullStatement()).claims.find((c) => c.accountNumber === v!.account)).toMatchObject({
      status: 'Closed',
      billedCents: charge,
      insurancePaidCents: first.paid + first.coinsurance,
      contractualAdjustmentCents: charge - first.paid - first.coinsurance,
      otherAdjustmentCents: 0,
      insurancePendingCents: 0,
      amountDueCents: 0,
    });
    expect(await detail(v!.id)).toMatchObject({ status: 'Closed', resolvedOn: '2026-11-25', balanceCents: 0 });

    // The next payer takes its payment back (CLP02 22): the visit is owed again, and neither claim is Closed.
    await importEra(
      eraFile([
        ...eraHeader({ paid: amt(-first.coinsurance), trace: 'NEXT-2003', payer: v!.nextPayer, date: '20261126' }).map(
          (s) =>
            s.startsWith('BPR') ? s.replace(`*${amt(-first.coinsurance)}*C*`, `*${amt(first.coinsurance)}*D*`) : s,
        ),
        `CLP*${made.accountNumber}*22*${amt(-charge)}*${amt(-first.coinsurance)}**12*ICN2${v!.id}`,
        'NM1*QC*1*DOE*JANE',
        ...linesOf(-1),
      ]),
    );
    expect(await detail(made.id)).toMatchObject({ status: 'Pending', resolvedOn: null });
    expect(await detail(v!.id)).toMatchObject({ status: 'Paid', resolvedOn: null });
  });

  it('hands the balance back when the claim of the next policy is voided, which may then be billed again', async () => {
    const [v] = await visitsWithANextPolicy(1);
    const era = remittanceOf(v!, 'NEXT-2501');
    await importEra(era.file);
    const made = await billedOnImport(v!);
    const voided = await biller.request({
      method: 'POST',
      url: `/api/claims/${made.id}/void`,
      payload: { reason: 'Billed to the wrong plan' },
    });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(await detail(v!.id)).toMatchObject({
      balanceCents: era.coinsurance,
      handedOnCents: 0,
      laterClaims: [],
      nextPolicy: { payer: v!.nextPayer, billable: true, reason: null },
    });
    expect((await detail(made.id)).balanceCents).toBe(0);
    const again = await billNext(v!.id);
    expect(again.statusCode, again.body).toBe(201);
    expect((await detail(v!.id)).handedOnCents).toBe(era.coinsurance);
  });

  it('hands the balance back once the next payer accepts a void of the claim billed to it', async () => {
    const [v] = await visitsWithANextPolicy(1);
    const era = remittanceOf(v!, 'NEXT-2551');
    await importEra(era.file);
    const made = await billedOnImport(v!);
    // The next payer has the claim (accepted under its number) when the office finds it was billed in error.
    await sql(`update claims set status = 'Accepted' where id = $1`, [made.id]);
    const asked = await biller.request({
      method: 'POST',
      url: `/api/claims/${made.id}/void-at-payer`,
      payload: { reason: 'The supplemental plan had ended' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    // Until the payer takes the void, the balance stays handed on.
    expect((await detail(v!.id)).handedOnCents).toBe(era.coinsurance);
    await sql(`update claims set original_claim_number = 'NEXT-ICN-2551', status = 'Ready' where id = $1`, [made.id]);
    const batch = await biller.request({ method: 'POST', url: '/api/claim-batches', payload: { claimIds: [made.id] } });
    expect(batch.statusCode, batch.body).toBe(201);
    const ack = await biller.request({
      method: 'POST',
      url: '/api/acknowledgements',
      headers: { 'content-type': 'text/plain' },
      payload: ack277CA({
        interchangeControlNumber: 2551,
        claims: [{ accountNumber: made.accountNumber, status: 'A2:20:PR', billedCents: made.billedCents }],
      }),
    });
    expect(ack.statusCode, ack.body).toBe(200);
    expect((await detail(made.id)).status).toBe('Voided');
    expect(await detail(v!.id)).toMatchObject({
      balanceCents: era.coinsurance,
      handedOnCents: 0,
      laterClaims: [],
      nextPolicy: { payer: v!.nextPayer, billable: true, reason: null },
    });
  });

  it("keeps the next payer's claim in step when the first payer changes its decision, and flags one already sent", async () => {
    const [v] = await visitsWithANextPolicy(1);
    const era = remittanceOf(v!, 'NEXT-2601');
    await importEra(era.file);
    const made = await billedOnImport(v!);
    const charge = v!.lines.reduce((s, l) => s + l.charge, 0);
    const contractual = charge - era.paid - era.coinsurance;
    /** The payer takes back its decision (CLP02 22) and decides again, paying `more` and leaving that much less. */
    const redecide = (trace: string, paid: number, coinsurance: number, more: number) =>
      eraFile([
        ...eraHeader({ paid: amt(more), trace, payer: v!.payer, date: '20261125' }),
        `CLP*${v!.account}*22*-${amt(charge)}*-${amt(paid)}*-${amt(coinsurance)}*MB*ICN${v!.id}`,
        'NM1*QC*1*DOE*JANE',
        `CAS*CO*45*-${amt(contractual)}`,
        `CAS*PR*2*-${amt(coinsurance)}`,
        `CLP*${v!.account}*1*${amt(charge)}*${amt(paid + more)}*${amt(coinsurance - more)}*MB*ICN${v!.id}`,
        'NM1*QC*1*DOE*JANE',
        `CAS*CO*45*${amt(contractual)}`,
        `CAS*PR*2*${amt(coinsurance - more)}`,
      ]);

    // Not sent yet: the new claim follows, owing 10.00 less.
    await importEra(redecide('NEXT-2602', era.paid, era.coinsurance, 1000));
    const left = era.coinsurance - 1000;
    expect(await detail(v!.id)).toMatchObject({ handedOnCents: left, balanceCents: 0 });
    expect(await detail(made.id)).toMatchObject({ priorPayersCents: charge - left, balanceCents: left });
    const followed = await sql<{ resource: string }>(
      `select resource from audit_log where action = 'claim.next_policy.follow' and resource = any($1) order by id`,
      [[`claim/${v!.id}`, `claim/${made.id}`]],
    );
    expect(followed.map((e) => e.resource)).toEqual([`claim/${v!.id}`, `claim/${made.id}`]);

    // Sent and accepted: its payer has the old figures. A work item on it says to send it again; nothing else moves.
    await sql(`update claims set status = 'Accepted', submitted_on = '2026-11-21' where id = $1`, [made.id]);
    await importEra(redecide('NEXT-2603', era.paid + 1000, left, 500));
    expect((await detail(v!.id)).handedOnCents).toBe(left);
    expect((await detail(made.id)).priorPayersCents).toBe(charge - left);
    const items = await sql<{ source: string; claim_id: number; dollars_at_risk_cents: number; reason: string }>(
      `select source, claim_id, dollars_at_risk_cents, reason from work_items where claim_id = $1`,
      [made.id],
    );
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ source: 'review', claim_id: made.id, dollars_at_risk_cents: 500 });
    expect(items[0]!.reason).toContain(`send it again as a replacement (frequency 7)`);

    // Corrected, it answers for what the first payer leaves now, and the item is resolved. No acknowledgement gave
    // its payer's claim number here: the form asks for it (the scrubber holds the claim until then).
    const corrected = await biller.request({
      method: 'POST',
      url: `/api/claims/${made.id}/correct`,
      payload: { reason: 'The first payer paid more' },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(await detail(made.id)).toMatchObject({
      status: 'Draft',
      frequencyCode: '7',
      originalClaimNumber: null,
      priorPayersCents: charge - (left - 500),
      balanceCents: left - 500,
    });
    expect((await detail(v!.id)).handedOnCents).toBe(left - 500);
    const [item] = await sql<{ outcome: string }>(`select outcome from work_items where claim_id = $1`, [made.id]);
    expect(item?.outcome).toBe('corrected_resubmitted');
  });

  it("bills on down a patient's policies: a third claim of the visit is no duplicate of the first two", async () => {
    const [v] = await visitsWithANextPolicy(1);
    await importEra(remittanceOf(v!, 'NEXT-3001').file);
    const second = await billedOnImport(v!);
    // The second payer answers, leaving the coinsurance to the patient's third policy.
    const [{ patient_id: patientId } = { patient_id: 0 }] = await sql<{ patient_id: number }>(
      'select patient_id from claims where id = $1',
      [v!.id],
    );
    await sql(
      `insert into coverages (patient_id, payer, priority, member_id, group_number, relationship, effective_on)
       values ($1, 'UnitedHealthcare', 3, 'TER1', 'GRP300', 'self', '2000-01-01')`,
      [patientId],
    );
    const secondVisit: Visit = {
      ...v!,
      id: second.id,
      account: second.accountNumber,
      payer: second.payer,
      lines: second.lines.map((l) => ({
        lcn: l.lineControlNumber,
        code: l.procedureCode,
        modifiers: l.modifiers,
        charge: l.chargeCents,
      })),
    };
    expect((await importEra(remittanceOf(secondVisit, 'NEXT-3002').file)).claimsBilledNext).toBe(1);
    const made = await billedOnImport(secondVisit);
    expect(made).toMatchObject({ payer: 'UnitedHealthcare', primaryClaim: { id: second.id } });
    const scrubbed = await biller.request({ method: 'POST', url: `/api/claims/${made.id}/scrub`, payload: {} });
    expect(scrubbed.json<ClaimScrubResult>().edits.map((e) => e.code)).not.toContain('DUPLICATE_SERVICE');
  });

  it('refuses a claim whose first payer forwarded the balance itself, and one with no next policy', async () => {
    const [v] = await visitsWithANextPolicy(1);
    // CLP02 19: processed as primary and forwarded to the next payer (a crossover), which will answer on its own.
    await importEra(remittanceOf(v!, 'NEXT-1002', '19').file);
    const crossed = await billNext(v!.id);
    expect(crossed.statusCode).toBe(409);
    expect(crossed.json<{ error: { code: string } }>().error.code).toBe('CROSSED_OVER');

    const [single] = await sql<{ id: number; payer: string }>(
      `select c.id, c.payer from claims c join coverages v on v.id = c.coverage_id
       where c.voided_at is null and not exists (select 1 from coverages o where o.patient_id = c.patient_id
         and o.priority > v.priority)
       order by c.id limit 1`,
    );
    const none = await billNext(single!.id);
    expect(none.statusCode).toBe(409);
    expect(none.json<{ error: { code: string; fields: { field: string }[] } }>().error).toMatchObject({
      code: 'NO_NEXT_POLICY',
      fields: [{ field: 'coverageId' }],
    });
    expect((await detail(single!.id)).nextPolicy).toBeNull();
  });

  it('refuses to send a claim whose lines no longer match the adjudicated ones', async () => {
    const [v] = await visitsWithANextPolicy(1);
    await importEra(remittanceOf(v!, 'NEXT-1003').file);
    const made = await billedOnImport(v!);
    // The billing staff changed a charge on the new claim: the first payer's decision no longer adds up against it.
    await sql(`update claim_lines set charge_cents = charge_cents + 100 where claim_id = $1 and line_number = 1`, [
      made.id,
    ]);
    // The scrubber holds it, saying why; forced Ready anyway, the batch refuses it.
    const scrubbed = await biller.request({ method: 'POST', url: `/api/claims/${made.id}/scrub`, payload: {} });
    const held = scrubbed.json<ClaimScrubResult>();
    expect(held.status).toBe('Draft');
    expect(held.edits.find((e) => e.code === 'PRIOR_PAYER_UNREPORTABLE')?.message).toContain(
      `its lines differ from ${v!.account}'s`,
    );
    await sql(`update claims set status = 'Ready' where id = $1`, [made.id]);
    const batch = await biller.request({ method: 'POST', url: '/api/claim-batches', payload: { claimIds: [made.id] } });
    expect(batch.statusCode).toBe(409);
    expect(batch.json<{ error: { code: string; message: string } }>().error.code).toBe('CLAIMS_NOT_SENDABLE');
    expect(batch.body).toContain(`${made.accountNumber}: its lines differ from ${v!.account}'s`);
  });

  it('makes one claim when the balance is billed twice at once', async () => {
    const [v] = await visitsWithANextPolicy(1);
    await importEra(remittanceOf(v!, 'NEXT-4001').file);
    // The claim the import made is voided (billed in error), so the balance may be billed again by hand.
    const auto = await billedOnImport(v!);
    const voided = await biller.request({
      method: 'POST',
      url: `/api/claims/${auto.id}/void`,
      payload: { reason: 'Wrong plan' },
    });
    expect(voided.statusCode, voided.body).toBe(200);
    const answers = await Promise.all([billNext(v!.id), billNext(v!.id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    const made = await sql<{ n: string }>(
      'select count(*) as n from claims where primary_claim_id = $1 and voided_at is null',
      [v!.id],
    );
    expect(Number(made[0]!.n)).toBe(1);
  });

  it('leaves a denied claim, and a crossed-over one, for the biller when the remittance posts', async () => {
    const [denied, crossed] = await visitsWithANextPolicy(2);
    const charge = denied!.lines.reduce((s, l) => s + l.charge, 0);
    const denial = eraFile([
      ...eraHeader({ paid: '0', trace: 'NEXT-5001', payer: denied!.payer, date: '20261120' }),
      `CLP*${denied!.account}*4*${amt(charge)}*0**MB*ICN${denied!.id}`,
      'NM1*QC*1*DOE*JANE',
      `CAS*CO*96*${amt(charge)}`,
    ]);
    expect((await importEra(denial)).claimsBilledNext).toBe(0);
    expect(await detail(denied!.id)).toMatchObject({ status: 'Denied', laterClaims: [] });
    // CLP02 19: the first payer forwarded the balance itself (a crossover); billing it again would be a duplicate.
    expect((await importEra(remittanceOf(crossed!, 'NEXT-5002', '19').file)).claimsBilledNext).toBe(0);
    expect((await detail(crossed!.id)).laterClaims).toEqual([]);
  });

  it('answers a malformed claim id 400 and an unknown one 404, writing nothing', async () => {
    const count = async () => Number((await sql<{ n: string }>('select count(*) as n from claims'))[0]!.n);
    const before = await count();
    const malformed = await biller.request({ method: 'POST', url: '/api/claims/abc/next-policy' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('id');
    const unknown = await billNext(2_000_000_000);
    expect(unknown.statusCode).toBe(404);
    expect(await count()).toBe(before);
  });

  it('is for staff who may edit claims', async () => {
    const doctor = await signInAs(t.app, 'doctor');
    const [v] = await visitsWithANextPolicy(1);
    expect((await doctor.request({ method: 'POST', url: `/api/claims/${v!.id}/next-policy` })).statusCode).toBe(403);
  });
});
