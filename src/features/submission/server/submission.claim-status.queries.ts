/**
 * Asking payers where sent claims stand and applying their answers (ASC X12 005010X212; docs/x12-claim-status.md,
 * "In the product"). A 276 asks about the claims a payer has had long enough without deciding; its 277 answer is
 * matched back by trace number, moves the claims it decides about and opens work where a person must act. Each is
 * one transaction: all of it is written, or none of it.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { actorOf, recordMany, recordNow, type AuditInput } from '@/features/audit/server/audit.queries';
import { openWorkItems, resolveWorkItemsBySource } from '@/features/workqueue/server/workqueue.queries';
import { X12Error } from '@/features/x12/x12.parse';
import type { Claim837 } from '@/features/x12/x12.837p';
import {
  build276,
  claimsByTraceNumber,
  ClaimStatusError,
  read277,
  type ClaimInquiry276,
  type ClaimStatusAnswer277,
  type ClaimStatusFile277,
} from '@/features/x12/x12.276-277';
import { dayInZone, timeInZone } from '@/shared/practice-zone';
import { countOf } from '@/shared/plural';
import type { RequestContext } from '@/server/context';
import type { Db, DbOrTx, Tx } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import { rawRows, rowText, rowTextOrNull, uniqueViolationOf, type RawRow } from '@/server/db/sql-helpers';
import {
  statusRequestFileName,
  type ClaimStatusRequest,
  type ClaimStatusRequestResult,
  type ClaimStatusResponseResult,
  type ClaimStatusView,
} from '../submission.schema';
import { nextControlNumbers, setControlNumberText } from './submission.batches.queries';

/** The statuses of a claim sent and not yet decided by its payer: the ones worth asking about. */
const AWAITING = `('Submitted', 'Accepted', 'Pending')`;
/** A refusal names this many claims at most, and counts the rest. */
const SHOWN = 10;

const ids = (values: readonly number[]) => sql`${`{${values.join(',')}}`}::int[]`;
const isoOf = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : rowTextOrNull(v));

function refused(status: number, code: string, field: string, message: string): HttpError {
  return new HttpError(status, code, `${field}: ${message}`, { fields: [{ field, message }] });
}

function named(problems: readonly string[]): string {
  const more = problems.length > SHOWN ? `; and ${countOf(problems.length - SHOWN, 'more claim')}` : '';
  return `${problems.slice(0, SHOWN).join('; ')}${more}`;
}

// ---------------------------------------------------------------------------------------------
// Asking: the 276

/**
 * The claims to ask about, locked in id order, each with what its latest sending said of it (the 837P as written,
 * and the payer's claim number a 277CA gave). Without `claimIds` the rule picks them: sent at least the payer's
 * `claim_status_after_days` ago, not adjudicated, and not asked within that many days.
 */
async function claimsToAsk(tx: Tx, ctx: RequestContext, today: string, claimIds?: readonly number[]) {
  const rule = claimIds
    ? sql`c.id = any(${ids(claimIds)})`
    : sql`c.status in ${sql.raw(AWAITING)} and c.voided_at is null and c.adjudicated_on is null
        and py.claim_status_after_days is not null and c.submitted_on is not null
        and c.submitted_on <= ${today}::date - py.claim_status_after_days
        and not exists (select 1 from claim_status_inquiries i where i.claim_id = c.id
          and i.asked_at > ${ctx.now.toISOString()}::timestamptz - make_interval(days => py.claim_status_after_days))`;
  return rawRows(
    tx,
    sql`select c.id, c.patient_id, c.account_number, c.payer, c.status, c.billed_cents, c.submitted_on,
          c.adjudicated_on, c.voided_at, py.payer_id, bc.sent, bc.payer_claim_number
        from claims c
        left join payers py on py.name = c.payer
        left join lateral (select sent, payer_claim_number from claim_batch_claims
          where claim_id = c.id order by batch_id desc limit 1) bc on true
        where ${rule}
        order by c.id
        for update of c`,
  );
}

