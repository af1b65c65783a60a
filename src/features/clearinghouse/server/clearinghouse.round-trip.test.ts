/**
 * The mailbox doing the whole round by itself, against a real SFTP server on loopback: the evening run writes the
 * next working day's 270 and the 276 of a claim unanswered past its payer's interval and puts both; the payer's
 * 271 and 277 then come in and post: the policies' answers, the claim's status, its history.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedClaimBatches } from '@/features/submission/submission.schema';
import { ACTIVE_BENEFITS, file271 } from '@/server/db/seed/demo-eligibility';
import { file277 } from '@/testing/claim-status-files';
import { startSftpServer, type SftpTestServer } from '@/testing/sftp-server';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { TEST_TODAY } from '@/testing/test-clock';
import type { MailboxSettingsInput } from '../clearinghouse.schema';
import { runEveningJob, runSyncJob } from './clearinghouse.jobs';

const PASSWORD = 'round trip password 3';
const key = randomBytes(32);
let t: TestApp;
let root: string;
let server: SftpTestServer;
let biller: SignedIn;

const sql = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await t.database.pool.query(text, values)).rows as T[];
const listed = async (folder: string) => (await fs.readdir(path.join(root, folder))).sort();
const deps = () => ({ db: t.database.db, clock: t.clock, key });

beforeAll(async () => {
  t = await createTestApp({ mfaEncryptionKey: key });
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'mailbox-round-'));
  for (const folder of ['outbound', 'inbound']) await fs.mkdir(path.join(root, folder));
  server = await startSftpServer({ root, users: [{ username: 'clinic', password: PASSWORD }] });
  biller = await signInAs(t.app, 'billing_admin');
  const admin = await signInAs(t.app, 'admin');
  const settings: MailboxSettingsInput = {
    enabled: true,
    host: server.host,
    port: server.port,
    username: 'clinic',
    auth: 'password',
    secret: PASSWORD,
    hostKeySha256: server.hostKeySha256,
    outboundDir: '/outbound',
    inboundDir: '/inbound',
    pollMinutes: 15,
    eveningTime: '19:00',
    maxFailures: 3,
  };
  const saved = await admin.request({ method: 'PUT', url: '/api/clearinghouse/mailbox', payload: settings });
  expect(saved.statusCode, saved.body).toBe(200);
});

afterAll(async () => {
  await server?.close();
  await t?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

/** One seeded Aetna claim sent in an 837P batch 40 days ago (Aetna asks after 30), not yet decided. */
async function claimSentLongAgo(): Promise<number> {
  const [claim] = await sql<{ id: number }>(
    `update claims set status = 'Ready' where id = (
       select c.id from claims c where c.payer = 'Aetna' and c.voided_at is null
         and c.status not in ('Ready', 'Submitted')
         and not exists (select 1 from claim_batch_claims bc where bc.claim_id = c.id)
       order by c.id limit 1)
     returning id`,
  );
  const res = await biller.request({ method: 'POST', url: '/api/claim-batches', payload: { claimIds: [claim!.id] } });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json<CreatedClaimBatches>().batches).toHaveLength(1);
  await sql(`update claims set adjudicated_on = null, submitted_on = $2::date - 40 where id = $1`, [
    claim!.id,
    TEST_TODAY,
  ]);
  await sql(`update payers set claim_status_after_days = 30 where name = 'Aetna'`);
  return claim!.id;
}

