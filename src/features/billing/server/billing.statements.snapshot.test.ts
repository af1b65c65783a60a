import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { Statement } from '../billing.schema';

let t: TestApp;
let patient: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  patient = await signInAs(t.app, 'patient');
});
afterAll(async () => {
  await t.close();
});

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await check()); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a statement read while a payment lands', () => {
  it('shows its totals and its lines as of one moment, so the lines add up to the totals', async () => {
    const { pool } = t.database;
    const before = (await patient.request({ method: 'GET', url: '/api/portal/statement' })).json<Statement>();
    const owing = before.claims.find((claim) => claim.amountDueCents > 0);
    if (!owing) throw new Error('the demo patient needs a claim with something due');

    // The lines' query joins providers and the totals' query does not: holding providers locked stops the
    // statement between its two reads, where a payment then lands and commits.
    const blocker = await pool.connect();
    let statement: Statement;
    try {
      await blocker.query('begin');
      await blocker.query('lock table providers in access exclusive mode');
      const answer = patient.request({ method: 'GET', url: '/api/portal/statement' });
      await waitUntil(async () => {
        const { rows } = await pool.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
           where wait_event_type = 'Lock' and query like '%"providers"%' and pid <> pg_backend_pid()`,
        );
        return (rows[0]?.n ?? 0) > 0;
      }, "the statement's lines wait for providers");
      await pool.query(
        `insert into payments (patient_id, claim_id, amount_cents, source, received_on, reference)
         values ($1, $2, 1, 'guest', current_date, 'GP-SNAPSHOT-TEST')`,
        [before.patientId, owing.id],
      );
      await blocker.query('commit');
      const res = await answer;
      expect(res.statusCode).toBe(200);
      statement = res.json<Statement>();
    } finally {
      await blocker.query('rollback').catch(() => {});
      blocker.release();
    }

    // As of the moment it began: the payment that landed midway is in neither its totals nor its lines.
    expect(statement.claims).toHaveLength(statement.claimCount);
    expect(sum(statement.claims.map((claim) => claim.amountDueCents))).toBe(statement.amountDueCents);
    expect(sum(statement.claims.map((claim) => claim.paidCents))).toBe(statement.totalPaidCents);
    expect(statement.amountDueCents).toBe(before.amountDueCents);
    expect(statement.claims).toEqual(before.claims);

    // The next read sees the payment, in its totals and its line alike.
    const after = (await patient.request({ method: 'GET', url: '/api/portal/statement' })).json<Statement>();
    expect(after.amountDueCents).toBe(before.amountDueCents - 1);
    expect(after.claims.find((claim) => claim.id === owing.id)?.amountDueCents).toBe(owing.amountDueCents - 1);
  });
});
