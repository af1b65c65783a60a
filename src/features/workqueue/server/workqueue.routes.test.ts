import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amt, eraFile, eraHeader } from '@/testing/era-files';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { AssignmentRule, WorkItem, WorkQueuePage } from '../workqueue.schema';

let t: TestApp;
let billing: SignedIn;
let admin: SignedIn;

const query = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await t.database.pool.query(text, values)).rows as T[];

beforeAll(async () => {
  t = await createTestApp();
  billing = await signInAs(t.app, 'billing_admin');
  admin = await signInAs(t.app, 'admin');
});
afterAll(async () => {
  await t.close();
});

describe('the work queue', () => {
  it('assigns a denial by rule, dates it by the appeal window and timely filing, and is worked to resolution, every change audited', async () => {
    const [me] = await query<{ id: number; name: string }>(
      `select id, name from users where role = 'billing_admin' order by id limit 1`,
    );
    const rule = await admin.request({
      method: 'POST',
      url: '/api/work-queue/rules',
      payload: { payer: 'Aetna', category: 'authorization', assigneeId: me!.id },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    expect(rule.json<AssignmentRule>()).toMatchObject({
      payer: 'Aetna',
      category: 'authorization',
      assignee: me!.name,
    });
    const again = await admin.request({
      method: 'POST',
      url: '/api/work-queue/rules',
      payload: { payer: 'Aetna', category: 'authorization', assigneeId: me!.id },
    });
    expect(again.statusCode).toBe(409);
    expect((await billing.request({ method: 'GET', url: '/api/work-queue/rules' })).statusCode).toBe(403);

    // Two Aetna claims the payer has not answered: one denied for authorization (CO-197), one for eligibility (CO-27).
    const claims = await query<{
      id: number;
      account_number: string;
      billed_cents: number;
      service_date: string;
      lcn: string;
      code: string;
      mods: string[];
    }>(
      `select c.id, c.account_number, c.billed_cents, c.service_date::text, l.line_control_number as lcn,
         l.procedure_code as code, l.modifiers as mods
       from claims c join claim_lines l on l.claim_id = c.id
       where c.payer = 'Aetna' and c.status in ('Submitted', 'Pending') and c.paid_cents = 0 and c.voided_at is null
         and (select count(*) from claim_lines x where x.claim_id = c.id) = 1
       order by c.id limit 2`,
    );
    expect(claims).toHaveLength(2);
    const [auth, elig] = claims as [(typeof claims)[number], (typeof claims)[number]];
    const denied = (c: typeof auth, carc: string) => [
      `CLP*${c.account_number}*4*${amt(c.billed_cents)}*0**12*ICN${c.id}`,
      `SVC*HC:${[c.code, ...c.mods].join(':')}*${amt(c.billed_cents)}*0**1`,
      `CAS*CO*${carc}*${amt(c.billed_cents)}`,
      `REF*6R*${c.lcn}`,
    ];
    const res = await billing.request({
      method: 'POST',
      url: '/api/remittances',
      headers: { 'content-type': 'application/edi-x12' },
      payload: eraFile([
        ...eraHeader({ paid: '0', trace: 'WQ-1', date: '20261118' }),
        ...denied(auth, '197'),
        ...denied(elig, '27'),
      ]),
    });
    expect(res.statusCode, res.body).toBe(201);

    const page = (await billing.request({ method: 'GET', url: '/api/work-queue?assignee=me' })).json<WorkQueuePage>();
    expect(page.items.map((i) => [i.accountNumber, i.category, i.carc])).toEqual([
      [auth.account_number, 'authorization', 'CO-197'],
    ]);
    const item = page.items[0]!;
    // The page names a patient: its read is audited with the patients it shows.
    const [listed] = await query<{ detail: string; patient_id: number }>(
      `select a.detail, c.patient_id from audit_log a, claims c
       where a.action = 'work_queue.list.view' and c.id = $1 order by a.id desc limit 1`,
      [auth.id],
    );
    expect(listed!.detail).toBe(
      `/api/work-queue?assignee=me&status=open&sort=due&limit=50: patients [${listed!.patient_id}]`,
    );
    // Due: the earlier of the appeal deadline (the remittance's day + the payer's appeal days) and timely filing.
    const [limits] = await query<{ timely: string; appeal: string }>(
      `select ($1::date + timely_filing_days)::text as timely, ('2026-11-18'::date + appeal_days)::text as appeal
       from payers where name = 'Aetna'`,
      [auth.service_date],
    );
    expect(item.dueOn).toBe([limits!.timely, limits!.appeal].sort()[0]);
    expect(item.dollarsAtRiskCents).toBe(auth.billed_cents);

    const unassigned = (
      await billing.request({ method: 'GET', url: '/api/work-queue?assignee=unassigned&category=eligibility' })
    ).json<WorkQueuePage>();
    expect(unassigned.items.map((i) => i.accountNumber)).toEqual([elig.account_number]);

    // Keyset paging, most dollars first: two pages of one, then none.
    const first = (
      await billing.request({ method: 'GET', url: '/api/work-queue?payer=Aetna&sort=dollars&limit=1' })
    ).json<WorkQueuePage>();
    expect(first.total).toBe(2);
    const second = (
      await billing.request({
        method: 'GET',
        url: `/api/work-queue?payer=Aetna&sort=dollars&limit=1&cursor=${first.nextCursor}`,
      })
    ).json<WorkQueuePage>();
    expect(second.nextCursor).toBeNull();
    expect([first.items[0]!.dollarsAtRiskCents, second.items[0]!.dollarsAtRiskCents]).toEqual(
      [auth.billed_cents, elig.billed_cents].sort((a, b) => b - a),
    );
    expect((await billing.request({ method: 'GET', url: '/api/work-queue?sort=due&cursor=bad' })).statusCode).toBe(400);

    // Reassign, note, resolve.
    const [other] = await query<{ id: number }>(`select id from users where role = 'admin' order by id limit 1`);
    const assigned = await billing.request({
      method: 'POST',
      url: `/api/work-items/${item.id}/assign`,
      payload: { assigneeId: other!.id },
    });
    expect(assigned.json<WorkItem>().assigneeId).toBe(other!.id);
    const patient = await query<{ id: number }>(`select id from users where role = 'patient' limit 1`);
    const refused = await billing.request({
      method: 'POST',
      url: `/api/work-items/${item.id}/assign`,
      payload: { assigneeId: patient[0]!.id },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('assigneeId');
    const noted = await billing.request({
      method: 'POST',
      url: `/api/work-items/${item.id}/notes`,
      payload: { body: 'Called Aetna: auth on file, appealing.' },
    });
    expect(noted.json<WorkItem>().notes.map((n) => n.body)).toEqual(['Called Aetna: auth on file, appealing.']);
    const noReason = await billing.request({
      method: 'POST',
      url: `/api/work-items/${item.id}/resolve`,
      payload: { outcome: 'written_off' },
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain('note');
    const resolved = await billing.request({
      method: 'POST',
      url: `/api/work-items/${item.id}/resolve`,
      payload: { outcome: 'appealed', note: 'First-level appeal sent' },
    });
    expect(resolved.json<WorkItem>()).toMatchObject({ outcome: 'appealed', resolutionNote: 'First-level appeal sent' });
    expect(
      (
        await billing.request({
          method: 'POST',
          url: `/api/work-items/${item.id}/resolve`,
          payload: { outcome: 'appealed' },
        })
      ).statusCode,
    ).toBe(409);
    const open = (await billing.request({ method: 'GET', url: '/api/work-queue?payer=Aetna' })).json<WorkQueuePage>();
    expect(open.items.map((i) => i.accountNumber)).toEqual([elig.account_number]);

    const audited = await query<{ action: string }>(`select action from audit_log where resource = $1 order by id`, [
      `work_item/${item.id}`,
    ]);
    expect(audited.map((a) => a.action)).toEqual([
      'work_item.open',
      'work_item.assign',
      'work_item.note',
      'work_item.resolve',
    ]);
    expect((await query(`select 1 from audit_log where action = 'work_queue.list.view'`)).length).toBeGreaterThan(0);

    // The other denial is appealed from its claim: its item is resolved with the appeal, not left open.
    const appealed = await billing.request({
      method: 'POST',
      url: `/api/claims/${elig.id}/appeals`,
      payload: { reason: 'Coverage was active on the service date', level: 'first' },
    });
    expect(appealed.statusCode, appealed.body).toBe(200);
    const [eligItem] = await query<{ id: number; outcome: string; resolution_note: string }>(
      `select id, outcome, resolution_note from work_items where claim_id = $1 and source = 'denial'`,
      [elig.id],
    );
    expect(eligItem).toMatchObject({
      outcome: 'appealed',
      resolution_note: 'First level appeal filed from the claim: Coverage was active on the service date',
    });
    const left = (await billing.request({ method: 'GET', url: '/api/work-queue?payer=Aetna' })).json<WorkQueuePage>();
    expect(left.items).toEqual([]);
    const resolvedEntry = await query<{ action: string }>(
      `select action from audit_log where resource = $1 order by id`,
      [`work_item/${eligItem!.id}`],
    );
    expect(resolvedEntry.map((a) => a.action)).toEqual(['work_item.open', 'work_item.resolve']);

    // The item's view reads it again as it stands now: resolved by the appeal. An audited read.
    const viewed = await billing.request({ method: 'GET', url: `/api/work-items/${eligItem!.id}` });
    expect(viewed.statusCode, viewed.body).toBe(200);
    expect(viewed.json<WorkItem>()).toMatchObject({
      id: eligItem!.id,
      claimId: elig.id,
      outcome: 'appealed',
      resolutionNote: 'First level appeal filed from the claim: Coverage was active on the service date',
    });
    const [viewEntry] = await query<{ action: string; patient_id: number; detail: string }>(
      `select action, patient_id, detail from audit_log where resource = $1 order by id desc limit 1`,
      [`work_item/${eligItem!.id}`],
    );
    const [eligPatient] = await query<{ patient_id: number }>(`select patient_id from claims where id = $1`, [elig.id]);
    expect(viewEntry).toEqual({
      action: 'work_item.view',
      patient_id: eligPatient!.patient_id,
      detail: `${elig.account_number}: viewed the item`,
    });
    const missing = await billing.request({ method: 'GET', url: '/api/work-items/999999' });
    expect(missing.statusCode).toBe(404);
    expect((await billing.request({ method: 'GET', url: '/api/work-items/abc' })).statusCode).toBe(400);
  });

  it('holds from the scrubber become one work item per held claim, however often it runs', async () => {
    // A Draft claim whose diagnoses were lost: the scrubber holds it (a line points at no diagnosis).
    const [draft] = await query<{ id: number; diagnoses: string[] }>(
      `update claims c set diagnoses = '{}'
       from (select id, diagnoses from claims where status = 'Draft' and voided_at is null order by id limit 1) o
       where c.id = o.id returning c.id, o.diagnoses`,
    );
    expect(draft).toBeDefined();
    const first = await billing.request({ method: 'POST', url: '/api/claims/scrub' });
    expect(first.statusCode, first.body).toBe(200);
    const held = first.json<{ held: number }>().held;
    expect(held).toBeGreaterThan(0);
    const items = async () =>
      (await query<{ n: number }>(`select count(*)::int as n from work_items where source = 'scrubber'`))[0]!.n;
    expect(await items()).toBe(held);
    await billing.request({ method: 'POST', url: '/api/claims/scrub' });
    expect(await items()).toBe(held);
    const [hold] = await query<{ category: string; claim_id: number }>(
      `select category, claim_id from work_items where source = 'scrubber' and claim_id = $1`,
      [draft!.id],
    );
    expect(hold).toMatchObject({ category: 'coding' });
    // Its diagnoses back, the claim scrubs clean and its hold is resolved.
    await query(`update claims set diagnoses = $1 where id = $2`, [draft!.diagnoses, draft!.id]);
    const rescrub = await billing.request({ method: 'POST', url: `/api/claims/${draft!.id}/scrub`, payload: {} });
    expect(rescrub.statusCode, rescrub.body).toBe(200);
    expect(rescrub.json<{ clean: boolean }>().clean, rescrub.body).toBe(true);
    const [closed] = await query<{ outcome: string | null }>(
      `select outcome from work_items where source = 'scrubber' and claim_id = $1`,
      [draft!.id],
    );
    expect(closed?.outcome).toBe('corrected_resubmitted');
  });

  it('is open to billing admins and admins only', async () => {
    const doctor = await signInAs(t.app, 'doctor');
    expect((await doctor.request({ method: 'GET', url: '/api/work-queue' })).statusCode).toBe(403);
    const [item] = await query<{ id: number }>(`select id from work_items order by id limit 1`);
    expect((await doctor.request({ method: 'GET', url: `/api/work-items/${item!.id}` })).statusCode).toBe(403);
  });
});
