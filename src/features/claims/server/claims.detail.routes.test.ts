import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, maskText, rolesWith, ROLES } from '@/shared/access';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { ClaimDetail } from '../claims.schema';
import { CLAIM_HISTORY_ACTIONS } from './claims.detail.queries';

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

async function detail(id: number, who: SignedIn = biller) {
  return who.request({ method: 'GET', url: `/api/claims/${id}` });
}

describe('GET /api/claims/:id', () => {
  it('shows header, coverage, diagnoses and lines as stored, the total the sum of the lines, and audits the read', async () => {
    const [claim] = await sql<{ id: number; patient_id: number; lines: number }>(
      `select c.id, c.patient_id, count(l.*)::int as lines from claims c join claim_lines l on l.claim_id = c.id
        where c.coverage_id is not null group by c.id having count(l.*) > 1 order by c.id limit 1`,
    );
    if (!claim) throw new Error('no multi-line insured claim in the seed');
    const res = await detail(claim.id);
    expect(res.statusCode, res.body).toBe(200);
    const shown = res.json<ClaimDetail>();
    const [stored] = await sql<{
      account_number: string;
      billed_cents: number;
      diagnoses: string[];
      member_id: string;
    }>(
      `select c.account_number, c.billed_cents, c.diagnoses, v.member_id
         from claims c join coverages v on v.id = c.coverage_id where c.id = $1`,
      [claim.id],
    );
    expect(shown.accountNumber).toBe(stored?.account_number);
    expect(shown.diagnoses).toEqual(stored?.diagnoses);
    expect(shown.lines).toHaveLength(claim.lines);
    expect(shown.lines.map((l) => l.lineNumber)).toEqual(shown.lines.map((_, i) => i + 1));
    expect(shown.billedCents).toBe(shown.lines.reduce((sum, l) => sum + l.chargeCents, 0));
    expect(shown.lines[0]?.lineControlNumber).toBe(`${shown.accountNumber}-1`);
    expect(shown.coverage?.memberId).toBe(stored?.member_id);
    expect(shown.history.map((e) => e.title)).toContain('Claim created');
    const [audited] = await sql<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'claim.view' and resource = $1 and patient_id = $2`,
      [`claim/${claim.id}`, claim.patient_id],
    );
    expect(audited?.n).toBe(1);
  });

  it("lists the claim's scrubs with their findings and its appeals in its history, oldest first", async () => {
    const [denied] = await sql<{ id: number }>(
      `select c.id from claims c where exists (select 1 from claim_appeals a where a.claim_id = c.id) order by c.id limit 1`,
    );
    if (!denied) throw new Error('no appealed claim in the seed');
    const shown = (await detail(denied.id)).json<ClaimDetail>();
    expect(shown.history.some((e) => e.kind === 'appeal' && e.title.startsWith('Appeal filed'))).toBe(true);
    const ats = shown.history.map((e) => e.at);
    expect(ats).toEqual([...ats].sort());

    const [draft] = await sql<{ id: number }>(`select id from claims where status = 'Draft' order by id limit 1`);
    if (!draft) throw new Error('no Draft claim in the seed');
    const scrubbed = await biller.request({ method: 'POST', url: `/api/claims/${draft.id}/scrub`, payload: {} });
    expect(scrubbed.statusCode, scrubbed.body).toBe(200);
    const after = (await detail(draft.id)).json<ClaimDetail>();
    expect(after.lastScrub).not.toBeNull();
    expect(after.history.filter((e) => e.kind === 'scrub')).toHaveLength(1);
    expect(after.history.find((e) => e.kind === 'scrub')?.edits).toEqual(after.lastScrub?.edits);
  });

  it('masks the MRN, date of birth and member id as the role may see them; 404 for an unknown claim', async () => {
    const [claim] = await sql<{ id: number }>(
      `select id from claims where coverage_id is not null order by id limit 1`,
    );
    const [stored] = await sql<{ mrn: string; dob: string; member_id: string }>(
      `select p.mrn, p.dob::text as dob, v.member_id from claims c join patients p on p.id = c.patient_id
         join coverages v on v.id = c.coverage_id where c.id = $1`,
      [claim?.id ?? 0],
    );
    if (!stored) throw new Error('no insured claim');
    for (const role of rolesWith('claims:read')) {
      const who = await signInAs(t.app, role);
      const shown = (await detail(claim?.id ?? 0, who)).json<ClaimDetail>();
      expect(shown.patient.mrn, role).toBe(maskText('mrn', stored.mrn, role));
      expect(shown.patient.dob, role).toBe(maskText('dob', stored.dob, role));
      // Those who bill see the member id whole; other readers its last two characters.
      expect(shown.coverage?.memberId, role).toBe(
        can(role, 'claims:write')
          ? stored.member_id
          : `${'*'.repeat(stored.member_id.length - 2)}${stored.member_id.slice(-2)}`,
      );
    }
    expect((await detail(2_000_000_000)).statusCode).toBe(404);
  });

  it('is for those who may read claims', async () => {
    const [claim] = await sql<{ id: number }>(`select id from claims order by id limit 1`);
    for (const role of ROLES.filter((r) => !rolesWith('claims:read').includes(r))) {
      const who = await signInAs(t.app, role);
      expect((await detail(claim?.id ?? 0, who)).statusCode, role).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/claims/${claim?.id ?? 0}` })).statusCode).toBe(401);
  });
});

describe("a claim's history at the trail's scale", () => {
  it('is read through the partial index of exactly the actions it shows, whatever else the trail holds', async () => {
    const [index] = await sql<{ indexdef: string }>(
      `select indexdef from pg_indexes where indexname = 'audit_log_claim_changes_idx'`,
    );
    const indexed = [...(index?.indexdef.split(' WHERE ')[1] ?? '').matchAll(/'([a-z_.]+)'/g)].map((m) => m[1]);
    expect(indexed.sort()).toEqual([...CLAIM_HISTORY_ACTIONS].sort());
    // The planner proves the read's condition implies the index's (it is in the statement's text, not a parameter).
    // On a small trail it may prefer the action index, so that one is set aside (as the tables' owner), in a
    // transaction rolled back.
    const client = await t.database.ownerPool.connect();
    try {
      await client.query('begin');
      await client.query('drop index audit_log_action_idx');
      await client.query('set local enable_seqscan = off');
      const listed = CLAIM_HISTORY_ACTIONS.map((a) => `'${a}'`).join(', ');
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `explain select id from audit_log where resource = 'claim/1' and action in (${listed})`,
      );
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('audit_log_claim_changes_idx');
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
