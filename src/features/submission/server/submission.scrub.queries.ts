/**
 * Running the scrubber (submission.scrubber.ts) on stored claims: the inputs of many claims are read in a few
 * set-wise queries, each claim's result is kept in claim_scrubs, a clean Draft becomes Ready (a Ready claim
 * that no longer scrubs clean goes back to Draft), and each scrub is audited in the same transaction.
 */
import { sql } from 'drizzle-orm';
import { actorOf, recordMany, type AuditInput } from '@/features/audit/server/audit.queries';
import { today } from '@/shared/api';
import { countOf } from '@/shared/plural';
import type { RequestContext } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import { rawRows, rowText, rowTextOrNull, type RawRow } from '@/server/db/sql-helpers';
import type { BatchScrubResult, ClaimScrubResult, ClaimStatus } from '@/features/claims/claims.schema';
import { isScrubClean, scrubClaim, type ScrubCode, type ScrubEdit, type ScrubInput } from '../submission.scrubber';
import { openWorkItems, resolveWorkItemsBySource } from '@/features/workqueue/server/workqueue.queries';
import type { WorkCategory } from '@/features/workqueue/workqueue.schema';
import { serviceLineOf } from '@/features/claims/server/claims.line-rows.queries';
import { priorAdjudications } from '@/features/coordination/server/coordination.queries';
import { eligibilityOnDays } from '@/features/coverage/server/coverage.eligibility.queries';

/**
 * The work queue's category of a hold, by the code of its first error (docs/work-queue.md): who fixes it.
 * Registration (the patient's address and birth date) goes with coverage to eligibility, the front desk's work;
 * the codes on the claim and its lines go to coding; the practice's and payers' setup to other. Every code is
 * named, warnings too (a warning never holds a claim), so a new code cannot be filed by accident.
 */
const HOLD_CATEGORY: Record<ScrubCode, WorkCategory> = {
  AUTHORIZATION_MISSING: 'authorization',
  BILLING_ZIP_PLUS_FOUR: 'other',
  COVERAGE_ENDED: 'eligibility',
  COVERAGE_MISSING: 'eligibility',
  COVERAGE_NOT_STARTED: 'eligibility',
  DIAGNOSIS_DUPLICATE: 'coding',
  DIAGNOSIS_FORMAT: 'coding',
  DIAGNOSIS_ICD10_TOO_EARLY: 'coding',
  DIAGNOSIS_ICD9: 'coding',
  DIAGNOSIS_MISSING: 'coding',
  DIAGNOSIS_NOT_BILLABLE: 'coding',
  DIAGNOSIS_TOO_MANY: 'coding',
  DUPLICATE_SERVICE: 'duplicate',
  ELIGIBILITY_INACTIVE: 'eligibility',
  LINES_MISSING: 'coding',
  LINES_TOO_MANY: 'coding',
  LINE_CHARGE_INVALID: 'coding',
  MEDICARE_SECONDARY_TYPE_MISSING: 'eligibility',
  MEMBER_ID_MISSING: 'eligibility',
  MEMBER_ID_NOT_MBI: 'eligibility',
  MODIFIER_FORMAT: 'coding',
  MODIFIER_TOO_MANY: 'coding',
  NPI_BILLING_CHECK_DIGIT: 'other',
  NPI_BILLING_FORMAT: 'other',
  NPI_BILLING_MISSING: 'other',
  NPI_RENDERING_CHECK_DIGIT: 'other',
  NPI_RENDERING_FORMAT: 'other',
  NPI_RENDERING_MISSING: 'other',
  ORIGINAL_CLAIM_NUMBER_MISSING: 'other',
  ORIGINAL_CLAIM_NUMBER_UNEXPECTED: 'other',
  PATIENT_ADDRESS_INCOMPLETE: 'eligibility',
  PATIENT_DOB_INVALID: 'eligibility',
  PAYER_ID_MISSING: 'other',
  PLACE_OF_SERVICE_FORMAT: 'coding',
  PLACE_OF_SERVICE_UNKNOWN: 'coding',
  // A line pointing at one diagnosis twice is a coding error, not a duplicate claim.
  POINTER_DUPLICATE: 'coding',
  POINTER_MISSING: 'coding',
  POINTER_OUT_OF_RANGE: 'coding',
  POINTER_TOO_MANY: 'coding',
  // The claim's lines no longer match what the earlier payer adjudicated, or that payer's posting is gone.
  PRIOR_PAYER_UNREPORTABLE: 'other',
  PROCEDURE_CODE_FORMAT: 'coding',
  SERVICE_DATE_BEFORE_BIRTH: 'other',
  SERVICE_DATE_INVALID: 'other',
  SERVICE_DATE_IN_FUTURE: 'other',
  TAX_ID_INVALID: 'other',
  TAX_ID_MISSING: 'other',
  TIMELY_FILING_EXPIRED: 'timely_filing',
  TIMELY_FILING_NEAR: 'timely_filing',
  TOTAL_CHARGE_MISMATCH: 'other',
  UNITS_INVALID: 'coding',
};