describe('the mailbox round trip', () => {
  it('sends the evening 270 and 276 by itself, then posts the 271 and 277 that answer them', async () => {
    const claimId = await claimSentLongAgo();

    const evening = await runEveningJob(deps());
    expect(evening.tasks).toEqual([
      expect.stringMatching(/^eligibility of the next working day: \d+ polic(y|ies) asked about for \d{4}-\d{2}-\d{2}/),
      expect.stringMatching(/^claim status requests: \d+ claims? asked about in \d+ 276 files?$/),
    ]);
    expect(evening.sync).toMatchObject({ ok: true, failed: 0 });
    const out = await listed('outbound');
    // The claim batch made above is sent by the same run; what matters here are the two the evening wrote.
    expect(out.filter((n) => n.startsWith('270-inquiry-'))).toHaveLength(1);
    expect(out.filter((n) => n.startsWith('276-request-')).length).toBeGreaterThanOrEqual(1);
    const sent = await sql<{ kind: string; status: string }>(
      `select kind, status from mailbox_files where direction = 'out' and kind in ('270', '276') order by kind`,
    );
    expect(new Set(sent.map((r) => `${r.kind} ${r.status}`))).toEqual(new Set(['270 sent', '276 sent']));

    // The payer answers every policy asked about that evening (the seed's demo answers are older), and the claim.
    const checks = await sql<{ trace_number: string; member_id: string; name: string }>(
      `select k.trace_number, k.member_id, p.name from eligibility_checks k
         join eligibility_inquiries i on i.id = k.inquiry_id and i.id = (select max(id) from eligibility_inquiries)
         join coverages v on v.id = k.coverage_id join patients p on p.id = v.patient_id
       where v.relationship = 'self' order by k.id`,
    );
    expect(checks.length).toBeGreaterThan(0);
    const [inquiry] = await sql<{ trace_number: string }>(
      `select trace_number from claim_status_inquiries where claim_id = $1`,
      [claimId],
    );
    const [claim] = await sql<{ account_number: string }>(`select account_number from claims where id = $1`, [claimId]);
    const originator = (
      await sql<{ text: string }>(`select text from eligibility_inquiries where reason = 'evening'`)
    )[0]!.text.match(/TRN\*1\*[^*~]+\*([^*~]+)/)![1]!;
    const file = file271(
      checks.map((c) => {
        const [first = '', ...rest] = c.name.split(' ');
        return {
          traceNumber: c.trace_number,
          originatorId: originator,
          memberId: c.member_id,
          subscriber: { lastName: rest.join(' ').toUpperCase() || 'DOE', firstName: first.toUpperCase() },
          body: ACTIVE_BENEFITS,
        };
      }),
    );
    await fs.writeFile(path.join(root, 'inbound', 'answers.271'), file);
    await fs.writeFile(
      path.join(root, 'inbound', 'status.277'),
      file277([{ trace: inquiry!.trace_number, account: claim!.account_number, stc: 'A2:20' }]),
    );

    const sync = await runSyncJob(deps(), { force: true });
    expect(sync).toMatchObject({ ok: true, posted: 2, refused: 0, failed: 0 });
    const posted = await sql<{ kind: string; status: string }>(
      `select kind, status from mailbox_files where direction = 'in' order by kind`,
    );
    expect(posted).toEqual([
      { kind: '271', status: 'posted' },
      { kind: '277', status: 'posted' },
    ]);
    const answered = await sql<{ status: string }>(
      `select status from eligibility_checks where trace_number = any($1)`,
      [checks.map((c) => c.trace_number)],
    );
    expect(answered.map((r) => r.status)).toEqual(checks.map(() => 'Active'));
    const [after] = await sql<{ status: string }>(`select status from claims where id = $1`, [claimId]);
    expect(after?.status).toBe('Accepted');
    const history = await sql<{ action: string }>(
      `select action from audit_log where resource = $1 and action = 'claim.status.answer'`,
      [`claim/${claimId}`],
    );
    expect(history).toHaveLength(1);

    // The same files again, as a clearinghouse may deliver them twice: nothing is posted a second time.
    await fs.writeFile(path.join(root, 'inbound', 'answers-again.271'), file);
    const again = await runSyncJob(deps(), { force: true });
    expect(again).toMatchObject({ ok: true, posted: 0, skipped: 1 });
    const files = await sql<{ file_name: string }>(
      `select file_name from eligibility_responses where file_name like 'answers%'`,
    );
    expect(files).toEqual([{ file_name: 'answers.271' }]);
  });
});
