/**
 * Applying a clearinghouse's acknowledgement to the batches and claims it answers (docs/x12-837.md): a 999
 * (ASC X12 005010X231A1) accepts or rejects a batch's transaction sets, a 277CA (ASC X12 005010X214) accepts or
 * rejects each claim. One transaction: every answer is applied and the file kept, or nothing is (an unknown
 * control number, a claim not awaiting an answer, the same file twice).
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { actorOf, recordMany, type AuditInput } from '@/features/audit/server/audit.queries';
import { openWorkItems } from '@/features/workqueue/server/workqueue.queries';
import type { WorkCategory } from '@/features/workqueue/workqueue.schema';
import { countOf } from '@/shared/plural';
import type { RequestContext } from '@/server/context';
import type { DbOrTx, Tx } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import { rawRows, rowText, uniqueViolationOf, type RawRow } from '@/server/db/sql-helpers';
import { AcknowledgementFormatError } from '@/features/x12/x12.acknowledgement';
import { readAcknowledgement } from '@/features/x12/x12.acknowledgement-file';
import type { Ack999, Ack999Group } from '@/features/x12/x12.999';
import type { Ack277CA } from '@/features/x12/x12.277ca';
import type { AcknowledgementError, AcknowledgementResult, ClaimBatchStatus } from '../submission.schema';
import { setControlNumberText } from './submission.batches.queries';

/**
 * A claim's filing day once a clearinghouse turns its sending away: an original was not filed, so it has none; a
 * replacement or void keeps its first claim's, which was (the KPIs count one filing, and timely filing runs from it).
 */
const keptFilingDaySql = sql.raw(`case when frequency_code = '1' then null else submitted_on end`);

function refused(status: number, code: string, message: string): HttpError {
  return new HttpError(status, code, `body: ${message}`, { fields: [{ field: 'body', message }] });
}

const dayOf = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : rowText(v).slice(0, 10));

interface Applied {
  summary: string;
  batches: { id: number; status: ClaimBatchStatus }[];
  accepted: number;
  rejected: number;
  noted: number;
  audit: AuditInput[];
}

// ---------------------------------------------------------------------------------------------
// 999

/** Whether the 999 accepts transaction set `st02` of the group: its own IK5, else what AK9 says of the rest. */
function setAccepted(group: Ack999Group, st02: string): boolean {
  const listed = group.sets.find((s) => s.setControlNumber === st02);
  if (listed) return listed.accepted;
  // AK9 P (partially accepted) lists the sets it rejects; the ones it does not list were accepted.
  return group.accepted || group.code === 'P';
}