/** The category of a hold: its first error's (see HOLD_CATEGORY); other when it has none. */
export function holdCategory(edits: readonly ScrubEdit[]): WorkCategory {
  const code = edits.find((e) => e.severity === 'error')?.code;
  return code === undefined ? 'other' : HOLD_CATEGORY[code];
}

/** Only claims not yet sent are scrubbed: Draft, or Ready again after an edit elsewhere. */
const SCRUBBABLE: readonly ClaimStatus[] = ['Draft', 'Ready'];

interface ClaimToScrub {
  input: ScrubInput;
  accountNumber: string;
  status: ClaimStatus;
  patientId: number;
}

/**
 * The scrubber's input for each of these claims, locked for the caller's transaction (FOR UPDATE), in id
 * order. Voided claims are left out.
 */
export async function loadClaimsToScrub(tx: Tx, claimIds: readonly number[], day: string): Promise<ClaimToScrub[]> {
  if (claimIds.length === 0) return [];
  const ids = sql`${`{${claimIds.join(',')}}`}::int[]`;
  const headers = await rawRows(
    tx,
    sql`select c.id, c.account_number, c.status, c.patient_id, c.coverage_id, c.service_date::text as service_date,
          c.primary_claim_id, c.frequency_code, c.original_claim_number,
          c.place_of_service, c.diagnoses, c.billed_cents, p.dob::text as dob, p.address_line1, p.city, p.state,
          p.zip, pr.name as provider_name, pr.npi as provider_npi, coalesce(py.name, c.payer) as payer_name,
          py.payer_id, py.timely_filing_days,
          py.claim_filing_indicator,
          v.member_id, v.effective_on::text as effective_on, v.end_on::text as end_on, v.priority,
          v.medicare_secondary_type
        from claims c
        join patients p on p.id = c.patient_id
        join providers pr on pr.id = c.provider_id
        left join payers py on py.name = c.payer
        -- One primary-key probe per claim: as a plain join the planner hashed every coverage (a scan of the
        -- whole table, most of this query's time for a batch of 1,000 claims); OFFSET 0 keeps it a probe.
        left join lateral (select member_id, effective_on, end_on, priority, medicare_secondary_type from coverages
          where id = c.coverage_id offset 0) v
          on true
        where c.id = any(${ids}) and c.voided_at is null
        order by c.id
        for update of c`,
  );
  const lines = await rawRows(
    tx,
    sql`select claim_id, procedure_code, modifiers, units, charge_cents, diagnosis_pointers,
          service_date::text as service_date
        from claim_lines where claim_id = any(${ids}) order by claim_id, line_number`,
  );
  const [practice] = await rawRows(tx, sql`select billing_npi, tax_id, billing_zip from practice_settings limit 1`);
  const linesOf = groupBy(lines, (l) => Number(l.claim_id));
  const patientIds = [...new Set(headers.map((h) => Number(h.patient_id)))];
  const patients = sql`${`{${patientIds.join(',')}}`}::int[]`;
  // The patients' other live claims' lines on the days these claims' lines are for: the duplicate check's
  // input. Other claims are found by patient and header date (claims_patient_idx), from a month before this
  // claim's first line (a claim's lines rarely span more) to its last, then their lines on those days. Each
  // claim's patient and days come from the rows just read rather than from reading them again.
  const mine = JSON.stringify(
    headers.flatMap((h) => {
      const days = [...new Set((linesOf.get(Number(h.id)) ?? []).map((l) => rowText(l.service_date)))].sort();
      return days.length === 0 ? [] : [{ patient: Number(h.patient_id), first: days[0], last: days.at(-1), days }];
    }),
  );
  const others = await rawRows(
    tx,
    sql`with mine as (
          select * from jsonb_to_recordset(${mine}::jsonb) as m(patient int, first date, last date, days date[]))
        select distinct o.patient_id, l.claim_id, o.primary_claim_id, l.procedure_code, l.modifiers,
          l.service_date::text as service_date, l.line_number
        from mine m
        join claims o on o.patient_id = m.patient and o.service_date between m.first - 31 and m.last
          and o.voided_at is null and not (o.id = any(${ids}))
        join claim_lines l on l.claim_id = o.id and l.service_date = any(m.days)
        order by l.claim_id, l.line_number`,
  );
  const authorizations = await rawRows(
    tx,
    sql`select patient_id, procedure_code, status, valid_from::text as valid_from, valid_to::text as valid_to
        from authorizations where patient_id = any(${patients})`,
  );

  // Only the claims billed after another payer's adjudication (secondary claims) have that decision to report.
  const priors = await priorAdjudications(
    tx,
    headers.filter((h) => h.primary_claim_id !== null).map((h) => Number(h.id)),
  );
  const othersOf = groupBy(others, (o) => Number(o.patient_id));
  // The query above leaves out the claims being scrubbed; those of the same patient are each other's other
  // claims too (two Drafts of one visit entered twice, scrubbed in one batch), from the rows already read.
  const batchOf = groupBy(headers, (h) => Number(h.patient_id));
  const authorizationsOf = groupBy(authorizations, (a) => Number(a.patient_id));
  // Which claim each claim bills after (claims.primary_claim_id), as far as these rows tell: a visit billed to the
  // patient's policies one after another is a chain of such links (primary, secondary, tertiary).
  const primaryOf = new Map<number, number>();
  for (const row of [
    ...headers.map((h) => ({ id: h.id, primary: h.primary_claim_id })),
    ...others.map((o) => ({ id: o.claim_id, primary: o.primary_claim_id })),
  ]) {
    if (row.primary !== null) primaryOf.set(Number(row.id), Number(row.primary));
  }
  /** The claims billing the same visit as this one to the patient's other policies: up and down its chain. */
  const sameVisitAs = (claimId: number): Set<number> => {
    const visit = new Set([claimId]);
    for (let at = primaryOf.get(claimId); at !== undefined && !visit.has(at); at = primaryOf.get(at)) visit.add(at);
    for (let grew = true; grew;) {
      grew = false;
      for (const [claim, primary] of primaryOf) {
        if (visit.has(primary) && !visit.has(claim)) {
          visit.add(claim);
          grew = true;
        }
      }
    }
    return visit;
  };
  // What the latest answered eligibility check of each claim's policy said of its service date (one statement).
  const eligibility = await eligibilityOnDays(
    tx,
    headers
      .filter((h) => h.coverage_id !== null && h.coverage_id !== undefined)
      .map((h) => ({ coverageId: Number(h.coverage_id), serviceDate: rowText(h.service_date) })),
  );
  return headers.map((h) => {
    const claimId = Number(h.id);
    const patientId = Number(h.patient_id);
    const indicator = rowText(h.claim_filing_indicator);
    const checked = eligibility.get(`${Number(h.coverage_id)}|${rowText(h.service_date)}`) ?? null;
    // The same visit billed to the patient's other policies (the claim it bills after, those billed after it) is
    // not a duplicate of this claim: their lines are these lines by design.
    const visit = primaryOf.size === 0 ? null : sameVisitAs(claimId);
    const notSameVisit = (id: number) => id !== claimId && !visit?.has(id);
    const otherClaims = [
      ...groupBy(
        (othersOf.get(patientId) ?? []).filter((o) => notSameVisit(Number(o.claim_id))),
        (o) => Number(o.claim_id),
      ),
      ...(batchOf.get(patientId) ?? [])
        .filter((mate) => notSameVisit(Number(mate.id)))
        .map((mate): [number, RawRow[]] => [Number(mate.id), linesOf.get(Number(mate.id)) ?? []]),
    ].map(([id, ls]) => ({
      id,
      lines: ls.map((l) => ({
        procedureCode: rowText(l.procedure_code),
        modifiers: (l.modifiers as string[] | null) ?? [],
        serviceDate: rowText(l.service_date),
      })),
    }));
    const input: ScrubInput = {
      today: day,
      claim: {
        id: claimId,
        frequencyCode: rowText(h.frequency_code) as ScrubInput['claim']['frequencyCode'],
        originalClaimNumber: rowTextOrNull(h.original_claim_number),
        placeOfService: rowText(h.place_of_service),
        diagnoses: (h.diagnoses as string[] | null) ?? [],
        totalChargeCents: Number(h.billed_cents),
        lines: (linesOf.get(claimId) ?? []).map(serviceLineOf),
      },
      patient: {
        dob: rowText(h.dob),
        address: {
          line1: rowTextOrNull(h.address_line1),
          city: rowTextOrNull(h.city),
          state: rowTextOrNull(h.state),
          zip: rowTextOrNull(h.zip),
        },
      },
      coverage:
        h.member_id === null || h.member_id === undefined
          ? null
          : {
              memberId: rowText(h.member_id),
              effectiveOn: rowText(h.effective_on),
              endOn: rowTextOrNull(h.end_on),
              priority: Number(h.priority),
              medicareSecondaryType: rowTextOrNull(h.medicare_secondary_type),
            },
      payer: {
        name: rowText(h.payer_name),
        payerId: rowTextOrNull(h.payer_id),
        // A payer the payers table does not know gets the common one-year limit.
        timelyFilingDays: h.timely_filing_days === null ? 365 : Number(h.timely_filing_days),
        selfPay: indicator === '09',
        medicare: indicator === 'MB',
      },
      billingProvider: {
        npi: rowTextOrNull(practice?.billing_npi),
        taxId: rowTextOrNull(practice?.tax_id),
        zip: rowTextOrNull(practice?.billing_zip),
      },
      renderingProvider: { name: rowText(h.provider_name), npi: rowTextOrNull(h.provider_npi) },
      otherClaims,
      eligibility: checked,
      ...(priors.has(claimId) ? { priorPayer: { problem: priors.get(claimId)?.problem ?? null } } : {}),
      authorizations: (authorizationsOf.get(patientId) ?? []).map((a) => ({
        procedureCode: rowText(a.procedure_code),
        status: rowText(a.status) as 'Pending' | 'Approved' | 'Denied',
        validFrom: rowTextOrNull(a.valid_from),
        validTo: rowTextOrNull(a.valid_to),
      })),
    };
    return { input, accountNumber: rowText(h.account_number), status: rowText(h.status) as ClaimStatus, patientId };
  });
}

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Where a scrub leaves the claim: Ready when nothing blocks it (warnings accepted with a reason), else Draft. */
function statusAfter(edits: readonly ScrubEdit[], overrideReason: string | null): ClaimStatus {
  if (!isScrubClean(edits)) return 'Draft';
  const warned = edits.some((e) => e.severity === 'warning');
  return warned && overrideReason === null ? 'Draft' : 'Ready';
}

