import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolesWith, ROLES } from '@/shared/access';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { verifyChain } from '@/features/audit/server/audit.queries';
import type { BatchScrubResult, ClaimScrubResult } from '@/features/claims/claims.schema';
import type { ScrubCode, ScrubEdit } from '../submission.scrubber';
import { holdCategory } from './submission.scrub.queries';

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

let drafted = 0;

/**
 * A Draft claim of its own for each test: a copy of a paid, insured office visit of the seed (its lines,
 * diagnoses and coverage) of a different patient each time, dated two days before the test day.
 */
async function draftClaim(tag: string): Promise<number> {
  drafted += 1;
  const [source] = await sql<{ id: number }>(
    `select distinct on (c.patient_id) c.id from claims c
      where c.status in ('Paid', 'Closed') and c.coverage_id is not null and c.payer = 'Aetna'
        and not exists (select 1 from claim_lines l where l.claim_id = c.id
                         and l.procedure_code in ('93306', '93015', '95810', '95004'))
      order by c.patient_id, c.id limit 1 offset $1`,
    [drafted],
  );
  if (!source) throw new Error('no paid Aetna office visit in the seed');
  const [copy] = await sql<{ id: number }>(
    `insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date, billed_cents,
        status, coverage_id, place_of_service, diagnoses)
     select patient_id, provider_id, 'TEST-' || $2, procedure_code, payer, date '2026-11-20', billed_cents, 'Draft',
        coverage_id, place_of_service, diagnoses
     from claims where id = $1 returning id`,
    [source.id, tag],
  );
  if (!copy) throw new Error('copy failed');
  await sql(
    `insert into claim_lines (claim_id, line_number, procedure_code, modifiers, units, charge_cents, diagnosis_pointers,
        service_date, line_control_number)
     select $2, line_number, procedure_code, modifiers, units, charge_cents, diagnosis_pointers, date '2026-11-20',
        'TEST-' || $3 || '-' || line_number
     from claim_lines where claim_id = $1`,
    [source.id, copy.id, tag],
  );
  return copy.id;
}

async function scrub(id: number, body: object = {}, who: SignedIn = biller) {
  return who.request({ method: 'POST', url: `/api/claims/${id}/scrub`, payload: body });
}

async function stored(id: number) {
  const [claim] = await sql<{ status: string; first_scrub_clean: boolean | null; scrubs: number }>(
    `select status, first_scrub_clean, (select count(*)::int from claim_scrubs s where s.claim_id = c.id) as scrubs
       from claims c where id = $1`,
    [id],
  );
  return claim;
}

async function auditOf(id: number) {
  return sql<{ detail: string; actor_role: string; patient_id: number | null }>(
    `select detail, actor_role, patient_id from audit_log where action = 'claim.scrub' and resource = $1 order by id`,
    [`claim/${id}`],
  );
}

