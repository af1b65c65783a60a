/**
 * The evening eligibility batch (docs/x12-eligibility.md "In the product"): every policy of every patient booked on
 * the next working day is asked about in one 270, unless already asked about for that day, so the front desk
 * knows before the doors open who is not covered.
 */
import { sql, type SQL } from 'drizzle-orm';
import { listReadEntry, recordRead } from '@/features/audit/server/audit.queries';
import { WEEKDAYS, type PracticeHours } from '@/features/settings/practice.schema';
import { getBillingIdentity, getClearinghouse, getPracticeHours } from '@/features/settings/server/settings.queries';
import {
  eligibilityBriefOf,
  requestEligibility,
  type EligibilitySender,
} from '@/features/coverage/server/coverage.eligibility.queries';
import type { EligibilityBrief } from '@/features/coverage/coverage.eligibility.schema';
import { today } from '@/shared/api';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx } from '@/server/db/types';
import { rawRows, rowText, rowTextOrNull } from '@/server/db/sql-helpers';
import { SLOT_FREEING_STATUSES } from '../appointments.schema';

/** The practice as the sender of a 270: its billing identity and clearinghouse (Settings → Practice). */
export async function practiceEligibilitySender(db: DbOrTx): Promise<EligibilitySender> {
  const [identity, clearinghouse] = await Promise.all([getBillingIdentity(db), getClearinghouse(db)]);
  return {
    billingName: identity.billingName,
    billingNpi: identity.billingNpi,
    taxId: identity.taxId,
    ediReceiverId: clearinghouse.ediReceiverId,
    ediSubmitterId: clearinghouse.ediSubmitterId,
    ediUsage: clearinghouse.ediUsage,
  };
}

function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The first day after `day` the practice is open (Settings → Practice, working days); null if it never is. */
export function nextWorkingDay(hours: PracticeHours, day: string): string | null {
  for (let i = 1; i <= 7; i += 1) {
    const next = addDays(day, i);
    const weekday = WEEKDAYS[(new Date(`${next}T00:00:00Z`).getUTCDay() + 6) % 7];
    if (weekday && hours.workingDays.includes(weekday)) return next;
  }
  return null;
}

const SLOT_FREEING = sql`${`{${SLOT_FREEING_STATUSES.join(',')}}`}::text[]`;

/**
 * `POST /api/appointments/eligibility/next-day` and the evening job: one 270 for the next working day's booked
 * visits. Set-wise: one statement finds the policies (in force that day, with a payer a 270 can name, not yet
 * asked about for that day) and requestEligibility writes them all, whatever their number.
 */
export async function checkNextWorkingDay(
  db: DbOrTx,
  ctx: RequestContext,
): Promise<{ inquiryId: number | null; appointments: number; coverages: number; serviceDate: string }> {
  const hours = await getPracticeHours(db);
  const day = nextWorkingDay(hours, today(ctx.now));
  if (day === null) return { inquiryId: null, appointments: 0, coverages: 0, serviceDate: today(ctx.now) };
  const [found] = await rawRows(
    db,
    sql`with booked as (
          select a.patient_id from appointments a
          where a.date = ${day}::date and a.status <> all(${SLOT_FREEING})
        )
        select (select count(*) from booked)::int as appointments,
          coalesce((select array_agg(v.id order by v.id) from coverages v
            join payers py on py.name = v.payer
            where v.patient_id in (select patient_id from booked)
              and v.effective_on <= ${day}::date and (v.end_on is null or v.end_on >= ${day}::date)
              -- Self-pay is no payer to ask; a payer without a payer id cannot be named in a 270 (2100A).
              and py.claim_filing_indicator <> '09' and py.payer_id is not null
              and not exists (select 1 from eligibility_checks k
                where k.coverage_id = v.id and k.service_date = ${day}::date)), '{}') as coverage_ids`,
  );
  const appointments = Number(found?.appointments ?? 0);
  const coverageIds = ((found?.coverage_ids as number[] | null) ?? []).map(Number);
  if (coverageIds.length === 0) return { inquiryId: null, appointments, coverages: 0, serviceDate: day };
  const { inquiryId } = await requestEligibility(
    db,
    ctx,
    { coverageIds, serviceDate: day, reason: 'evening' },
    await practiceEligibilitySender(db),
  );
  return { inquiryId, appointments, coverages: coverageIds.length, serviceDate: day };
}

