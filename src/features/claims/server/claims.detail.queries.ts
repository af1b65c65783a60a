/**
 * One claim as the claim view shows it: header, the coverage billed, diagnoses, service lines, the latest
 * scrub and the claim's history (its life-cycle dates, every scrub, appeals and other audited changes).
 * Opening it is an audited PHI read.
 */
import { sql, type SQL } from 'drizzle-orm';
import { describeAuditAction } from '@/features/audit/audit.actions';
import { actorOf, recordNow } from '@/features/audit/server/audit.queries';
import { maskMemberId, maskText } from '@/shared/access';
import { formatDollars } from '@/shared/api';
import type { RequestContext } from '@/server/context';
import type { Db } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import { executePrepared } from '@/server/db/prepared';
import { rowText, rowTextOrNull, type RawRow } from '@/server/db/sql-helpers';
import { claimRowStatusSchema, scrubEditSchema, type ClaimDetail, type ClaimHistoryEvent } from '../claims.schema';
import { procedureDescription } from '../claims.procedures';
import { claimOpenBalanceSql } from './claims.formulas';
import { nextPolicyOf } from './claims.next-policy.queries';
import { eligibilityBriefOf } from '@/features/coverage/server/coverage.eligibility.queries';

async function preparedRows(db: Db, statement: SQL): Promise<RawRow[]> {
  return (await executePrepared<RawRow>(db, statement)).rows;
}

/** A timestamp read as text (`::text`, PostgreSQL's own output), as the driver's prepared reads give it. */
const isoOf = (v: unknown): string => rowText(v);

/** Audited actions on a claim that the history shows from the trail (scrubs and appeals have their own rows). */
/**
 * The audited changes the claim's history shows beside its scrubs, appeals and sendings (each kept in its own
 * table): edits, voids, write-offs, corrections, remittances posted and a first payer's decision followed. A
 * partial index serves exactly these (audit_log_claim_changes_idx, audit.table.ts): an action added here is added
 * there by a migration, or the history reads every such entry of the trail.
 */
export const CLAIM_HISTORY_ACTIONS = [
  'claim.void',
  'claim.update',
  'claim.create',
  'claim.appeal.outcome',
  'claim.write_off',
  'claim.correct',
  'claim.void_at_payer',
  'claim.remittance.post',
  'claim.next_policy.follow',
  'claim.status.request',
  'claim.status.answer',
] as const;

/** In the statement's text, not a parameter: only then can a generic plan use the partial index. */
const CLAIM_HISTORY_WHERE = sql.raw(`action in (${CLAIM_HISTORY_ACTIONS.map((a) => `'${a}'`).join(', ')})`);

