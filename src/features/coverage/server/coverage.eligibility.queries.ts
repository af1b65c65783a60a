/**
 * Eligibility and benefits stored with the coverage (ASC X12 005010X279A1, docs/x12-eligibility.md "In the
 * product"): a 270 asks about policies for a day of service, the mailbox sends it, and a 271 answers each policy by
 * the trace number it was asked with. Every write is one transaction with its audit entries; a 271 that does not
 * fit what was asked is refused whole.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { actorOf, recordMany, recordRead, type AuditInput } from '@/features/audit/server/audit.queries';
import { X12Error, parseX12, transactionSetsOf } from '@/features/x12/x12.parse';
import {
  build270,
  EligibilityError,
  MAX_INQUIRIES_PER_TRANSACTION_SET,
  read271,
  summarise271Benefits,
  TIME_PERIODS,
  type Accumulator271,
  type Batch270,
  type DependentRelationship270,
  type Inquiry270,
  type Person271,
  type X12Sex,
} from '@/features/x12/x12.270-271';
import { splitPersonName } from '@/features/x12/x12.837p';
import { maskMemberId, type Role } from '@/shared/access';
import { today } from '@/shared/api';
import { formatDate } from '@/shared/dates';
import { countOf } from '@/shared/plural';
import { dayInZone, timeInZone } from '@/shared/practice-zone';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { rawRows, rowText, rowTextOrNull, uniqueViolationOf, type RawRow } from '@/server/db/sql-helpers';
import { HttpError, invalidField } from '@/server/plugins/errors';
import { priorityLabel } from '../coverage.schema';
import {
  eligibilityStateOf,
  rejectedAsNotFound,
  type CoverageEligibility,
  type EligibilityBrief,
  type EligibilityCheck,
  type EligibilityReason,
  type EligibilityState,
  type EligibilityStatus,
  type EligibilitySummary,
  type Network,
  type PostedEligibilityResponse,
  type RequestedEligibility,
} from '../coverage.eligibility.schema';

/**
 * The practice as the sender of its 270s: its billing identity and clearinghouse (Settings → Practice). They
 * belong to the settings feature, later than coverage in the feature order, so the caller reads them and passes
 * them in (server/app.ts for the routes, the evening batch for itself).
 */
export interface EligibilitySender {
  billingName: string | null;
  billingNpi: string | null;
  taxId: string | null;
  ediReceiverId: string | null;
  ediSubmitterId: string | null;
  ediUsage: 'T' | 'P';
}
export type LoadEligibilitySender = (db: DbOrTx) => Promise<EligibilitySender>;

export interface EligibilityRequest {
  coverageIds: readonly number[];
  serviceDate: string;
  reason: EligibilityReason;
  /** Asked besides 30 (health benefit plan coverage), which every inquiry asks. */
  serviceTypes?: readonly string[];
}

/** The 270 of one inquiry, as downloaded and as the mailbox sends it. */
export function inquiryFileName(inquiryId: number, interchangeControlNumber: number): string {
  return `270-inquiry-${inquiryId}-${String(interchangeControlNumber).padStart(9, '0')}.txt`;
}

/** A 270 asks about a day from a year and a half back to a year ahead: wider than any payer answers. */
const DAYS_BACK = 550;
const DAYS_AHEAD = 366;
/** A refusal lists this many of its problems at most. */
const PROBLEMS_SHOWN = 10;

const intArray = (values: readonly number[]) => sql`${`{${values.join(',')}}`}::int[]`;