/** Why a chosen claim cannot be asked about, or null. */
function notAskable(row: RawRow): string | null {
  const account = rowText(row.account_number);
  if (row.voided_at !== null) return `${account} is voided`;
  if (row.sent === null || row.submitted_on === null) return `${account} was never sent to the payer`;
  if (!AWAITING.includes(`'${rowText(row.status)}'`)) {
    return `${account} is ${rowText(row.status)}: only a claim awaiting the payer's decision (Submitted, Accepted or Pending) is asked about`;
  }
  if (!rowText(row.payer_id)) return `${account}: its payer ${rowText(row.payer)} has no electronic payer id`;
  return null;
}

/** Loop 2200D/2200E of one claim, from its 837P as sent: the same subscriber, patient, account and charge. */
function inquiryOf(row: RawRow, traceNumber: string): ClaimInquiry276 {
  const sent = row.sent as Claim837;
  const days = sent.lines.map((l) => l.serviceDate).sort();
  const self = sent.coverage.relationship === 'self' || sent.coverage.subscriber === null;
  return {
    traceNumber,
    subscriber: {
      name: self ? sent.patient.name : sent.coverage.subscriber!,
      memberId: sent.coverage.memberId,
      dob: self ? sent.patient.dob : null,
      sex: self ? sent.patient.sex : null,
    },
    dependent: self ? null : { name: sent.patient.name, dob: sent.patient.dob, sex: sent.patient.sex },
    accountNumber: sent.accountNumber,
    payerClaimNumber: rowTextOrNull(row.payer_claim_number),
    chargeCents: Number(row.billed_cents),
    serviceFrom: days[0] ?? '',
    serviceTo: days.at(-1) ?? null,
  };
}

async function practiceEnvelope(tx: Tx) {
  const [row] = await rawRows(
    tx,
    sql`select billing_name, billing_npi, tax_id, edi_submitter_id, edi_receiver_id, edi_usage
        from practice_settings order by practice_id limit 1`,
  );
  const text = (key: string) => rowText(row?.[key]).trim();
  const missing = [
    ['billing_name', 'billingName', "the billing provider's legal name (loop 2100C)"],
    ['billing_npi', 'billingNpi', "the billing provider's NPI (loop 2100C)"],
    ['edi_receiver_id', 'ediReceiverId', "the clearinghouse's id (ISA08, GS03)"],
  ].filter(([key]) => !text(key!));
  if (!text('edi_submitter_id') && !text('tax_id')) {
    missing.push(['tax_id', 'ediSubmitterId', 'the submitter id or the EIN (ISA06, loop 2100B)']);
  }
  if (missing.length > 0) {
    const fields = missing.map(([, field, what]) => ({ field: field!, message: `is not set: ${what}` }));
    throw new HttpError(
      409,
      'PRACTICE_NOT_READY_TO_SEND',
      `The practice's billing settings are incomplete: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}.`,
      { fields },
    );
  }
  const submitterId = text('edi_submitter_id') || text('tax_id');
  const usage: 'P' | 'T' = text('edi_usage') === 'P' ? 'P' : 'T';
  return {
    usage,
    submitter: { id: submitterId, qualifier: text('edi_submitter_id') ? 'ZZ' : '30' },
    receiver: { id: text('edi_receiver_id'), qualifier: 'ZZ' },
    informationReceiver: { name: text('billing_name'), id: submitterId, idQualifier: '46' as const },
    serviceProvider: { name: text('billing_name'), npi: text('billing_npi') },
  };
}

/**
 * Asks the payers about claims: without `claimIds`, every claim the rule finds due (each payer's
 * `claim_status_after_days`); with them, those claims now, which must each have been sent and await the payer's
 * decision. One 276 per payer, written with the next control numbers (shared with the 837P batches), kept, and
 * audited, all in one transaction. Nothing due: no file, `requestId` null.
 */
