import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolesWith, ROLES } from '@/shared/access';
import { TEST_TODAY } from '@/testing/test-clock';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { ClaimDetail, ClaimDraftInput, ClaimScrubResult } from '../claims.schema';

let t: TestApp;
let biller: SignedIn;
let patient: { id: number; coverage: number; payer: string; other: number };
let providerId: number;
beforeAll(async () => {
  t = await createTestApp();
  biller = await signInAs(t.app, 'billing_admin');
  const [p] = await sql<{ id: number; coverage: number; payer: string; other: number }>(
    `select v.patient_id as id, v.id as coverage, v.payer,
            (select o.id from coverages o where o.patient_id <> v.patient_id order by o.id limit 1) as other
       from coverages v join patients p on p.id = v.patient_id
      where v.priority = 1 and v.payer = 'Aetna' and p.dob < date '2000-01-01' order by v.id limit 1`,
  );
  const [provider] = await sql<{ id: number }>(
    `select id from providers where specialty = 'Family Medicine' and active order by id limit 1`,
  );
  if (!p || !provider) throw new Error('the seed has no adult Aetna patient or no Family Medicine provider');
  patient = p;
  providerId = provider.id;
});
afterAll(async () => {
  await t.close();
});

async function sql<T extends object>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T>(text, params)).rows;
}

function draft(overrides: Partial<ClaimDraftInput> = {}): ClaimDraftInput {
  return {
    patientId: patient.id,
    providerId,
    coverageId: patient.coverage,
    placeOfService: '11',
    frequencyCode: '1',
    originalClaimNumber: null,
    diagnoses: ['e11.9', 'I10'],
    lines: [
      {
        procedureCode: '99214',
        modifiers: ['25'],
        units: 1,
        chargeCents: 21_400,
        diagnosisPointers: [1, 2],
        serviceDate: '2026-11-19',
      },
      {
        procedureCode: '83036',
        modifiers: [],
        units: 1,
        chargeCents: 5_700,
        diagnosisPointers: [1],
        serviceDate: '2026-11-19',
      },
    ],
    ...overrides,
  };
}

async function create(body: unknown, who: SignedIn = biller) {
  return who.request({ method: 'POST', url: '/api/claims', payload: body as object });
}

const fieldsOf = (res: { json: <T>() => T }) =>
  res.json<{ error: { fields?: { field: string }[] } }>().error.fields?.map((f) => f.field) ?? [];

async function counts() {
  const [row] = await sql<{ claims: number; lines: number; audits: number }>(
    `select (select count(*)::int from claims) as claims, (select count(*)::int from claim_lines) as lines,
            (select count(*)::int from audit_log where action in ('claim.create', 'claim.update')) as audits`,
  );
  return row;
}

