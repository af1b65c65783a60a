import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { TEST_TODAY } from '@/testing/test-clock';
import { file277 } from '@/testing/claim-status-files';
import type {
  ClaimStatusRequestList,
  ClaimStatusRequestResult,
  ClaimStatusResponseResult,
  ClaimStatusView,
  CreatedClaimBatches,
} from '../submission.schema';
import type { ClaimDetail } from '@/features/claims/claims.schema';

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

const dayBefore = (days: number) => {
  const d = new Date(`${TEST_TODAY}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
};

/** Sends `n` seeded claims of the payer in an 837P batch; their ids, in order. */
async function sent(payer: string, n: number): Promise<number[]> {
  const rows = await sql<{ id: number }>(
    `update claims set status = 'Ready' where id in (
       select c.id from claims c join coverages v on v.id = c.coverage_id
       where c.payer = $1 and c.voided_at is null and c.status not in ('Ready', 'Submitted')
         and not exists (select 1 from claim_batch_claims bc where bc.claim_id = c.id)
       order by c.id limit $2)
     returning id`,
    [payer, n],
  );
  const ids = rows.map((r) => r.id).sort((a, b) => a - b);
  const res = await biller.request({ method: 'POST', url: '/api/claim-batches', payload: { claimIds: ids } });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json<CreatedClaimBatches>().batches).toHaveLength(1);
  // Not yet decided: as the payer left them, with no 835.
  await sql(`update claims set adjudicated_on = null where id = any($1)`, [ids]);
  return ids;
}

const ask = (body: object = {}) =>
  biller.request({ method: 'POST', url: '/api/claims/status-requests', payload: body });

const counts = async () => {
  const [row] = await sql<Record<string, string>>(
    `select (select count(*) from claim_status_requests) as requests,
       (select count(*) from claim_status_responses) as responses,
       (select count(*) from claim_status_inquiries where answered_at is not null) as answered,
       (select count(*) from work_items where source = 'claim_status') as items,
       (select count(*) from audit_log) as audit,
       (select string_agg(status, ',' order by id) from claims) as statuses`,
  );
  return row;
};

const upload = (text: string, fileName = 'status.277') =>
  biller.request({
    method: 'POST',
    url: `/api/claims/status-responses?fileName=${fileName}`,
    payload: text,
    headers: { 'content-type': 'text/plain' },
  });

describe('claim status requests and answers', () => {
  let claims: number[];
  let cigna: number[];
  let traces: Map<number, string>;
  let applied: string;

  it('asks about claims sent at least the payer days ago, not adjudicated, not asked recently; one 276 per payer', async () => {
    claims = await sent('Aetna', 5);
    cigna = await sent('Cigna', 1);
    const [at29, at30, at40, adjudicated, askedRecently] = claims as [number, number, number, number, number];
    await sql(`update payers set claim_status_after_days = 30 where name = 'Aetna'`);
    await sql(`update payers set claim_status_after_days = null where name = 'Cigna'`);
    await sql(`update claims set submitted_on = $2 where id = $1`, [at29, dayBefore(29)]);
    await sql(`update claims set submitted_on = $2 where id = any($1)`, [
      [at30, adjudicated, askedRecently],
      dayBefore(30),
    ]);
    await sql(`update claims set submitted_on = $2 where id = $1`, [at40, dayBefore(40)]);
    await sql(`update claims set submitted_on = $2 where id = any($1)`, [cigna, dayBefore(90)]);
    await sql(`update claims set adjudicated_on = $2, status = 'Paid' where id = $1`, [adjudicated, dayBefore(2)]);
    // Asked 10 days ago: within Aetna's 30 days, so not again.
    const [request] = await sql<{ id: number }>(
      `insert into claim_status_requests (payer, created_at, interchange_control_number, group_control_number,
         claim_count, content) values ('Aetna', $1::timestamptz - interval '10 days', 999000001, 999000001, 1, 'x')
       returning id`,
      [`${TEST_TODAY}T15:00:00Z`],
    );
    await sql(
      `insert into claim_status_inquiries (claim_id, request_id, trace_number, asked_at)
       values ($1, $2, 'OLD-1', $3::timestamptz - interval '10 days')`,
      [askedRecently, request!.id, `${TEST_TODAY}T15:00:00Z`],
    );

    const res = await ask();
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json<ClaimStatusRequestResult>();
    expect(result.claims).toBe(2);
    expect(result.requestIds).toHaveLength(1);
    const inquiries = await sql<{ claim_id: number; trace_number: string }>(
      `select claim_id, trace_number from claim_status_inquiries where request_id = $1 order by claim_id`,
      [result.requestId],
    );
    expect(inquiries.map((i) => i.claim_id)).toEqual([at30, at40]);
    traces = new Map(inquiries.map((i) => [i.claim_id, i.trace_number]));

    const file = await biller.request({ method: 'GET', url: `/api/claims/status-requests/${result.requestId}/file` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/276-request-\d+-\d{9}\.txt/);
    expect(file.body).toContain('GS*HR*');
    expect(file.body).toContain(`TRN*1*${traces.get(at30)}`);
    const [exported] = await sql<{ n: string }>(
      `select count(*) as n from audit_log where action = 'claim_status_request.export'`,
    );
    expect(Number(exported!.n)).toBe(1);

    const list = (
      await biller.request({ method: 'GET', url: '/api/claims/status-requests' })
    ).json<ClaimStatusRequestList>();
    expect(list.items[0]).toMatchObject({
      id: result.requestId,
      payer: 'Aetna',
      claimCount: 2,
      answeredClaims: 0,
      mailedAt: null,
    });

    // Asked: the rule finds nothing more today.
    const again = (await ask()).json<ClaimStatusRequestResult>();
    expect(again).toEqual({ requestId: null, requestIds: [], claims: 0 });
  });

  it('asks about chosen claims now, without the day rule, and refuses a claim never sent, naming it', async () => {
    const chosen = await ask({ claimIds: [claims[0]!, cigna[0]!] });
    expect(chosen.statusCode, chosen.body).toBe(201);
    expect(chosen.json<ClaimStatusRequestResult>()).toMatchObject({ claims: 2 });
    expect(chosen.json<ClaimStatusRequestResult>().requestIds).toHaveLength(2);
    const [draft] = await sql<{ id: number; account_number: string }>(
      `select id, account_number from claims c where status = 'Draft' and voided_at is null
         and not exists (select 1 from claim_batch_claims bc where bc.claim_id = c.id) order by id limit 1`,
    );
    const before = await counts();
    const refused = await ask({ claimIds: [claims[1]!, draft!.id] });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain(draft!.account_number);
    expect(refused.body).toContain('never sent');
    expect(await counts()).toEqual(before);
    expect((await ask({ claimIds: [claims[1]!, claims[1]!] })).statusCode).toBe(400);
  });

  it('applies a 277: acknowledged, rejected, paid and pending answers move claims, write history, open work', async () => {
    const [at29, at30, at40] = claims as [number, number, number];
    const trace29 = (
      await sql<{ trace_number: string }>(
        `select trace_number from claim_status_inquiries where claim_id = $1 order by id desc limit 1`,
        [at29],
      )
    )[0]!.trace_number;
    const [cignaTrace] = await sql<{ trace_number: string }>(
      `select trace_number from claim_status_inquiries where claim_id = $1`,
      [cigna[0]],
    );
    const account = async (id: number) =>
      (await sql<{ account_number: string }>(`select account_number from claims where id = $1`, [id]))[0]!
        .account_number;
    const text = file277([
      { trace: traces.get(at30)!, account: await account(at30), stc: 'A1:19:PR' },
      { trace: traces.get(at40)!, account: await account(at40), stc: 'A7:562:82' },
      { trace: trace29, account: await account(at29), stc: 'F1:65:PR', amounts: ['100', '80'] },
      { trace: cignaTrace!.trace_number, account: await account(cigna[0]!), stc: 'P1:20' },
    ]);
    applied = text;
    const res = await upload(text);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<ClaimStatusResponseResult>();
    expect(result).toMatchObject({ answered: 4, needsAction: 1 });
    expect(result.summary).toContain('4 claims answered');
    const status = async (id: number) =>
      (
        await sql<{ status: string; submitted_on: string | null }>(
          `select status, submitted_on::text from claims where id = $1`,
          [id],
        )
      )[0]!;
    expect((await status(at30)).status).toBe('Accepted');
    expect(await status(at40)).toMatchObject({ status: 'Draft', submitted_on: null });
    // Finalized: recorded, the 835 posts the money.
    expect((await status(at29)).status).toBe('Submitted');
    expect((await status(cigna[0]!)).status).toBe('Pending');

    const items = await sql<{ claim_id: number; resolved_at: string | null; reason: string }>(
      `select claim_id, resolved_at, reason from work_items where source = 'claim_status' order by id`,
    );
    expect(items).toEqual([expect.objectContaining({ claim_id: at40, resolved_at: null })]);
    expect(items[0]!.reason).toContain('A7:562:82');

    const view = (await biller.request({ method: 'GET', url: `/api/claims/${at29}/status` })).json<ClaimStatusView>();
    expect(view).toMatchObject({ askable: true, latest: { categoryCode: 'F1', statusCode: '65', needsAction: false } });
    const detail = (await biller.request({ method: 'GET', url: `/api/claims/${at40}` })).json<ClaimDetail>();
    expect(detail.history.map((h) => h.detail).join('\n')).toMatch(
      /Rejected for invalid information.*rejected back to Draft/,
    );

    // A later answer that needs no one resolves the claim's open status item.
    const later = file277([{ trace: traces.get(at40)!, account: await account(at40), stc: 'A2:20:PR' }], {
      control: '000000702',
    });
    expect((await upload(later)).statusCode).toBe(200);
    const [item] = await sql<{ resolved_at: string | null; outcome: string }>(
      `select resolved_at, outcome from work_items where source = 'claim_status'`,
    );
    expect(item).toMatchObject({ outcome: 'payer_answered' });
    expect(item!.resolved_at).not.toBeNull();
  });

  it('refuses the whole file, writing nothing, for an unknown trace, the same file twice, a 277CA, bad delimiters, too large an amount', async () => {
    const [at30] = claims.slice(1) as [number];
    const trace = traces.get(at30)!;
    const known = { trace, account: 'X', stc: 'P1:20' };
    const before = await counts();
    const cases: [string, number, string][] = [
      [
        file277([known, { trace: 'NOT-OURS', account: 'Y', stc: 'A2:20' }], { control: '000000801' }),
        422,
        'UNKNOWN_TRACE_NUMBER',
      ],
      [applied, 409, 'DUPLICATE_RESPONSE'],
      [file277([known], { version: '005010X214', control: '000000802' }), 422, 'CLAIM_ACKNOWLEDGMENT'],
      [file277([known], { control: '000000803' }).replace('*00501*', '*00501#').slice(0, 200), 400, 'X12_INVALID'],
      [file277([{ ...known, amounts: ['100', '10000000.01'] }], { control: '000000804' }), 422, 'BAD_AMOUNT'],
      ['', 400, 'VALIDATION_FAILED'],
    ];
    for (const [text, code, error] of cases) {
      const res = await upload(text);
      expect(res.statusCode, `${error}: ${res.body}`).toBe(code);
      expect(res.body).toContain(error);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a 277 claim status response posted as an acknowledgement, writing nothing', async () => {
    const [at30] = claims.slice(1) as [number];
    const before = await counts();
    const res = await biller.request({
      method: 'POST',
      url: '/api/acknowledgements',
      payload: file277([{ trace: traces.get(at30)!, account: 'X', stc: 'A2:20' }], { control: '000000805' }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'NOT_AN_ACKNOWLEDGEMENT',
      message: expect.stringContaining("is implementation '005010X212', not a 277CA") as string,
    });
    expect(await counts()).toEqual(before);
  });

  it('lets only billing ask and upload', async () => {
    const doctor = await signInAs(t.app, 'doctor');
    expect((await doctor.request({ method: 'POST', url: '/api/claims/status-requests', payload: {} })).statusCode).toBe(
      403,
    );
    expect((await doctor.request({ method: 'GET', url: '/api/claims/status-requests' })).statusCode).toBe(403);
  });
});