export async function requestClaimStatus(
  db: DbOrTx,
  ctx: RequestContext,
  options: { today?: string; claimIds?: number[] } = {},
): Promise<ClaimStatusRequestResult> {
  const today = options.today ?? dayInZone(ctx.now);
  const wanted = options.claimIds ? [...options.claimIds].sort((a, b) => a - b) : undefined;
  return db.transaction(async (tx) => {
    const rows = await claimsToAsk(tx, ctx, today, wanted);
    if (wanted) {
      const found = new Set(rows.map((r) => Number(r.id)));
      const unknown = wanted.filter((id) => !found.has(id));
      if (unknown.length > 0) {
        throw refused(400, 'VALIDATION_FAILED', 'claimIds', `${unknown.slice(0, SHOWN).join(', ')} not a claim`);
      }
      const problems = rows.map(notAskable).filter((p): p is string => p !== null);
      if (problems.length > 0) {
        throw refused(
          409,
          'CLAIMS_NOT_ASKABLE',
          'claimIds',
          `${countOf(problems.length, 'claim')} cannot be asked about: ${named(problems)}`,
        );
      }
    }
    // The rule leaves out quietly what it cannot ask about (no payer id, never sent as a batch).
    const askable = wanted ? rows : rows.filter((r) => notAskable(r) === null);
    if (askable.length === 0) return { requestId: null, requestIds: [], claims: 0 };
    const practice = await practiceEnvelope(tx);
    const byPayer = new Map<string, RawRow[]>();
    for (const row of askable) {
      const payer = rowText(row.payer);
      byPayer.set(payer, [...(byPayer.get(payer) ?? []), row]);
    }
    const at = ctx.now.toISOString();
    const requestIds: number[] = [];
    const audit: AuditInput[] = [];
    for (const payer of [...byPayer.keys()].sort()) {
      const claims = byPayer.get(payer)!;
      const numbers = await nextControlNumbers(tx, 1);
      const traces = claims.map((c) => `${numbers.isa}-${Number(c.id)}`);
      let text: string;
      try {
        text = build276({
          envelope: {
            interchangeControlNumber: numbers.isa,
            groupControlNumber: numbers.gs,
            setControlNumber: setControlNumberText(numbers.firstSt),
            date: today.replaceAll('-', ''),
            time: timeInZone(ctx.now).replace(':', ''),
            usage: practice.usage,
            reference: String(numbers.isa),
            submitter: practice.submitter,
            receiver: practice.receiver,
          },
          payer: { name: payer, payerId: rowText(claims[0]!.payer_id) },
          informationReceiver: practice.informationReceiver,
          serviceProvider: practice.serviceProvider,
          claims: claims.map((c, i) => inquiryOf(c, traces[i]!)),
        });
      } catch (error) {
        if (!(error instanceof ClaimStatusError || error instanceof X12Error)) throw error;
        throw refused(
          409,
          'CLAIMS_NOT_ASKABLE',
          wanted ? 'claimIds' : 'body',
          `the 276 to ${payer} cannot be written: ${error.message}`,
        );
      }
      const [request] = await rawRows(
        tx,
        sql`insert into claim_status_requests (payer, created_at, created_by, interchange_control_number,
              group_control_number, claim_count, content)
            values (${payer}, ${at}::timestamptz, ${ctx.user.id}::int, ${numbers.isa}, ${numbers.gs},
              ${claims.length}, ${text})
            returning id`,
      );
      const requestId = Number(request?.id);
      requestIds.push(requestId);
      const payload = JSON.stringify(claims.map((c, i) => ({ claim: Number(c.id), trace: traces[i] })));
      await tx.execute(sql`insert into claim_status_inquiries (claim_id, request_id, trace_number, asked_at)
        select x.claim, ${requestId}::int, x.trace, ${at}::timestamptz
        from jsonb_to_recordset(${payload}::jsonb) as x(claim int, trace text)`);
      audit.push({
        ...actorOf(ctx),
        action: 'claim_status_request.create',
        resource: `claim_status_request/${requestId}`,
        detail: `276 to ${payer}: ${countOf(claims.length, 'claim')}; ISA13 ${numbers.isa}, GS06 ${numbers.gs}`,
      });
      for (const [i, c] of claims.entries()) {
        audit.push({
          ...actorOf(ctx),
          action: 'claim.status.request',
          resource: `claim/${Number(c.id)}`,
          patientId: Number(c.patient_id),
          detail: `${rowText(c.account_number)}: ${payer} asked where the claim stands (276 request ${requestId}, trace ${traces[i]})`,
        });
      }
    }
    await recordMany(tx, audit);
    return { requestId: requestIds[0] ?? null, requestIds, claims: askable.length };
  });
}