async function apply999(tx: Tx, ctx: RequestContext, ack: Ack999): Promise<Applied> {
  const result: Applied = { summary: '', batches: [], accepted: 0, rejected: 0, noted: 0, audit: [] };
  const summaries: string[] = [];
  const seen = new Set<string>();
  for (const group of ack.groups) {
    if (group.functionalId !== 'HC') {
      throw refused(422, 'NOT_AN_837_ACKNOWLEDGEMENT', `AK1-01 '${group.functionalId}' acknowledges no 837 (HC) file`);
    }
    if (!/^\d{1,9}$/.test(group.groupControlNumber) || seen.has(group.groupControlNumber)) {
      throw refused(
        422,
        seen.has(group.groupControlNumber) ? 'ACKNOWLEDGEMENT_INVALID' : 'UNKNOWN_CONTROL_NUMBER',
        seen.has(group.groupControlNumber)
          ? `the 999 answers group control number ${group.groupControlNumber} twice`
          : `AK1-02 '${group.groupControlNumber}' is not a group control number this practice sent`,
      );
    }
    seen.add(group.groupControlNumber);
    const [batch] = await rawRows(
      tx,
      sql`select id, payer, first_set_control_number, set_count, acknowledged_at from claim_batches
          where group_control_number = ${Number(group.groupControlNumber)} for update`,
    );
    if (!batch) {
      throw refused(
        422,
        'UNKNOWN_CONTROL_NUMBER',
        `AK1-02 group control number ${group.groupControlNumber} matches no batch sent`,
      );
    }
    const batchId = Number(batch.id);
    if (batch.acknowledged_at !== null) {
      throw refused(
        409,
        'ALREADY_ACKNOWLEDGED',
        `batch ${batchId} (GS06 ${group.groupControlNumber}) already has its 999, applied ${dayOf(batch.acknowledged_at)}`,
      );
    }
    const first = Number(batch.first_set_control_number);
    const sets = Array.from({ length: Number(batch.set_count) }, (_, i) => setControlNumberText(first + i));
    const stranger = group.sets.find((s) => !sets.includes(s.setControlNumber));
    if (stranger) {
      throw refused(
        422,
        'UNKNOWN_CONTROL_NUMBER',
        `AK2-02 transaction set ${stranger.setControlNumber} is not in batch ${batchId} (its sets: ${sets.join(', ')})`,
      );
    }
    const rejectedSets = sets.filter((st02) => !setAccepted(group, st02));
    const status: ClaimBatchStatus =
      rejectedSets.length === 0 ? 'Accepted' : rejectedSets.length === sets.length ? 'Rejected' : 'Partially Accepted';
    const errors: AcknowledgementError[] = [...group.sets.flatMap((s) => s.errors), ...group.errors];
    await tx.execute(sql`update claim_batches set status = ${status}, acknowledged_at = ${ctx.now.toISOString()}::timestamptz,
        acknowledgement_code = ${group.code}, acknowledgement_errors = ${JSON.stringify(errors)}::jsonb
      where id = ${batchId}`);
    let rejectedClaims: RawRow[] = [];
    if (rejectedSets.length > 0) {
      // The batch's claims are locked first, in id order, as a batch and a 277CA lock them.
      await tx.execute(sql`select id from claims where id in (select claim_id from claim_batch_claims
        where batch_id = ${batchId}) order by id for update`);
      const reason = `The clearinghouse rejected the file (999 ${group.code})${errors.length ? `: ${errors.map((e) => e.message).join('; ')}` : ''}`;
      // Claims of the rejected sets not yet answered by a 277CA go back to Draft: nothing was filed.
      rejectedClaims = await rawRows(
        tx,
        sql`update claim_batch_claims bc set outcome = 'Rejected', answered_by = '999',
              answered_at = ${ctx.now.toISOString()}::timestamptz, outcome_code = ${group.code},
              outcome_message = ${reason.slice(0, 2000)}
            where bc.batch_id = ${batchId} and bc.outcome is null
              and bc.set_control_number = any(${`{${rejectedSets.join(',')}}`}::text[])
            returning bc.claim_id, bc.account_number`,
      );
      if (rejectedClaims.length > 0) {
        const claimIds = `{${rejectedClaims.map((r) => Number(r.claim_id)).join(',')}}`;
        const patients = await rawRows(
          tx,
          sql`update claims set status = 'Draft', submitted_on = ${keptFilingDaySql}
              where id = any(${claimIds}::int[]) and status = 'Submitted' returning id, patient_id`,
        );
        const patientOf = new Map(patients.map((p) => [Number(p.id), Number(p.patient_id)]));
        for (const r of rejectedClaims) {
          result.audit.push({
            ...actorOf(ctx),
            action: 'claim.reject',
            resource: `claim/${Number(r.claim_id)}`,
            patientId: patientOf.get(Number(r.claim_id)) ?? null,
            detail: `${rowText(r.account_number)} rejected with batch ${batchId} (999 ${group.code}); Draft`,
          });
        }
      }
    }
    result.rejected += rejectedClaims.length;
    result.batches.push({ id: batchId, status });
    const described =
      status === 'Accepted'
        ? `Batch ${batchId} accepted${errors.length ? ` with ${countOf(errors.length, 'note')}` : ''}`
        : `Batch ${batchId} ${status === 'Rejected' ? 'rejected' : 'partially accepted'}: ${countOf(errors.length, 'error')}, ${countOf(rejectedClaims.length, 'claim')} back to Draft`;
    summaries.push(described);
    result.audit.push({
      ...actorOf(ctx),
      action: 'claim_batch.acknowledge',
      resource: `claim_batch/${batchId}`,
      detail: `999 ${group.code} for GS06 ${group.groupControlNumber}: ${described}`,
    });
  }
  result.summary = summaries.join('; ');
  return result;
}

// ---------------------------------------------------------------------------------------------
// 277CA

/**
 * The work category of a 277CA rejection from its STC01 (category:status:entity). A rejection about the
 * subscriber or patient, or their member number (claim status code 164), is an eligibility problem; the rest
 * (provider identifiers, dates, missing data) a person reads in the reason.
 */
function rejectionCategory(code: string): WorkCategory {
  const [, status = '', entity = ''] = code.split(/[^0-9A-Za-z]/);
  return status === '164' || entity === 'IL' || entity === 'QC' ? 'eligibility' : 'other';
}