function describeScrub(edits: readonly ScrubEdit[], status: ClaimStatus, overrideReason: string | null): string {
  const errors = edits.filter((e) => e.severity === 'error');
  const warnings = edits.filter((e) => e.severity === 'warning');
  const found =
    edits.length === 0
      ? 'clean'
      : `${[
          errors.length ? countOf(errors.length, 'error') : '',
          warnings.length ? countOf(warnings.length, 'warning') : '',
        ]
          .filter(Boolean)
          .join(', ')} (${[...new Set(edits.map((e) => e.code))].join(', ')})`;
  const accepted = overrideReason !== null && warnings.length > 0 ? `; warnings accepted: ${overrideReason}` : '';
  return `scrubbed: ${found}${accepted}; ${status}`;
}

/** Scrubs the claims (already locked by loadClaimsToScrub), keeps each result, moves statuses, audits each. */
export async function scrubLoaded(
  tx: Tx,
  ctx: RequestContext,
  loaded: readonly ClaimToScrub[],
  overrideReason: string | null,
): Promise<ClaimScrubResult[]> {
  if (loaded.length === 0) return [];
  const scrubbedAt = ctx.now.toISOString();
  const results = loaded.map((claim) => {
    const edits = scrubClaim(claim.input);
    const clean = isScrubClean(edits);
    const status = statusAfter(edits, overrideReason);
    const accepted = overrideReason !== null && clean && edits.some((e) => e.severity === 'warning');
    return { claim, edits, clean, status, overrideReason: accepted ? overrideReason : null };
  });
  const payload = JSON.stringify(
    results.map((r) => ({
      claimId: r.claim.input.claim.id,
      clean: r.clean,
      edits: r.edits,
      overrideReason: r.overrideReason,
      status: r.status,
    })),
  );
  // One statement keeps every result and moves the claims. Only a claim whose status or first-scrub fact
  // changes is written: every write of a claims row is a new row version in each of its many indexes (the
  // status is indexed, so it cannot be a heap-only update), and a re-scrub of held claims changes nothing.
  // The first scrub's outcome is kept, and is the claim's clean-submission fact the Clean Claim Rate counts
  // once the claim is submitted (docs/kpis.md); later scrubs change neither.
  await tx.execute(sql`with x as materialized (
      select * from jsonb_to_recordset(${payload}::jsonb)
        as x("claimId" int, clean boolean, edits jsonb, "overrideReason" text, status text)
    ), kept as (
      insert into claim_scrubs (claim_id, scrubbed_at, scrubbed_by, clean, edits, override_reason)
      select x."claimId", ${scrubbedAt}::timestamptz, ${ctx.user.id}::int, x.clean, x.edits, x."overrideReason" from x
    )
    update claims c set status = x.status, first_scrub_clean = coalesce(c.first_scrub_clean, x.clean),
      clean_submission = case when c.first_scrub_clean is null then x.clean else c.clean_submission end
    from x
    where c.id = x."claimId" and (c.status <> x.status or c.first_scrub_clean is null)`);
  const audit: AuditInput[] = results.map((r) => ({
    ...actorOf(ctx),
    action: 'claim.scrub',
    resource: `claim/${r.claim.input.claim.id}`,
    patientId: r.claim.patientId,
    detail: `${r.claim.accountNumber} ${describeScrub(r.edits, r.status, r.overrideReason)}`,
  }));
  // A claim the scrub holds for errors needs a person: one open work item per held claim. Their entries
  // follow the scrubs' in the trail, all appended in one go below.
  await openWorkItems(
    tx,
    ctx,
    results
      .filter((r) => !r.clean)
      .map((r) => ({
        source: 'scrubber' as const,
        sourceKey: `claim/${r.claim.input.claim.id}`,
        claimId: r.claim.input.claim.id,
        patientId: r.claim.patientId,
        accountNumber: r.claim.accountNumber,
        payer: r.claim.input.payer.name,
        category: holdCategory(r.edits),
        reason: `Held by the scrubber: ${r.edits
          .filter((e) => e.severity === 'error')
          .map((e) => e.message)
          .join('; ')}`,
        dollarsAtRiskCents: r.claim.input.claim.totalChargeCents,
        serviceDate: r.claim.input.claim.lines.map((l) => l.serviceDate).sort()[0] ?? null,
      })),
    audit,
  );
  // A claim that scrubs clean again closes its hold.
  await resolveWorkItemsBySource(
    tx,
    ctx,
    'scrubber',
    results.filter((r) => r.clean).map((r) => `claim/${r.claim.input.claim.id}`),
    'corrected_resubmitted',
    'The claim scrubs clean',
    audit,
  );
  await recordMany(tx, audit);
  return results.map((r) => ({
    claimId: r.claim.input.claim.id,
    accountNumber: r.claim.accountNumber,
    clean: r.clean,
    status: r.status,
    edits: r.edits,
    overrideReason: r.overrideReason,
    scrubbedAt,
  }));
}