function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function listed(problems: readonly string[]): string {
  const shown = problems.slice(0, PROBLEMS_SHOWN).join('; ');
  return problems.length > PROBLEMS_SHOWN ? `${shown}; and ${problems.length - PROBLEMS_SHOWN} more` : shown;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading checks

const CHECK_COLUMNS = sql`k.id, k.coverage_id, k.inquiry_id, k.service_date::text as service_date, k.trace_number,
  k.status, k.requested_at, k.answered_at, k.summary, k.response_id`;

/** A timestamptz as node-postgres gives it (a Date, or text from a jsonb or raw row), as ISO text. */
export function isoOf(value: unknown): string | null {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number') return new Date(value).toISOString();
  return null;
}

function checkOf(row: RawRow, role: Role): EligibilityCheck {
  const summary = (row.summary as EligibilitySummary | null) ?? null;
  return {
    id: Number(row.id),
    coverageId: Number(row.coverage_id),
    inquiryId: Number(row.inquiry_id),
    serviceDate: rowText(row.service_date),
    traceNumber: rowText(row.trace_number),
    status: rowText(row.status) as EligibilityStatus,
    requestedAt: isoOf(row.requested_at) ?? '',
    answeredAt: isoOf(row.answered_at),
    // The payer's member id is the policy's: masked by the same rule (docs/access.md).
    summary:
      summary === null
        ? null
        : { ...summary, memberId: summary.memberId === null ? null : maskMemberId(summary.memberId, role) },
    responseId: row.response_id === null || row.response_id === undefined ? null : Number(row.response_id),
  };
}

export async function coverageExists(db: DbOrTx, coverageId: number): Promise<boolean> {
  const [found] = await rawRows(db, sql`select 1 from coverages where id = ${coverageId}`);
  return found !== undefined;
}

/** `GET /api/coverages/:id/eligibility`: the latest check and the 20 before it; an audited PHI read. */
export async function latestEligibility(db: Db, ctx: RequestContext, coverageId: number): Promise<CoverageEligibility> {
  const [coverage] = await rawRows(db, sql`select patient_id from coverages where id = ${coverageId}`);
  if (!coverage) throw new HttpError(404, 'NOT_FOUND', 'No such coverage.');
  const rows = await rawRows(
    db,
    sql`select ${CHECK_COLUMNS} from eligibility_checks k where k.coverage_id = ${coverageId}
        order by k.requested_at desc, k.id desc limit 21`,
  );
  await recordRead(db, ctx, {
    action: 'eligibility.view',
    resource: `coverage/${coverageId}`,
    detail: `viewed ${countOf(rows.length, 'eligibility check')}`,
    patientId: Number(coverage.patient_id),
  });
  const checks = rows.map((r) => checkOf(r, ctx.user.role));
  return { coverageId, latest: checks[0] ?? null, history: checks.slice(1) };
}

/**
 * The latest check of each coverage (for lists: a patient's policies, a day's schedule), in one statement. Not
 * audited: the list that shows them is.
 */
export async function latestEligibilityOf(
  db: DbOrTx,
  role: Role,
  coverageIds: readonly number[],
): Promise<Map<number, EligibilityCheck>> {
  if (coverageIds.length === 0) return new Map();
  const rows = await rawRows(
    db,
    sql`select ${CHECK_COLUMNS} from unnest(${intArray([...new Set(coverageIds)])}) as c(id)
        cross join lateral (select * from eligibility_checks k where k.coverage_id = c.id
          order by k.requested_at desc, k.id desc limit 1) k`,
  );
  return new Map(rows.map((r) => [Number(r.coverage_id), checkOf(r, role)]));
}

export interface EligibilityOn {
  state: EligibilityState;
  /** When the payer answered, ISO; null when never checked for the day. */
  checkedAt: string | null;
  detail: string | null;
  /** A rejection by which the payer does not know the patient under the policy (NOT_FOUND_REJECTIONS). */
  notFound: boolean;
}

/**
 * The latest answered check of each (coverage, day of service), set-wise: what the scrubber and the claim form
 * read. Keyed `${coverageId}|${serviceDate}`; a pair never checked for that day is 'unknown'.
 */
export async function eligibilityOnDays(
  db: DbOrTx,
  pairs: readonly { coverageId: number; serviceDate: string }[],
): Promise<Map<string, EligibilityOn>> {
  const result = new Map<string, EligibilityOn>();
  if (pairs.length === 0) return result;
  const keyed = pairs.map((p) => ({ coverage_id: p.coverageId, service_date: p.serviceDate }));
  const rows = await rawRows(
    db,
    sql`select p.coverage_id, p.service_date::text as service_date, k.status, k.summary, k.answered_at
        from jsonb_to_recordset(${JSON.stringify(keyed)}::jsonb) as p(coverage_id int, service_date date)
        join lateral (select status, summary, answered_at from eligibility_checks k
          where k.coverage_id = p.coverage_id and k.service_date = p.service_date and k.status <> 'Awaiting'
          order by k.answered_at desc, k.id desc limit 1) k on true`,
  );
  for (const r of rows) {
    const serviceDate = rowText(r.service_date);
    const summary = (r.summary as EligibilitySummary | null) ?? null;
    const { state, detail } = eligibilityStateOf(
      { status: rowText(r.status) as EligibilityStatus, summary },
      serviceDate,
    );
    result.set(`${Number(r.coverage_id)}|${serviceDate}`, {
      state,
      checkedAt: isoOf(r.answered_at),
      detail,
      notFound: state === 'rejected' && rejectedAsNotFound(summary),
    });
  }
  return result;
}

/**
 * A coverage's latest check for a day as a list shows it (the schedule, the claim view): `row` has coverage_id (null:
 * no policy), status (null: never asked), summary and answered_at.
 */
export function eligibilityBriefOf(row: RawRow, day: string): EligibilityBrief {
  if (row.coverage_id === null || row.coverage_id === undefined) {
    return { coverageId: null, state: 'unknown', checkedAt: null, detail: 'No primary policy in force on the day' };
  }
  const coverageId = Number(row.coverage_id);
  const status = rowTextOrNull(row.status) as EligibilityStatus | null;
  // Never asked for the day: the state's own label ("Not checked") says all there is to say.
  if (status === null) return { coverageId, state: 'unknown', checkedAt: null, detail: null };
  if (status === 'Awaiting') {
    return { coverageId, state: 'awaiting', checkedAt: null, detail: "Awaiting the payer's answer" };
  }
  const { state, detail } = eligibilityStateOf(
    { status, summary: (row.summary as EligibilitySummary | null) ?? null },
    day,
  );
  return { coverageId, state, checkedAt: isoOf(row.answered_at), detail };
}

/** For the scrubber and the claim form: what the latest answered check of the policy says of the day of service. */
export async function coverageEligibleOn(db: DbOrTx, coverageId: number, serviceDate: string): Promise<EligibilityOn> {
  const found = await eligibilityOnDays(db, [{ coverageId, serviceDate }]);
  return (
    found.get(`${coverageId}|${serviceDate}`) ?? { state: 'unknown', checkedAt: null, detail: null, notFound: false }
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Asking: the 270

interface CoverageToAsk {
  id: number;
  patientId: number;
  patientName: string;
  patientDob: string;
  patientSex: string;
  payer: string;
  payerId: string | null;
  priority: number;
  memberId: string;
  groupNumber: string | null;
  relationship: 'self' | 'spouse' | 'child' | 'other';
  subscriberName: string | null;
  subscriberDob: string | null;
  effectiveOn: string;
  endOn: string | null;
}

async function coveragesToAsk(tx: Tx, ids: readonly number[]): Promise<CoverageToAsk[]> {
  const rows = await rawRows(
    tx,
    sql`select v.id, v.patient_id, p.name as patient_name, p.dob::text as patient_dob, p.sex as patient_sex, v.payer,
          py.payer_id, v.priority, v.member_id, v.group_number, v.relationship, v.subscriber_name,
          v.subscriber_dob::text as subscriber_dob, v.effective_on::text as effective_on, v.end_on::text as end_on
        from coverages v
        join patients p on p.id = v.patient_id
        left join payers py on py.name = v.payer
        where v.id = any(${intArray(ids)})
        order by v.payer, v.id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    patientId: Number(r.patient_id),
    patientName: rowText(r.patient_name),
    patientDob: rowText(r.patient_dob),
    patientSex: rowText(r.patient_sex),
    payer: rowText(r.payer),
    payerId: rowTextOrNull(r.payer_id),
    priority: Number(r.priority),
    memberId: rowText(r.member_id),
    groupNumber: rowTextOrNull(r.group_number),
    relationship: rowText(r.relationship) as CoverageToAsk['relationship'],
    subscriberName: rowTextOrNull(r.subscriber_name),
    subscriberDob: rowTextOrNull(r.subscriber_dob),
    effectiveOn: rowText(r.effective_on),
    endOn: rowTextOrNull(r.end_on),
  }));
}

function personName(full: string) {
  const n = splitPersonName(full);
  return {
    lastName: n.lastName,
    firstName: n.firstName,
    ...(n.middleName ? { middleName: n.middleName } : {}),
    ...(n.suffix ? { suffix: n.suffix } : {}),
  };
}

function sexOf(value: string): X12Sex | null {
  return value === 'F' || value === 'M' || value === 'U' ? value : null;
}

/** Loops 2100C and 2100D: the patient is the subscriber, or a dependent found through the subscriber's member id. */
function inquiryOf(c: CoverageToAsk, traceNumber: string, serviceDate: string, serviceTypes: string[]): Inquiry270 {
  const self = c.relationship === 'self';
  return {
    traceNumber,
    subscriber: {
      name: personName(self ? c.patientName : (c.subscriberName ?? '')),
      memberId: c.memberId,
      dob: self ? c.patientDob : c.subscriberDob,
      sex: self ? sexOf(c.patientSex) : null,
      groupNumber: c.groupNumber,
    },
    dependent: self
      ? null
      : {
          name: personName(c.patientName),
          dob: c.patientDob,
          sex: sexOf(c.patientSex),
          relationship: c.relationship as DependentRelationship270,
        },
    serviceDate,
    serviceTypeCodes: serviceTypes,
  };
}

function senderProblems(s: EligibilitySender): { field: string; message: string }[] {
  const missing: { field: string; message: string }[] = [];
  if (!s.billingName?.trim())
    missing.push({ field: 'billingName', message: 'is not set: the provider asking (2100B)' });
  if (!s.billingNpi?.trim()) missing.push({ field: 'billingNpi', message: "is not set: the provider's NPI (2100B)" });
  if (!/^\d{9}$/.test(s.taxId ?? '')) {
    missing.push({ field: 'taxId', message: "is not set: the EIN the 270's trace numbers carry (TRN03)" });
  }
  if (!s.ediReceiverId?.trim()) {
    missing.push({ field: 'ediReceiverId', message: "is not set: the clearinghouse's id (ISA08, GS03)" });
  }
  return missing;
}

/**
 * One file for every payer asked: build270 writes one payer (2000A) per file, so each payer's inquiries are
 * written with the same envelope and their transaction sets put in one functional group. The writer's output is
 * one segment per line; the joined file is read back by the X12 parser before it is kept, so a count or control
 * number gone wrong is caught here and not by the clearinghouse.
 */
function write270(batches: readonly Batch270[]): string {
  const texts = batches.map((b) => build270(b));
  const lines = texts.map((t) => t.split('\n').filter(Boolean));
  const first = lines[0]!;
  const sets = lines.flatMap((l) => l.slice(2, -2));
  const setCount = batches.reduce((n, b) => n + b.envelope.setControlNumbers.length, 0);
  const env = batches[0]!.envelope;
  const text = [
    first[0],
    first[1],
    ...sets,
    `GE*${setCount}*${env.groupControlNumber}~`,
    `IEA*1*${String(env.interchangeControlNumber).padStart(9, '0')}~`,
  ]
    .map((l) => `${l}\n`)
    .join('');
  const written = transactionSetsOf(parseX12(text), '270').length;
  if (written !== setCount) throw new Error(`the 270 came out with ${written} transaction sets, not ${setCount}`);
  return text;
}

/**
 * `POST /api/coverages/:id/eligibility` and the evening batch: one 270 for the policies and day, kept with one
 * check per policy awaiting its answer, audited, in one transaction. A policy not in force on the day, an id that
 * is no policy or a practice without what a 270 needs is refused, naming the field.
 */
export async function requestEligibility(
  db: DbOrTx,
  ctx: RequestContext,
  input: EligibilityRequest,
  sender: EligibilitySender,
): Promise<RequestedEligibility> {
  const ids = [...new Set(input.coverageIds)];
  if (ids.length === 0) throw invalidField('coverageIds', 'must name at least one coverage');
  const day = today(ctx.now);
  if (input.serviceDate < addDays(day, -DAYS_BACK) || input.serviceDate > addDays(day, DAYS_AHEAD)) {
    throw invalidField(
      'serviceDate',
      `must be within ${DAYS_BACK} days before and ${DAYS_AHEAD} days after today: payers answer for no other day`,
    );
  }
  const missing = senderProblems(sender);
  if (missing.length > 0) {
    throw new HttpError(
      409,
      'PRACTICE_NOT_READY_TO_SEND',
      `The practice's billing settings are incomplete: ${missing.map((m) => `${m.field} ${m.message}`).join('; ')}.`,
      { fields: missing },
    );
  }
  const serviceTypes = ['30', ...(input.serviceTypes ?? []).filter((t) => t !== '30')];
  const result = await db.transaction(async (tx) => {
    const found = await coveragesToAsk(tx, ids);
    const unknown = ids.filter((id) => !found.some((c) => c.id === id));
    if (unknown.length > 0) {
      throw invalidField(
        'coverageIds',
        `${listed(unknown.map(String))} ${unknown.length === 1 ? 'is' : 'are'} no coverage`,
      );
    }
    const outOfDates = found.filter(
      (c) => input.serviceDate < c.effectiveOn || (c.endOn !== null && input.serviceDate > c.endOn),
    );
    if (outOfDates.length > 0) {
      throw invalidField(
        'serviceDate',
        `${formatDate(input.serviceDate)} is outside the policy's dates: ${listed(
          outOfDates.map(
            (c) =>
              `${c.payer} ${priorityLabel(c.priority)} runs from ${formatDate(c.effectiveOn)}${c.endOn ? ` to ${formatDate(c.endOn)}` : ''}`,
          ),
        )}`,
      );
    }
    const noPayerId = [...new Set(found.filter((c) => !c.payerId).map((c) => c.payer))];
    if (noPayerId.length > 0) {
      throw invalidField(
        'coverageIds',
        `${listed(noPayerId)}: no payer id on file, the 270 cannot name the payer (Settings → Payers)`,
      );
    }
    const [numbers] = await rawRows(tx, sql`select nextval('eligibility_control_number_seq') as n`);
    const control = Number(numbers?.n);
    const byPayer = new Map<string, CoverageToAsk[]>();
    for (const c of found) byPayer.set(c.payer, [...(byPayer.get(c.payer) ?? []), c]);
    const traceOf = new Map<number, string>();
    let setNumber = 0;
    let checkNumber = 0;
    const batches: Batch270[] = [...byPayer.values()].map((group, g) => {
      const sets = Math.ceil(group.length / MAX_INQUIRIES_PER_TRANSACTION_SET);
      const setControlNumbers = Array.from({ length: sets }, () => String(++setNumber).padStart(4, '0'));
      return {
        envelope: {
          interchangeControlNumber: control,
          groupControlNumber: control,
          setControlNumbers,
          date: dayInZone(ctx.now).replaceAll('-', ''),
          time: timeInZone(ctx.now).replace(':', ''),
          usage: sender.ediUsage,
          reference: byPayer.size > 1 ? `${control}-P${g + 1}` : String(control),
          sender: sender.ediSubmitterId?.trim()
            ? { id: sender.ediSubmitterId.trim(), qualifier: 'ZZ' }
            : { id: sender.taxId ?? '', qualifier: '30' },
          receiver: { id: sender.ediReceiverId!.trim(), qualifier: 'ZZ' },
        },
        originatorId: `1${sender.taxId}`,
        source: { name: group[0]!.payer, payerId: group[0]!.payerId! },
        receiver: { kind: 'organization', name: sender.billingName!.trim(), npi: sender.billingNpi!.trim() },
        inquiries: group.map((c) => {
          const trace = `${control}-${++checkNumber}`;
          traceOf.set(c.id, trace);
          return inquiryOf(c, trace, input.serviceDate, serviceTypes);
        }),
      };
    });
    let text: string;
    try {
      text = write270(batches);
    } catch (error) {
      if (!(error instanceof EligibilityError) && !(error instanceof X12Error)) throw error;
      throw new HttpError(409, 'ELIGIBILITY_NOT_WRITABLE', `coverageIds: the 270 cannot be written: ${error.message}`, {
        fields: [{ field: 'coverageIds', message: `the 270 cannot be written: ${error.message}` }],
      });
    }
    const [inquiry] = await rawRows(
      tx,
      sql`insert into eligibility_inquiries (created_at, created_by, reason, text, interchange_control_number,
            group_control_number, service_date, check_count)
          values (${ctx.now.toISOString()}::timestamptz, ${input.reason === 'evening' ? null : ctx.user.id}::int,
            ${input.reason}, ${text}, ${control}, ${control}, ${input.serviceDate}::date, ${found.length})
          returning id`,
    );
    const inquiryId = Number(inquiry?.id);
    const rows = found.map((c) => ({ coverage_id: c.id, trace_number: traceOf.get(c.id), member_id: c.memberId }));
    const inserted = await rawRows(
      tx,
      sql`insert into eligibility_checks (coverage_id, inquiry_id, service_date, trace_number, member_id, requested_at)
          select x.coverage_id, ${inquiryId}::int, ${input.serviceDate}::date, x.trace_number, x.member_id,
            ${ctx.now.toISOString()}::timestamptz
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(coverage_id int, trace_number text, member_id text)
          returning id, coverage_id, inquiry_id, service_date::text as service_date, trace_number, status,
            requested_at, answered_at, summary, response_id`,
    );
    const audit: AuditInput[] = [
      {
        ...actorOf(ctx),
        action: 'eligibility.request',
        resource: `eligibility_inquiry/${inquiryId}`,
        detail: `270 for ${countOf(found.length, 'coverage')} of ${countOf(byPayer.size, 'payer')} for ${input.serviceDate} (${input.reason}); ISA13 ${control}`,
      },
      ...found.map((c) => ({
        ...actorOf(ctx),
        action: 'eligibility.request',
        resource: `coverage/${c.id}`,
        detail: `${c.payer} ${priorityLabel(c.priority)} asked about ${input.serviceDate} in inquiry ${inquiryId} (trace ${traceOf.get(c.id)})`,
        patientId: c.patientId,
      })),
    ];
    await recordMany(tx, audit);
    return { inquiryId, checks: inserted.map((r) => checkOf(r, ctx.user.role)) };
  });
  return result;
}

/** `GET /api/eligibility/inquiries/:id/file`: the 270 as written; audited as an export of PHI. */
export async function eligibilityInquiryFile(
  db: Db,
  ctx: RequestContext,
  inquiryId: number,
): Promise<{ fileName: string; text: string }> {
  return db.transaction(async (tx) => {
    const [row] = await rawRows(
      tx,
      sql`select i.text, i.interchange_control_number, i.check_count,
            (select array_agg(distinct v.patient_id) from eligibility_checks k join coverages v on v.id = k.coverage_id
              where k.inquiry_id = i.id) as patient_ids
          from eligibility_inquiries i where i.id = ${inquiryId}`,
    );
    if (!row) throw new HttpError(404, 'NOT_FOUND', 'No such eligibility inquiry.');
    const patientIds = ((row.patient_ids as number[] | null) ?? []).map(Number);
    await recordMany(tx, [
      {
        ...actorOf(ctx),
        action: 'eligibility.export',
        resource: `eligibility_inquiry/${inquiryId}`,
        detail: `downloaded the 270 of ${countOf(Number(row.check_count), 'coverage')}`,
        // One patient's file is filed under that patient; a batch names its count above.
        patientId: patientIds.length === 1 ? patientIds[0] : null,
      },
    ]);
    return { fileName: inquiryFileName(inquiryId, Number(row.interchange_control_number)), text: rowText(row.text) };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The mailbox

export interface PendingEligibilityInquiry {
  id: number;
  createdAt: Date;
  fileName: string;
  text: string;
  interchangeControlNumber: number;
}

/** The 270s not yet put in the clearinghouse's outbox, made since `since`, oldest first. */
export async function pendingEligibilityInquiries(db: DbOrTx, since: Date): Promise<PendingEligibilityInquiry[]> {
  const rows = await rawRows(
    db,
    sql`select id, created_at, text, interchange_control_number from eligibility_inquiries
        where mailed_at is null and created_at >= ${since.toISOString()}::timestamptz order by created_at, id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    createdAt: new Date(isoOf(r.created_at) ?? 0),
    fileName: inquiryFileName(Number(r.id), Number(r.interchange_control_number)),
    text: rowText(r.text),
    interchangeControlNumber: Number(r.interchange_control_number),
  }));
}

/** The mailbox has put the 270 in the outbox; a second call keeps the first time. */
export async function markEligibilityInquiryMailed(tx: DbOrTx, id: number, at: Date): Promise<void> {
  await tx.execute(
    sql`update eligibility_inquiries set mailed_at = coalesce(mailed_at, ${at.toISOString()}::timestamptz)
        where id = ${id}`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Answers: the 271

const NETWORK: Record<string, Network> = { Y: 'in', N: 'out', W: 'both', U: 'unknown' };
const networkOf = (flag: string | null): Network => (flag === null ? 'unknown' : (NETWORK[flag] ?? 'unknown'));
const periodOf = (code: string | null): string | null => (code === null ? null : (TIME_PERIODS[code] ?? code));

function accumulatorOf(a: Accumulator271) {
  return {
    serviceTypes: a.serviceTypeCodes,
    coverageLevel: a.coverageLevel,
    network: networkOf(a.inPlanNetwork),
    lifetime: a.lifetime,
    totalCents: a.totalCents,
    period: periodOf(a.totalPeriod),
    remainingCents: a.remainingCents,
    metCents: a.metCents,
  };
}

/** What is kept of one person's answer, and the check's status from it. */
export function eligibilitySummaryOf(person: Person271): { status: EligibilityStatus; summary: EligibilitySummary } {
  const s = summarise271Benefits(person);
  const rejections: EligibilitySummary['rejections'] = s.rejections.map((r) => ({
    code: r.reasonCode,
    reason: r.reason,
    followUp: r.followUp,
    loop: r.loop,
  }));
  const status: EligibilityStatus = s.active === true ? 'Active' : s.active === false ? 'Inactive' : 'Rejected';
  if (status === 'Rejected' && rejections.length === 0) {
    rejections.push({
      code: '',
      reason: 'The payer answered without saying whether the policy is active',
      followUp: null,
      loop: '',
    });
  }
  const memberId = person.level === 'subscriber' ? person.memberId : (person.subscriber?.memberId ?? null);
  return {
    status,
    summary: {
      memberId,
      planName: s.planName,
      insuranceType: s.insuranceType,
      groupNumber: s.groupNumber,
      coverageBegin: s.coverageBegin,
      coverageEnd: s.coverageEnd,
      copays: s.copays.map((c) => ({
        serviceTypes: c.serviceTypeCodes,
        coverageLevel: c.coverageLevel,
        network: networkOf(c.inPlanNetwork),
        period: periodOf(c.timePeriod),
        amountCents: c.amountCents,
      })),
      coinsurance: s.coinsurance.map((c) => ({
        serviceTypes: c.serviceTypeCodes,
        coverageLevel: c.coverageLevel,
        network: networkOf(c.inPlanNetwork),
        period: periodOf(c.timePeriod),
        percent: c.percent,
      })),
      deductibles: s.deductibles.map(accumulatorOf),
      outOfPocket: s.outOfPocket.map(accumulatorOf),
      messages: [...new Set(person.benefits.flatMap((b) => b.messages))],
      rejections,
    },
  };
}

function refused(code: string, message: string, status = 409): HttpError {
  return new HttpError(status, code, `file: ${message}`, { fields: [{ field: 'file', message }] });
}

const whoOf = (p: Person271) => [p.firstName, p.lastName].filter(Boolean).join(' ') || 'a patient';

/**
 * `POST /api/eligibility/responses` and the mailbox: applies a 271 file. Every patient it answers must be one asked
 * about and still awaiting its answer, by the 270's trace number (TRN*2), with the member id the 270 sent; a file
 * read before (same SHA-256), one that does not parse, or one answer that does not fit refuses the whole file and
 * nothing is written. Otherwise one transaction keeps the file, answers each check and audits.
 */
export async function post271(
  db: DbOrTx,
  ctx: RequestContext,
  text: string,
  fileName: string,
): Promise<PostedEligibilityResponse> {
  const sha256 = createHash('sha256').update(text, 'utf8').digest('hex');
  let people: Person271[];
  try {
    people = read271(text).flatMap((set) => set.people.filter((p) => p.patient));
  } catch (error) {
    if (!(error instanceof EligibilityError) && !(error instanceof X12Error)) throw error;
    throw refused('X12_INVALID', `this file is not a 271 that can be read: ${error.message}`, 400);
  }
  if (people.length === 0) {
    throw refused(
      'ELIGIBILITY_NO_ANSWER',
      'this 271 holds no answer for a patient (no subscriber or dependent loop)',
      422,
    );
  }
  const untraced = people.filter((p) => p.traceNumber === null);
  if (untraced.length > 0) {
    throw refused(
      'ELIGIBILITY_UNMATCHED',
      `the answer for ${listed(untraced.map(whoOf))} carries no trace number (TRN*2) of an inquiry`,
    );
  }
  const traces = people.map((p) => p.traceNumber!);
  const twice = traces.filter((t, i) => traces.indexOf(t) !== i);
  if (twice.length > 0) {
    throw refused('ELIGIBILITY_UNMATCHED', `trace number ${listed([...new Set(twice)])} is answered twice`);
  }
  try {
    return await db.transaction(async (tx) => {
      const [seen] = await rawRows(
        tx,
        sql`select id, received_at, file_name from eligibility_responses where sha256 = ${sha256}`,
      );
      if (seen) {
        throw refused(
          'ELIGIBILITY_FILE_SEEN',
          `this 271 was received already on ${formatDate(dayInZone(new Date(isoOf(seen.received_at) ?? 0)))} as "${rowText(seen.file_name)}" (response ${Number(seen.id)}); nothing was changed`,
        );
      }
      const asked = await rawRows(
        tx,
        sql`select k.id, k.trace_number, k.member_id, k.status, k.coverage_id, v.patient_id, v.payer, v.priority
            from eligibility_checks k join coverages v on v.id = k.coverage_id
            where k.trace_number in (select jsonb_array_elements_text(${JSON.stringify(traces)}::jsonb))
            for update of k`,
      );
      const byTrace = new Map(asked.map((r) => [rowText(r.trace_number), r]));
      const problems: string[] = [];
      for (const p of people) {
        const check = byTrace.get(p.traceNumber!);
        if (!check) {
          problems.push(`${whoOf(p)} (trace number ${p.traceNumber}) was never asked about`);
          continue;
        }
        if (rowText(check.status) !== 'Awaiting') {
          problems.push(`${whoOf(p)} (trace number ${p.traceNumber}) is answered already (${rowText(check.status)})`);
          continue;
        }
        const memberId = p.level === 'subscriber' ? p.memberId : (p.subscriber?.memberId ?? null);
        if (memberId !== null && memberId !== rowText(check.member_id)) {
          problems.push(
            `${whoOf(p)} (trace number ${p.traceNumber}) is answered for member id ending ${memberId.slice(-4)}, not the one asked about`,
          );
        }
      }
      if (problems.length > 0) throw refused('ELIGIBILITY_UNMATCHED', `${listed(problems)}; nothing was changed`);
      const answers = people.map((p) => ({
        person: p,
        ...eligibilitySummaryOf(p),
        check: byTrace.get(p.traceNumber!)!,
      }));
      const count = (status: EligibilityStatus) => answers.filter((a) => a.status === status).length;
      const [response] = await rawRows(
        tx,
        sql`insert into eligibility_responses (received_at, received_by, sha256, file_name, text, answered_count,
              active_count, inactive_count, rejected_count)
            values (${ctx.now.toISOString()}::timestamptz, ${ctx.user.id > 0 ? ctx.user.id : null}::int, ${sha256},
              ${fileName}, ${text}, ${answers.length}, ${count('Active')}, ${count('Inactive')}, ${count('Rejected')})
            returning id`,
      );
      const responseId = Number(response?.id);
      const updates = answers.map((a) => ({ id: Number(a.check.id), status: a.status, summary: a.summary }));
      await tx.execute(sql`update eligibility_checks k set status = x.status, summary = x.summary,
            answered_at = ${ctx.now.toISOString()}::timestamptz, response_id = ${responseId}::int
          from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as x(id int, status text, summary jsonb)
          where k.id = x.id`);
      const summary = [
        countOf(answers.length, 'answer'),
        `${count('Active')} active`,
        `${count('Inactive')} inactive`,
        `${count('Rejected')} rejected`,
      ].join(', ');
      await recordMany(tx, [
        {
          ...actorOf(ctx),
          action: 'eligibility.answer',
          resource: `eligibility_response/${responseId}`,
          detail: `271 "${fileName}": ${summary}`,
        },
        ...answers.map((a) => ({
          ...actorOf(ctx),
          action: 'eligibility.answer',
          resource: `coverage/${Number(a.check.coverage_id)}`,
          detail: `${rowText(a.check.payer)} ${priorityLabel(Number(a.check.priority))}: ${a.status}${
            a.status === 'Rejected' ? ` (${a.summary.rejections[0]?.reason ?? 'no reason given'})` : ''
          } (trace ${rowText(a.check.trace_number)}, response ${responseId})`,
          patientId: Number(a.check.patient_id),
        })),
      ]);
      return { responseId, answered: answers.length, summary };
    });
  } catch (error) {
    // Two uploads of one file at once: the second waits on the first's unique SHA-256 and is refused as seen.
    if (uniqueViolationOf(error) === 'eligibility_responses_sha256_unique') {
      throw refused('ELIGIBILITY_FILE_SEEN', 'this 271 was received already; nothing was changed');
    }
    throw error;
  }
}
