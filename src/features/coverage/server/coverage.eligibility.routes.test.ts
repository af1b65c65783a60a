import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseX12, transactionSetsOf } from '@/features/x12/x12.parse';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { TEST_TODAY } from '@/testing/test-clock';
import {
  ACTIVE_BENEFITS,
  file271,
  INACTIVE_BENEFITS,
  SUBSCRIBER_NOT_FOUND,
  type Answer271,
} from '@/server/db/seed/demo-eligibility';
import type { RequestContext } from '@/server/context';
import type {
  CoverageEligibility,
  PostedEligibilityResponse,
  RequestedEligibility,
} from '../coverage.eligibility.schema';
import {
  coverageEligibleOn,
  markEligibilityInquiryMailed,
  pendingEligibilityInquiries,
  requestEligibility,
  type EligibilitySender,
} from './coverage.eligibility.queries';

let t: TestApp;
let frontDesk: SignedIn;
let doctor: SignedIn;
let biller: SignedIn;
let patient: SignedIn;
let ctx: RequestContext;

/** TRN03 of the demo practice's 270s: '1' and its EIN (seed DEMO_BILLING_IDENTITY). */
const ORIGINATOR = '1371234567';
const SENDER: EligibilitySender = {
  billingName: 'Riverside Family Practice LLC',
  billingNpi: '1667788990',
  taxId: '371234567',
  ediReceiverId: 'PRAIRIECH',
  ediSubmitterId: 'RFP0042',
  ediUsage: 'T',
};

interface CoverageRow {
  id: number;
  patient_id: number;
  member_id: string;
  payer: string;
  relationship: string;
  patient: string;
  subscriber_name: string | null;
}

async function sql<T extends object>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T>(text, params)).rows;
}

/** Policies in force today with a payer a 270 can name, not asked about yet, of the relationship. */
async function coveragesOf(relationship: 'self' | 'child', n: number, skip = 0): Promise<CoverageRow[]> {
  const rows = await sql<CoverageRow>(
    `select v.id, v.patient_id, v.member_id, v.payer, v.relationship, p.name as patient, v.subscriber_name
     from coverages v join patients p on p.id = v.patient_id join payers py on py.name = v.payer
     where v.relationship = $1 and py.payer_id is not null and py.claim_filing_indicator <> '09'
       and v.effective_on <= $2::date and (v.end_on is null or v.end_on >= $2::date)
       and not exists (select 1 from eligibility_checks k where k.coverage_id = v.id)
     order by v.id offset $3 limit $4`,
    [relationship, TEST_TODAY, skip, n],
  );
  if (rows.length !== n) throw new Error(`the seed has ${rows.length} ${relationship} coverages, not ${n}`);
  return rows;
}

async function counts() {
  const [row] = await sql<{ responses: number; awaiting: number; answered: number }>(
    `select (select count(*)::int from eligibility_responses) as responses,
       (select count(*)::int from eligibility_checks where status = 'Awaiting') as awaiting,
       (select count(*)::int from eligibility_checks where status <> 'Awaiting') as answered`,
  );
  return row!;
}

const split = (name: string) => {
  const words = name.split(' ');
  return { firstName: words[0]!.toUpperCase(), lastName: words.at(-1)!.toUpperCase() };
};

function answerFor(c: CoverageRow, traceNumber: string, body: readonly string[]): Answer271 {
  return c.relationship === 'self'
    ? { traceNumber, originatorId: ORIGINATOR, memberId: c.member_id, subscriber: split(c.patient), body }
    : {
        traceNumber,
        originatorId: ORIGINATOR,
        memberId: c.member_id,
        subscriber: split(c.subscriber_name ?? 'A Subscriber'),
        dependent: split(c.patient),
        body,
      };
}

const ask = (who: SignedIn, coverageId: number, body: object = {}) =>
  who.request({ method: 'POST', url: `/api/coverages/${coverageId}/eligibility`, payload: body });

const upload = (text: string, fileName = 'answer.271') =>
  frontDesk.request({
    method: 'POST',
    url: '/api/eligibility/responses',
    payload: text,
    headers: { 'content-type': 'text/plain', 'x-file-name': encodeURIComponent(fileName) },
  });