/** `POST /api/claims/:id/scrub`. */
export async function scrubOneClaim(
  db: Db,
  ctx: RequestContext,
  claimId: number,
  overrideReason: string | null,
): Promise<ClaimScrubResult> {
  return db.transaction(async (tx) => {
    const [claim] = await loadClaimsToScrub(tx, [claimId], today(ctx.now));
    if (!claim) throw new HttpError(404, 'NOT_FOUND', 'No such claim.');
    if (!SCRUBBABLE.includes(claim.status)) {
      throw new HttpError(
        409,
        'NOT_SCRUBBABLE',
        `status: a ${claim.status} claim has been sent; only Draft and Ready claims are scrubbed`,
        { fields: [{ field: 'status', message: `is ${claim.status}, not Draft or Ready` }] },
      );
    }
    const [result] = await scrubLoaded(tx, ctx, [claim], overrideReason);
    if (!result) throw new Error('scrub returned nothing');
    return result;
  });
}

/**
 * Scrubs again, in the caller's transaction, the patient's Draft claims the scrubber holds (an open scrubber
 * work item): called when the patient's billing details or coverage change, so that a hold the front desk has
 * just fixed closes and its claim goes Ready without waiting for the next scrub. A Draft never scrubbed is left
 * alone: its first scrub, which the Clean Claim Rate counts, stays the billing staff's.
 */
