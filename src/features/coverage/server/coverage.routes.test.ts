import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, maskMemberId, rolesWith, ROLES } from '@/shared/access';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { Coverage, NewCoverageInput } from '../coverage.schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function sql<T extends object>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T>(text, params)).rows;
}

type Refusal = { error: { code: string; fields?: { field: string; message: string }[] } };
const fieldsOf = (body: Refusal) => (body.error.fields ?? []).map((f) => f.field);

/** Patients the seed gave no policy (the self-pay ones), so each test starts from none. */
async function uninsuredPatients(n: number): Promise<number[]> {
  const rows = await sql<{ id: number }>(
    `select id from patients p where not exists (select 1 from coverages c where c.patient_id = p.id)
     order by id limit $1`,
    [n],
  );
  if (rows.length < n) throw new Error(`the seed has fewer than ${n} patients without coverage`);
  return rows.map((r) => r.id);
}

async function writes(patientId: number) {
  const [row] = await sql<{ coverages: number; audited: number }>(
    `select (select count(*)::int from coverages where patient_id = $1) as coverages,
            (select count(*)::int from audit_log where action in ('coverage.create', 'coverage.update')) as audited`,
    [patientId],
  );
  return row;
}

const aetna: NewCoverageInput = {
  payer: 'Aetna',
  priority: 1,
  memberId: 'W123456789',
  groupNumber: 'GRP100200',
  relationship: 'self',
  effectiveOn: '2025-01-01',
};

function post(who: SignedIn, patientId: number, payload: object) {
  return who.request({ method: 'POST', url: `/api/patients/${patientId}/coverages`, payload });
}
function patch(who: SignedIn, id: number, payload: object) {
  return who.request({ method: 'PATCH', url: `/api/coverages/${id}`, payload });
}