describe('POST /api/claims', () => {
  it('creates a Draft claim with its lines, the total their sum, the payer its coverage’s, audited', async () => {
    const res = await create(draft());
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<ClaimDetail>();
    expect(created).toMatchObject({
      status: 'Draft',
      payer: patient.payer,
      billedCents: 27_100,
      diagnoses: ['E11.9', 'I10'],
      serviceDate: '2026-11-19',
      placeOfService: '11',
    });
    expect(created.accountNumber).toMatch(/^ACC-2026-M\d{7}$/);
    expect(created.lines.map((l) => [l.procedureCode, l.modifiers, l.diagnosisPointers, l.lineControlNumber])).toEqual([
      ['99214', ['25'], [1, 2], `${created.accountNumber}-1`],
      ['83036', [], [1], `${created.accountNumber}-2`],
    ]);
    const [audit] = await sql<{ detail: string; patient_id: number }>(
      `select detail, patient_id from audit_log where action = 'claim.create' and resource = $1`,
      [`claim/${created.id}`],
    );
    expect(audit?.patient_id).toBe(patient.id);
    expect(audit?.detail).toBe(
      `created ${created.accountNumber} as Draft: 2 lines (99214, 83036), $271.00, diagnoses E11.9, I10, ${patient.payer}`,
    );
    // It scrubs like any claim, and the scrub's outcome is its first.
    const scrubbed = await biller.request({ method: 'POST', url: `/api/claims/${created.id}/scrub`, payload: {} });
    expect(scrubbed.json<ClaimScrubResult>()).toMatchObject({ clean: true, status: 'Ready' });
  });

  it('keeps the provider who referred the patient, shows it, and sends it in loop 2310A', async () => {
    // Another day than the other claims here, which a scrub would take this one for a duplicate of.
    const lines = draft().lines.map((l) => ({ ...l, serviceDate: '2026-11-12' }));
    const res = await create(draft({ lines, referringProvider: { name: 'Dr. Lena Park', npi: ' 1234567893 ' } }));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<ClaimDetail>();
    expect(created.referringProvider).toEqual({ name: 'Dr. Lena Park', npi: '1234567893' });
    const scrubbed = await biller.request({ method: 'POST', url: `/api/claims/${created.id}/scrub`, payload: {} });
    expect(scrubbed.json<ClaimScrubResult>(), scrubbed.body).toMatchObject({ clean: true });
    const sent = await biller.request({
      method: 'POST',
      url: '/api/claim-batches',
      payload: { claimIds: [created.id] },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const batchId = sent.json<{ batches: { id: number }[] }>().batches[0]!.id;
    const segments = (await biller.request({ method: 'GET', url: `/api/claim-batches/${batchId}/837` })).body.split(
      /~\s*/,
    );
    // After the diagnoses (HI), before the rendering provider (2310B) or the lines.
    const referring = segments.indexOf('NM1*DN*1*Park*Lena****XX*1234567893');
    expect(referring).toBeGreaterThan(segments.findIndex((x) => x.startsWith('HI*')));
    expect(referring).toBeLessThan(segments.findIndex((x) => x.startsWith('LX*')));
    // A claim without one writes no 2310A.
    const plain = await create(draft({ lines: lines.map((l) => ({ ...l, serviceDate: '2026-11-13' })) }));
    expect(plain.json<ClaimDetail>().referringProvider).toBeNull();
  });

  it('bills the patient when no coverage is chosen', async () => {
    const res = await create(draft({ coverageId: null }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<ClaimDetail>()).toMatchObject({ payer: 'Self-Pay', coverage: null });
  });

  // The bodies are made when each test runs: the seed's patient is read in beforeAll.
  const line = () => draft().lines[0]!;
  it.each<[string, () => ClaimDraftInput, string]>([
    ['a pointer past the diagnoses', () => draft({ diagnoses: ['E11.9'] }), 'lines.0.diagnosisPointers.1'],
    ['no line', () => draft({ lines: [] }), 'lines'],
    ['an ICD-9 code', () => draft({ diagnoses: ['250.00', 'I10'] }), 'diagnoses.0'],
    ['a bad procedure code', () => draft({ lines: [{ ...line(), procedureCode: '9921' }] }), 'lines.0.procedureCode'],
    [
      'five modifiers',
      () => draft({ lines: [{ ...line(), modifiers: ['25', '59', 'GT', '76', '77'] }] }),
      'lines.0.modifiers',
    ],
    ['a replacement without the original number', () => draft({ frequencyCode: '7' }), 'originalClaimNumber'],
    [
      'a service in the future',
      () => draft({ lines: [{ ...line(), serviceDate: '2026-11-23' }] }),
      'lines.0.serviceDate',
    ],
    ["another patient's coverage", () => draft({ coverageId: patient.other }), 'coverageId'],
    [
      'a referring NPI with a wrong check digit',
      () => draft({ referringProvider: { name: 'Dr. Lena Park', npi: '1234567890' } }),
      'referringProvider.npi',
    ],
    [
      'a referring provider without a name',
      () => draft({ referringProvider: { name: ' ', npi: '1234567893' } }),
      'referringProvider.name',
    ],
    ['an unknown provider', () => draft({ providerId: 2_000_000 }), 'providerId'],
  ])('refuses %s (400 naming the field) and writes nothing', async (_label, body, field) => {
    const before = await counts();
    const res = await create(body());
    expect(res.statusCode, res.body).toBe(400);
    expect(fieldsOf(res)).toContain(field);
    expect(await counts()).toEqual(before);
  });

  it('is for those who may edit claims', async () => {
    const before = await counts();
    for (const role of ROLES.filter((r) => !rolesWith('claims:write').includes(r))) {
      const who = await signInAs(t.app, role);
      expect((await create(draft(), who)).statusCode, role).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/claims', payload: draft() })).statusCode).toBe(401);
    expect(await counts()).toEqual(before);
  });
});

describe('PUT /api/claims/:id', () => {
  it('rewrites a Ready claim, which is Draft again until scrubbed, and audits what changed', async () => {
    // Another day than the claims above, which a scrub would take this one for a duplicate of.
    const lines = draft().lines.map((l) => ({ ...l, serviceDate: '2026-11-17' }));
    const created = (await create(draft({ lines }))).json<ClaimDetail>();
    const scrubbed = await biller.request({ method: 'POST', url: `/api/claims/${created.id}/scrub`, payload: {} });
    expect(scrubbed.json<ClaimScrubResult>().status).toBe('Ready');
    const res = await biller.request({
      method: 'PUT',
      url: `/api/claims/${created.id}`,
      payload: draft({ lines: [lines[0]!], diagnoses: ['E11.9', 'I10', 'E78.5'] }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const edited = res.json<ClaimDetail>();
    expect(edited).toMatchObject({
      id: created.id,
      status: 'Draft',
      billedCents: 21_400,
      diagnoses: ['E11.9', 'I10', 'E78.5'],
    });
    expect(edited.accountNumber).toBe(created.accountNumber);
    expect(edited.lines).toHaveLength(1);
    const [audit] = await sql<{ detail: string }>(
      `select detail from audit_log where action = 'claim.update' and resource = $1`,
      [`claim/${created.id}`],
    );
    expect(audit?.detail).toBe(
      `edited ${created.accountNumber} (was Ready: 2 lines, $271.00, diagnoses E11.9, I10); now Draft: ` +
        `1 line (99214), $214.00, diagnoses E11.9, I10, E78.5, ${patient.payer}`,
    );
  });

  it('refuses a claim already sent (409), another patient (400) and an unknown claim (404), writing nothing', async () => {
    const [paid] = await sql<{ id: number; patient_id: number }>(
      `select id, patient_id from claims where status = 'Paid' order by id limit 1`,
    );
    const before = await counts();
    const sent = await biller.request({ method: 'PUT', url: `/api/claims/${paid?.id ?? 0}`, payload: draft() });
    expect(sent.statusCode).toBe(409);
    expect(fieldsOf(sent)).toEqual(['status']);
    const created = (await create(draft())).json<ClaimDetail>();
    const afterCreate = await counts();
    const [other] = await sql<{ id: number }>(`select id from patients where id <> $1 order by id limit 1`, [
      patient.id,
    ]);
    const moved = await biller.request({
      method: 'PUT',
      url: `/api/claims/${created.id}`,
      payload: draft({ patientId: other?.id ?? 0, coverageId: null }),
    });
    expect(moved.statusCode).toBe(400);
    expect(fieldsOf(moved)).toEqual(['patientId']);
    expect((await biller.request({ method: 'PUT', url: '/api/claims/2000000000', payload: draft() })).statusCode).toBe(
      404,
    );
    expect(await counts()).toEqual(afterCreate);
    expect(afterCreate?.claims).toBe((before?.claims ?? 0) + 1);
  });
});

it('the test clock reads the seed day, so “the future” above is after it', () => {
  expect(TEST_TODAY).toBe('2026-11-22');
});