/** `GET /api/claims/status-requests`: the newest 276s first. */
export async function listClaimStatusRequests(db: DbOrTx, limit: number): Promise<ClaimStatusRequest[]> {
  const rows = await rawRows(
    db,
    sql`select r.id, r.payer, r.created_at, r.claim_count, r.interchange_control_number, r.mailed_at,
          u.name as created_by_name,
          (select count(*) from claim_status_inquiries i where i.request_id = r.id and i.answered_at is not null)::int
            as answered
        from claim_status_requests r left join users u on u.id = r.created_by
        order by r.created_at desc, r.id desc limit ${limit}`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    payer: rowText(r.payer),
    createdAt: isoOf(r.created_at) ?? '',
    createdBy: rowTextOrNull(r.created_by_name),
    claimCount: Number(r.claim_count),
    answeredClaims: Number(r.answered),
    interchangeControlNumber: Number(r.interchange_control_number),
    fileName: statusRequestFileName(Number(r.id), Number(r.interchange_control_number)),
    mailedAt: isoOf(r.mailed_at),
  }));
}

/** `GET /api/claims/status-requests/:id/file`: the 276 as kept; an export of PHI, audited. */
export async function claimStatusRequestDownload(
  db: Db,
  ctx: RequestContext,
  id: number,
): Promise<{ fileName: string; text: string }> {
  const [row] = await rawRows(
    db,
    sql`select payer, claim_count, interchange_control_number, content from claim_status_requests where id = ${id}`,
  );
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'No such claim status request.');
  const fileName = statusRequestFileName(id, Number(row.interchange_control_number));
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'claim_status_request.export',
    resource: `claim_status_request/${id}`,
    detail: `downloaded ${fileName}: ${countOf(Number(row.claim_count), 'claim')} to ${rowText(row.payer)}`,
  });
  return { fileName, text: rowText(row.content) };
}