describe('GET /api/patients/:id/coverages', () => {
  it("lists the patient's policies primary first, member ids whole for those who bill, audited", async () => {
    const [patient] = await sql<{ id: number }>(
      `select patient_id as id from coverages group by patient_id having count(*) > 1 order by patient_id limit 1`,
    );
    if (!patient) throw new Error('the seed has no patient with two coverages');
    const stored = await sql<{ member_id: string; priority: number }>(
      'select member_id, priority from coverages where patient_id = $1 order by priority',
      [patient.id],
    );
    for (const role of rolesWith('coverage:read')) {
      const who = await signInAs(t.app, role);
      const res = await who.request({ method: 'GET', url: `/api/patients/${patient.id}/coverages` });
      expect(res.statusCode, res.body).toBe(200);
      const listed = res.json<Coverage[]>();
      expect(listed.map((c) => c.priority)).toEqual(stored.map((c) => c.priority));
      expect(listed[0]?.memberId === stored[0]?.member_id, role).toBe(can(role, 'claims:write'));
    }
    const [audited] = await sql<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'coverage.list.view' and patient_id = $1`,
      [patient.id],
    );
    expect(audited?.n).toBe(rolesWith('coverage:read').length);
  });

  it('is for those who read claims or register insurance', async () => {
    expect(rolesWith('coverage:read').sort()).toEqual(['admin', 'billing_admin', 'doctor', 'nurse_manager']);
    for (const role of ROLES.filter((r) => !rolesWith('coverage:read').includes(r))) {
      const who = await signInAs(t.app, role);
      expect((await who.request({ method: 'GET', url: '/api/patients/1/coverages' })).statusCode, role).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/patients/1/coverages' })).statusCode).toBe(401);
  });
});

describe('POST /api/patients/:id/coverages', () => {
  it('registers a policy with the member id stored whole and answered as the role may see it, audited', async () => {
    const [patientId] = (await uninsuredPatients(1)) as [number];
    const billing = await signInAs(t.app, 'billing_admin');
    const created = await post(billing, patientId, { ...aetna, memberId: ' W123456789 ' });
    expect(created.statusCode, created.body).toBe(201);
    const primary = created.json<Coverage>();
    expect(primary).toMatchObject({ ...aetna, patientId, subscriberName: null, subscriberDob: null, endOn: null });

    // The front desk does not bill: it registers a Medicare MBI as CMS prints it and reads it back masked.
    const nurse = await signInAs(t.app, 'nurse_manager');
    const medicare = await post(nurse, patientId, {
      payer: 'Medicare',
      priority: 2,
      memberId: '1eg4-te5-mk73',
      relationship: 'spouse',
      subscriberName: 'Ruth Example',
      subscriberDob: '1950-03-04',
      effectiveOn: '2025-06-01',
    });
    expect(medicare.statusCode, medicare.body).toBe(201);
    const secondary = medicare.json<Coverage>();
    expect(secondary.memberId).toBe(maskMemberId('1EG4TE5MK73', 'nurse_manager'));
    expect(secondary.memberId).not.toContain('1EG4');
    expect(secondary.subscriberDob).toBe('XX-XX-1950');

    const stored = await sql<{ id: number; member_id: string; subscriber_dob: string | null }>(
      `select id, member_id, to_char(subscriber_dob, 'YYYY-MM-DD') as subscriber_dob from coverages
       where patient_id = $1 order by priority`,
      [patientId],
    );
    expect(stored).toEqual([
      { id: primary.id, member_id: 'W123456789', subscriber_dob: null },
      { id: secondary.id, member_id: '1EG4TE5MK73', subscriber_dob: '1950-03-04' },
    ]);
    for (const role of ['billing_admin', 'nurse_manager', 'doctor', 'admin'] as const) {
      const listed = (
        await (await signInAs(t.app, role)).request({ method: 'GET', url: `/api/patients/${patientId}/coverages` })
      ).json<Coverage[]>();
      expect(
        listed.map((c) => c.memberId),
        role,
      ).toEqual([maskMemberId('W123456789', role), maskMemberId('1EG4TE5MK73', role)]);
    }

    const audit = await sql<{ resource: string; detail: string; patient_id: number; actor_role: string }>(
      `select resource, detail, patient_id, actor_role from audit_log where action = 'coverage.create' order by id`,
    );
    expect(audit).toEqual([
      {
        resource: `coverage/${primary.id}`,
        detail:
          'Aetna Primary: added (member id ending 6789, group GRP100200, relationship self, effective 2025-01-01, no end date)',
        patient_id: patientId,
        actor_role: 'billing_admin',
      },
      {
        resource: `coverage/${secondary.id}`,
        detail:
          'Medicare Secondary: added (member id ending MK73, group none, relationship spouse, effective 2025-06-01, no end date)',
        patient_id: patientId,
        actor_role: 'nurse_manager',
      },
    ]);
    expect(audit.map((e) => e.detail).join()).not.toMatch(/W123456789|1EG4TE5MK73|Ruth|1950/);
  });

  it('refuses every broken rule naming its field, and writes nothing', async () => {
    const [patientId] = (await uninsuredPatients(1)) as [number];
    const billing = await signInAs(t.app, 'billing_admin');
    const admin = await signInAs(t.app, 'admin');
    expect((await post(billing, patientId, aetna)).statusCode).toBe(201);
    // A payer the practice no longer bills.
    const retired = await admin.request({
      method: 'POST',
      url: '/api/admin/payers',
      payload: { name: 'Retired Health Plan', timelyFilingDays: 90 },
    });
    const retiredId = retired.json<{ id: number }>().id;
    await admin.request({ method: 'PATCH', url: `/api/admin/payers/${retiredId}`, payload: { active: false } });
    const before = await writes(patientId);

    const refusals: [object, string][] = [
      [{ ...aetna, payer: 'Nope Health' }, 'payer'],
      [{ ...aetna, payer: 'Retired Health Plan', priority: 2 }, 'payer'],
      [{ ...aetna, payer: 'Medicare', priority: 2, memberId: 'W123456789' }, 'memberId'],
      [{ ...aetna, priority: 2, memberId: 'W123 456' }, 'memberId'],
      [{ ...aetna, priority: 2, memberId: 'W'.repeat(41) }, 'memberId'],
      [{ ...aetna, priority: 2, memberId: '   ' }, 'memberId'],
      [{ ...aetna, priority: 4 }, 'priority'],
      [{ ...aetna, priority: 2, groupNumber: 'G'.repeat(31) }, 'groupNumber'],
      [{ ...aetna, priority: 2, relationship: 'cousin' }, 'relationship'],
      [{ ...aetna, priority: 2, relationship: 'child', subscriberDob: '1980-01-01' }, 'subscriberName'],
      [{ ...aetna, priority: 2, relationship: 'child', subscriberName: 'Ann Example' }, 'subscriberDob'],
      [
        { ...aetna, priority: 2, relationship: 'child', subscriberName: 'Ann Example', subscriberDob: '2027-01-01' },
        'subscriberDob',
      ],
      [{ ...aetna, priority: 2, effectiveOn: '2025-02-30' }, 'effectiveOn'],
      [{ ...aetna, priority: 2, endOn: '2024-12-31' }, 'endOn'],
      // Why Medicare pays second: a code of the list, and only on Medicare when it is not primary.
      [{ ...aetna, priority: 2, medicareSecondaryType: '12' }, 'medicareSecondaryType'],
      [
        { ...aetna, payer: 'Medicare', priority: 3, memberId: '1EG4TE5MK73', medicareSecondaryType: '99' },
        'medicareSecondaryType',
      ],
    ];
    for (const [payload, field] of refusals) {
      const res = await post(billing, patientId, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<Refusal>().error.code).toBe('VALIDATION_FAILED');
      expect(fieldsOf(res.json<Refusal>()), JSON.stringify(payload)).toContain(field);
    }
    const strict = await post(billing, patientId, { ...aetna, priority: 2, copay: 20 });
    expect(strict.statusCode).toBe(400);

    // A second primary on a common day: the existing one has no end date.
    const overlap = await post(billing, patientId, { ...aetna, payer: 'Cigna', effectiveOn: '2026-03-01' });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json<Refusal>().error).toMatchObject({
      code: 'COVERAGE_OVERLAP',
      fields: [{ field: 'priority', message: expect.stringContaining('Aetna (Primary) from Jan 1, 2025') as string }],
    });
    const earlier = await post(billing, patientId, {
      ...aetna,
      payer: 'Cigna',
      effectiveOn: '2020-01-01',
      endOn: '2025-01-01',
    });
    expect(earlier.statusCode, 'the last day of one policy is a day in force').toBe(409);

    expect((await post(billing, 999_999, aetna)).statusCode).toBe(404);
    expect(await writes(patientId)).toEqual(before);
  });
});

describe('PATCH /api/coverages/:id', () => {
  it('corrects and ends a policy, audited with what changed; a later policy may then take its priority', async () => {
    const [patientId] = (await uninsuredPatients(1)) as [number];
    const billing = await signInAs(t.app, 'billing_admin');
    const primary = (await post(billing, patientId, aetna)).json<Coverage>();

    const corrected = await patch(billing, primary.id, { memberId: 'W987654321', groupNumber: 'GRP300400' });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json<Coverage>()).toMatchObject({ memberId: 'W987654321', groupNumber: 'GRP300400' });

    const ended = await patch(billing, primary.id, { endOn: '2025-12-31' });
    expect(ended.json<Coverage>().endOn).toBe('2025-12-31');
    const next = await post(billing, patientId, {
      ...aetna,
      payer: 'Cigna',
      memberId: 'U12345678',
      effectiveOn: '2026-01-01',
    });
    expect(next.statusCode, next.body).toBe(201);

    const dependent = await patch(billing, primary.id, {
      relationship: 'child',
      subscriberName: 'Ann Example',
      subscriberDob: '1970-05-06',
    });
    expect(dependent.statusCode, dependent.body).toBe(200);
    const self = await patch(billing, primary.id, { relationship: 'self' });
    expect(self.json<Coverage>()).toMatchObject({ relationship: 'self', subscriberName: null, subscriberDob: null });

    const audit = await sql<{ resource: string; detail: string; patient_id: number }>(
      `select resource, detail, patient_id from audit_log where action = 'coverage.update' order by id`,
    );
    expect(audit.map((e) => e.detail)).toEqual([
      'Aetna Primary: member id ending 6789 -> ending 4321, group GRP100200 -> GRP300400',
      'Aetna Primary: end date none -> 2025-12-31',
      'Aetna Primary: relationship self -> child, subscriber name changed, subscriber birth date changed',
      'Aetna Primary: relationship child -> self, subscriber name changed, subscriber birth date changed',
    ]);
    expect(audit.every((e) => e.resource === `coverage/${primary.id}` && e.patient_id === patientId)).toBe(true);
    expect(audit.map((e) => e.detail).join()).not.toMatch(/W987654321|Ann|1970/);
  });

  it('refuses a patch that breaks a rule, naming its field, and writes nothing', async () => {
    const [patientId] = (await uninsuredPatients(1)) as [number];
    const billing = await signInAs(t.app, 'billing_admin');
    const primary = (await post(billing, patientId, aetna)).json<Coverage>();
    const secondary = (
      await post(billing, patientId, { ...aetna, payer: 'Cigna', priority: 2, memberId: 'U12345678' })
    ).json<Coverage>();
    const before = await writes(patientId);
    const stored = await sql<object>('select * from coverages where patient_id = $1 order by id', [patientId]);

    const refusals: [number, object, string][] = [
      [primary.id, { endOn: '2024-06-30' }, 'endOn'],
      [primary.id, { relationship: 'spouse' }, 'subscriberName'],
      [primary.id, { payer: 'Medicare' }, 'memberId'],
      [primary.id, { payer: 'Nope Health' }, 'payer'],
      [primary.id, { memberId: 'W 1' }, 'memberId'],
      [primary.id, {}, 'endOn'],
    ];
    for (const [id, payload, field] of refusals) {
      const res = await patch(billing, id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(fieldsOf(res.json<Refusal>()), JSON.stringify(payload)).toContain(field);
    }
    const clash = await patch(billing, secondary.id, { priority: 1 });
    expect(clash.statusCode).toBe(409);
    expect(fieldsOf(clash.json<Refusal>())).toEqual(['priority']);
    expect((await patch(billing, 999_999, { endOn: '2026-01-01' })).statusCode).toBe(404);

    expect(await writes(patientId)).toEqual(before);
    expect(await sql<object>('select * from coverages where patient_id = $1 order by id', [patientId])).toEqual(stored);
  });

  it('ends a policy whose payer has since been deactivated', async () => {
    const [patientId] = (await uninsuredPatients(1)) as [number];
    const admin = await signInAs(t.app, 'admin');
    const payer = (
      await admin.request({
        method: 'POST',
        url: '/api/admin/payers',
        payload: { name: 'Fading Health Plan', timelyFilingDays: 90 },
      })
    ).json<{ id: number }>();
    const policy = (await post(admin, patientId, { ...aetna, payer: 'Fading Health Plan' })).json<Coverage>();
    await admin.request({ method: 'PATCH', url: `/api/admin/payers/${payer.id}`, payload: { active: false } });
    const ended = await patch(admin, policy.id, { endOn: '2026-06-30' });
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await patch(admin, policy.id, { payer: 'Fading Health Plan', groupNumber: null })).statusCode).toBe(200);
  });
});

describe('who may register insurance', () => {
  it('the front desk, billing and admin; not the doctor, the patient or the guest; never without a session', async () => {
    expect(rolesWith('coverage:write').sort()).toEqual(['admin', 'billing_admin', 'nurse_manager']);
    const [existing] = await sql<{ id: number; patient_id: number }>(
      'select id, patient_id from coverages order by id limit 1',
    );
    const patientId = existing!.patient_id;
    const before = await writes(patientId);
    for (const role of ROLES.filter((r) => !can(r, 'coverage:write'))) {
      const who = await signInAs(t.app, role);
      expect((await post(who, patientId, aetna)).statusCode, role).toBe(403);
      expect((await patch(who, existing!.id, { endOn: '2026-01-01' })).statusCode, role).toBe(403);
      expect((await who.request({ method: 'GET', url: '/api/payers' })).statusCode, role).toBe(403);
    }
    const anonymous = [
      { method: 'POST' as const, url: `/api/patients/${patientId}/coverages`, payload: aetna },
      { method: 'PATCH' as const, url: `/api/coverages/${existing!.id}`, payload: { endOn: '2026-01-01' } },
      { method: 'GET' as const, url: '/api/payers' },
    ];
    for (const request of anonymous) expect((await t.app.inject(request)).statusCode, request.url).toBe(401);
    expect(await writes(patientId)).toEqual(before);
  });

  it('offers the active payers to those who register insurance, with their claim filing indicator', async () => {
    const nurse = await signInAs(t.app, 'nurse_manager');
    const res = await nurse.request({ method: 'GET', url: '/api/payers' });
    expect(res.statusCode).toBe(200);
    const payers = res.json<{ name: string; claimFilingIndicator: string }[]>();
    expect(payers.find((p) => p.name === 'Medicare')).toEqual({ name: 'Medicare', claimFilingIndicator: 'MB' });
    expect(payers.map((p) => p.name)).not.toContain('Retired Health Plan');
  });
});

describe('Medicare as secondary payer', () => {
  it('keeps why Medicare pays second on its policy, audited; a policy where Medicare pays first has none', async () => {
    // The seed's patients without a policy are taken by the tests above: one of its own.
    const [{ id: patientId } = { id: 0 }] = await sql<{ id: number }>(
      `insert into patients (name, mrn, dob, phone) values ('Walter Working', 'MRN-MSP-1', '1959-04-02', '(555) 301-0001')
       returning id`,
    );
    const billing = await signInAs(t.app, 'billing_admin');
    // Still working at 67: the employer plan pays first, Medicare second (working aged, X12 SBR05 12).
    expect((await post(billing, patientId, { ...aetna, effectiveOn: '2024-01-01' })).statusCode).toBe(201);
    const medicare = { payer: 'Medicare', memberId: '1EG4TE5MK73', relationship: 'self', effectiveOn: '2024-01-01' };
    const first = await post(billing, patientId, { ...medicare, priority: 1, medicareSecondaryType: '12' });
    expect(first.statusCode).toBe(400);
    expect(first.json<Refusal>().error.fields).toEqual([
      { field: 'medicareSecondaryType', message: 'applies only when Medicare is not the primary payer' },
    ]);
    const created = await post(billing, patientId, { ...medicare, priority: 2, medicareSecondaryType: '12' });
    expect(created.statusCode, created.body).toBe(201);
    const policy = created.json<Coverage>();
    expect(policy).toMatchObject({ payer: 'Medicare', priority: 2, medicareSecondaryType: '12' });
    const changed = await patch(billing, policy.id, { medicareSecondaryType: '43' });
    expect(changed.json<Coverage>().medicareSecondaryType).toBe('43');
    // Moved to third, it still pays after another; ending the employer plan and making Medicare primary drops it.
    await patch(billing, policy.id, { priority: 3 });
    const [employer] = await sql<{ id: number }>(`select id from coverages where patient_id = $1 and payer = 'Aetna'`, [
      patientId,
    ]);
    await patch(billing, employer!.id, { endOn: '2025-12-31' });
    const primary = await patch(billing, policy.id, { priority: 1, effectiveOn: '2026-01-01' });
    expect(primary.statusCode, primary.body).toBe(200);
    expect(primary.json<Coverage>().medicareSecondaryType).toBeNull();
    const audit = await sql<{ detail: string }>(`select detail from audit_log where resource = $1 order by id`, [
      `coverage/${policy.id}`,
    ]);
    expect(audit.map((e) => e.detail)).toEqual([
      expect.stringContaining('Medicare secondary type 12') as string,
      'Medicare Secondary: Medicare secondary type 12 -> 43',
      'Medicare Tertiary: priority Secondary -> Tertiary',
      'Medicare Primary: priority Tertiary -> Primary, effective 2024-01-01 -> 2026-01-01, Medicare secondary type 43 -> none',
    ]);
  });
});
