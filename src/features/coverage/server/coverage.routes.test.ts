import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, rolesWith, ROLES } from '@/shared/access';
import { createTestApp, signInAs, type TestApp } from '@/testing/test-app';
import type { Coverage } from '../coverage.schema';

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
    for (const role of rolesWith('claims:read')) {
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
    expect(audited?.n).toBe(rolesWith('claims:read').length);
  });

  it('is for those who read claims', async () => {
    for (const role of ROLES.filter((r) => !rolesWith('claims:read').includes(r))) {
      const who = await signInAs(t.app, role);
      expect((await who.request({ method: 'GET', url: '/api/patients/1/coverages' })).statusCode, role).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/patients/1/coverages' })).statusCode).toBe(401);
  });
});