async function apply277(tx: Tx, ctx: RequestContext, ack: Ack277CA): Promise<Applied> {
  const result: Applied = { summary: '', batches: [], accepted: 0, rejected: 0, noted: 0, audit: [] };
  const twice = ack.claims.find((c, i) => ack.claims.findIndex((o) => o.accountNumber === c.accountNumber) !== i);
  if (twice) {
    throw refused(
      422,
      'ACKNOWLEDGEMENT_INVALID',
      `claim ${twice.accountNumber} is answered twice in the file (TRN at segment ${twice.position})`,
    );
  }
  const accounts = `{${ack.claims.map((c) => `"${c.accountNumber.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  // The claims first, in id order (as a batch and a 999 lock them), then each one's latest submission.
  await tx.execute(sql`select id from claims where account_number = any(${accounts}::text[]) order by id for update`);
  const rows = await rawRows(
    tx,
    sql`select distinct on (bc.claim_id) bc.account_number, bc.batch_id, bc.claim_id, bc.outcome, bc.answered_at,
          c.status, c.patient_id, c.payer, c.service_date, c.billed_cents, c.frequency_code
        from claim_batch_claims bc join claims c on c.id = bc.claim_id
        where c.account_number = any(${accounts}::text[])
        order by bc.claim_id, bc.batch_id desc`,
  );
  const byAccount = new Map(rows.map((r) => [rowText(r.account_number), r]));
  const unknown = ack.claims.filter((c) => !byAccount.has(c.accountNumber));
  if (unknown.length > 0) {
    const named = unknown
      .slice(0, 10)
      .map((c) => `'${c.accountNumber}' (segment ${c.position})`)
      .join(', ');
    throw refused(
      422,
      'UNKNOWN_CLAIM',
      `TRN02 ${named} ${unknown.length === 1 ? 'matches' : 'match'} no claim sent${unknown.length > 10 ? ` (and ${unknown.length - 10} more)` : ''}`,
    );
  }
  const answered = ack.claims.filter((c) => {
    const row = byAccount.get(c.accountNumber)!;
    return row.outcome !== null || row.status !== 'Submitted';
  });
  if (answered.length > 0) {
    const named = answered
      .slice(0, 10)
      .map((c) => {
        const row = byAccount.get(c.accountNumber)!;
        return row.outcome !== null
          ? `${c.accountNumber} was already ${rowText(row.outcome).toLowerCase()} on ${dayOf(row.answered_at)}`
          : `${c.accountNumber} is ${rowText(row.status)}`;
      })
      .join('; ');
    throw refused(
      409,
      'ALREADY_ACKNOWLEDGED',
      `${countOf(answered.length, 'claim')} not awaiting an acknowledgement: ${named}`,
    );
  }
  const at = ctx.now.toISOString();
  const answers = ack.claims.map((c) => {
    const row = byAccount.get(c.accountNumber)!;
    return {
      batchId: Number(row.batch_id),
      claimId: Number(row.claim_id),
      patientId: Number(row.patient_id),
      frequencyCode: rowText(row.frequency_code),
      ...c,
      message: c.message.slice(0, 2000),
    };
  });
  const payload = JSON.stringify(answers.filter((a) => a.answer !== 'Noted'));
  await tx.execute(sql`update claim_batch_claims bc set outcome = x.answer, answered_by = '277CA', answered_at = ${at}::timestamptz,
      outcome_code = x.code, outcome_message = x.message, payer_claim_number = x."payerClaimNumber"
    from jsonb_to_recordset(${payload}::jsonb)
      as x("batchId" int, "claimId" int, answer text, code text, message text, "payerClaimNumber" text)
    where bc.batch_id = x."batchId" and bc.claim_id = x."claimId"`);
  // Accepted into adjudication; a rejection was not filed, so the claim is Draft again and its filing day cleared
  // (a replacement's or void's is its first claim's, which was filed). A void the payer accepted voids the claim:
  // the reason and user were kept when it was asked for (voidClaimAtPayer).
  await tx.execute(sql`update claims c set status = case x.answer when 'Accepted' then 'Accepted' else 'Draft' end,
      submitted_on = case x.answer when 'Accepted' then c.submitted_on else ${keptFilingDaySql} end,
      voided_at = case when x.answer = 'Accepted' and c.frequency_code = '8' then ${at}::timestamptz else c.voided_at end
    from jsonb_to_recordset(${payload}::jsonb) as x("claimId" int, answer text)
    where c.id = x."claimId"`);
  // A voided claim of the patient's next policy bills nothing: the balance it took over is its first claim's again.
  await tx.execute(sql`update claims p set handed_on_cents = 0
    from claims c join jsonb_to_recordset(${payload}::jsonb) as x("claimId" int, answer text) on c.id = x."claimId"
    where x.answer = 'Accepted' and c.frequency_code = '8' and p.id = c.primary_claim_id`);
  const notes = JSON.stringify(answers.filter((a) => a.answer === 'Noted'));
  await tx.execute(sql`update claim_batch_claims bc set note = x.message
    from jsonb_to_recordset(${notes}::jsonb) as x("batchId" int, "claimId" int, message text)
    where bc.batch_id = x."batchId" and bc.claim_id = x."claimId"`);
  // A rejected claim was never filed: somebody must correct and resend it before timely filing runs out.
  await openWorkItems(
    tx,
    ctx,
    answers
      .filter((a) => a.answer === 'Rejected')
      .map((a) => {
        const row = byAccount.get(a.accountNumber)!;
        return {
          source: 'rejection' as const,
          sourceKey: `${a.claimId}/${ack.interchange.senderId}/${ack.interchange.controlNumber}/${a.position}`,
          claimId: a.claimId,
          patientId: a.patientId,
          accountNumber: a.accountNumber,
          payer: rowText(row.payer),
          category: rejectionCategory(a.code),
          reason: `Rejected by 277CA: ${a.message}`,
          dollarsAtRiskCents: Number(row.billed_cents),
          serviceDate: dayOf(row.service_date),
        };
      }),
  );
  for (const a of answers) {
    if (a.answer === 'Accepted') result.accepted++;
    else if (a.answer === 'Rejected') result.rejected++;
    else result.noted++;
    result.audit.push({
      ...actorOf(ctx),
      action: a.answer === 'Accepted' ? 'claim.accept' : a.answer === 'Rejected' ? 'claim.reject' : 'claim.acknowledge',
      resource: `claim/${a.claimId}`,
      patientId: a.patientId,
      detail: `${a.accountNumber} ${a.answer === 'Noted' ? 'noted' : a.answer.toLowerCase()} by 277CA: ${a.message}${a.answer === 'Rejected' ? '; Draft' : a.answer === 'Accepted' && a.frequencyCode === '8' ? '; the payer takes its void: voided' : ''}`,
    });
  }
  result.summary = [
    result.accepted ? `${countOf(result.accepted, 'claim')} accepted` : '',
    result.rejected ? `${countOf(result.rejected, 'claim')} rejected` : '',
    result.noted ? `${countOf(result.noted, 'claim')} received, awaiting the payer` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return result;
}

// ---------------------------------------------------------------------------------------------

/** `POST /api/acknowledgements`: a 999 or 277CA as text; refused whole (4xx naming the problem) or applied whole. */
export async function applyAcknowledgement(
  db: DbOrTx,
  ctx: RequestContext,
  text: string,
): Promise<AcknowledgementResult> {
  if (text.trim() === '') throw refused(400, 'VALIDATION_FAILED', 'is empty: send the 999 or 277CA file as it came');
  let ack: Ack999 | Ack277CA;
  try {
    ack = readAcknowledgement(text);
  } catch (error) {
    if (!(error instanceof AcknowledgementFormatError)) throw error;
    throw refused(error.code === 'X12_INVALID' ? 400 : 422, error.code, error.message);
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  try {
    return await db.transaction(async (tx) => {
      const [earlier] = await rawRows(
        tx,
        sql`select id, received_at from claim_acknowledgements
            where sha256 = ${sha256}
              or (kind = ${ack.kind} and sender_id = ${ack.interchange.senderId}
                  and interchange_control_number = ${ack.interchange.controlNumber})
            limit 1`,
      );
      if (earlier) throw duplicate(ack, Number(earlier.id), dayOf(earlier.received_at));
      const applied = ack.kind === '999' ? await apply999(tx, ctx, ack) : await apply277(tx, ctx, ack);
      const [row] = await rawRows(
        tx,
        sql`insert into claim_acknowledgements (kind, received_at, received_by, sha256, sender_id,
              interchange_control_number, summary, content)
            values (${ack.kind}, ${ctx.now.toISOString()}::timestamptz, ${ctx.user.id}::int, ${sha256},
              ${ack.interchange.senderId}, ${ack.interchange.controlNumber}, ${applied.summary}, ${text})
            returning id`,
      );
      const id = Number(row?.id);
      await recordMany(tx, [
        {
          ...actorOf(ctx),
          action: 'claim_acknowledgement.apply',
          resource: `claim_acknowledgement/${id}`,
          detail: `${ack.kind} from ${ack.interchange.senderId} (ISA13 ${ack.interchange.controlNumber}): ${applied.summary}`,
        },
        ...applied.audit,
      ]);
      return {
        id,
        kind: ack.kind,
        summary: applied.summary,
        batches: applied.batches,
        accepted: applied.accepted,
        rejected: applied.rejected,
        noted: applied.noted,
      };
    });
  } catch (error) {
    // Two uploads of the same file at once: the second waits on the unique index, then fails here.
    if (uniqueViolationOf(error)?.startsWith('claim_acknowledgements')) throw duplicate(ack, null, null);
    throw error;
  }
}

function duplicate(ack: Ack999 | Ack277CA, id: number | null, day: string | null): HttpError {
  return refused(
    409,
    'DUPLICATE_ACKNOWLEDGEMENT',
    `this ${ack.kind} (interchange ${ack.interchange.controlNumber} from ${ack.interchange.senderId}) was already applied${id !== null ? ` on ${day} (acknowledgement ${id})` : ''}`,
  );
}