export async function rescrubHeldClaimsOf(tx: Tx, ctx: RequestContext, patientId: number): Promise<void> {
  const held = await rawRows(
    tx,
    sql`select c.id from claims c
        where c.patient_id = ${patientId} and c.status = 'Draft' and c.voided_at is null
          and exists (select 1 from work_items w where w.source = 'scrubber' and w.claim_id = c.id
                        and w.resolved_at is null)
        order by c.id`,
  );
  if (held.length === 0) return;
  const loaded = await loadClaimsToScrub(
    tx,
    held.map((h) => Number(h.id)),
    today(ctx.now),
  );
  await scrubLoaded(tx, ctx, loaded, null);
}

/** `POST /api/claims/scrub`: every Draft claim (not voided), in one transaction. */
export async function scrubDraftClaims(db: Db, ctx: RequestContext): Promise<BatchScrubResult> {
  return db.transaction(async (tx) => {
    const drafts = await rawRows(
      tx,
      sql`select id from claims where status = 'Draft' and voided_at is null order by id`,
    );
    const loaded = await loadClaimsToScrub(
      tx,
      drafts.map((d) => Number(d.id)),
      today(ctx.now),
    );
    const results = await scrubLoaded(tx, ctx, loaded, null);
    const ready = results.filter((r) => r.status === 'Ready').length;
    return { scrubbed: results.length, ready, held: results.length - ready, results };
  });
}