export interface UncoveredAppointment {
  appointmentId: number;
  patientId: number;
  patient: string;
  time: string;
  provider: string;
  payer: string | null;
  eligibility: EligibilityBrief;
}

/**
 * The next working day's booked visits whose primary policy is not known to be in force: inactive, rejected, no
 * answer yet, never asked, or no policy at all. The Appointments screen's notice to the front desk.
 */
export async function uncoveredNextWorkingDay(
  db: Db,
  ctx: RequestContext,
): Promise<{ date: string | null; appointments: UncoveredAppointment[] }> {
  const hours = await getPracticeHours(db);
  const day = nextWorkingDay(hours, today(ctx.now));
  if (day === null) return { date: null, appointments: [] };
  const rows = await rawRows(
    db,
    sql`select a.id, a.patient_id, p.name as patient, a.time, pr.name as provider, e.payer, e.status, e.answered_at,
          e.summary, e.service_date::text as service_date, e.coverage_id
        from appointments a
        join patients p on p.id = a.patient_id
        join providers pr on pr.id = a.provider_id
        left join lateral (${primaryEligibilitySql(sql`a.patient_id`, sql`a.date`)}) e on true
        where a.date = ${day}::date and a.status <> all(${SLOT_FREEING})
        order by a.time, a.id`,
  );
  const appointments = rows
    .map((r) => ({
      appointmentId: Number(r.id),
      patientId: Number(r.patient_id),
      patient: rowText(r.patient),
      time: rowText(r.time),
      provider: rowText(r.provider),
      payer: rowTextOrNull(r.payer),
      eligibility: eligibilityBriefOf(r, day),
    }))
    .filter((a) => a.eligibility.state !== 'active');
  // Names patients: an audited read, as the day's list is.
  await recordRead(
    db,
    ctx,
    listReadEntry(
      'appointments.uncovered.view',
      '/api/appointments/eligibility/next-day',
      { date: day },
      appointments.map((a) => a.patientId),
    ),
  );
  return { date: day, appointments };
}

/**
 * The patient's primary policy in force on the day and its latest check for that day, as one lateral subquery
 * (payer, coverage_id, status, answered_at, summary, service_date): the schedule's rows read it per visit.
 */
export function primaryEligibilitySql(patientId: SQL, date: SQL): SQL {
  return sql`select v.id as coverage_id, v.payer, k.status, k.answered_at, k.summary, k.service_date
    from coverages v
    left join lateral (select status, answered_at, summary, service_date from eligibility_checks k
      where k.coverage_id = v.id and k.service_date = ${date}
      order by k.requested_at desc, k.id desc limit 1) k on true
    where v.patient_id = ${patientId} and v.priority = 1 and v.effective_on <= ${date}
      and (v.end_on is null or v.end_on >= ${date})
    order by v.effective_on desc, v.id limit 1`;
}

/** The primary policy's eligibility of each patient for a day: one statement for a page of the schedule. */
export async function eligibilityOfPatientsOn(
  db: DbOrTx,
  patientIds: readonly number[],
  day: string,
): Promise<Map<number, EligibilityBrief>> {
  if (patientIds.length === 0) return new Map();
  const rows = await rawRows(
    db,
    sql`select x.patient_id, e.* from unnest(${`{${[...new Set(patientIds)].join(',')}}`}::int[]) as x(patient_id)
        left join lateral (${primaryEligibilitySql(sql`x.patient_id`, sql`${day}::date`)}) e on true`,
  );
  return new Map(rows.map((r) => [Number(r.patient_id), eligibilityBriefOf(r, day)]));
}