export async function getClaimDetail(db: Db, ctx: RequestContext, id: number): Promise<ClaimDetail> {
  // The header and the five lists it shows with it in ONE statement, each list a JSON array: a claim opened was
  // six reads (docs/performance.md, "Fewer statements per request"). Prepared (docs/performance.md, "Planning
  // the hot reads once"): planning the header took ~2 ms against ~0.1 to run it. Columns are named, never
  // `claims.*`, so a column added by a migration while this server runs only makes PostgreSQL replan. The
  // claims table is not aliased: the balance formula (claims.formulas.ts) names it. Times come as
  // PostgreSQL's text (`::text`), as the separate reads gave them.
  const [read] = await preparedRows(
    db,
    sql`select
      (select row_to_json(h) from (select claims.id, claims.patient_id, claims.provider_id, claims.coverage_id,
          claims.account_number, claims.payer, claims.status, claims.reason_code, claims.denial_description,
          claims.denied_on_first_adjudication, claims.diagnoses, claims.frequency_code, claims.original_claim_number,
          claims.referring_provider_name, claims.referring_provider_npi,
          claims.place_of_service, claims.billed_cents, claims.paid_cents, claims.contractual_adjustment_cents,
          claims.patient_responsibility_cents, claims.handed_on_cents, claims.prior_payers_cents,
          claims.created_at::text as created_at,
          claims.voided_at is not null as voided,
          claims.service_date::text as service_day, claims.submitted_on::text as submitted_day,
          claims.adjudicated_on::text as adjudicated_day, claims.resolved_on::text as resolved_day,
          p.name as patient_name, p.mrn, p.dob::text as dob, pr.name as provider_name, pr.npi as provider_npi,
          ${claimOpenBalanceSql()} as balance,
          v.payer as coverage_payer, v.priority, v.member_id, v.group_number, v.relationship, v.subscriber_name,
          v.effective_on::text as effective_on, v.end_on::text as end_on,
          (select row_to_json(e) from (select k.status, k.summary, k.answered_at from eligibility_checks k
            where k.coverage_id = claims.coverage_id and k.service_date = claims.service_date
            order by k.requested_at desc, k.id desc limit 1) e) as eligibility
        from claims
        join patients p on p.id = claims.patient_id
        join providers pr on pr.id = claims.provider_id
        left join coverages v on v.id = claims.coverage_id
        where claims.id = ${id}) h) as claim,
      (select coalesce(json_agg(l order by l.line_number), '[]') from (select line_number, procedure_code,
          modifiers, units, charge_cents, diagnosis_pointers, service_date::text as service_date, line_control_number
        from claim_lines where claim_id = ${id}) l) as lines,
      (select coalesce(json_agg(s order by s.id), '[]') from (select s.id, s.scrubbed_at::text as scrubbed_at,
          s.clean, s.edits, s.override_reason, u.name as by
        from claim_scrubs s left join users u on u.id = s.scrubbed_by where s.claim_id = ${id}) s) as scrubs,
      (select coalesce(json_agg(a order by a.id), '[]') from (select a.id, a.created_at::text as created_at,
          a.level, a.reason, a.outcome, a.outcome_amount_cents, a.decided_on::text as decided_on, u.name as by
        from claim_appeals a left join users u on u.id = a.created_by where a.claim_id = ${id}) a) as appeals,
      (select coalesce(json_agg(c order by c.id), '[]') from (select id, occurred_at::text as occurred_at,
          action, detail, actor
        from audit_log
        where resource = ${`claim/${id}`} and ${CLAIM_HISTORY_WHERE}) c) as changes,
      (select coalesce(json_agg(b order by b.batch_id), '[]') from (select bc.batch_id,
          b.created_at::text as created_at, b.payer, bc.outcome, bc.answered_by,
          bc.answered_at::text as answered_at, bc.outcome_code, bc.outcome_message, bc.payer_claim_number,
          bc.note
        from claim_batch_claims bc join claim_batches b on b.id = bc.batch_id where bc.claim_id = ${id}) b)
        as submissions`,
  );
  const claim = read?.claim as RawRow | null | undefined;
  if (!claim) throw new HttpError(404, 'NOT_FOUND', 'No such claim.');
  const patientId = Number(claim.patient_id);
  const lines = read?.lines as RawRow[];
  const scrubs = read?.scrubs as RawRow[];
  const appeals = read?.appeals as RawRow[];
  const changes = read?.changes as RawRow[];
  const submissions = read?.submissions as RawRow[];
  const related = await nextPolicyOf(db, id);
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'claim.view',
    resource: `claim/${id}`,
    detail: `opened claim ${rowText(claim.account_number)}`,
    patientId,
  });

  const role = ctx.user.role;
  const editsOf = (v: unknown) => scrubEditSchema.array().parse(v ?? []);
  const history: ClaimHistoryEvent[] = [];
  const lifecycle = (at: unknown, title: string, detail = '') => {
    if (typeof at === 'string' && at !== '')
      history.push({ at, kind: 'lifecycle', title, detail, by: null, edits: [] });
  };
  lifecycle(isoOf(claim.created_at), 'Claim created', `${lines.length} line${lines.length === 1 ? '' : 's'}`);
  // A claim sent in a batch shows each sending and its answer (below) instead of the one submission day.
  if (submissions.length === 0) lifecycle(claim.submitted_day, 'Submitted to the payer', rowText(claim.payer));
  for (const s of submissions) {
    history.push({
      at: isoOf(s.created_at),
      kind: 'submission',
      title: `Sent in batch ${Number(s.batch_id)}`,
      detail: `837P to ${rowText(s.payer)}`,
      by: null,
      edits: [],
    });
    if (s.outcome !== null) {
      history.push({
        at: isoOf(s.answered_at),
        kind: 'submission',
        title: `${s.outcome === 'Accepted' ? 'Accepted' : 'Rejected'} (${rowText(s.answered_by)})`,
        detail: rowText(s.outcome_message),
        by: null,
        edits: [],
      });
    }
  }
  const deniedFirst = claim.denied_on_first_adjudication === true;
  lifecycle(
    claim.adjudicated_day,
    deniedFirst ? 'Denied by the payer' : 'Adjudicated by the payer',
    deniedFirst
      ? `${rowText(claim.reason_code)} ${rowText(claim.denial_description)}`.trim()
      : `paid ${formatDollars(Number(claim.paid_cents))}`,
  );
  lifecycle(claim.resolved_day, 'Resolved', `balance settled; ${rowText(claim.status)}`);
  for (const s of scrubs) {
    const edits = editsOf(s.edits);
    const errors = edits.filter((e) => e.severity === 'error').length;
    const warnings = edits.length - errors;
    history.push({
      at: isoOf(s.scrubbed_at),
      kind: 'scrub',
      title: s.clean === true ? 'Scrubbed clean' : 'Scrub found errors',
      detail:
        edits.length === 0
          ? 'no findings'
          : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}` +
            (typeof s.override_reason === 'string' ? `; warnings accepted: ${s.override_reason}` : ''),
      by: rowTextOrNull(s.by),
      edits,
    });
  }
  for (const a of appeals) {
    history.push({
      at: isoOf(a.created_at),
      kind: 'appeal',
      title: `Appeal filed (${rowText(a.level)} level)`,
      detail: rowText(a.reason),
      by: rowTextOrNull(a.by),
      edits: [],
    });
    if (typeof a.decided_on === 'string') {
      history.push({
        at: a.decided_on,
        kind: 'appeal',
        title: `Appeal ${rowText(a.outcome)}`,
        detail: `paid ${formatDollars(Number(a.outcome_amount_cents ?? 0))}`,
        by: null,
        edits: [],
      });
    }
  }
  for (const c of changes) {
    history.push({
      at: isoOf(c.occurred_at),
      kind: 'change',
      title: describeAuditAction(rowText(c.action)),
      detail: rowText(c.detail),
      by: rowText(c.actor),
      edits: [],
    });
  }
  history.sort((a, b) => a.at.localeCompare(b.at));
  const lastScrub = scrubs.at(-1);

  return {
    id,
    accountNumber: rowText(claim.account_number),
    status: claimRowStatusSchema.parse(claim.voided === true ? 'Voided' : claim.status),
    patient: {
      id: patientId,
      name: rowText(claim.patient_name),
      mrn: maskText('mrn', rowText(claim.mrn), role),
      dob: maskText('dob', rowText(claim.dob), role),
    },
    provider: {
      id: Number(claim.provider_id),
      name: rowText(claim.provider_name),
      npi: rowTextOrNull(claim.provider_npi),
    },
    payer: rowText(claim.payer),
    coverage:
      claim.coverage_payer === null
        ? null
        : {
            id: Number(claim.coverage_id),
            payer: rowText(claim.coverage_payer),
            priority: Number(claim.priority),
            memberId: maskMemberId(rowText(claim.member_id), role),
            groupNumber: rowTextOrNull(claim.group_number),
            relationship: rowText(claim.relationship),
            subscriberName: rowTextOrNull(claim.subscriber_name),
            effectiveOn: rowText(claim.effective_on),
            endOn: rowTextOrNull(claim.end_on),
            // The latest eligibility check (X12 271) of the policy for the claim's service date.
            eligibility: eligibilityBriefOf(
              { coverage_id: claim.coverage_id, ...((claim.eligibility as RawRow | null) ?? { status: null }) },
              rowText(claim.service_day),
            ),
          },
    placeOfService: rowText(claim.place_of_service),
    frequencyCode: rowText(claim.frequency_code),
    originalClaimNumber: rowTextOrNull(claim.original_claim_number),
    referringProvider:
      claim.referring_provider_npi === null
        ? null
        : { name: rowText(claim.referring_provider_name), npi: rowText(claim.referring_provider_npi) },
    serviceDate: rowText(claim.service_day),
    submittedOn: rowTextOrNull(claim.submitted_day),
    adjudicatedOn: rowTextOrNull(claim.adjudicated_day),
    resolvedOn: rowTextOrNull(claim.resolved_day),
    billedCents: Number(claim.billed_cents),
    paidCents: Number(claim.paid_cents),
    contractualAdjustmentCents: Number(claim.contractual_adjustment_cents),
    patientResponsibilityCents: Number(claim.patient_responsibility_cents),
    balanceCents: Number(claim.balance),
    handedOnCents: Number(claim.handed_on_cents),
    priorPayersCents: Number(claim.prior_payers_cents),
    reason: rowTextOrNull(claim.reason_code),
    denialDescription: rowTextOrNull(claim.denial_description),
    diagnoses: (claim.diagnoses as string[] | null) ?? [],
    lines: lines.map((l) => ({
      lineNumber: Number(l.line_number),
      procedureCode: rowText(l.procedure_code),
      description: procedureDescription(rowText(l.procedure_code)),
      modifiers: (l.modifiers as string[] | null) ?? [],
      units: Number(l.units),
      chargeCents: Number(l.charge_cents),
      diagnosisPointers: ((l.diagnosis_pointers as number[] | null) ?? []).map(Number),
      serviceDate: rowText(l.service_date),
      lineControlNumber: rowText(l.line_control_number),
    })),
    lastScrub: lastScrub
      ? { at: isoOf(lastScrub.scrubbed_at), clean: lastScrub.clean === true, edits: editsOf(lastScrub.edits) }
      : null,
    submissions: submissions.map((s) => ({
      batchId: Number(s.batch_id),
      sentAt: isoOf(s.created_at),
      payer: rowText(s.payer),
      outcome: s.outcome === 'Accepted' || s.outcome === 'Rejected' ? s.outcome : null,
      answeredBy: rowTextOrNull(s.answered_by),
      answeredAt: s.answered_at === null ? null : isoOf(s.answered_at),
      code: rowTextOrNull(s.outcome_code),
      message: rowTextOrNull(s.outcome_message),
      payerClaimNumber: rowTextOrNull(s.payer_claim_number),
      note: rowTextOrNull(s.note),
    })),
    history,
    ...related,
  };
}
