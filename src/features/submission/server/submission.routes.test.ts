import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseX12, transactionSetsOf } from '@/features/x12/x12.parse';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { TEST_TODAY } from '@/testing/test-clock';
import { amt, eraFile, eraHeader } from '@/testing/era-files';
import { ack277CA, ack999 } from '@/testing/x12-acknowledgements';
import { claimsReadBack } from '@/testing/x12-837-read';
import type { AcknowledgementResult, ClaimBatch, ClaimBatchDetail, CreatedClaimBatches } from '../submission.schema';
import type { ClaimDetail, ClaimRow } from '@/features/claims/claims.schema';

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

interface ReadyClaim {
  id: number;
  account_number: string;
}

/** Makes `n` seeded claims of the payer Ready (billed to a coverage of `relationship`, when given). */
async function makeReady(payer: string, n: number, relationship?: string): Promise<ReadyClaim[]> {
  const rows = await sql<ReadyClaim>(
    `update claims set status = 'Ready' where id in (
       select c.id from claims c join coverages v on v.id = c.coverage_id
       where c.payer = $1 and c.voided_at is null and c.status not in ('Ready', 'Submitted')
         and ($3::text is null or v.relationship = $3)
         and not exists (select 1 from claim_batch_claims bc where bc.claim_id = c.id)
       order by c.id limit $2)
     returning id, account_number`,
    [payer, n, relationship ?? null],
  );
  if (rows.length !== n) throw new Error(`the seed has ${rows.length} ${payer} claims to make Ready, not ${n}`);
  return rows.sort((a, b) => a.id - b.id);
}

const post = (body: unknown) => biller.request({ method: 'POST', url: '/api/claim-batches', payload: body as object });

function upload(text: string, contentType = 'text/plain') {
  return biller.request({
    method: 'POST',
    url: '/api/acknowledgements',
    payload: text,
    headers: { 'content-type': contentType },
  });
}

/** Outstanding A/R as of today, as the KPIs give it. */
async function outstandingAr(): Promise<number> {
  const res = await biller.request({ method: 'GET', url: '/api/claims/analytics/kpis?periodDays=30' });
  return res.json<{ outstandingArCents: number }>().outstandingArCents;
}

async function detail(claimId: number): Promise<ClaimDetail> {
  const res = await biller.request({ method: 'GET', url: `/api/claims/${claimId}` });
  expect(res.statusCode).toBe(200);
  return res.json<ClaimDetail>();
}

async function counters(): Promise<Record<string, number>> {
  const rows = await sql<{ name: string; last_value: number }>('select name, last_value from x12_control_numbers');
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.last_value)]));
}

async function statuses(claimIds: number[]): Promise<string[]> {
  const rows = await sql<{ status: string }>('select status from claims where id = any($1) order by id', [claimIds]);
  return rows.map((r) => r.status);
}

