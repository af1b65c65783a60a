/**
 * Eligibility at the front desk's scale (docs/x12-eligibility.md), on the bench database: 1,000 visits are booked on
 * a working day with no visits yet, the evening batch writes the 270 for every policy in force that day
 * (`checkNextWorkingDay`, as the clearinghouse's evening job runs it), then a 271 answering every one of them is read
 * and stored (`post271`, as the mailbox and the upload route post it). All of it inside an outer transaction that is
 * rolled back, so the bench database is left as it was.
 *
 * Goals: the evening batch for 1,000 appointments under 2 s; a 271 for 1,000 patients read and stored under 1 s.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import { checkNextWorkingDay, nextWorkingDay } from '@/features/appointments/server/appointments.eligibility.queries';
import { post271 } from '@/features/coverage/server/coverage.eligibility.queries';
import { getPracticeHours } from '@/features/settings/server/settings.queries';
import { ACTIVE_BENEFITS, file271 } from '@/server/db/seed/demo-eligibility';
import type { RequestContext } from '@/server/context';
import { poolFor } from '@/server/db/client';
import type { BenchContext, BenchFigure, BenchPart } from './bench.types';

const APPOINTMENTS = 1_000;
const QUICK_APPOINTMENTS = 200;
const BATCH_GOAL_MS = 2_000;
const POST_GOAL_MS = 1_000;
/** How far ahead the bench books its day: past any visit the seed made, within what a payer answers for. */
const DAYS_AHEAD = 200;

class Rollback extends Error {}

const addDays = (day: string, days: number) => {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

function nameParts(name: string): { lastName: string; firstName: string } {
  const parts = name.trim().split(/\s+/);
  const lastName = parts.length > 1 ? parts.slice(1).join(' ') : (parts[0] ?? 'PATIENT');
  return { lastName: lastName.toUpperCase(), firstName: (parts.length > 1 ? parts[0]! : '').toUpperCase() };
}

const eligibilityBench: BenchPart = async (bench: BenchContext): Promise<BenchFigure[]> => {
  const pool = poolFor(bench.databaseUrl, 2);
  const db = drizzle(pool);
  const wanted = bench.quick ? QUICK_APPOINTMENTS : APPOINTMENTS;
  let batchMs = Number.NaN;
  let postMs = Number.NaN;
  let booked = 0;
  let policies = 0;
  let answered = 0;
  let fileSize = 0;
  try {
    const front = (
      await db.execute<{ id: number; email: string; name: string }>(
        sql`select id, email, name from users where role = 'nurse_manager' and active order by id limit 1`,
      )
    ).rows[0];
    if (!front) throw new Error('the bench database has no nurse manager');
    const hours = await getPracticeHours(db);
    // The evening before a working day far enough ahead that the seed booked nothing on it.
    let day = nextWorkingDay(hours, addDays(new Date().toISOString().slice(0, 10), DAYS_AHEAD));
    if (day === null) throw new Error('the bench practice has no working day');
    for (let tries = 0; ; tries += 1) {
      const [row] = (
        await db.execute<{ n: number }>(sql`select count(*)::int as n from appointments where date = ${day}::date`)
      ).rows;
      if (Number(row?.n ?? 0) === 0) break;
      if (tries > 30) throw new Error('no working day without visits within a month of the bench day');
      day = nextWorkingDay(hours, day)!;
    }
    // The day before a working day is an evening whose next working day it is (noon UTC: that date in any zone
    // from UTC-11 to UTC+11).
    const eve = new Date(`${addDays(day, -1)}T12:00:00Z`);
    const ctx: RequestContext = {
      user: { ...front, id: Number(front.id), role: 'nurse_manager' } as RequestContext['user'],
      now: eve,
    };
    await db
      .transaction(async (tx) => {
        // One visit per patient whose primary policy a 270 can ask about on the day, spread over the providers'
        // slots (a provider holds one live booking per slot).
        const inserted = await tx.execute(sql`
          with candidates as (
            select distinct on (v.patient_id) v.patient_id from coverages v join payers py on py.name = v.payer
            where v.priority = 1 and py.payer_id is not null and py.claim_filing_indicator <> '09'
              and v.effective_on <= ${day}::date and (v.end_on is null or v.end_on >= ${day}::date)
            order by v.patient_id limit ${wanted}),
          numbered as (select patient_id, row_number() over (order by patient_id) - 1 as n from candidates),
          doctors as (select id, row_number() over (order by id) - 1 as k, count(*) over () as m from providers)
          insert into appointments (patient_id, provider_id, reason, date, time, duration_minutes, status)
          select n.patient_id, d.id, 'Follow-up visit', ${day}::date,
            to_char(time '00:00' + ((n.n / d.m) * interval '1 minute'), 'HH24:MI'), 5, 'Scheduled'
          from numbered n join doctors d on d.k = n.n % d.m`);
        booked = inserted.rowCount ?? 0;
        let started = performance.now();
        const batch = await checkNextWorkingDay(tx, ctx);
        batchMs = performance.now() - started;
        policies = batch.coverages;
        if (batch.inquiryId === null) throw new Error(`the evening batch asked nothing for ${day}`);

        const checks = (
          await tx.execute<{
            trace_number: string;
            member_id: string;
            name: string;
            relationship: string;
            subscriber_name: string | null;
            text: string;
          }>(sql`select k.trace_number, k.member_id, p.name, v.relationship, v.subscriber_name, i.text
            from eligibility_checks k join eligibility_inquiries i on i.id = k.inquiry_id
            join coverages v on v.id = k.coverage_id join patients p on p.id = v.patient_id
            where k.inquiry_id = ${batch.inquiryId} order by k.id`)
        ).rows;
        const originatorId = /TRN\*1\*[^*~]+\*([^*~]+)/.exec(checks[0]?.text ?? '')?.[1] ?? '';
        const year = day.slice(0, 4);
        const benefits = ACTIVE_BENEFITS.map((s) =>
          s.replace('20260101', `${year}0101`).replace('20261231', `${year}1231`),
        );
        const text = file271(
          checks.map((c) => ({
            traceNumber: c.trace_number,
            originatorId,
            memberId: c.member_id,
            subscriber: nameParts(c.relationship === 'self' ? c.name : (c.subscriber_name ?? c.name)),
            ...(c.relationship === 'self' ? {} : { dependent: nameParts(c.name) }),
            body: benefits,
          })),
          { date: day.replaceAll('-', '') },
        );
        fileSize = text.length;
        started = performance.now();
        const result = await post271(tx, ctx, text, 'bench.271');
        postMs = performance.now() - started;
        answered = result.answered;
        throw new Rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Rollback)) throw err;
      });
  } finally {
    await pool.end();
  }
  const size = `${(fileSize / 1024 / 1024).toFixed(1)} MB`;
  return [
    {
      figure: `Evening eligibility batch: the 270 for ${booked.toLocaleString('en-US')} appointments (${policies.toLocaleString('en-US')} policies)`,
      goal: `< ${BATCH_GOAL_MS} ms`,
      measured: `${batchMs.toFixed(0)} ms`,
      pass: booked === wanted && policies >= booked && batchMs < BATCH_GOAL_MS,
    },
    {
      figure: `Read and store a 271 answering ${answered.toLocaleString('en-US')} patients (${size})`,
      goal: `< ${POST_GOAL_MS} ms`,
      measured: `${postMs.toFixed(0)} ms`,
      pass: answered === policies && answered >= wanted && postMs < POST_GOAL_MS,
    },
  ];
};

export default eligibilityBench;