describe('POST /api/claims/:id/scrub', () => {
  it('makes a clean Draft claim Ready, keeps the result, counts its first scrub clean and audits it', async () => {
    const id = await draftClaim('clean');
    const res = await scrub(id);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<ClaimScrubResult>();
    expect(result).toMatchObject({ claimId: id, accountNumber: 'TEST-clean', clean: true, status: 'Ready', edits: [] });
    expect(await stored(id)).toEqual({ status: 'Ready', first_scrub_clean: true, scrubs: 1 });
    const audit = await auditOf(id);
    expect(audit.map((a) => a.detail)).toEqual(['TEST-clean scrubbed: clean; Ready']);
    expect(audit[0]?.actor_role).toBe('billing_admin');
    expect(audit[0]?.patient_id).not.toBeNull();
  });

  it('holds a claim with an error as Draft, naming the field; the first scrub stays counted as not clean', async () => {
    const id = await draftClaim('npi');
    const [provider] = await sql<{ provider_id: number; npi: string }>(
      `select c.provider_id, p.npi from claims c join providers p on p.id = c.provider_id where c.id = $1`,
      [id],
    );
    if (!provider) throw new Error('no provider');
    // A wrong check digit (CMS NPI Luhn check): the payer's front end would reject the claim.
    const wrong = `${provider.npi.slice(0, 9)}${(Number(provider.npi.slice(9)) + 1) % 10}`;
    await sql('update providers set npi = $1 where id = $2', [wrong, provider.provider_id]);
    try {
      const res = await scrub(id);
      expect(res.statusCode, res.body).toBe(200);
      const result = res.json<ClaimScrubResult>();
      expect(result.clean).toBe(false);
      expect(result.status).toBe('Draft');
      expect(result.edits).toContainEqual(
        expect.objectContaining({
          code: 'NPI_RENDERING_CHECK_DIGIT',
          severity: 'error',
          field: 'renderingProvider.npi',
        }),
      );
      // Errors cannot be accepted with a reason.
      const overridden = await scrub(id, { overrideReason: 'Send it anyway please' });
      expect(overridden.json<ClaimScrubResult>().status).toBe('Draft');
    } finally {
      await sql('update providers set npi = $1 where id = $2', [provider.npi, provider.provider_id]);
    }
    const fixed = await scrub(id);
    expect(fixed.json<ClaimScrubResult>()).toMatchObject({ clean: true, status: 'Ready' });
    expect(await stored(id)).toEqual({ status: 'Ready', first_scrub_clean: false, scrubs: 3 });
    // The Clean Claim Rate counts the first scrub's outcome once the claim is submitted.
    const [fact] = await sql<{ clean_submission: boolean }>('select clean_submission from claims where id = $1', [id]);
    expect(fact?.clean_submission).toBe(false);
    expect((await auditOf(id)).map((a) => a.detail)).toEqual([
      'TEST-npi scrubbed: 1 error (NPI_RENDERING_CHECK_DIGIT); Draft',
      'TEST-npi scrubbed: 1 error (NPI_RENDERING_CHECK_DIGIT); Draft',
      'TEST-npi scrubbed: clean; Ready',
    ]);
  });

  it("holds a claim the batch could not send: the payer's id and the practice's ZIP+4 are read from Settings", async () => {
    const id = await draftClaim('routing');
    const [before] = await sql<{ payer_id: string; billing_zip: string }>(
      `select (select payer_id from payers where name = 'Aetna') as payer_id,
              (select billing_zip from practice_settings order by practice_id limit 1) as billing_zip`,
    );
    if (!before) throw new Error('no settings');
    await sql(`update payers set payer_id = null where name = 'Aetna'`);
    await sql(`update practice_settings set billing_zip = '62701'`);
    try {
      const res = await scrub(id);
      expect(res.statusCode, res.body).toBe(200);
      const result = res.json<ClaimScrubResult>();
      expect(result.status).toBe('Draft');
      expect(result.edits).toEqual([
        {
          code: 'PAYER_ID_MISSING',
          severity: 'error',
          field: 'payer.payerId',
          message: 'Aetna has no electronic payer id, which routes the claim to it: add it in Settings → Payers',
        },
        {
          code: 'BILLING_ZIP_PLUS_FOUR',
          severity: 'error',
          field: 'billingProvider.zip',
          message: "Billing provider's ZIP code '62701' must be the 9-digit ZIP+4 (Settings → Practice)",
        },
      ]);
    } finally {
      await sql(`update payers set payer_id = $1 where name = 'Aetna'`, [before.payer_id]);
      await sql(`update practice_settings set billing_zip = $1`, [before.billing_zip]);
    }
    expect((await scrub(id)).json<ClaimScrubResult>()).toMatchObject({ clean: true, status: 'Ready', edits: [] });
  });

  it("holds a claim while the patient's address is incomplete, and lets it go once the front desk enters it", async () => {
    const id = await draftClaim('address');
    const [claim] = await sql<{ patient_id: number }>('select patient_id from claims where id = $1', [id]);
    const frontDesk = await signInAs(t.app, 'nurse_manager');
    const details = (body: object) =>
      frontDesk.request({ method: 'PUT', url: `/api/patients/${claim!.patient_id}/billing-details`, payload: body });
    const cleared = await details({ sex: 'F', addressLine1: null, city: null, state: null, zip: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const held = (await scrub(id)).json<ClaimScrubResult>();
    expect(held.status).toBe('Draft');
    expect(held.edits.map((e) => [e.code, e.field])).toEqual([['PATIENT_ADDRESS_INCOMPLETE', 'patient.address']]);
    expect(held.edits[0]?.message).toContain('is missing its street, city, state and ZIP code: a claim to Aetna');
    // The hold waits for the front desk, with the coverage problems, not under "Other".
    const holds = await sql<{ category: string }>(
      `select category from work_items where source = 'scrubber' and claim_id = $1 and resolved_at is null`,
      [id],
    );
    expect(holds).toEqual([{ category: 'eligibility' }]);

    // A second Draft of the same patient that nobody has scrubbed yet.
    const [unscrubbed] = await sql<{ id: number }>(
      `insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date, billed_cents,
          status, coverage_id, place_of_service, diagnoses)
       select patient_id, provider_id, account_number || '-2', procedure_code, payer, service_date, billed_cents,
          'Draft', coverage_id, place_of_service, diagnoses
       from claims where id = $1 returning id`,
      [id],
    );

    // Entering the address scrubs the held claim again, in the same transaction: it goes Ready and its hold
    // closes, without a biller scrubbing it by hand.
    const entered = await details({ sex: 'F', addressLine1: '7 Oak Court', city: 'Peoria', state: 'IL', zip: '61602' });
    expect(entered.statusCode, entered.body).toBe(200);
    expect(await stored(id)).toEqual({ status: 'Ready', first_scrub_clean: false, scrubs: 2 });
    const closed = await sql<{ outcome: string | null; resolution_note: string | null }>(
      `select outcome, resolution_note from work_items where source = 'scrubber' and claim_id = $1`,
      [id],
    );
    expect(closed).toEqual([{ outcome: 'corrected_resubmitted', resolution_note: 'The claim scrubs clean' }]);
    expect((await auditOf(id)).map((a) => [a.detail, a.actor_role])).toEqual([
      ['TEST-address scrubbed: 1 error (PATIENT_ADDRESS_INCOMPLETE); Draft', 'billing_admin'],
      ['TEST-address scrubbed: clean; Ready', 'nurse_manager'],
    ]);
    // The claim never scrubbed keeps its first scrub for the billing staff.
    expect(await stored(unscrubbed!.id)).toEqual({ status: 'Draft', first_scrub_clean: null, scrubs: 0 });
    // Saving the same details again changes nothing, so scrubs nothing.
    const again = await details({ sex: 'F', addressLine1: '7 Oak Court', city: 'Peoria', state: 'IL', zip: '61602' });
    expect(again.statusCode, again.body).toBe(200);
    expect((await stored(id))?.scrubs).toBe(2);
  });

  it('holds a claim whose policy the payer answered inactive for the service date (a 271), not one never checked', async () => {
    const id = await draftClaim('eligibility');
    expect((await scrub(id)).json<ClaimScrubResult>().edits.map((e) => e.code)).toEqual([]);
    const [claim] = await sql<{ coverage_id: number }>(`select coverage_id from claims where id = $1`, [id]);
    const [inquiry] = await sql<{ id: number }>(
      `insert into eligibility_inquiries (created_at, reason, text, interchange_control_number, group_control_number,
          service_date, check_count)
       values (timestamptz '2026-11-19 22:00Z', 'evening', 'ISA*', 900000001, 900000001, date '2026-11-20', 1)
       returning id`,
    );
    const [response] = await sql<{ id: number }>(
      `insert into eligibility_responses (received_at, sha256, file_name, text, answered_count, active_count,
          inactive_count, rejected_count)
       values (timestamptz '2026-11-19 23:00Z', repeat('a', 64), 'answer.271', 'ISA*', 1, 0, 1, 0) returning id`,
    );
    await sql(
      `insert into eligibility_checks (coverage_id, inquiry_id, service_date, trace_number, member_id, status,
          requested_at, answered_at, summary, response_id)
       values ($1, $2, date '2026-11-20', 'T-ELIG-1', 'W1', 'Inactive', timestamptz '2026-11-19 22:00Z',
          timestamptz '2026-11-19 23:00Z', null, $3)`,
      [claim!.coverage_id, inquiry!.id, response!.id],
    );
    const held = (await scrub(id)).json<ClaimScrubResult>();
    expect(held.edits).toEqual([
      {
        code: 'ELIGIBILITY_INACTIVE',
        severity: 'error',
        field: 'coverage',
        message:
          'The payer answered the eligibility check on Nov 19, 2026 that the policy was not active on the day of ' +
          "service (The payer says the policy is not active): the payer would deny the claim (CARC CO-27); check the patient's insurance",
      },
    ]);
  });

  it('lets a claim held for its coverage go once the front desk corrects the policy', async () => {
    const id = await draftClaim('coverage');
    const [claim] = await sql<{ coverage_id: number; end_on: string | null }>(
      `select c.coverage_id, v.end_on::text from claims c join coverages v on v.id = c.coverage_id where c.id = $1`,
      [id],
    );
    // The policy was entered as ended before the visit (2026-11-20).
    await sql(`update coverages set end_on = date '2026-10-31' where id = $1`, [claim!.coverage_id]);
    const held = (await scrub(id)).json<ClaimScrubResult>();
    expect(held.edits.map((e) => e.code)).toEqual(['COVERAGE_ENDED']);
    const frontDesk = await signInAs(t.app, 'nurse_manager');
    const corrected = await frontDesk.request({
      method: 'PATCH',
      url: `/api/coverages/${claim!.coverage_id}`,
      payload: { endOn: claim!.end_on },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(await stored(id)).toEqual({ status: 'Ready', first_scrub_clean: false, scrubs: 2 });
    const holds = await sql<{ category: string; outcome: string | null }>(
      `select category, outcome from work_items where source = 'scrubber' and claim_id = $1`,
      [id],
    );
    expect(holds).toEqual([{ category: 'eligibility', outcome: 'corrected_resubmitted' }]);
  });

  it('sends a claim with only warnings on once someone says why, and audits the reason', async () => {
    const id = await draftClaim('warn');
    // An original claim (frequency 1) that names a payer claim number: worth a look, not an error.
    await sql(`update claims set original_claim_number = 'PAYER-777' where id = $1`, [id]);
    const held = (await scrub(id)).json<ClaimScrubResult>();
    expect(held).toMatchObject({ clean: true, status: 'Draft', overrideReason: null });
    expect(held.edits.map((e) => [e.code, e.severity])).toEqual([['ORIGINAL_CLAIM_NUMBER_UNEXPECTED', 'warning']]);
    const sent = (
      await scrub(id, { overrideReason: 'Payer asked for its number on the claim' })
    ).json<ClaimScrubResult>();
    expect(sent).toMatchObject({
      clean: true,
      status: 'Ready',
      overrideReason: 'Payer asked for its number on the claim',
    });
    const [row] = await sql<{ override_reason: string }>(
      'select override_reason from claim_scrubs where claim_id = $1 order by id desc limit 1',
      [id],
    );
    expect(row?.override_reason).toBe('Payer asked for its number on the claim');
    expect((await auditOf(id)).at(-1)?.detail).toBe(
      'TEST-warn scrubbed: 1 warning (ORIGINAL_CLAIM_NUMBER_UNEXPECTED); warnings accepted: ' +
        'Payer asked for its number on the claim; Ready',
    );
  });

  it('refuses a claim already sent (409 naming status), an unknown claim (404) and a short reason (400)', async () => {
    const [paid] = await sql<{ id: number }>(`select id from claims where status = 'Paid' order by id limit 1`);
    const sent = await scrub(paid?.id ?? 0);
    expect(sent.statusCode).toBe(409);
    expect(sent.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('status');
    expect((await scrub(2_000_000_000)).statusCode).toBe(404);
    const id = await draftClaim('short');
    const short = await scrub(id, { overrideReason: 'ok' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('overrideReason');
    const extra = await scrub(id, { overrideReason: 'A good reason', status: 'Ready' });
    expect(extra.statusCode).toBe(400);
    expect(await stored(id)).toEqual({ status: 'Draft', first_scrub_clean: null, scrubs: 0 });
  });

  it('is for those who may edit claims', async () => {
    const id = await draftClaim('roles');
    for (const role of ROLES.filter((r) => !rolesWith('claims:write').includes(r))) {
      const who = await signInAs(t.app, role);
      expect((await scrub(id, {}, who)).statusCode, role).toBe(403);
      expect((await who.request({ method: 'POST', url: '/api/claims/scrub' })).statusCode, role).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: `/api/claims/${id}/scrub`, payload: {} })).statusCode).toBe(401);
    expect(await stored(id)).toEqual({ status: 'Draft', first_scrub_clean: null, scrubs: 0 });
  });
});

describe('the work queue category of a scrubber hold', () => {
  const edit = (code: ScrubCode, severity: ScrubEdit['severity'] = 'error'): ScrubEdit => ({
    code,
    severity,
    field: 'claim',
    message: code,
  });

  it('follows the first error, by who fixes it', () => {
    const expected: [ScrubCode, string][] = [
      ['DUPLICATE_SERVICE', 'duplicate'],
      // A line pointing at one diagnosis twice is a coding error, not a duplicate claim.
      ['POINTER_DUPLICATE', 'coding'],
      ['POINTER_OUT_OF_RANGE', 'coding'],
      ['DIAGNOSIS_NOT_BILLABLE', 'coding'],
      ['PROCEDURE_CODE_FORMAT', 'coding'],
      ['MODIFIER_TOO_MANY', 'coding'],
      ['UNITS_INVALID', 'coding'],
      ['LINES_MISSING', 'coding'],
      ['LINE_CHARGE_INVALID', 'coding'],
      ['PLACE_OF_SERVICE_UNKNOWN', 'coding'],
      ['COVERAGE_ENDED', 'eligibility'],
      ['ELIGIBILITY_INACTIVE', 'eligibility'],
      ['MEMBER_ID_NOT_MBI', 'eligibility'],
      // Registration: the front desk fixes these as it fixes coverage.
      ['PATIENT_ADDRESS_INCOMPLETE', 'eligibility'],
      ['PATIENT_DOB_INVALID', 'eligibility'],
      ['AUTHORIZATION_MISSING', 'authorization'],
      ['TIMELY_FILING_EXPIRED', 'timely_filing'],
      ['NPI_BILLING_CHECK_DIGIT', 'other'],
      ['PAYER_ID_MISSING', 'other'],
      ['TOTAL_CHARGE_MISMATCH', 'other'],
    ];
    expect(expected.map(([code]) => [code, holdCategory([edit(code)])])).toEqual(expected);
  });

  it('skips warnings: a duplicate diagnosis warned about before a coverage error is an eligibility hold', () => {
    expect(holdCategory([edit('DIAGNOSIS_DUPLICATE', 'warning'), edit('COVERAGE_MISSING')])).toBe('eligibility');
    expect(holdCategory([edit('TIMELY_FILING_NEAR', 'warning')])).toBe('other');
  });
});

describe('POST /api/claims/scrub', () => {
  it('scrubs every Draft claim at once: the clean ones Ready, the others held, each kept and audited', async () => {
    await draftClaim('batch');
    const [before] = await sql<{ drafts: number; scrubs: number; audits: number }>(
      `select (select count(*)::int from claims where status = 'Draft' and voided_at is null) as drafts,
              (select count(*)::int from claim_scrubs) as scrubs,
              (select count(*)::int from audit_log where action = 'claim.scrub') as audits`,
    );
    const res = await biller.request({ method: 'POST', url: '/api/claims/scrub' });
    expect(res.statusCode, res.body).toBe(200);
    const batch = res.json<BatchScrubResult>();
    expect(batch.scrubbed).toBe(before?.drafts);
    expect(batch.ready + batch.held).toBe(batch.scrubbed);
    expect(batch.results.find((r) => r.accountNumber === 'TEST-batch')).toMatchObject({ status: 'Ready' });
    for (const result of batch.results) {
      expect(result.status).toBe(
        result.clean && result.edits.length === 0 ? 'Ready' : result.clean ? 'Draft' : 'Draft',
      );
    }
    const [after] = await sql<{ drafts: number; scrubs: number; audits: number }>(
      `select (select count(*)::int from claims where status = 'Draft' and voided_at is null) as drafts,
              (select count(*)::int from claim_scrubs) as scrubs,
              (select count(*)::int from audit_log where action = 'claim.scrub') as audits`,
    );
    expect(after).toEqual({
      drafts: batch.held,
      scrubs: (before?.scrubs ?? 0) + batch.scrubbed,
      audits: (before?.audits ?? 0) + batch.scrubbed,
    });
  });

  it('rewrites no claim a scrub leaves as it was, and audits the scrubs, then the holds it opens, in one chain', async () => {
    // Two claims held for a line pointing at no diagnosis: one already scrubbed (and held) once, one new.
    const [again, fresh] = [await draftClaim('held-again'), await draftClaim('held-new')];
    await sql(`update claims set diagnoses = '{}' where id = any($1)`, [[again, fresh]]);
    expect((await scrub(again)).json<ClaimScrubResult>()).toMatchObject({ clean: false, status: 'Draft' });
    const version = async (claim: number) =>
      (await sql<{ xmin: string }>('select xmin::text from claims where id = $1', [claim]))[0]?.xmin;
    const [againBefore, freshBefore] = [await version(again), await version(fresh)];
    const [{ newest } = { newest: 0 }] = await sql<{ newest: number }>('select max(id)::int as newest from audit_log');
    const res = await biller.request({ method: 'POST', url: '/api/claims/scrub' });
    expect(res.statusCode, res.body).toBe(200);
    const batch = res.json<BatchScrubResult>();
    for (const claim of [again, fresh]) {
      expect(batch.results.find((r) => r.claimId === claim)).toMatchObject({ clean: false, status: 'Draft' });
    }
    expect(await stored(again)).toEqual({ status: 'Draft', first_scrub_clean: false, scrubs: 2 });
    expect(await stored(fresh)).toEqual({ status: 'Draft', first_scrub_clean: false, scrubs: 1 });
    // Held before and held again: the same row version (its status and first scrub are already stored).
    expect(await version(again)).toBe(againBefore);
    expect(await version(fresh)).not.toBe(freshBefore);
    const trail = await sql<{ action: string; resource: string }>(
      'select action, resource from audit_log where id > $1 order by id',
      [newest],
    );
    expect(trail.map((e) => e.action)).toEqual([...batch.results.map(() => 'claim.scrub'), 'work_item.open']);
    expect(trail.slice(0, batch.scrubbed).map((e) => e.resource)).toEqual(
      batch.results.map((r) => `claim/${r.claimId}`),
    );
    expect((await verifyChain(t.database.db)).ok).toBe(true);
  });

  it('warns of a duplicate between two claims scrubbed in the same batch, and holds both for a reason', async () => {
    // The same visit entered twice: a second Draft with the first one's patient, date and lines.
    const first = await draftClaim('dup-first');
    const [second] = await sql<{ id: number }>(
      `insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date, billed_cents,
          status, coverage_id, place_of_service, diagnoses)
       select patient_id, provider_id, 'TEST-dup-second', procedure_code, payer, service_date, billed_cents, 'Draft',
          coverage_id, place_of_service, diagnoses
       from claims where id = $1 returning id`,
      [first],
    );
    if (!second) throw new Error('copy failed');
    await sql(
      `insert into claim_lines (claim_id, line_number, procedure_code, modifiers, units, charge_cents,
          diagnosis_pointers, service_date, line_control_number)
       select $2, line_number, procedure_code, modifiers, units, charge_cents, diagnosis_pointers, service_date,
          'TEST-dup-second-' || line_number
       from claim_lines where claim_id = $1`,
      [first, second.id],
    );
    const res = await biller.request({ method: 'POST', url: '/api/claims/scrub' });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = res.json<BatchScrubResult>();
    for (const [claim, other] of [
      [first, second.id],
      [second.id, first],
    ] as const) {
      const result = results.find((r) => r.claimId === claim);
      expect(result).toMatchObject({ clean: true, status: 'Draft' });
      const duplicate = result?.edits.find((e) => e.code === 'DUPLICATE_SERVICE');
      expect(duplicate).toMatchObject({ severity: 'warning', field: 'lines[0].procedureCode' });
      expect(duplicate?.message).toContain(`also billed on claim ${other}`);
    }
    expect(await stored(first)).toMatchObject({ status: 'Draft' });
    expect(await stored(second.id)).toMatchObject({ status: 'Draft' });
  });
});