describe('creating a batch', () => {
  let batch: ClaimBatch;
  let ready: ReadyClaim[];

  it('sends every Ready claim of a payer: control numbers taken, claims Submitted from today, audited', async () => {
    ready = [...(await makeReady('Aetna', 2, 'self')), ...(await makeReady('Aetna', 1, 'child'))].sort(
      (a, b) => a.id - b.id,
    );
    const before = await counters();
    const res = await post({ payer: 'aetna' });
    expect(res.statusCode, res.body).toBe(201);
    const { batches } = res.json<CreatedClaimBatches>();
    expect(batches).toHaveLength(1);
    batch = batches[0]!;
    const billed = await sql<{ sum: string }>('select sum(billed_cents) from claims where id = any($1)', [
      ready.map((r) => r.id),
    ]);
    expect(batch).toMatchObject({
      payer: 'Aetna',
      payerId: '60054',
      status: 'Submitted',
      claimCount: 3,
      totalCents: Number(billed[0]!.sum),
      interchangeControlNumber: before.ISA! + 1,
      groupControlNumber: before.GS! + 1,
      createdBy: expect.any(String) as string,
      acknowledgedAt: null,
      errors: [],
    });
    expect(batch.fileName).toBe(`837P-batch-${batch.id}-${String(before.ISA! + 1).padStart(9, '0')}.txt`);
    expect(await counters()).toEqual({ ISA: before.ISA! + 1, GS: before.GS! + 1, ST: before.ST! + 1 });
    const claims = await sql<{ status: string; submitted_on: string }>(
      `select status, submitted_on::text from claims where id = any($1)`,
      [ready.map((r) => r.id)],
    );
    expect(claims).toEqual(ready.map(() => ({ status: 'Submitted', submitted_on: TEST_TODAY })));
    const audit = await sql<{ action: string; resource: string }>(
      `select action, resource from audit_log where action in ('claim.submit', 'claim_batch.create') order by id`,
    );
    expect(audit).toEqual([
      { action: 'claim_batch.create', resource: `claim_batch/${batch.id}` },
      ...ready.map((r) => ({ action: 'claim.submit', resource: `claim/${r.id}` })),
    ]);
    const list = await biller.request({ method: 'GET', url: '/api/claim-batches' });
    expect(list.json<{ items: ClaimBatch[] }>().items[0]).toEqual(batch);
  });

  it('downloads the 837 as a named text file that reads back into the claims it came from', async () => {
    const res = await biller.request({ method: 'GET', url: `/api/claim-batches/${batch.id}/837` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${batch.fileName}"`);
    const document = parseX12(res.body);
    const [interchange] = document.interchanges;
    expect(interchange).toMatchObject({
      senderId: 'RFP0042',
      receiverId: 'PRAIRIECH',
      usage: 'T',
      controlNumber: String(batch.interchangeControlNumber).padStart(9, '0'),
    });
    expect(interchange!.groups[0]).toMatchObject({
      functionalId: 'HC',
      version: '005010X222A1',
      controlNumber: String(batch.groupControlNumber),
    });
    expect(transactionSetsOf(document, '837')).toHaveLength(1);

    // Every claim as stored: account number, diagnoses, and each line's code, modifiers, charge, pointers and date.
    const headers = await sql<{ id: number; account_number: string; diagnoses: string[]; billed_cents: number }>(
      'select id, account_number, diagnoses, billed_cents from claims where id = any($1) order by id',
      [ready.map((r) => r.id)],
    );
    const lines = await sql<{
      claim_id: number;
      procedure_code: string;
      modifiers: string[];
      units: number;
      charge_cents: number;
      diagnosis_pointers: number[];
      service_date: string;
      line_control_number: string;
    }>(
      `select claim_id, procedure_code, modifiers, units, charge_cents, diagnosis_pointers,
         to_char(service_date, 'YYYYMMDD') as service_date, line_control_number
       from claim_lines where claim_id = any($1) order by claim_id, line_number`,
      [ready.map((r) => r.id)],
    );
    const read = claimsReadBack(res.body);
    expect(read.map((c) => c.accountNumber)).toEqual(headers.map((h) => h.account_number));
    for (const [i, h] of headers.entries()) {
      expect(read[i]).toMatchObject({
        totalCents: h.billed_cents,
        diagnoses: h.diagnoses.map((d) => d.replace('.', '')),
        lines: lines
          .filter((l) => l.claim_id === h.id)
          .map((l) => ({
            procedureCode: l.procedure_code,
            modifiers: l.modifiers,
            chargeCents: l.charge_cents,
            units: l.units,
            diagnosisPointers: l.diagnosis_pointers,
            serviceDate: l.service_date,
            lineControlNumber: l.line_control_number,
          })),
      });
    }
    // The dependent's claim has its patient loop (HL…23).
    expect(res.body).toMatch(/^HL\*\d+\*\d+\*23\*0~$/m);
    expect(res.body).toMatch(/^PAT\*19~$/m);
  });

  it('writes the same bytes again, whatever changed in the records since', async () => {
    const first = await biller.request({ method: 'GET', url: `/api/claim-batches/${batch.id}/837` });
    await sql(
      `update patients set address_line1 = '1 Changed Road' where id in (select patient_id from claims where id = $1)`,
      [ready[0]!.id],
    );
    await sql(`update practice_settings set billing_name = 'Renamed Practice LLC'`);
    const second = await biller.request({ method: 'GET', url: `/api/claim-batches/${batch.id}/837` });
    expect(second.body).toBe(first.body);
    expect(second.body).not.toContain('Changed Road');
    await sql(`update practice_settings set billing_name = 'Riverside Family Practice LLC'`);
    const audit = await sql<{ action: string }>(
      `select action from audit_log where resource = $1 and action = 'claim_batch.837.export'`,
      [`claim_batch/${batch.id}`],
    );
    expect(audit).toHaveLength(3);
  });

  it('takes distinct control numbers for batches created at the same moment', async () => {
    await makeReady('Humana', 2);
    await makeReady('UnitedHealthcare', 2);
    const before = await counters();
    const [a, b] = await Promise.all([post({ payer: 'Humana' }), post({ payer: 'UnitedHealthcare' })]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const made = [...a.json<CreatedClaimBatches>().batches, ...b.json<CreatedClaimBatches>().batches];
    expect(made.map((x) => x.interchangeControlNumber).sort()).toEqual([before.ISA! + 1, before.ISA! + 2]);
    expect(made.map((x) => x.groupControlNumber).sort()).toEqual([before.GS! + 1, before.GS! + 2]);
    expect(await counters()).toEqual({ ISA: before.ISA! + 2, GS: before.GS! + 2, ST: before.ST! + 2 });
  });

  it('sends the prior authorization that covers a service (REF*G1): approved, in force that day, the latest decided', async () => {
    const [claim] = await makeReady('Cigna', 1);
    const [line] = await sql<{ patient_id: number; procedure_code: string; service_date: string }>(
      `select c.patient_id, l.procedure_code, l.service_date::text as service_date
       from claims c join claim_lines l on l.claim_id = c.id where c.id = $1 order by l.line_number limit 1`,
      [claim!.id],
    );
    const authorize = (status: string, number: string | null, decided: string, from: string, to: string) =>
      sql(
        `insert into authorizations (patient_id, service, procedure_code, payer, status, requested_on, decided_on,
           auth_number, approved_units, valid_from, valid_to)
         values ($1, 'Test service', $2, 'Cigna', $3, $4::date - 30, $4::date, $5, $6, $7::date, $8::date)`,
        [line!.patient_id, line!.procedure_code, status, decided, number, number ? 1 : null, from, to],
      );
    const day = line!.service_date;
    await authorize('Approved', 'PA-OLDER', `${day}`, day, day);
    await authorize('Approved', 'PA-NEWER', `${day}`, day, day);
    // Decided later, but not in force on the service day, or not approved: neither is sent.
    await sql(`update authorizations set decided_on = decided_on - 1 where auth_number = 'PA-OLDER'`);
    await authorize('Approved', 'PA-EXPIRED', TEST_TODAY, '2000-01-01', '2000-12-31');
    await authorize('Denied', null, TEST_TODAY, day, day);

    const res = await post({ claimIds: [claim!.id] });
    expect(res.statusCode, res.body).toBe(201);
    const [made] = res.json<CreatedClaimBatches>().batches;
    const file = (await biller.request({ method: 'GET', url: `/api/claim-batches/${made!.id}/837` })).body;
    const segments = file.split(/~\s*/);
    const clm = segments.findIndex((s) => s.startsWith(`CLM*${claim!.account_number}*`));
    const hi = segments.findIndex((s, i) => i > clm && s.startsWith('HI*'));
    // Loop 2300: after CLM, before HI; the one authorized line takes the claim's number, not one of its own.
    expect(segments.slice(clm, hi)).toContain('REF*G1*PA-NEWER');
    expect(segments.filter((s) => s.startsWith('REF*G1*'))).toEqual(['REF*G1*PA-NEWER']);
  });

  it('makes one batch per payer from chosen claims', async () => {
    const medicaid = await makeReady('Medicaid', 1);
    const tricare = await makeReady('Tricare', 2);
    const res = await post({ claimIds: [tricare[1]!.id, medicaid[0]!.id, tricare[0]!.id] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<CreatedClaimBatches>().batches.map((x) => [x.payer, x.claimCount])).toEqual([
      ['Medicaid', 1],
      ['Tricare', 2],
    ]);
  });
});

describe('refusing a batch, with nothing written', () => {
  async function expectNothingWritten(run: () => Promise<void>) {
    const before = await counters();
    const [{ count } = { count: '' }] = await sql<{ count: string }>(
      `select (select count(*) from claim_batches) + (select count(*) from claim_batch_claims) as count`,
    );
    await run();
    expect(await counters()).toEqual(before);
    const [after] = await sql<{ count: string }>(
      `select (select count(*) from claim_batches) + (select count(*) from claim_batch_claims) as count`,
    );
    expect(after!.count).toBe(count);
  }

  it('answers 400 naming the field for bad input', async () => {
    const cases: [unknown, string][] = [
      [{}, 'payer'],
      [{ payer: 'Aetna', claimIds: [1] }, 'claimIds'],
      [{ claimIds: [] }, 'claimIds'],
      [{ claimIds: [1, 1] }, 'claimIds'],
      [{ payer: 'Nobody Health' }, 'payer'],
      [{ claimIds: [2_000_000_000] }, 'claimIds'],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields.map((f) => f.field)).toContain(field);
    }
  });

  it('refuses a payer with nothing Ready, or one that is not sent to', async () => {
    await expectNothingWritten(async () => {
      const none = await post({ payer: 'Kaiser Permanente' });
      expect(none.statusCode).toBe(409);
      expect(none.json()).toMatchObject({
        error: { code: 'NOTHING_TO_SEND', message: 'payer: Kaiser Permanente has no Ready claims to send' },
      });
      const selfPay = await post({ payer: 'Self-Pay' });
      expect(selfPay.statusCode).toBe(409);
      expect(selfPay.json()).toMatchObject({ error: { code: 'PAYER_NOT_ELECTRONIC' } });
    });
  });

  it('refuses chosen claims when one is not Ready, naming it, and leaves the Ready ones Ready', async () => {
    const ready = await makeReady('Cigna', 1);
    const [paid] = await sql<ReadyClaim>(
      `select id, account_number from claims where status = 'Paid' and voided_at is null order by id limit 1`,
    );
    await expectNothingWritten(async () => {
      const res = await post({ claimIds: [ready[0]!.id, paid!.id] });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        error: {
          code: 'CLAIMS_NOT_SENDABLE',
          message: `claimIds: 1 claim cannot be sent: ${paid!.account_number}: it is Paid, not Ready`,
          fields: [{ field: 'claimIds' }],
        },
      });
    });
    expect(await statuses([ready[0]!.id])).toEqual(['Ready']);
  });

  it('refuses claims that cannot be written, each with its reason', async () => {
    const ready = await makeReady('Cigna', 2);
    await sql(`update patients set city = null where id = (select patient_id from claims where id = $1)`, [
      ready[1]!.id,
    ]);
    await expectNothingWritten(async () => {
      const res = await post({ payer: 'Cigna' });
      expect(res.statusCode).toBe(409);
      expect(res.json<{ error: { message: string } }>().error.message).toContain(
        `${ready[1]!.account_number}: the patient's address is incomplete`,
      );
    });
    await sql(`update patients set city = 'Springfield' where id = (select patient_id from claims where id = $1)`, [
      ready[1]!.id,
    ]);
  });

  it('sends Medicare as secondary payer with why it pays second (SBR05), and refuses it without', async () => {
    const [claim] = await makeReady('Medicare', 1);
    // Working past 65: an employer plan pays first, Medicare second.
    const [policy] = await sql<{ id: number; patient_id: number }>(
      `update coverages set priority = 2 where id = (select coverage_id from claims where id = $1)
       returning id, patient_id`,
      [claim!.id],
    );
    await sql(
      `insert into coverages (patient_id, payer, priority, member_id, group_number, relationship, effective_on)
       values ($1, 'Aetna', 1, 'W555000111', 'GRP500600', 'self', '2000-01-01')`,
      [policy!.patient_id],
    );
    await expectNothingWritten(async () => {
      const res = await post({ claimIds: [claim!.id] });
      expect(res.statusCode).toBe(409);
      expect(res.json<{ error: { message: string } }>().error.message).toContain(
        `${claim!.account_number}: its policy with Medicare as secondary payer does not say why Medicare pays second`,
      );
    });
    await sql(`update coverages set medicare_secondary_type = '12' where id = $1`, [policy!.id]);
    const res = await post({ claimIds: [claim!.id] });
    expect(res.statusCode, res.body).toBe(201);
    const [made] = res.json<CreatedClaimBatches>().batches;
    const file = (await biller.request({ method: 'GET', url: `/api/claim-batches/${made!.id}/837` })).body;
    const sbr = file.split(/~\s*/).filter((segment) => segment.startsWith('SBR*'));
    // 2000B: Medicare, secondary, working aged (12); 2320: the employer plan that paid first, without SBR05.
    expect(sbr).toHaveLength(2);
    expect(sbr[0]).toMatch(/^SBR\*S\*18\*[^*]*\*\*12\*\*\*\*MB$/);
    expect(sbr[1]).toBe('SBR*P*18*GRP500600******CI');
  });

  it("refuses while the practice's billing identity cannot fill loop 2010AA", async () => {
    await sql(`update practice_settings set billing_zip = '62701'`);
    await expectNothingWritten(async () => {
      const res = await post({ payer: 'Cigna' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        error: { code: 'PRACTICE_NOT_READY_TO_SEND', fields: [{ field: 'billingZip' }] },
      });
    });
    await sql(`update practice_settings set billing_zip = '627011234'`);
  });
});

describe('acknowledgements', () => {
  let sent: ClaimBatch;
  let claims: ReadyClaim[];

  beforeAll(async () => {
    await sql(`update claims set status = 'Draft' where status = 'Ready'`);
    claims = await makeReady('Blue Cross Blue Shield', 3);
    sent = (await post({ payer: 'Blue Cross Blue Shield' })).json<CreatedClaimBatches>().batches[0]!;
  });

  /** The ST02 a batch's (one) transaction set was written with. */
  async function st02Of(batchId: number): Promise<string> {
    const [row] = await sql<{ n: number }>('select first_set_control_number as n from claim_batches where id = $1', [
      batchId,
    ]);
    return String(row!.n).padStart(4, '0');
  }

  it('refuses what is not an acknowledgement, or not sent as text', async () => {
    const notX12 = await upload('hello');
    expect(notX12.statusCode).toBe(400);
    expect(notX12.json()).toMatchObject({
      error: {
        code: 'X12_INVALID',
        fields: [{ field: 'body' }],
        message: expect.stringMatching(/^body: not a valid X12 file: /) as string,
      },
    });
    const file837 = (await biller.request({ method: 'GET', url: `/api/claim-batches/${sent.id}/837` })).body;
    const an837 = await upload(file837);
    expect(an837.statusCode).toBe(422);
    expect(an837.json()).toMatchObject({
      error: { code: 'NOT_AN_ACKNOWLEDGEMENT', message: 'body: the file holds no 999 or 277CA (it holds 837)' },
    });
    const json = await biller.request({ method: 'POST', url: '/api/acknowledgements', payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', fields: [{ field: 'body' }] } });
    expect((await upload('   ')).statusCode).toBe(400);
    const huge = await upload('A'.repeat(10 * 1024 * 1024 + 1));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'body: must be at most 10 MB', fields: [{ field: 'body' }] },
    });
    const unknownGroup = await upload(
      ack999({
        interchangeControlNumber: 900,
        groupControlNumber: 99999,
        sets: [{ controlNumber: '0001', code: 'A' }],
      }),
    );
    expect(unknownGroup.statusCode).toBe(422);
    expect(unknownGroup.json()).toMatchObject({
      error: {
        code: 'UNKNOWN_CONTROL_NUMBER',
        message: 'body: AK1-02 group control number 99999 matches no batch sent',
      },
    });
    const wrongSet = await upload(
      ack999({
        interchangeControlNumber: 901,
        groupControlNumber: sent.groupControlNumber,
        sets: [{ controlNumber: '9999', code: 'R' }],
      }),
    );
    expect(wrongSet.statusCode).toBe(422);
    expect(wrongSet.json<{ error: { message: string } }>().error.message).toMatch(
      /AK2-02 transaction set 9999 is not in batch/,
    );
    const [row] = await sql<{ status: string }>('select status from claim_batches where id = $1', [sent.id]);
    expect(row!.status).toBe('Submitted');
  });

  it('refuses a 999 or 277CA element the database could not keep, naming it, and writes nothing', async () => {
    // What applying an acknowledgement writes: its row, the batch's acknowledgement, the claims' answers.
    const written = () =>
      sql<{ n: number }>(
        `select (select count(*) from claim_acknowledgements) + (select count(*) from claim_batches where acknowledged_at is not null)
           + (select count(*) from claim_batch_claims where answered_by is not null) as n`,
      );
    const before = await written();
    const groupOf = (gcn: string) =>
      ack999({
        interchangeControlNumber: 910,
        groupControlNumber: 1,
        sets: [{ controlNumber: '0001', code: 'A' }],
      }).replace('AK1*HC*1*', `AK1*HC*${gcn}*`);
    // A group control number is at most 9 digits (X12 GS06): a longer one, or letters, never reach the query.
    for (const gcn of ['12345678901', '12A']) {
      const res = await upload(groupOf(gcn));
      expect(res.statusCode, gcn).toBe(422);
      expect(res.json<{ error: { message: string } }>().error.message).toContain(`AK1-02 '${gcn}'`);
    }
    const badCode = await upload(
      ack999({
        interchangeControlNumber: 911,
        groupControlNumber: sent.groupControlNumber,
        sets: [{ controlNumber: '0001', code: 'Q' }],
      }),
    );
    expect(badCode.statusCode).toBe(422);
    expect(badCode.json<{ error: { message: string } }>().error.message).toMatch(/IK5-01 'Q'/);
    const badCategory = await upload(
      ack277CA({
        interchangeControlNumber: 912,
        claims: [{ accountNumber: 'ANY-1', status: 'Z9:20:PR', billedCents: 100 }],
      }),
    );
    expect(badCategory.statusCode).toBe(422);
    expect(badCategory.json<{ error: { message: string } }>().error.message).toMatch(/STC01-1 'Z9'/);
    expect(await written()).toEqual(before);
  });

  it('applies a 999 that accepts the batch, and refuses the same file twice', async () => {
    const file = ack999({
      interchangeControlNumber: 902,
      groupControlNumber: sent.groupControlNumber,
      sets: [{ controlNumber: await st02Of(sent.id), code: 'A' }],
    });
    const res = await upload(file, 'application/edi-x12');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AcknowledgementResult>()).toMatchObject({
      kind: '999',
      summary: `Batch ${sent.id} accepted`,
      batches: [{ id: sent.id, status: 'Accepted' }],
      accepted: 0,
      rejected: 0,
    });
    expect(await statuses(claims.map((c) => c.id))).toEqual(['Submitted', 'Submitted', 'Submitted']);
    const again = await upload(file);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'DUPLICATE_ACKNOWLEDGEMENT' } });
    // Another 999 for the same batch is refused too: the batch has its answer.
    const second = await upload(
      ack999({
        interchangeControlNumber: 903,
        groupControlNumber: sent.groupControlNumber,
        sets: [{ controlNumber: await st02Of(sent.id), code: 'R' }],
      }),
    );
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ error: { code: 'ALREADY_ACKNOWLEDGED' } });
  });

  it('applies a 277CA: accepted claims Accepted, a rejected one Draft with its reason and no filing day', async () => {
    const [a, b, c] = claims;
    const billed = async (id: number) =>
      Number((await sql<{ b: number }>('select billed_cents as b from claims where id = $1', [id]))[0]!.b);
    const res = await upload(
      ack277CA({
        interchangeControlNumber: 904,
        claims: [
          {
            accountNumber: a!.account_number,
            status: 'A2:20:PR',
            billedCents: await billed(a!.id),
            payerClaimNumber: 'BC26110001',
          },
          {
            accountNumber: b!.account_number,
            status: 'A7:562:85',
            billedCents: await billed(b!.id),
            text: 'BILLING NPI NOT ON FILE',
          },
          { accountNumber: c!.account_number, status: 'A1:19:PR', billedCents: await billed(c!.id) },
        ],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AcknowledgementResult>()).toMatchObject({
      kind: '277CA',
      summary: '1 claim accepted, 1 claim rejected, 1 claim received, awaiting the payer',
      accepted: 1,
      rejected: 1,
      noted: 1,
    });
    expect(await statuses([a!.id, b!.id, c!.id])).toEqual(['Accepted', 'Draft', 'Submitted']);
    const rejected = await detail(b!.id);
    expect(rejected.submittedOn).toBeNull();
    expect(rejected.submissions).toEqual([
      {
        batchId: sent.id,
        sentAt: sent.createdAt,
        payer: 'Blue Cross Blue Shield',
        outcome: 'Rejected',
        answeredBy: '277CA',
        answeredAt: expect.any(String) as string,
        code: 'A7:562:85',
        message:
          "A7:562:85 Rejected for invalid information: entity's National Provider Identifier (NPI) (billing provider) — BILLING NPI NOT ON FILE",
        payerClaimNumber: null,
        note: null,
      },
    ]);
    expect(rejected.history.map((h) => h.title)).toEqual(
      expect.arrayContaining([`Sent in batch ${sent.id}`, 'Rejected (277CA)']),
    );
    expect((await detail(a!.id)).submissions[0]).toMatchObject({ outcome: 'Accepted', payerClaimNumber: 'BC26110001' });
    expect((await detail(c!.id)).submissions[0]).toMatchObject({
      outcome: null,
      note: expect.stringMatching(/^A1:19:PR Received/) as string,
    });
    const [batchRow] = (await biller.request({ method: 'GET', url: `/api/claim-batches/${sent.id}` }))
      .json<ClaimBatchDetail>()
      .claims.filter((x) => x.claimId === b!.id);
    expect(batchRow).toMatchObject({ outcome: 'Rejected', status: 'Draft', code: 'A7:562:85' });
    // The rejection waits in the work queue for somebody to correct and resend the claim; the others do not.
    const items = await sql<{ claim_id: number; source: string; category: string; reason: string; dollars: number }>(
      `select claim_id, source, category, reason, dollars_at_risk_cents as dollars from work_items
        where claim_id = any($1) and resolved_at is null`,
      [[a!.id, b!.id, c!.id]],
    );
    expect(items).toEqual([
      {
        claim_id: b!.id,
        source: 'rejection',
        category: 'other',
        reason: expect.stringMatching(/^Rejected by 277CA: A7:562:85 .*BILLING NPI NOT ON FILE$/) as string,
        dollars: await billed(b!.id),
      },
    ]);
  });

  it('refuses a 277CA that answers a claim already answered, or one never sent, applying none of it', async () => {
    const [a, , c] = claims;
    const answeredTwice = await upload(
      ack277CA({
        interchangeControlNumber: 905,
        claims: [
          { accountNumber: c!.account_number, status: 'A2:20:PR', billedCents: 100 },
          { accountNumber: a!.account_number, status: 'A3:21', billedCents: 100 },
        ],
      }),
    );
    expect(answeredTwice.statusCode).toBe(409);
    expect(answeredTwice.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'ALREADY_ACKNOWLEDGED',
      message: expect.stringContaining(`${a!.account_number} was already accepted on`) as string,
    });
    const unknown = await upload(
      ack277CA({
        interchangeControlNumber: 906,
        claims: [
          { accountNumber: c!.account_number, status: 'A2:20:PR', billedCents: 100 },
          { accountNumber: 'ACC-NEVER-SENT', status: 'A2:20:PR', billedCents: 100 },
        ],
      }),
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json<{ error: { message: string } }>().error.message).toMatch(
      /^body: TRN02 'ACC-NEVER-SENT' \(segment \d+\) matches no claim sent$/,
    );
    // Neither file changed the claim both named.
    expect(await statuses([c!.id])).toEqual(['Submitted']);
  });

  it('applies a 999 rejecting a batch: the batch Rejected with its errors, its claims Draft and not filed', async () => {
    const rejectedClaims = await makeReady('Cigna', 1);
    const [batch] = (await post({ claimIds: rejectedClaims.map((r) => r.id) })).json<CreatedClaimBatches>().batches;
    const res = await upload(
      ack999({
        interchangeControlNumber: 907,
        groupControlNumber: batch!.groupControlNumber,
        sets: [
          {
            controlNumber: await st02Of(batch!.id),
            code: 'R',
            errors: ['IK3*NM1*10*2010AA*8', 'IK4*9*67*I12*123'],
            setErrorCodes: ['5'],
          },
        ],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AcknowledgementResult>()).toMatchObject({
      summary: `Batch ${batch!.id} rejected: 3 errors, 1 claim back to Draft`,
      batches: [{ id: batch!.id, status: 'Rejected' }],
      rejected: 1,
    });
    const listed = (await biller.request({ method: 'GET', url: '/api/claim-batches' }))
      .json<{ items: ClaimBatch[] }>()
      .items.find((x) => x.id === batch!.id);
    expect(listed).toMatchObject({ status: 'Rejected', acknowledgementCode: 'R', rejectedClaims: 1 });
    expect(listed!.errors.map((e) => e.message)).toEqual([
      'NM1 (segment 10 of the set, loop 2010AA): segment has data element errors',
      "NM109 (element 67): value does not match the pattern the implementation guide requires '123'",
      `transaction set ${await st02Of(batch!.id)} rejected: one or more segments in error`,
    ]);
    const claim = await detail(rejectedClaims[0]!.id);
    expect(claim).toMatchObject({ status: 'Draft', submittedOn: null });
    expect(claim.submissions[0]).toMatchObject({ outcome: 'Rejected', answeredBy: '999', code: 'R' });
    expect(claim.submissions[0]!.message).toMatch(/^The clearinghouse rejected the file \(999 R\): NM1 \(segment 10/);
  });
});

/**
 * A claim nobody has paid on, sent to Aetna on 1 October and denied there (CO-16) under the payer's number `icn`.
 */
async function deniedAtAetna(icn: string, trace: string) {
  const [claim] = await sql<ReadyClaim>(
    `update claims set status = 'Ready' where id = (
       select c.id from claims c join coverages v on v.id = c.coverage_id
       where c.payer = 'Aetna' and c.voided_at is null and c.status not in ('Ready', 'Submitted')
         and v.relationship = 'self' and c.primary_claim_id is null
         and not exists (select 1 from claim_batch_claims bc where bc.claim_id = c.id)
         and not exists (select 1 from payments p where p.claim_id = c.id)
       order by c.id limit 1)
     returning id, account_number`,
  );
  expect((await post({ claimIds: [claim!.id] })).statusCode).toBe(201);
  await sql(`update claims set submitted_on = '2026-10-01' where id = $1`, [claim!.id]);
  const [{ billed } = { billed: 0 }] = await sql<{ billed: number }>(
    `select billed_cents as billed from claims where id = $1`,
    [claim!.id],
  );
  const remittance = await biller.request({
    method: 'POST',
    url: '/api/remittances',
    headers: { 'content-type': 'application/edi-x12' },
    payload: eraFile([
      ...eraHeader({ paid: '0', trace, date: '20261110' }),
      `CLP*${claim!.account_number}*4*${amt(billed)}*0**12*${icn}`,
      'NM1*QC*1*DOE*JANE',
      `CAS*CO*16*${amt(billed)}`,
    ]),
  });
  expect(remittance.statusCode, remittance.body).toBe(201);
  expect((await detail(claim!.id)).status).toBe('Denied');
  return { ...claim!, billed };
}

/** Scrubs a Draft claim, expecting it clean, sends it in a batch of its own, and answers that batch's segments. */
async function scrubAndSend(claimId: number): Promise<string[]> {
  const scrub = await biller.request({ method: 'POST', url: `/api/claims/${claimId}/scrub`, payload: {} });
  expect(scrub.json<{ clean: boolean }>(), scrub.body).toMatchObject({ clean: true });
  const sent = await post({ claimIds: [claimId] });
  expect(sent.statusCode, sent.body).toBe(201);
  const batchId = sent.json<CreatedClaimBatches>().batches[0]!.id;
  return (await biller.request({ method: 'GET', url: `/api/claim-batches/${batchId}/837` })).body.split(/~\s*/);
}

describe('correcting a claim the payer has', () => {
  const correct = (id: number, payload: object, who: SignedIn = biller) =>
    who.request({ method: 'POST', url: `/api/claims/${id}/correct`, payload });

  it('reopens a denied claim as a Draft replacement of the payer’s number, and sends it as one, filed when it was first', async () => {
    // Sent on 1 October, denied by Aetna for missing information (CO-16) under its claim number ICN-CORR-1.
    const claim = await deniedAtAetna('ICN-CORR-1', 'CORR-1');
    const owed = await outstandingAr();

    const res = await correct(claim.id, { reason: 'Referring provider was missing' });
    expect(res.statusCode, res.body).toBe(200);
    // Reopened as a Draft, the claim is still owed: it stays in A/R while it is corrected.
    expect(await outstandingAr()).toBe(owed);
    expect(res.json<ClaimRow>()).toMatchObject({ id: claim.id, status: 'Draft' });
    expect(await detail(claim.id)).toMatchObject({
      status: 'Draft',
      frequencyCode: '7',
      originalClaimNumber: 'ICN-CORR-1',
      resolvedOn: null,
    });
    const [item] = await sql<{ outcome: string; resolution_note: string }>(
      `select outcome, resolution_note from work_items where claim_id = $1 and source = 'denial'`,
      [claim.id],
    );
    expect(item).toEqual({
      outcome: 'corrected_resubmitted',
      resolution_note: 'Claim reopened to be corrected and sent again as a replacement: Referring provider was missing',
    });
    const [entry] = await sql<{ action: string; detail: string }>(
      `select action, detail from audit_log where resource = $1 and action = 'claim.correct'`,
      [`claim/${claim.id}`],
    );
    expect(entry?.detail).toBe(
      `${claim.account_number}: status Denied → Draft, to be sent to Aetna again as a replacement (frequency 7) ` +
        'of claim number ICN-CORR-1; reason: Referring provider was missing',
    );

    // Scrubbed clean (its first filing's limit is not a replacement's), sent: CLM05-3 7 and REF*F8, still filed
    // on 1 October.
    const segments = await scrubAndSend(claim.id);
    expect(segments.find((x) => x.startsWith(`CLM*${claim.account_number}*`))).toMatch(/\*\d\d:B:7\*/);
    expect(segments).toContain('REF*F8*ICN-CORR-1');
    const [stored] = await sql<{ status: string; submitted_on: string }>(
      `select status, submitted_on::text from claims where id = $1`,
      [claim.id],
    );
    expect(stored).toEqual({ status: 'Submitted', submitted_on: '2026-10-01' });
  });

  it('refuses a claim the payer does not have, a missing reason, an unknown claim and a reader, writing nothing', async () => {
    const [draft] = await sql<{ id: number }>(
      `select id from claims where status = 'Draft' and voided_at is null order by id limit 1`,
    );
    const entries = async () =>
      (await sql<{ n: number }>(`select count(*)::int as n from audit_log where action = 'claim.correct'`))[0]!.n;
    const before = await entries();
    const refused = await correct(draft!.id, { reason: 'Wrong code' });
    expect(refused.statusCode).toBe(409);
    expect(
      refused.json<{ error: { code: string; fields: { field: string; message: string }[] } }>().error,
    ).toMatchObject({
      code: 'NOT_CORRECTABLE',
      fields: [
        {
          field: 'status',
          message: 'is Draft: only an Accepted, Pending, Paid, Closed, Partially Paid or Denied claim can be corrected',
        },
      ],
    });
    const [paid] = await sql<{ id: number }>(
      `select id from claims where status = 'Paid' and voided_at is null order by id limit 1`,
    );
    for (const payload of [{}, { reason: '   ' }, { reason: 'x'.repeat(201) }, { reason: 'ok', extra: 1 }]) {
      const bad = await correct(paid!.id, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await correct(999_999, { reason: 'Wrong code' })).statusCode).toBe(404);
    const doctor = await signInAs(t.app, 'doctor');
    expect((await correct(paid!.id, { reason: 'Wrong code' }, doctor)).statusCode).toBe(403);
    expect((await detail(paid!.id)).status).toBe('Paid');
    expect(await entries()).toBe(before);
  });
});

describe('a replacement or void entered by hand', () => {
  it('is refused when it names the payer’s number of a claim here, which is corrected or voided from its view', async () => {
    // Denied by Aetna under ICN-HAND-1: a new claim naming that number would leave this one owed beside it.
    const claim = await deniedAtAetna('ICN-HAND-1', 'HAND-1');
    const [source] = await sql<{ patient_id: number; coverage_id: number; provider_id: number }>(
      `select c.patient_id, c.coverage_id, (select id from providers where active order by id limit 1) as provider_id
         from claims c where c.id = $1`,
      [claim.id],
    );
    const body = (frequencyCode: '7' | '8', originalClaimNumber: string) => ({
      patientId: source!.patient_id,
      providerId: source!.provider_id,
      coverageId: source!.coverage_id,
      placeOfService: '11',
      frequencyCode,
      originalClaimNumber,
      diagnoses: ['I10'],
      lines: [
        {
          procedureCode: '99213',
          modifiers: [],
          units: 1,
          chargeCents: 15_000,
          diagnosisPointers: [1],
          serviceDate: '2026-11-19',
        },
      ],
    });
    const claimCount = async () => (await sql<{ n: number }>('select count(*)::int as n from claims'))[0]!.n;
    const before = await claimCount();
    for (const frequency of ['7', '8'] as const) {
      const refused = await biller.request({
        method: 'POST',
        url: '/api/claims',
        payload: body(frequency, 'ICN-HAND-1'),
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json<{ error: { fields: { field: string; message: string }[] } }>().error.fields).toEqual([
        {
          field: 'originalClaimNumber',
          message:
            `is Aetna's number for claim ${claim.account_number} (Denied): use Correct or Void at payer on that ` +
            'claim instead, so that it is not owed twice',
        },
      ]);
    }
    expect(await claimCount()).toBe(before);

    // A number no claim here carries is a claim billed before the practice used the app: entered by hand.
    const legacy = await biller.request({ method: 'POST', url: '/api/claims', payload: body('7', 'ICN-BEFORE-1') });
    expect(legacy.statusCode, legacy.body).toBe(201);

    // The claim itself, reopened as the replacement of that number, is edited as any Draft.
    expect(
      (
        await biller.request({
          method: 'POST',
          url: `/api/claims/${claim.id}/correct`,
          payload: { reason: 'Wrong code' },
        })
      ).statusCode,
    ).toBe(200);
    const edited = await biller.request({
      method: 'PUT',
      url: `/api/claims/${claim.id}`,
      payload: body('7', 'ICN-HAND-1'),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await detail(claim.id)).toMatchObject({
      status: 'Draft',
      frequencyCode: '7',
      originalClaimNumber: 'ICN-HAND-1',
    });
  });
});

describe('voiding a claim at its payer', () => {
  const voidAtPayer = (id: number, payload: object, who: SignedIn = biller) =>
    who.request({ method: 'POST', url: `/api/claims/${id}/void-at-payer`, payload });
  const entriesOf = async (action: string) =>
    (await sql<{ n: number }>(`select count(*)::int as n from audit_log where action = $1`, [action]))[0]!.n;

  it('sends a void of the payer’s number, keeps the claim in A/R until the payer takes it, then voids it', async () => {
    const claim = await deniedAtAetna('ICN-VOID-1', 'VOID-1');
    const [user] = await sql<{ id: number }>(`select id from users where email = 'billing.admin@healthcare.demo'`);
    const owed = await outstandingAr();

    const res = await voidAtPayer(claim.id, { reason: 'Billed under the wrong patient' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ClaimRow>()).toMatchObject({ id: claim.id, status: 'Draft' });
    // A Draft again, but filed and owed until the payer takes the void: still in A/R.
    expect(await outstandingAr()).toBe(owed);
    expect(await detail(claim.id)).toMatchObject({
      status: 'Draft',
      frequencyCode: '8',
      originalClaimNumber: 'ICN-VOID-1',
      resolvedOn: null,
    });
    const [item] = await sql<{ outcome: string; resolution_note: string }>(
      `select outcome, resolution_note from work_items where claim_id = $1 and source = 'denial'`,
      [claim.id],
    );
    expect(item).toEqual({
      outcome: 'corrected_resubmitted',
      resolution_note: 'Claim reopened to be voided at the payer (frequency 8): Billed under the wrong patient',
    });
    // The claim's history tells the story: the denial posted, then the void asked for with its reason.
    const told = (await detail(claim.id)).history.filter((e) => e.kind === 'change').map((e) => [e.title, e.detail]);
    expect(told.slice(-2)).toEqual([
      [
        'Posted a remittance (835) to a claim',
        expect.stringMatching(new RegExp(`^${claim.account_number}: CLP02 4, charge \\$[\\d.]+, paid \\$0\\.00`)),
      ],
      [
        'Reopened a claim to send its payer a void of it',
        expect.stringContaining('reason: Billed under the wrong patient'),
      ],
    ]);
    const [entry] = await sql<{ detail: string }>(
      `select detail from audit_log where resource = $1 and action = 'claim.void_at_payer'`,
      [`claim/${claim.id}`],
    );
    expect(entry?.detail).toBe(
      `${claim.account_number}: status Denied → Draft, to be sent to Aetna as a void (frequency 8) of claim number ` +
        'ICN-VOID-1; voided here once the payer accepts it; reason: Billed under the wrong patient',
    );

    // Scrubbed clean and sent: CLM05-3 8 with REF*F8, filed when the claim first was; not voided yet.
    const segments = await scrubAndSend(claim.id);
    expect(segments.find((x) => x.startsWith(`CLM*${claim.account_number}*`))).toMatch(/\*\d\d:B:8\*/);
    expect(segments).toContain('REF*F8*ICN-VOID-1');
    const stored = async () =>
      (
        await sql<{ status: string; submitted_on: string; voided: boolean; voided_by: number; void_reason: string }>(
          `select status, submitted_on::text, voided_at is not null as voided, voided_by, void_reason
           from claims where id = $1`,
          [claim.id],
        )
      )[0];
    expect(await stored()).toEqual({
      status: 'Submitted',
      submitted_on: '2026-10-01',
      voided: false,
      voided_by: user!.id,
      void_reason: 'Billed under the wrong patient',
    });
    expect((await detail(claim.id)).balanceCents).toBe(claim.billed);
    expect(await outstandingAr()).toBe(owed);

    // The payer takes the void (277CA A2): the claim is voided, its balance leaves A/R, and the acceptance says so.
    const ack = await upload(
      ack277CA({
        interchangeControlNumber: 910,
        claims: [{ accountNumber: claim.account_number, status: 'A2:20:PR', billedCents: claim.billed }],
      }),
    );
    expect(ack.statusCode, ack.body).toBe(200);
    expect(await stored()).toMatchObject({
      status: 'Accepted',
      voided: true,
      void_reason: 'Billed under the wrong patient',
    });
    const voided = await detail(claim.id);
    expect(voided).toMatchObject({ status: 'Voided', balanceCents: 0 });
    expect(await outstandingAr()).toBe(owed - claim.billed);
    const [accepted] = await sql<{ detail: string }>(
      `select detail from audit_log where resource = $1 and action = 'claim.accept' order by id desc limit 1`,
      [`claim/${claim.id}`],
    );
    expect(accepted?.detail).toMatch(/; the payer takes its void: voided$/);
  });

  it('keeps a replacement’s first filing day when the clearinghouse turns it away', async () => {
    // Denied, corrected as a replacement and sent again; the 277CA rejects it: Draft, still filed on 1 October.
    const claim = await deniedAtAetna('ICN-VOID-2', 'VOID-2');
    const corrected = await biller.request({
      method: 'POST',
      url: `/api/claims/${claim.id}/correct`,
      payload: { reason: 'Wrong diagnosis order' },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    await scrubAndSend(claim.id);
    const ack = await upload(
      ack277CA({
        interchangeControlNumber: 911,
        claims: [{ accountNumber: claim.account_number, status: 'A3:21', billedCents: claim.billed }],
      }),
    );
    expect(ack.statusCode, ack.body).toBe(200);
    const [stored] = await sql<{ status: string; submitted_on: string | null; frequency_code: string }>(
      `select status, submitted_on::text, frequency_code from claims where id = $1`,
      [claim.id],
    );
    expect(stored).toEqual({ status: 'Draft', submitted_on: '2026-10-01', frequency_code: '7' });
  });

  it('refuses a claim the payer does not have or has paid on, one billed on, a bad reason and a reader', async () => {
    const before = await entriesOf('claim.void_at_payer');
    const refusal = async (id: number) => {
      const res = await voidAtPayer(id, { reason: 'Wrong patient' });
      expect(res.statusCode, res.body).toBe(409);
      return res.json<{ error: { code: string; fields: { field: string; message: string }[] } }>().error;
    };
    const [draft] = await sql<{ id: number }>(
      `select id from claims where status = 'Draft' and voided_at is null order by id limit 1`,
    );
    expect(await refusal(draft!.id)).toMatchObject({
      code: 'NOT_VOIDABLE',
      fields: [
        { field: 'status', message: 'is Draft: only an Accepted, Pending or Denied claim can be voided at its payer' },
      ],
    });
    // Pending with the patient's copay recorded against it: a voided claim would leave that payment on nothing.
    const [pending] = await sql<{ id: number }>(
      `insert into payments (patient_id, claim_id, amount_cents, source, received_on)
         select patient_id, id, 2500, 'patient', service_date from claims
         where id = (select min(id) from claims where status = 'Pending' and voided_at is null)
       returning claim_id as id`,
    );
    expect(await refusal(pending!.id)).toMatchObject({ code: 'HAS_PAYMENTS' });
    // Billed on to the patient's next policy: that claim is voided first.
    const [accepted] = await sql<{ id: number; status: string }>(
      `select c.id, c.status from claims c where c.status in ('Accepted', 'Pending', 'Denied') and c.voided_at is null
         and not exists (select 1 from payments p where p.claim_id = c.id) order by c.id limit 1`,
    );
    const [later] = await sql<{ id: number; account_number: string }>(
      `select id, account_number from claims where status = 'Draft' and voided_at is null and id <> $1
         order by id limit 1`,
      [accepted!.id],
    );
    await sql(`update claims set primary_claim_id = $1 where id = $2`, [accepted!.id, later!.id]);
    expect(await refusal(accepted!.id)).toMatchObject({
      code: 'HAS_LATER_CLAIM',
      fields: [
        {
          field: 'status',
          message: `was billed on to the patient's next policy as ${later!.account_number}: void that claim first`,
        },
      ],
    });
    await sql(`update claims set primary_claim_id = null where id = $1`, [later!.id]);
    for (const payload of [{}, { reason: ' ' }, { reason: 'x'.repeat(201) }, { reason: 'ok', extra: 1 }]) {
      expect((await voidAtPayer(accepted!.id, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await voidAtPayer(999_999, { reason: 'Wrong patient' })).statusCode).toBe(404);
    const doctor = await signInAs(t.app, 'doctor');
    expect((await voidAtPayer(accepted!.id, { reason: 'Wrong patient' }, doctor)).statusCode).toBe(403);
    expect((await detail(accepted!.id)).status).toBe(accepted!.status);
    expect(await entriesOf('claim.void_at_payer')).toBe(before);
  });
});
