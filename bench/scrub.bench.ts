/**
 * The claim scrubber on a batch (docs/claims.md): 1,000 Draft claims scrubbed as `POST /api/claims/scrub`
 * does it — their inputs read set-wise, each scrubbed, every result kept, statuses moved and each scrub
 * audited, the entries chained into the audit trail as the commit would — inside a transaction that is
 * rolled back, so the bench database is left as it was. The claims are the scale seed's newest Drafts
 * (claims not yet submitted, with their lines, diagnoses and coverage).
 *
 * Goal: under 200 ms for 1,000 claims. The pure scrub (no database) is reported beside it for reference.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import { appendStagedNow } from '@/features/audit/server/audit.queries';
import { loadClaimsToScrub, scrubLoaded } from '@/features/submission/server/submission.scrub.queries';
import { scrubClaim } from '@/features/submission/submission.scrubber';
import { today } from '@/shared/api';
import type { RequestContext } from '@/server/context';
import { poolFor } from '@/server/db/client';
import type { BenchContext, BenchFigure, BenchPart } from './bench.types';

const CLAIMS = 1000;
const GOAL_MS = 200;
const RUNS = 5;

class Rollback extends Error {}

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

const scrubBench: BenchPart = async (bench: BenchContext): Promise<BenchFigure[]> => {
  const pool = poolFor(bench.databaseUrl, 2);
  const db = drizzle(pool);
  // The scrubs are kept and audited as a billing administrator's, as the endpoint would.
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
  const batchMs: number[] = [];
  const pureMs: number[] = [];
  let scrubbed = 0;
  let madeDraft = 0;
  try {
    for (let run = 0; run < (bench.quick ? 2 : RUNS); run += 1) {
      // A rolled-back run leaves a dead row version of each claim it moved and of each scrub, work item and
      // audit entry it wrote, with their index entries, which the next run's reads would step over (the
      // audit chain's tail is read newest first): those are the bench's own leftovers, not the state a real
      // scrub meets, so they are cleared (untimed) before each run.
      await db.execute(sql`vacuum claims, claim_scrubs, work_items, audit_log`);
      await db
        .transaction(async (tx) => {
          // The newest Draft claims (the scale seed's own, not yet submitted): what the batch scrub takes
          // first. A small bench database may hold fewer; the newest other claims are then made Draft here
          // (rolled back below), which costs the timed update foreign-key checks a real Draft does not incur.
          const drafts = (
            await tx.execute<{ id: number }>(sql`select id from claims where status = 'Draft' and voided_at is null
              order by id desc limit ${CLAIMS}`)
          ).rows.map((r) => Number(r.id));
          madeDraft = CLAIMS - drafts.length;
          const topUp =
            madeDraft === 0
              ? []
              : (
                  await tx.execute<{ id: number }>(sql`update claims set status = 'Draft'
                    where id in (select id from claims where voided_at is null and status <> 'Draft'
                      order by id desc limit ${madeDraft})
                    returning id`)
                ).rows.map((r) => Number(r.id));
          const ids = [...drafts, ...topUp];
          // The app server's connections have written single claims before a batch (an edit, an appeal): the
          // claims triggers run here once with one row first, as there (docs/database-functions.md).
          await tx.execute(sql`update claims set first_scrub_clean = first_scrub_clean where id = ${ids[0] ?? 0}`);
          const started = performance.now();
          const loaded = await loadClaimsToScrub(tx, ids, today(ctx.now));
          const results = await scrubLoaded(tx, ctx, loaded, null);
          // The scrubs' audit entries are chained into the trail at commit; the run is rolled back instead,
          // so the chaining is done here, inside the timed part, as the commit would.
          await appendStagedNow(tx);
          batchMs.push(performance.now() - started);
          scrubbed = results.length;
          const pureStarted = performance.now();
          for (const claim of loaded) scrubClaim(claim.input);
          pureMs.push(performance.now() - pureStarted);
          throw new Rollback();
        })
        .catch((err: unknown) => {
          if (!(err instanceof Rollback)) throw err;
        });
    }
  } finally {
    await pool.end();
  }
  const batch = p50(batchMs);
  return [
    {
      figure: `Scrub ${CLAIMS.toLocaleString('en-US')} Draft claims (read, scrub, keep, audit)`,
      goal: `< ${GOAL_MS} ms`,
      measured:
        `${batch.toFixed(0)} ms for ${scrubbed.toLocaleString('en-US')} claims (scrubber alone ${p50(pureMs).toFixed(1)} ms)` +
        (madeDraft > 0 ? `; ${madeDraft.toLocaleString('en-US')} of them made Draft for the bench` : ''),
      pass: scrubbed === CLAIMS && batch < GOAL_MS,
    },
  ];
};

export default scrubBench;