beforeAll(async () => {
  t = await createTestApp();
  frontDesk = await signInAs(t.app, 'nurse_manager');
  doctor = await signInAs(t.app, 'doctor');
  biller = await signInAs(t.app, 'billing_admin');
  patient = await signInAs(t.app, 'patient');
  const [user] = await sql<{ id: number; email: string; name: string }>(
    `select id, email, name from users where role = 'nurse_manager' order by id limit 1`,
  );
  ctx = { user: { ...user!, role: 'nurse_manager', patientId: null }, now: new Date(`${TEST_TODAY}T15:00:00Z`) };
});
afterAll(async () => {
  await t.close();
});

describe('asking (270)', () => {
  it('writes a subscriber’s inquiry for today, keeps a check awaiting its answer and audits it', async () => {
    const [c] = await coveragesOf('self', 1);
    const res = await ask(frontDesk, c!.id);
    expect(res.statusCode, res.body).toBe(201);
    const { inquiryId, checks } = res.json<RequestedEligibility>();
    expect(checks).toEqual([
      expect.objectContaining({ coverageId: c!.id, inquiryId, serviceDate: TEST_TODAY, status: 'Awaiting' }),
    ]);
    const [inquiry] = await sql<{ text: string; reason: string; created_by: number | null; isa: number }>(
      `select text, reason, created_by, interchange_control_number as isa from eligibility_inquiries where id = $1`,
      [inquiryId],
    );
    expect(inquiry).toMatchObject({ reason: 'manual', created_by: ctx.user.id });
    expect(inquiry!.isa).toBeGreaterThan(500_000_000);
    const [found] = transactionSetsOf(parseX12(inquiry!.text), '270');
    const segments = found!.set.segments.map((s) => [s.id, ...s.elements].join('*'));
    expect(segments).toContain(`TRN*1*${checks[0]!.traceNumber}*${ORIGINATOR}`);
    expect(segments.some((s) => s.startsWith('NM1*IL*1*') && s.endsWith(`*MI*${c!.member_id}`))).toBe(true);
    expect(segments).toContain(`DTP*291*D8*${TEST_TODAY.replaceAll('-', '')}`);
    expect(segments).toContain('EQ*30');
    expect(segments.some((s) => s.startsWith('NM1*03'))).toBe(false);
    const audit = await sql<{ action: string; patient_id: number | null }>(
      `select action, patient_id from audit_log where resource = $1`,
      [`coverage/${c!.id}`],
    );
    expect(audit).toContainEqual({ action: 'eligibility.request', patient_id: c!.patient_id });
  });

  it('asks about a dependent through the subscriber’s member id (loop 2000D), with the service types given', async () => {
    const [c] = await coveragesOf('child', 1);
    const res = await ask(frontDesk, c!.id, { serviceTypes: ['98', 'UC'] });
    expect(res.statusCode, res.body).toBe(201);
    const [inquiry] = await sql<{ text: string }>(`select text from eligibility_inquiries where id = $1`, [
      res.json<RequestedEligibility>().inquiryId,
    ]);
    const segments = transactionSetsOf(parseX12(inquiry!.text), '270')[0]!.set.segments.map((s) =>
      [s.id, ...s.elements].join('*'),
    );
    expect(segments.some((s) => s.startsWith('HL*') && s.includes('*23*'))).toBe(true);
    expect(segments.some((s) => s.startsWith('NM1*03*1*'))).toBe(true);
    expect(segments).toContain('INS*N*19');
    expect(segments.filter((s) => s.startsWith('EQ*'))).toEqual(['EQ*30', 'EQ*98', 'EQ*UC']);
  });

  it('puts several payers in one interchange, one transaction set each', async () => {
    const rows = await sql<{ id: number; payer: string }>(
      `select distinct on (v.payer) v.id, v.payer from coverages v join payers py on py.name = v.payer
       where py.payer_id is not null and py.claim_filing_indicator <> '09' and v.effective_on <= $1::date
         and (v.end_on is null or v.end_on >= $1::date) order by v.payer, v.id limit 3`,
      [TEST_TODAY],
    );
    expect(rows.length).toBe(3);
    const result = await requestEligibility(
      t.database.db,
      ctx,
      { coverageIds: rows.map((r) => r.id), serviceDate: TEST_TODAY, reason: 'manual' },
      SENDER,
    );
    expect(result.checks).toHaveLength(3);
    const [inquiry] = await sql<{ text: string }>(`select text from eligibility_inquiries where id = $1`, [
      result.inquiryId,
    ]);
    const document = parseX12(inquiry!.text);
    expect(document.interchanges).toHaveLength(1);
    const sets = transactionSetsOf(document, '270');
    expect(sets.map((s) => s.set.controlNumber)).toEqual(['0001', '0002', '0003']);
  });

  it('refuses an unknown coverage (404), a day outside the policy (400) and an incomplete practice (409)', async () => {
    const before = await sql<{ n: number }>(`select count(*)::int as n from eligibility_inquiries`);
    expect((await ask(frontDesk, 99_999_999)).statusCode).toBe(404);
    const [c] = await coveragesOf('self', 1, 1);
    await sql(`update coverages set effective_on = $2::date where id = $1`, [c!.id, '2026-11-01']);
    const early = await ask(frontDesk, c!.id, { serviceDate: '2026-10-15' });
    expect(early.statusCode).toBe(400);
    expect(early.json<{ error: { message: string } }>().error.message).toMatch(/^serviceDate: .*outside the policy/);
    const far = await ask(frontDesk, c!.id, { serviceDate: '2031-01-01' });
    expect(far.statusCode).toBe(400);
    await expect(
      requestEligibility(
        t.database.db,
        ctx,
        { coverageIds: [c!.id, 99_999_999], serviceDate: TEST_TODAY, reason: 'manual' },
        SENDER,
      ),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/^coverageIds: 99999999 is no coverage/) as string,
    });
    await expect(
      requestEligibility(
        t.database.db,
        ctx,
        { coverageIds: [c!.id], serviceDate: TEST_TODAY, reason: 'manual' },
        { ...SENDER, taxId: null },
      ),
    ).rejects.toMatchObject({ statusCode: 409, code: 'PRACTICE_NOT_READY_TO_SEND' });
    const after = await sql<{ n: number }>(`select count(*)::int as n from eligibility_inquiries`);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('downloads the 270, audited as an export; a patient may do neither, the doctor reads answers', async () => {
    const [c] = await coveragesOf('self', 1);
    const { inquiryId } = (await ask(frontDesk, c!.id)).json<RequestedEligibility>();
    const file = await frontDesk.request({ method: 'GET', url: `/api/eligibility/inquiries/${inquiryId}/file` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="270-inquiry-\d+-\d{9}\.txt"$/);
    expect(file.body.startsWith('ISA*')).toBe(true);
    const audit = await sql<{ patient_id: number }>(
      `select patient_id from audit_log where action = 'eligibility.export' and resource = $1`,
      [`eligibility_inquiry/${inquiryId}`],
    );
    expect(audit).toEqual([{ patient_id: c!.patient_id }]);
    expect(
      (await frontDesk.request({ method: 'GET', url: '/api/eligibility/inquiries/99999999/file' })).statusCode,
    ).toBe(404);
    expect((await ask(patient, c!.id)).statusCode).toBe(403);
    expect((await patient.request({ method: 'GET', url: `/api/coverages/${c!.id}/eligibility` })).statusCode).toBe(403);
    const read = await doctor.request({ method: 'GET', url: `/api/coverages/${c!.id}/eligibility` });
    expect(read.statusCode).toBe(200);
    expect(read.json<CoverageEligibility>().latest).toMatchObject({ status: 'Awaiting', inquiryId });
  });
});

describe('answers (271)', () => {
  let subscriber: CoverageRow;
  let dependent: CoverageRow;
  let subscriberTrace: string;
  let dependentTrace: string;

  beforeAll(async () => {
    subscriber = (await coveragesOf('self', 1, 5))[0]!;
    dependent = (await coveragesOf('child', 1, 1))[0]!;
    subscriberTrace = (await ask(frontDesk, subscriber.id)).json<RequestedEligibility>().checks[0]!.traceNumber;
    dependentTrace = (await ask(frontDesk, dependent.id)).json<RequestedEligibility>().checks[0]!.traceNumber;
  });

  async function refusedWithNothingWritten(text: string, status: number, pattern: RegExp) {
    const before = await counts();
    const res = await upload(text);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ error: { message: string } }>().error.message).toMatch(pattern);
    expect(await counts()).toEqual(before);
  }

  it('refuses a trace number never asked about, naming it; nothing is written', async () => {
    await refusedWithNothingWritten(
      file271([answerFor(subscriber, 'NO-SUCH-TRACE', ACTIVE_BENEFITS)], { controlNumber: 801 }),
      409,
      /NO-SUCH-TRACE\) was never asked about/,
    );
  });

  it('refuses the whole file when one of its patients was not asked about, even if another was', async () => {
    const stranger: Answer271 = {
      traceNumber: '999999999-1',
      originatorId: ORIGINATOR,
      memberId: 'ZZ0000001',
      subscriber: { lastName: 'NOBODY', firstName: 'ANNA' },
      body: ACTIVE_BENEFITS,
    };
    await refusedWithNothingWritten(
      file271([answerFor(subscriber, subscriberTrace, ACTIVE_BENEFITS), stranger], { controlNumber: 802 }),
      409,
      /ANNA NOBODY \(trace number 999999999-1\) was never asked about/,
    );
  });

  it('refuses an answer for another member id', async () => {
    await refusedWithNothingWritten(
      file271([{ ...answerFor(subscriber, subscriberTrace, ACTIVE_BENEFITS), memberId: 'XW0000042' }], {
        controlNumber: 803,
      }),
      409,
      /member id ending 0042, not the one asked about/,
    );
  });

  it('refuses a file that is not X12 (broken delimiters) or not a 271', async () => {
    const good = file271([answerFor(subscriber, subscriberTrace, ACTIVE_BENEFITS)], { controlNumber: 804 });
    await refusedWithNothingWritten(good.slice(0, 50), 400, /^file: this file is not a 271 that can be read/);
    await refusedWithNothingWritten(good.replace(/\*/g, '|').replace(/^ISA\|/, 'ISA*'), 400, /^file: /);
    await refusedWithNothingWritten('hello', 400, /^file: /);
  });

  it('refuses a file name that is not one (X-File-Name), naming the header', async () => {
    const before = await counts();
    const res = await frontDesk.request({
      method: 'POST',
      url: '/api/eligibility/responses',
      payload: file271([answerFor(subscriber, subscriberTrace, ACTIVE_BENEFITS)], { controlNumber: 808 }),
      headers: { 'content-type': 'text/plain', 'x-file-name': encodeURIComponent('../../etc/passwd') },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields).toEqual([
      expect.objectContaining({ field: 'x-file-name' }),
    ]);
    expect(await counts()).toEqual(before);
  });

  it('answers each check from one file: Active with benefits, Rejected with the reason in words; audited', async () => {
    const text = file271(
      [
        answerFor(subscriber, subscriberTrace, ACTIVE_BENEFITS),
        answerFor(dependent, dependentTrace, SUBSCRIBER_NOT_FOUND),
      ],
      { controlNumber: 805 },
    );
    const res = await upload(text, 'mailbox-805.271');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PostedEligibilityResponse>()).toMatchObject({
      answered: 2,
      summary: '2 answers, 1 active, 0 inactive, 1 rejected',
    });
    const mine = (
      await frontDesk.request({ method: 'GET', url: `/api/coverages/${subscriber.id}/eligibility` })
    ).json<CoverageEligibility>();
    expect(mine.latest).toMatchObject({
      status: 'Active',
      answeredAt: expect.any(String) as string,
      summary: {
        planName: 'Gold PPO 1500',
        coverageBegin: '2026-01-01',
        coverageEnd: '2026-12-31',
        copays: [
          expect.objectContaining({ amountCents: 2500, network: 'in' }),
          expect.objectContaining({ amountCents: 6000, network: 'out' }),
        ],
        coinsurance: [expect.objectContaining({ percent: 0.2, network: 'in' })],
        deductibles: [
          expect.objectContaining({ totalCents: 150_000, remainingCents: 123_456, period: 'Calendar year' }),
        ],
        outOfPocket: [expect.objectContaining({ totalCents: 600_000, remainingCents: 501_240 })],
        messages: ['COPAY WAIVED FOR PREVENTIVE VISITS'],
      },
    });
    // The payer's member id is the policy's: whole for those who bill with it, masked for the front desk and the
    // doctor, as the policy's own member id is (docs/access.md).
    const memberIdAs = async (who: SignedIn) =>
      (
        await who.request({ method: 'GET', url: `/api/coverages/${subscriber.id}/eligibility` })
      ).json<CoverageEligibility>().latest?.summary?.memberId;
    const masked = `${'*'.repeat(subscriber.member_id.length - 2)}${subscriber.member_id.slice(-2)}`;
    expect(await memberIdAs(biller)).toBe(subscriber.member_id);
    expect(await memberIdAs(frontDesk)).toBe(masked);
    expect(await memberIdAs(doctor)).toBe(masked);
    const theirs = (
      await frontDesk.request({ method: 'GET', url: `/api/coverages/${dependent.id}/eligibility` })
    ).json<CoverageEligibility>();
    expect(theirs.latest?.status).toBe('Rejected');
    expect(theirs.latest?.summary?.rejections[0]).toMatchObject({ code: '75', followUp: expect.any(String) as string });
    const [stored] = await sql<{ file_name: string; answered_count: number; rejected_count: number }>(
      `select file_name, answered_count, rejected_count from eligibility_responses where id = $1`,
      [res.json<PostedEligibilityResponse>().responseId],
    );
    expect(stored).toEqual({ file_name: 'mailbox-805.271', answered_count: 2, rejected_count: 1 });
    const audit = await sql<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'eligibility.answer' and patient_id = any($1)`,
      [[subscriber.patient_id, dependent.patient_id]],
    );
    expect(audit[0]!.n).toBe(2);

    expect(await coverageEligibleOn(t.database.db, subscriber.id, TEST_TODAY)).toMatchObject({ state: 'active' });
    expect(await coverageEligibleOn(t.database.db, dependent.id, TEST_TODAY)).toMatchObject({
      state: 'rejected',
      detail: expect.stringMatching(/.+/) as string,
    });
    expect(await coverageEligibleOn(t.database.db, subscriber.id, '2026-11-21')).toMatchObject({ state: 'unknown' });

    // The same file again, and another file answering what is answered already: refused, nothing written.
    await refusedWithNothingWritten(
      text,
      409,
      /^file: this 271 was received already on Nov 22, 2026 as "mailbox-805.271"/,
    );
    await refusedWithNothingWritten(
      file271([answerFor(subscriber, subscriberTrace, INACTIVE_BENEFITS)], { controlNumber: 806 }),
      409,
      /is answered already \(Active\)/,
    );
  });

  it('counts an Active answer whose plan dates leave out the day of service as inactive', async () => {
    const [c] = await coveragesOf('self', 1, 7);
    const trace = (await ask(frontDesk, c!.id)).json<RequestedEligibility>().checks[0]!.traceNumber;
    const ended = ['DTP*346*D8*20250101', 'DTP*347*D8*20261031', 'EB*1*IND*30**Silver HMO'];
    expect((await upload(file271([answerFor(c!, trace, ended)], { controlNumber: 807 }))).statusCode).toBe(200);
    expect(await coverageEligibleOn(t.database.db, c!.id, TEST_TODAY)).toMatchObject({
      state: 'inactive',
      detail: expect.stringContaining('ended') as string,
    });
  });
});

describe('the mailbox’s side', () => {
  it('lists the 270s not yet mailed and marks one mailed, once', async () => {
    const since = new Date(`${TEST_TODAY}T00:00:00Z`);
    const pending = await pendingEligibilityInquiries(t.database.db, since);
    expect(pending.length).toBeGreaterThan(0);
    const first = pending[0]!;
    expect(first.text.startsWith('ISA*')).toBe(true);
    expect(first.fileName).toMatch(/^270-inquiry-\d+-\d{9}\.txt$/);
    const at = new Date(`${TEST_TODAY}T16:00:00Z`);
    await markEligibilityInquiryMailed(t.database.db, first.id, at);
    await markEligibilityInquiryMailed(t.database.db, first.id, new Date(`${TEST_TODAY}T17:00:00Z`));
    const [row] = await sql<{ mailed_at: Date }>(`select mailed_at from eligibility_inquiries where id = $1`, [
      first.id,
    ]);
    expect(row!.mailed_at.toISOString()).toBe(at.toISOString());
    expect((await pendingEligibilityInquiries(t.database.db, since)).map((p) => p.id)).not.toContain(first.id);
  });
});

describe('the demo seed', () => {
  it('holds one Active answer with benefits, one Inactive and one Rejected (AAA 75) for today', async () => {
    const rows = await sql<{ status: string; plan: string | null; code: string | null; mailed: boolean }>(
      `select k.status, k.summary->>'planName' as plan, k.summary->'rejections'->0->>'code' as code,
         i.mailed_at is not null as mailed
       from eligibility_checks k join eligibility_inquiries i on i.id = k.inquiry_id
       where k.service_date = $1::date and i.reason = 'evening' order by k.id limit 3`,
      [TEST_TODAY],
    );
    expect(rows).toEqual([
      { status: 'Active', plan: 'Gold PPO 1500', code: null, mailed: true },
      { status: 'Inactive', plan: null, code: null, mailed: true },
      { status: 'Rejected', plan: null, code: '75', mailed: true },
    ]);
  });
});