/** For the clearinghouse mailbox: the 276s made since `since` and not yet put in the mailbox, oldest first. */
export async function pendingClaimStatusRequests(
  db: DbOrTx,
  since: Date,
): Promise<{ id: number; payer: string; fileName: string; text: string; createdAt: string }[]> {
  const rows = await rawRows(
    db,
    sql`select id, payer, interchange_control_number, content, created_at from claim_status_requests
        where mailed_at is null and created_at >= ${since.toISOString()}::timestamptz
        order by created_at, id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    payer: rowText(r.payer),
    fileName: statusRequestFileName(Number(r.id), Number(r.interchange_control_number)),
    text: rowText(r.content),
    createdAt: isoOf(r.created_at) ?? '',
  }));
}

/**
 * For the clearinghouse mailbox, in its transaction: the 276 is in the mailbox. False when it was already marked
 * (another run put it there first) or does not exist. The caller audits the put.
 */
export async function markClaimStatusRequestMailed(tx: DbOrTx, id: number, at: Date): Promise<boolean> {
  const rows = await rawRows(
    tx,
    sql`update claim_status_requests set mailed_at = ${at.toISOString()}::timestamptz
        where id = ${id} and mailed_at is null returning id`,
  );
  return rows.length === 1;
}

/** `GET /api/claims/:id/status`: the claim's latest inquiry and answer, and whether it can be asked about now. */
export async function claimStatusOf(db: DbOrTx, claimId: number): Promise<ClaimStatusView> {
  const [row] = await rawRows(
    db,
    sql`select c.status, c.voided_at, c.submitted_on, i.asked_at, i.answered_at, i.category_code, i.status_code,
          i.message, i.effective_on::text as effective_on, i.needs_action
        from claims c
        left join lateral (select * from claim_status_inquiries where claim_id = c.id
          order by asked_at desc, id desc limit 1) i on true
        where c.id = ${claimId}`,
  );
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'No such claim.');
  return {
    latest:
      row.asked_at === null
        ? null
        : {
            askedAt: isoOf(row.asked_at) ?? '',
            answeredAt: isoOf(row.answered_at),
            categoryCode: rowTextOrNull(row.category_code),
            statusCode: rowTextOrNull(row.status_code),
            message: rowTextOrNull(row.message),
            effectiveOn: rowTextOrNull(row.effective_on),
            needsAction: row.needs_action === null ? null : row.needs_action === true,
          },
    askable: row.voided_at === null && row.submitted_on !== null && AWAITING.includes(`'${rowText(row.status)}'`),
  };
}

// ---------------------------------------------------------------------------------------------
// Answers: the 277

/** What an answer does to its claim, from the category of its status in force (STC01-1). */
type Move = 'Accepted' | 'Pending' | 'Draft' | null;

function moveOf(answer: ClaimStatusAnswer277): Move {
  const category = answer.current.codes[0]?.category ?? '';
  // Received or accepted into adjudication: the payer has it.
  if (category === 'A1' || category === 'A2' || category === 'A5') return 'Accepted';
  if (answer.outcome === 'pending' || answer.outcome === 'request_info') return 'Pending';
  // Rejected or not found: never filed, as a 277CA rejection (docs/claims.md): back to Draft with the reason.
  if (answer.outcome === 'rejected' || answer.outcome === 'not_found') return 'Draft';
  // Finalized, errors and the rest: recorded; the 835 posts what was decided.
  return null;
}

const MOVE_WORDS: Record<Exclude<Move, null>, string> = {
  Accepted: 'Accepted',
  Pending: 'Pending',
  Draft: 'rejected back to Draft',
};

/** A claim's filing day once its payer turns it away: an original loses it, a replacement or void keeps it. */
const keptFilingDaySql = sql.raw(`case when c.frequency_code = '1' then null else c.submitted_on end`);

function read(text: string): ClaimStatusFile277 {
  try {
    return read277(text);
  } catch (error) {
    if (error instanceof X12Error) throw refused(400, 'X12_INVALID', 'body', error.message);
    if (!(error instanceof ClaimStatusError)) throw error;
    if (error.code === 'CLAIM_ACKNOWLEDGMENT') {
      throw refused(
        422,
        'CLAIM_ACKNOWLEDGMENT',
        'body',
        `${error.message}: upload it as an acknowledgement (999 or 277CA), not as a claim status response`,
      );
    }
    throw refused(422, error.code, 'body', error.message);
  }
}

/**
 * A 277 claim status response: every answer matched to the inquiry of its trace number, the inquiries and claims
 * updated, each claim's history written and work opened where a person must act, in one transaction. Refused whole
 * (nothing written) when it cannot be read, is a 277CA, was applied before (its SHA-256), or answers a trace number
 * no 276 of the practice sent.
 */
export async function post277(
  db: DbOrTx,
  ctx: RequestContext,
  text: string,
  fileName: string,
): Promise<ClaimStatusResponseResult> {
  if (text.trim() === '') throw refused(400, 'VALIDATION_FAILED', 'body', 'is empty: send the 277 file as it came');
  const file = read(text);
  const sha256 = createHash('sha256').update(text).digest('hex');
  // One inquiry, one answer: of several (the request matched more than one claim), the last written stands.
  const answers = [...claimsByTraceNumber(file.claims).entries()].map(([trace, list]) => ({
    trace,
    answer: list.at(-1)!,
  }));
  try {
    return await db.transaction(async (tx) => {
      const [earlier] = await rawRows(
        tx,
        sql`select id, received_at from claim_status_responses where sha256 = ${sha256}`,
      );
      if (earlier) {
        throw refused(
          409,
          'DUPLICATE_RESPONSE',
          'body',
          `this 277 was already applied on ${isoOf(earlier.received_at)?.slice(0, 10)} (response ${Number(earlier.id)})`,
        );
      }
      const traces = `{${answers.map((a) => `"${a.trace.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
      // The claims first, in id order (as a batch, a 999 and a 277CA lock them), then their inquiries.
      await tx.execute(sql`select c.id from claims c join claim_status_inquiries i on i.claim_id = c.id
        where i.trace_number = any(${traces}::text[]) order by c.id for update of c`);
      const rows = await rawRows(
        tx,
        sql`select i.id, i.trace_number, i.claim_id, c.patient_id, c.account_number, c.payer, c.status,
              c.billed_cents, c.service_date::text as service_date
            from claim_status_inquiries i join claims c on c.id = i.claim_id
            where i.trace_number = any(${traces}::text[])
            for update of i`,
      );
      const byTrace = new Map(rows.map((r) => [rowText(r.trace_number), r]));
      const unknown = answers.filter((a) => !byTrace.has(a.trace));
      if (unknown.length > 0) {
        throw refused(
          422,
          'UNKNOWN_TRACE_NUMBER',
          'body',
          `TRN02 ${named(unknown.map((a) => `'${a.trace}' (segment ${a.answer.position})`))}: no claim status request of this practice asked with ${unknown.length === 1 ? 'it' : 'them'}`,
        );
      }
      const at = ctx.now.toISOString();
      const [response] = await rawRows(
        tx,
        sql`insert into claim_status_responses (sha256, file_name, content, received_at, received_by, sender_id,
              interchange_control_number, summary)
            values (${sha256}, ${fileName.slice(0, 255)}, ${text}, ${at}::timestamptz, ${ctx.user.id}::int,
              ${file.interchange.senderId}, ${file.interchange.controlNumber}, '')
            returning id`,
      );
      const responseId = Number(response?.id);
      const applied = answers.map(({ trace, answer }) => {
        const row = byTrace.get(trace)!;
        const code = answer.current.codes[0];
        return {
          inquiry: Number(row.id),
          claim: Number(row.claim_id),
          row,
          answer,
          move: moveOf(answer),
          category: code?.category ?? null,
          status: code?.code ?? null,
          entity: code?.entity ?? null,
          effective: answer.current.effectiveDate,
          payerClaim: answer.payerClaimNumber,
          charge: answer.current.chargeCents,
          paid: answer.current.paidCents,
          message: answer.message.slice(0, 2000),
          needsAction: answer.needsAction,
        };
      });
      const payload = JSON.stringify(applied.map(({ row: _row, answer: _answer, ...a }) => a));
      await tx.execute(sql`update claim_status_inquiries i set answered_at = ${at}::timestamptz,
          response_id = ${responseId}::int, category_code = x.category, status_code = x.status,
          entity_code = x.entity, effective_on = x.effective, payer_claim_number = x."payerClaim",
          charge_cents = x.charge, paid_cents = x.paid, message = x.message, needs_action = x."needsAction"
        from jsonb_to_recordset(${payload}::jsonb) as x(inquiry int, category text, status text, entity text,
          effective date, "payerClaim" text, charge int, paid int, message text, "needsAction" boolean)
        where i.id = x.inquiry`);
      // Only a claim still awaiting its payer moves; one decided or corrected meanwhile keeps its status.
      const moved = await rawRows(
        tx,
        sql`update claims c set status = x.move,
              submitted_on = case when x.move = 'Draft' then ${keptFilingDaySql} else c.submitted_on end
            from jsonb_to_recordset(${payload}::jsonb) as x(claim int, move text)
            where c.id = x.claim and c.voided_at is null and (
              (x.move = 'Accepted' and c.status = 'Submitted')
              or (x.move = 'Pending' and c.status in ('Submitted', 'Accepted'))
              or (x.move = 'Draft' and c.status in ${sql.raw(AWAITING)}))
            returning c.id, c.status`,
      );
      const movedTo = new Map(moved.map((m) => [Number(m.id), rowText(m.status) as Exclude<Move, null>]));
      // An earlier status item of the claim is moot once the payer answers again; a new one opens if it must.
      const claimKeys = await rawRows(
        tx,
        sql`select source_key from work_items where source = 'claim_status' and resolved_at is null
            and claim_id = any(${ids(applied.map((a) => a.claim))})`,
      );
      const audit: AuditInput[] = [];
      await resolveWorkItemsBySource(
        tx,
        ctx,
        'claim_status',
        claimKeys.map((k) => rowText(k.source_key)),
        'payer_answered',
        `the payer answered again (277 response ${responseId})`,
        audit,
      );
      await openWorkItems(
        tx,
        ctx,
        applied
          .filter((a) => a.needsAction)
          .map((a) => ({
            source: 'claim_status' as const,
            sourceKey: `${a.claim}/${a.answer.traceNumber}/${responseId}`,
            claimId: a.claim,
            patientId: Number(a.row.patient_id),
            accountNumber: rowText(a.row.account_number),
            payer: rowText(a.row.payer),
            category: 'other' as const,
            reason: `Claim status (277): ${a.message}`,
            dollarsAtRiskCents: Number(a.row.billed_cents),
            serviceDate: rowText(a.row.service_date),
            decidedOn: a.answer.current.adjudicatedOn,
          })),
        audit,
      );
      const counts = new Map<string, number>();
      for (const a of applied) {
        const to = movedTo.get(a.claim);
        const word = to ? MOVE_WORDS[to] : 'recorded';
        counts.set(word, (counts.get(word) ?? 0) + 1);
        audit.unshift({
          ...actorOf(ctx),
          action: 'claim.status.answer',
          resource: `claim/${a.claim}`,
          patientId: Number(a.row.patient_id),
          detail: `${rowText(a.row.account_number)}: ${a.message}${to ? `; ${MOVE_WORDS[to]}` : ''}${a.needsAction ? '; needs action' : ''}`,
        });
      }
      const needsAction = applied.filter((a) => a.needsAction).length;
      const summary =
        `${countOf(applied.length, 'claim')} answered: ` +
        [...counts.entries()].map(([word, n]) => `${n} ${word}`).join(', ') +
        (needsAction ? `; ${needsAction} to act on` : '');
      await tx.execute(sql`update claim_status_responses set summary = ${summary} where id = ${responseId}`);
      await recordMany(tx, [
        {
          ...actorOf(ctx),
          action: 'claim_status_response.apply',
          resource: `claim_status_response/${responseId}`,
          detail: `277 ${fileName.slice(0, 100)} from ${file.interchange.senderId} (ISA13 ${file.interchange.controlNumber}): ${summary}`,
        },
        ...audit,
      ]);
      return { responseId, answered: applied.length, needsAction, summary };
    });
  } catch (error) {
    // Two uploads of the same file at once: the second waits on the unique index, then fails here.
    if (uniqueViolationOf(error)?.startsWith('claim_status_responses')) {
      throw refused(409, 'DUPLICATE_RESPONSE', 'body', 'this 277 was already applied');
    }
    throw error;
  }
}
