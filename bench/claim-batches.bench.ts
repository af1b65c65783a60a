/**
 * Claim batches (docs/x12-837.md): 10,000 claims sent as one X12 837P batch, as `POST /api/claim-batches` does it
 * — read set-wise from the claims, lines, patients, coverages and payers, each claim kept as written, the claims
 * marked Submitted and each audited — then the 837P written again from what was kept, as
 * `GET /api/claim-batches/:id/837` does. All inside a transaction that is rolled back, so the bench database is
 * left as it was. The generated claims carry no coverage and their patients no address: the transaction gives
 * them both first (not timed), and makes them Ready.
 *
 * Goal: the 837P text of 10,000 stored claims in under 2 s. The batch's creation is reported beside it.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import { claimBatch837Text, createClaimBatches } from '@/features/submission/server/submission.batches.queries';
import type { RequestContext } from '@/server/context';
import { poolFor } from '@/server/db/client';
import type { BenchContext, BenchFigure, BenchPart } from './bench.types';

const CLAIMS = 10_000;
const GOAL_MS = 2000;
const RUNS = 3;

class Rollback extends Error {}

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

const claimBatchesBench: BenchPart = async (bench: BenchContext): Promise<BenchFigure[]> => {
  const claims = bench.quick ? 1000 : CLAIMS;
  const pool = poolFor(bench.databaseUrl, 2);
  const db = drizzle(pool);
  const biller = (
    await db.execute<{ id: number; email: string; name: string }>(
      sql`select id, email, name from users where role = 'billing_admin' and active order by id limit 1`,
    )
  ).rows[0];
  if (!biller) throw new Error('the bench database has no billing administrator');
  const ctx: RequestContext = {
    user: { ...biller, id: Number(biller.id), role: 'billing_admin' } as RequestContext['user'],
    now: new Date(),
  };
  const createMs: number[] = [];
  const writeMs: number[] = [];
  let sent = 0;
  let bytes = 0;
  try {
    for (let run = 0; run < (bench.quick ? 1 : RUNS); run += 1) {
      await db
        .transaction(async (tx) => {
          // The payer with the most claims among those sent electronically; its newest claims with lines.
          await tx.execute(sql`create temporary table bench_batch_claims on commit drop as
            with payer as (
              select c.payer from claims c join payers py on py.name = c.payer
              where py.payer_id is not null and py.claim_filing_indicator <> '09' and c.voided_at is null
              group by c.payer order by count(*) desc limit 1)
            select c.id, c.patient_id, c.payer from claims c join payer on payer.payer = c.payer
            where c.voided_at is null and cardinality(c.diagnoses) > 0
              and exists (select 1 from claim_lines l where l.claim_id = c.id)
            order by c.id desc limit ${claims}`);
          await tx.execute(sql`insert into coverages (patient_id, payer, priority, member_id, relationship, effective_on)
            select distinct on (b.patient_id) b.patient_id, b.payer, 1, 'BENCH' || b.patient_id, 'self', date '2000-01-01'
            from bench_batch_claims b
            where not exists (select 1 from coverages v where v.patient_id = b.patient_id and v.priority = 1)
            order by b.patient_id`);
          await tx.execute(sql`update claims c set coverage_id = v.id, status = 'Ready'
            from bench_batch_claims b join coverages v on v.patient_id = b.patient_id and v.priority = 1
            where c.id = b.id`);
          await tx.execute(sql`update patients set address_line1 = coalesce(address_line1, '1 Bench Street'),
              city = coalesce(city, 'Springfield'), state = coalesce(state, 'IL'), zip = coalesce(zip, '62701')
            where id in (select patient_id from bench_batch_claims)`);
          await tx.execute(sql`update practice_settings
            set edi_receiver_name = coalesce(edi_receiver_name, 'Bench Clearinghouse'),
              edi_receiver_id = coalesce(edi_receiver_id, 'BENCHCH')`);
          const ids = (await tx.execute<{ id: number }>(sql`select id from bench_batch_claims order by id`)).rows.map(
            (r) => Number(r.id),
          );

          const started = performance.now();
          // A savepoint inside the rolled-back transaction, as the endpoint's own transaction.
          const { batches } = await createClaimBatches(tx, ctx, { claimIds: ids });
          createMs.push(performance.now() - started);
          const [batch] = batches;
          if (!batch || batches.length !== 1) throw new Error(`expected one batch, got ${batches.length}`);
          sent = batch.claimCount;

          const writing = performance.now();
          const text = await claimBatch837Text(tx, batch.id);
          writeMs.push(performance.now() - writing);
          bytes = text?.length ?? 0;
          throw new Rollback();
        })
        .catch((err: unknown) => {
          if (!(err instanceof Rollback)) throw err;
        });
    }
  } finally {
    await pool.end();
  }
  const write = p50(writeMs);
  const create = p50(createMs);
  const n = claims.toLocaleString('en-US');
  return [
    {
      figure: `837P of a ${n}-claim batch written from the stored claims (one read, X12 writer)`,
      goal: `< ${GOAL_MS.toLocaleString('en-US')} ms`,
      measured: `${write.toFixed(0)} ms for ${sent.toLocaleString('en-US')} claims, ${(bytes / 1024 / 1024).toFixed(1)} MB`,
      pass: sent === claims && bytes > 0 && write < GOAL_MS,
    },
    {
      figure: `Create a ${n}-claim batch (read set-wise, keep each claim, mark Submitted, audit)`,
      goal: 'reported',
      measured: `${create.toFixed(0)} ms`,
      pass: sent === claims,
    },
  ];
};

export default claimBatchesBench;
