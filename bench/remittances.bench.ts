/**
 * The 835 import (docs/remittances.md) on the bench database: a 10,000-claim remittance generated from the bench
 * database's own claims (one CLP per claim, an SVC with REF*6R per line, 80% paid and CO-45 for the rest) is read
 * and balanced, then imported as `POST /api/remittances` does it — claims matched and locked, ledger, claim totals,
 * payer payments, work items and audit in one transaction — inside an outer transaction that is rolled back, so
 * the bench database is left as it was.
 *
 * Goals: reading and balancing under 1 s; the whole import under 15 s at a million claims.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import { importRemittances, readBalancedEras } from '@/features/remittances/server/remittances.queries';
import type { RequestContext } from '@/server/context';
import { poolFor } from '@/server/db/client';
import { eraFile, eraHeader } from '@/testing/era-files';
import type { BenchContext, BenchFigure, BenchPart } from './bench.types';

/** 10,000 claims; the small run of `npm test` (quick) exercises the part on 2,000. */
const CLAIMS = 10_000;
const QUICK_CLAIMS = 2_000;
const PARSE_GOAL_MS = 1000;
const IMPORT_GOAL_MS = 15_000;

class Rollback extends Error {}

const amt = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

const remittancesBench: BenchPart = async (bench: BenchContext): Promise<BenchFigure[]> => {
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
  const wanted = bench.quick ? QUICK_CLAIMS : CLAIMS;
  const lines = (
    await db.execute<{
      payer: string;
      account_number: string;
      lcn: string;
      code: string;
      mods: string[];
      charge: number;
    }>(
      // One payer's newest claims, the payer with the most (a payer pays only claims billed to it or to patients
      // it covers): a big payer's one remittance.
      sql`with payer as (select payer from claims where voided_at is null group by payer order by count(*) desc limit 1),
          picked as (select id, account_number from claims
            where voided_at is null and payer = (select payer from payer) order by id desc limit ${wanted})
          select (select payer from payer) as payer, p.account_number, l.line_control_number as lcn,
            l.procedure_code as code, l.modifiers as mods, l.charge_cents as charge
          from picked p join claim_lines l on l.claim_id = p.id order by p.id, l.line_number`,
    )
  ).rows;
  const body: string[] = [];
  let total = 0;
  let claims = 0;
  for (let i = 0; i < lines.length;) {
    const account = lines[i]!.account_number;
    const mine = [];
    while (i < lines.length && lines[i]!.account_number === account) mine.push(lines[i++]!);
    const charge = mine.reduce((s, l) => s + Number(l.charge), 0);
    const paidOf = (c: number) => Math.floor(c * 0.8);
    const paid = mine.reduce((s, l) => s + paidOf(Number(l.charge)), 0);
    total += paid;
    claims += 1;
    body.push(`CLP*${account}*1*${amt(charge)}*${amt(paid)}**12*BENCH${claims}`);
    for (const l of mine) {
      const c = Number(l.charge);
      body.push(`SVC*HC:${[l.code, ...l.mods].join(':')}*${amt(c)}*${amt(paidOf(c))}**1`, 'DTM*472*20261101');
      if (c - paidOf(c) > 0) body.push(`CAS*CO*45*${amt(c - paidOf(c))}`);
      body.push(`REF*6R*${l.lcn}`);
    }
  }
  const text = eraFile([
    ...eraHeader({ paid: amt(total), trace: `BENCH-${Date.now()}`, payer: lines[0]?.payer ?? 'Aetna' }),
    ...body,
  ]);
  const parseMs: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    const started = performance.now();
    readBalancedEras(text);
    parseMs.push(performance.now() - started);
  }
  let importMs = Number.NaN;
  let posted = 0;
  try {
    await db
      .transaction(async (tx) => {
        const started = performance.now();
        // The import's own transaction becomes a savepoint of this one, which is rolled back.
        const result = await importRemittances(tx, ctx, text);
        importMs = performance.now() - started;
        posted = result.remittances[0]?.claimsPosted ?? 0;
        throw new Rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Rollback)) throw err;
      });
  } finally {
    await pool.end();
  }
  const size = `${(text.length / 1024 / 1024).toFixed(1)} MB`;
  return [
    {
      figure: `Read and balance a ${claims.toLocaleString('en-US')}-claim 835 (${size})`,
      goal: `< ${PARSE_GOAL_MS} ms`,
      measured: `${p50(parseMs).toFixed(0)} ms`,
      pass: claims === wanted && p50(parseMs) < PARSE_GOAL_MS,
    },
    {
      figure: `Import it: match, post, claim totals, payments, audit (${bench.claims.toLocaleString('en-US')} claims in the database)`,
      goal: `< ${IMPORT_GOAL_MS / 1000} s`,
      measured: `${(importMs / 1000).toFixed(1)} s, ${posted.toLocaleString('en-US')} claims posted`,
      pass: posted === claims && importMs < IMPORT_GOAL_MS,
    },
  ];
};

export default remittancesBench;
