/**
 * Claim batches (docs/x12-837.md): Ready claims sent to a payer as one ASC X12 837P (005010X222A1) file. Creating
 * a batch reads its claims set-wise (a few queries whatever their number), takes the next control numbers, keeps
 * each claim as written, marks the claims Submitted and audits it all in one transaction; the file is written
 * again from what was kept, byte for byte, whenever it is downloaded.
 */
import { sql } from 'drizzle-orm';
import { actorOf, recordMany, recordNow, type AuditInput } from '@/features/audit/server/audit.queries';
import { priorityLabel, type SubscriberRelationship } from '@/features/coverage/coverage.schema';
import type { PatientSex } from '@/features/patients/patients.schema';
import { X12Error } from '@/features/x12/x12.parse';
import { formatDollars } from '@/shared/api';
import { dayInZone, timeInZone } from '@/shared/practice-zone';
import { countOf } from '@/shared/plural';
import type { RequestContext } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import { HttpError, invalidField } from '@/server/plugins/errors';
import { rawRows, rowText, rowTextOrNull, type RawRow } from '@/server/db/sql-helpers';
import { serviceLineOf } from '@/features/claims/server/claims.line-rows.queries';
import { priorAdjudications } from '@/features/coordination/server/coordination.queries';
import {
  build837,
  claimsPerSet,
  firstUnwritableClaim,
  sendsInsuranceTypeCode,
  setCountFor,
  splitPersonName,
  type Batch837,
  type Claim837,
  type Envelope837,
  type Payer837,
} from '@/features/x12/x12.837p';
import {
  batchFileName,
  claimBatchSchema,
  type AcknowledgementError,
  type ClaimBatch,
  type ClaimBatchDetail,
  type CreatedClaimBatches,
  type NewClaimBatch,
  type ReadyPayer,
} from '../submission.schema';

/** CLM01 holds at most 20 characters (005010X222A1); the 277CA answers by it. */
const MAX_PATIENT_CONTROL_NUMBER = 20;
/** A refusal lists this many of its claims at most, and counts the rest. */
const PROBLEMS_SHOWN = 10;

/** The text of a set control number (ST02, at least 4 characters). */
export function setControlNumberText(n: number): string {
  return String(n).padStart(4, '0');
}

const ids = (values: readonly number[]) => sql`${`{${values.join(',')}}`}::int[]`;

// ---------------------------------------------------------------------------------------------
// Reading

const BATCH_COLUMNS = sql`b.id, b.payer, b.status, b.created_at, b.interchange_control_number,
  b.group_control_number, b.claim_count, b.total_cents, b.acknowledged_at, b.acknowledgement_code,
  b.acknowledgement_errors, b.envelope -> 'payer' ->> 'payerId' as payer_id, u.name as created_by_name,
  (select count(*) from claim_batch_claims bc where bc.batch_id = b.id and bc.outcome = 'Accepted')::int as accepted,
  (select count(*) from claim_batch_claims bc where bc.batch_id = b.id and bc.outcome = 'Rejected')::int as rejected`;

const isoOf = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : rowTextOrNull(v));

function batchOf(row: RawRow): ClaimBatch {
  const id = Number(row.id);
  const interchange = Number(row.interchange_control_number);
  return claimBatchSchema.parse({
    id,
    payer: rowText(row.payer),
    payerId: rowText(row.payer_id),
    status: rowText(row.status),
    claimCount: Number(row.claim_count),
    totalCents: Number(row.total_cents),
    createdAt: isoOf(row.created_at),
    createdBy: rowTextOrNull(row.created_by_name),
    interchangeControlNumber: interchange,
    groupControlNumber: Number(row.group_control_number),
    fileName: batchFileName(id, interchange),
    acknowledgedAt: isoOf(row.acknowledged_at),
    acknowledgementCode: rowTextOrNull(row.acknowledgement_code),
    errors: (row.acknowledgement_errors as AcknowledgementError[] | null) ?? [],
    acceptedClaims: Number(row.accepted),
    rejectedClaims: Number(row.rejected),
  });
}

/** `GET /api/claim-batches`: the newest batches first. */
export async function listClaimBatches(db: Db, limit: number): Promise<ClaimBatch[]> {
  const rows = await rawRows(
    db,
    sql`select ${BATCH_COLUMNS} from claim_batches b left join users u on u.id = b.created_by
        order by b.created_at desc, b.id desc limit ${limit}`,
  );
  return rows.map(batchOf);
}

async function batchesByIds(db: Db | Tx, batchIds: readonly number[]): Promise<ClaimBatch[]> {
  if (batchIds.length === 0) return [];
  const rows = await rawRows(
    db,
    sql`select ${BATCH_COLUMNS} from claim_batches b left join users u on u.id = b.created_by
        where b.id = any(${ids(batchIds)}) order by b.id`,
  );
  return rows.map(batchOf);
}

/** `GET /api/claim-batches/ready`: the payers with Ready claims waiting, and how many and how much. */
export async function listReadyPayers(db: Db): Promise<ReadyPayer[]> {
  const rows = await rawRows(
    db,
    sql`select c.payer, py.payer_id, count(*)::int as claims, coalesce(sum(c.billed_cents), 0)::bigint as total
        from claims c left join payers py on py.name = c.payer
        where c.status = 'Ready' and c.voided_at is null
        group by c.payer, py.payer_id order by c.payer`,
  );
  return rows.map((r) => ({
    payer: rowText(r.payer),
    payerId: rowTextOrNull(r.payer_id),
    claims: Number(r.claims),
    totalCents: Number(r.total),
  }));
}

/** `GET /api/claim-batches/:id`: the batch and its claims in file order; a PHI read (patients' names), audited. */
export async function getClaimBatchDetail(db: Db, ctx: RequestContext, batchId: number): Promise<ClaimBatchDetail> {
  const [batch] = await batchesByIds(db, [batchId]);
  if (!batch) throw new HttpError(404, 'NOT_FOUND', 'No such claim batch.');
  const rows = await rawRows(
    db,
    sql`select bc.claim_id, bc.account_number, bc.billed_cents, bc.outcome, bc.answered_by, bc.outcome_code,
          bc.outcome_message, bc.note, c.status, p.name as patient
        from claim_batch_claims bc join claims c on c.id = bc.claim_id join patients p on p.id = c.patient_id
        where bc.batch_id = ${batchId} order by bc.position`,
  );
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'claim_batch.view',
    resource: `claim_batch/${batchId}`,
    detail: `opened batch ${batchId} (${countOf(rows.length, 'claim')} to ${batch.payer})`,
  });
  return {
    ...batch,
    claims: rows.map((r) => ({
      claimId: Number(r.claim_id),
      accountNumber: rowText(r.account_number),
      patient: rowText(r.patient),
      billedCents: Number(r.billed_cents),
      status: rowText(r.status),
      outcome: rowTextOrNull(r.outcome) as 'Accepted' | 'Rejected' | null,
      answeredBy: rowTextOrNull(r.answered_by),
      code: rowTextOrNull(r.outcome_code),
      message: rowTextOrNull(r.outcome_message) ?? rowTextOrNull(r.note),
    })),
  };
}

/** What a batch's envelope column keeps: everything of the file but its claims. */
type StoredEnvelope = Omit<Batch837, 'claims'>;

/**
 * The batch's 837P, written again from what was kept when it was created (its envelope and each claim as sent),
 * so it is the same bytes every time. Reads the claims in one query. No audit: see claimBatch837Download.
 */
export async function claimBatch837Text(db: Db | Tx, batchId: number): Promise<string | null> {
  const [batch] = await rawRows(db, sql`select envelope from claim_batches where id = ${batchId}`);
  if (!batch) return null;
  const claims = await rawRows(
    db,
    sql`select sent from claim_batch_claims where batch_id = ${batchId} order by position`,
  );
  const stored = batch.envelope as StoredEnvelope;
  return build837({ ...stored, claims: claims.map((c) => c.sent as Claim837) });
}

/** `GET /api/claim-batches/:id/837`: the file and its name; an export of PHI, audited. */
export async function claimBatch837Download(
  db: Db,
  ctx: RequestContext,
  batchId: number,
): Promise<{ fileName: string; text: string }> {
  const [batch] = await batchesByIds(db, [batchId]);
  const text = batch ? await claimBatch837Text(db, batchId) : null;
  if (!batch || text === null) throw new HttpError(404, 'NOT_FOUND', 'No such claim batch.');
  await recordNow(db, {
    ...actorOf(ctx),
    action: 'claim_batch.837.export',
    resource: `claim_batch/${batchId}`,
    detail: `downloaded ${batch.fileName}: ${countOf(batch.claimCount, 'claim')} to ${batch.payer}`,
  });
  return { fileName: batch.fileName, text };
}

/**
 * The clearinghouse mailbox's outbound source of 837P files (docs/clearinghouse.md): batches created at or after
 * `since` and not mailed yet, oldest first, each with its file as the download gives it. `fileName` is
 * `837P_<ISA13>_<yyyymmddhhmm of its creation in the practice's zone>.x12`: digits only, so safe as a remote name,
 * and the same on every attempt, so a put that was cut off is recognised on the next one.
 */
export async function pendingClaimBatches(
  db: Db | Tx,
  since: Date,
): Promise<{ sourceId: number; fileName: string; text: string }[]> {
  const rows = await rawRows(
    db,
    sql`select id, interchange_control_number, created_at from claim_batches
        where mailed_at is null and created_at >= ${since.toISOString()}::timestamptz
        order by created_at, id`,
  );
  const pending: { sourceId: number; fileName: string; text: string }[] = [];
  for (const row of rows) {
    const id = Number(row.id);
    const text = await claimBatch837Text(db, id);
    if (text === null) continue;
    const created = row.created_at instanceof Date ? row.created_at : new Date(rowText(row.created_at));
    const stamp = `${dayInZone(created).replaceAll('-', '')}${timeInZone(created).slice(0, 5).replace(':', '')}`;
    const control = String(Number(row.interchange_control_number)).padStart(9, '0');
    pending.push({ sourceId: id, fileName: `837P_${control}_${stamp}.x12`, text });
  }
  return pending;
}

/** The batch's file is in the clearinghouse's outbound folder (the mailbox's put succeeded); in its transaction. */
export async function markClaimBatchMailed(tx: Tx, batchId: number, at: Date): Promise<void> {
  await tx.execute(
    sql`update claim_batches set mailed_at = ${at.toISOString()}::timestamptz where id = ${batchId} and mailed_at is null`,
  );
}

// ---------------------------------------------------------------------------------------------
// Creating

interface Practice {
  envelope: Omit<Envelope837, 'interchangeControlNumber' | 'groupControlNumber' | 'setControlNumbers' | 'reference'>;
  billingProvider: Batch837['billingProvider'];
}

/**
 * The practice as submitter and billing provider, and its clearinghouse as receiver. Anything missing is a 409
 * naming the setting, since no file could be sent without it.
 */
async function loadPractice(tx: Tx, ctx: RequestContext): Promise<Practice> {
  const [row] = await rawRows(
    tx,
    sql`select billing_name, billing_npi, tax_id, taxonomy_code, billing_address_line1, billing_city, billing_state,
          billing_zip, phone, edi_submitter_id, edi_receiver_name, edi_receiver_id, edi_usage
        from practice_settings order by practice_id limit 1`,
  );
  const text = (key: string) => rowText(row?.[key]).trim();
  const missing: { field: string; message: string }[] = [];
  const need = (key: string, field: string, what: string) => {
    if (!text(key)) missing.push({ field, message: `is not set: ${what}` });
  };
  need('billing_name', 'billingName', "the billing provider's legal name (loop 2010AA)");
  need('billing_npi', 'billingNpi', "the billing provider's NPI (loop 2010AA)");
  need('tax_id', 'taxId', "the billing provider's EIN (REF*EI)");
  need('taxonomy_code', 'taxonomyCode', "the billing provider's taxonomy (PRV*BI)");
  need('billing_address_line1', 'billingAddressLine1', "the billing provider's street (N3)");
  need('billing_city', 'billingCity', "the billing provider's city (N4)");
  need('billing_state', 'billingState', "the billing provider's state (N4)");
  if (!/^\d{9}$/.test(text('billing_zip'))) {
    missing.push({
      field: 'billingZip',
      message: "must be the 9-digit ZIP+4 of the billing provider's address (837P loop 2010AA N403)",
    });
  }
  need('edi_receiver_name', 'ediReceiverName', "the clearinghouse's name (loop 1000B)");
  need('edi_receiver_id', 'ediReceiverId', "the clearinghouse's id (ISA08, GS03, loop 1000B)");
  const phone = text('phone').replace(/\D/g, '');
  if (phone.length !== 10) {
    missing.push({ field: 'phone', message: "must be the practice's 10-digit phone number (loop 1000A PER04)" });
  }
  if (missing.length > 0) {
    throw new HttpError(
      409,
      'PRACTICE_NOT_READY_TO_SEND',
      `The practice's billing settings are incomplete: ${missing.map((m) => `${m.field} ${m.message}`).join('; ')}.`,
      { fields: missing },
    );
  }
  const submitterId = text('edi_submitter_id') || text('tax_id');
  return {
    envelope: {
      date: dayInZone(ctx.now).replaceAll('-', ''),
      time: timeInZone(ctx.now).replace(':', ''),
      usage: text('edi_usage') === 'P' ? 'P' : 'T',
      submitter: {
        name: text('billing_name'),
        id: submitterId,
        qualifier: text('edi_submitter_id') ? 'ZZ' : '30',
        contactName: ctx.user.name,
        contactPhone: phone,
      },
      receiver: { name: text('edi_receiver_name'), id: text('edi_receiver_id'), qualifier: 'ZZ' },
    },
    billingProvider: {
      name: text('billing_name'),
      npi: text('billing_npi'),
      taxId: text('tax_id'),
      taxonomyCode: text('taxonomy_code'),
      address: {
        line1: text('billing_address_line1'),
        city: text('billing_city'),
        state: text('billing_state'),
        zip: text('billing_zip'),
      },
    },
  };
}

interface LoadedClaim {
  id: number;
  patientId: number;
  payer: Payer837;
  billedCents: number;
  claim: Claim837;
}

/** Why a claim cannot go in an 837P, in words, or null. */
function problemOf(h: RawRow, lineCount: number): string | null {
  const account = rowText(h.account_number);
  if (account.length > MAX_PATIENT_CONTROL_NUMBER) {
    return `its account number is longer than the ${MAX_PATIENT_CONTROL_NUMBER} characters of CLM01`;
  }
  if (h.coverage_id === null) return 'it bills no coverage (self-pay claims are not sent to a payer)';
  if (!rowText(h.payer_id)) return `its payer ${rowText(h.payer)} has no electronic payer id (Settings → Payers)`;
  if (rowText(h.claim_filing_indicator) === '09') return `its payer ${rowText(h.payer)} is self-pay`;
  if (![h.address_line1, h.city, h.state, h.zip].every((v) => rowText(v).trim() !== '')) {
    return "the patient's address is incomplete (street, city, state and ZIP: loops 2010BA/2010CA N3/N4)";
  }
  if (!rowText(h.provider_npi)) return `the rendering provider ${rowText(h.provider_name)} has no NPI`;
  if (lineCount === 0) return 'it has no service lines';
  if (((h.diagnoses as string[] | null) ?? []).length === 0) return 'it has no diagnosis';
  return medicareSecondaryProblem(h, 'its policy');
}

/**
 * Medicare refuses a claim that bills it, or reports it, as a payer that is not primary without the reason it
 * pays second (SBR05; the coverage's "Why Medicare pays second").
 */
function medicareSecondaryProblem(policy: RawRow, which: string): string | null {
  const priority = Number(policy.priority);
  return sendsInsuranceTypeCode(priority, rowText(policy.claim_filing_indicator)) &&
    policy.medicare_secondary_type === null
    ? `${which} with Medicare as ${priorityLabel(priority).toLowerCase()} payer does not say why Medicare pays second (SBR05: the coverage's "Why Medicare pays second")`
    : null;
}

/**
 * The 837P input of each claim, read set-wise: headers with patient, provider, coverage and payer; lines; and the
 * patients' other policies in force on each claim's service date. Claims that cannot be written are refused
 * together, each with its reason.
 */
async function loadClaims837(tx: Tx, claimIds: readonly number[], field: string): Promise<LoadedClaim[]> {
  const headers = await rawRows(
    tx,
    sql`select c.id, c.patient_id, c.account_number, c.payer, c.billed_cents, c.frequency_code,
          c.original_claim_number, c.place_of_service, c.diagnoses, c.coverage_id,
          c.referring_provider_name, c.referring_provider_npi,
          p.name as patient_name, p.dob::text as dob, p.sex, p.address_line1, p.city, p.state, p.zip,
          pr.name as provider_name, pr.npi as provider_npi, pr.taxonomy_code as provider_taxonomy,
          v.priority, v.member_id, v.group_number, v.relationship, v.subscriber_name, v.medicare_secondary_type,
          py.payer_id, py.claim_filing_indicator
        from claims c
        join patients p on p.id = c.patient_id
        join providers pr on pr.id = c.provider_id
        -- A primary-key probe per claim (OFFSET 0 keeps it one): as a plain join the planner may hash every
        -- coverage for a large batch (37 -> 19 ms for 1,000 claims at 1M).
        left join lateral (select priority, member_id, group_number, relationship, subscriber_name,
            medicare_secondary_type from coverages
          where id = c.coverage_id offset 0) v on true
        left join payers py on py.name = c.payer
        where c.id = any(${ids(claimIds)})
        order by c.id`,
  );
  // Each line's prior authorization number (REF*G1): an approved authorization of the patient for the line's
  // procedure, in force on its service date, as the scrubber's authorization edit finds one; the claim's payer's
  // first, then the latest decided.
  const lines = await rawRows(
    tx,
    sql`select l.claim_id, l.procedure_code, l.modifiers, l.units, l.charge_cents, l.diagnosis_pointers,
          l.service_date::text as service_date, l.line_control_number, pa.auth_number
        from claim_lines l
        join claims c on c.id = l.claim_id
        left join lateral (select a.auth_number from authorizations a
          where a.patient_id = c.patient_id and a.procedure_code = l.procedure_code and a.status = 'Approved'
            and a.auth_number is not null and (a.valid_from is null or a.valid_from <= l.service_date)
            and (a.valid_to is null or l.service_date <= a.valid_to)
          order by (a.payer = c.payer) desc, a.decided_on desc nulls last, a.id desc limit 1) pa on true
        where l.claim_id = any(${ids(claimIds)}) order by l.claim_id, l.line_number`,
  );
  const others = await rawRows(
    tx,
    sql`select c.id as claim_id, o.id as coverage_id, o.priority, o.member_id, o.group_number, o.relationship,
          o.subscriber_name, o.medicare_secondary_type,
          o.payer, py.payer_id, py.claim_filing_indicator, p.name as patient_name
        from claims c
        join patients p on p.id = c.patient_id
        join coverages o on o.patient_id = c.patient_id and o.id <> c.coverage_id
          and o.effective_on <= c.service_date and (o.end_on is null or o.end_on >= c.service_date)
        join payers py on py.name = o.payer and py.claim_filing_indicator <> '09'
        where c.id = any(${ids(claimIds)}) and c.coverage_id is not null
        order by c.id, o.priority, o.id`,
  );
  // A claim billed after another payer's adjudication (a secondary claim) reports it (loops 2320 and 2430).
  const priors = await priorAdjudications(tx, claimIds);
  const linesOf = groupBy(lines, (l) => Number(l.claim_id));
  const othersOf = groupBy(others, (o) => Number(o.claim_id));
  const problems: string[] = [];
  const loaded: LoadedClaim[] = [];
  for (const h of headers) {
    const id = Number(h.id);
    const claimLines = linesOf.get(id) ?? [];
    const prior = priors.get(id);
    const priorCoverageIn = (othersOf.get(id) ?? []).some((o) => Number(o.coverage_id) === prior?.coverageId);
    const problem =
      problemOf(h, claimLines.length) ??
      prior?.problem ??
      (prior && !priorCoverageIn
        ? `${prior.primaryPayer}'s policy, which ${prior.primaryAccountNumber} billed, is not in force on the ` +
          "service date: loop 2320 cannot report that payer's adjudication"
        : null);
    const otherCoverages = (othersOf.get(id) ?? []).map((o) => {
      if (!rowText(o.payer_id) && !problem) {
        problems.push(
          `${rowText(h.account_number)}: the patient's other policy with ${rowText(o.payer)} has no electronic payer id (loop 2330B)`,
        );
      }
      const otherProblem = problem
        ? null
        : medicareSecondaryProblem(o, `the patient's other policy with ${rowText(o.payer)}`);
      if (otherProblem) problems.push(`${rowText(h.account_number)}: ${otherProblem}`);
      const relationship = rowText(o.relationship) as SubscriberRelationship;
      return {
        priority: Number(o.priority),
        medicareSecondaryType: rowTextOrNull(o.medicare_secondary_type),
        memberId: rowText(o.member_id),
        groupNumber: rowTextOrNull(o.group_number),
        relationship,
        subscriber: splitPersonName(relationship === 'self' ? rowText(o.patient_name) : rowText(o.subscriber_name)),
        payer: {
          name: rowText(o.payer),
          payerId: rowText(o.payer_id),
          claimFilingIndicator: rowText(o.claim_filing_indicator),
        },
        adjudication: prior && Number(o.coverage_id) === prior.coverageId ? prior.adjudication : null,
      };
    });
    if (problem) {
      problems.push(`${rowText(h.account_number)}: ${problem}`);
      continue;
    }
    const relationship = rowText(h.relationship) as SubscriberRelationship;
    loaded.push({
      id,
      patientId: Number(h.patient_id),
      payer: {
        name: rowText(h.payer),
        payerId: rowText(h.payer_id),
        claimFilingIndicator: rowText(h.claim_filing_indicator),
      },
      billedCents: Number(h.billed_cents),
      claim: {
        accountNumber: rowText(h.account_number),
        frequencyCode: rowText(h.frequency_code),
        originalClaimNumber: rowTextOrNull(h.original_claim_number),
        placeOfService: rowText(h.place_of_service),
        diagnoses: (h.diagnoses as string[] | null) ?? [],
        lines: claimLines.map((l) => ({
          ...serviceLineOf(l),
          lineControlNumber: rowText(l.line_control_number),
          priorAuthorizationNumber: rowTextOrNull(l.auth_number),
        })),
        patient: {
          name: splitPersonName(rowText(h.patient_name)),
          dob: rowText(h.dob),
          // The column allows only these (patients_sex_check).
          sex: (rowText(h.sex) || 'U') as PatientSex,
          address: {
            line1: rowText(h.address_line1),
            city: rowText(h.city),
            state: rowText(h.state),
            zip: rowText(h.zip),
          },
        },
        coverage: {
          priority: Number(h.priority),
          medicareSecondaryType: rowTextOrNull(h.medicare_secondary_type),
          memberId: rowText(h.member_id),
          groupNumber: rowTextOrNull(h.group_number),
          relationship,
          subscriber: relationship === 'self' ? null : splitPersonName(rowText(h.subscriber_name)),
        },
        referringProvider:
          h.referring_provider_npi === null
            ? null
            : {
                name: splitPersonName(rowText(h.referring_provider_name)),
                npi: rowText(h.referring_provider_npi),
              },
        renderingProvider: {
          name: splitPersonName(rowText(h.provider_name)),
          npi: rowText(h.provider_npi),
          taxonomyCode: rowTextOrNull(h.provider_taxonomy),
        },
        otherCoverages,
      },
    });
  }
  if (problems.length > 0) throw notSendable(field, problems);
  return loaded;
}

function notSendable(field: string, problems: readonly string[]): HttpError {
  const shown = problems.slice(0, PROBLEMS_SHOWN);
  const more = problems.length > shown.length ? `; and ${countOf(problems.length - shown.length, 'more claim')}` : '';
  const message = `${countOf(problems.length, 'claim')} cannot be sent: ${shown.join('; ')}${more}`;
  return new HttpError(409, 'CLAIMS_NOT_SENDABLE', `${field}: ${message}`, { fields: [{ field, message }] });
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

/**
 * The claims to send, locked for this transaction (FOR UPDATE, in id order so two batches never deadlock):
 * every Ready claim of the payer, or the chosen ones, which must all be Ready.
 */
async function claimsToSend(tx: Tx, body: NewClaimBatch): Promise<{ ids: number[]; field: string }> {
  if (body.payer !== undefined) {
    const [payer] = await rawRows(
      tx,
      sql`select name, payer_id, claim_filing_indicator from payers where lower(name) = lower(${body.payer})`,
    );
    if (!payer) throw invalidField('payer', 'is not a payer of the practice');
    const name = rowText(payer.name);
    if (rowText(payer.claim_filing_indicator) === '09') {
      throw new HttpError(409, 'PAYER_NOT_ELECTRONIC', `payer: ${name} claims are billed to the patient, not sent`, {
        fields: [{ field: 'payer', message: `${name} claims are billed to the patient, not sent` }],
      });
    }
    if (!rowText(payer.payer_id)) {
      const message = `${name} has no electronic payer id yet (Settings → Payers)`;
      throw new HttpError(409, 'PAYER_NOT_ELECTRONIC', `payer: ${message}`, { fields: [{ field: 'payer', message }] });
    }
    const rows = await rawRows(
      tx,
      sql`select id from claims where status = 'Ready' and voided_at is null and payer = ${name}
          order by id for update`,
    );
    if (rows.length === 0) {
      const message = `${name} has no Ready claims to send`;
      throw new HttpError(409, 'NOTHING_TO_SEND', `payer: ${message}`, { fields: [{ field: 'payer', message }] });
    }
    return { ids: rows.map((r) => Number(r.id)), field: 'payer' };
  }
  const wanted = [...(body.claimIds ?? [])].sort((a, b) => a - b);
  const rows = await rawRows(
    tx,
    sql`select id, account_number, status, voided_at from claims where id = any(${ids(wanted)}) order by id for update`,
  );
  const found = new Set(rows.map((r) => Number(r.id)));
  const unknown = wanted.filter((id) => !found.has(id));
  if (unknown.length > 0) {
    throw invalidField(
      'claimIds',
      `${unknown.slice(0, PROBLEMS_SHOWN).join(', ')} ${unknown.length === 1 ? 'is not a claim' : 'are not claims'}`,
    );
  }
  const notReady = rows.filter((r) => r.status !== 'Ready' || r.voided_at !== null);
  if (notReady.length > 0) {
    throw notSendable(
      'claimIds',
      notReady.map(
        (r) => `${rowText(r.account_number)}: it is ${r.voided_at !== null ? 'Voided' : rowText(r.status)}, not Ready`,
      ),
    );
  }
  return { ids: wanted, field: 'claimIds' };
}

/**
 * The next control numbers for a batch of `sets` transaction sets: one ISA13, one GS06 and `sets` ST02s. The
 * counter rows are locked in a fixed order (FOR UPDATE) and updated in this transaction, so a concurrent batch
 * waits for this one to commit and then takes the numbers after; a rollback leaves no gap.
 */
export async function nextControlNumbers(tx: Tx, sets: number): Promise<{ isa: number; gs: number; firstSt: number }> {
  await tx.execute(sql`select name from x12_control_numbers order by name for update`);
  const rows = await rawRows(
    tx,
    sql`update x12_control_numbers set last_value = last_value + case name when 'ST' then ${sets}::int else 1 end
        where name in ('ISA', 'GS', 'ST') returning name, last_value`,
  );
  const value = (name: string) => Number(rows.find((r) => r.name === name)?.last_value);
  const isa = value('ISA');
  const gs = value('GS');
  const lastSt = value('ST');
  if (!isa || !gs || !lastSt) throw new Error('the X12 control number counters are missing (migration 0033)');
  return { isa, gs, firstSt: lastSt - sets + 1 };
}

/** One payer's batch: control numbers, the file checked by writing it, the rows kept, the claims Submitted. */
async function createBatch(
  tx: Tx,
  ctx: RequestContext,
  practice: Practice,
  payer: Payer837,
  claims: readonly LoadedClaim[],
  field: string,
): Promise<{ batchId: number; audit: AuditInput[] }> {
  const setCount = setCountFor(claims.length);
  const numbers = await nextControlNumbers(tx, setCount);
  const setControlNumbers = Array.from({ length: setCount }, (_, i) => setControlNumberText(numbers.firstSt + i));
  const stored: StoredEnvelope = {
    envelope: {
      ...practice.envelope,
      interchangeControlNumber: numbers.isa,
      groupControlNumber: numbers.gs,
      setControlNumbers,
      reference: String(numbers.isa),
    },
    billingProvider: practice.billingProvider,
    payer,
  };
  const batch: Batch837 = { ...stored, claims: claims.map((c) => c.claim) };
  // Written once now (a claim's value or an envelope id the X12 writer refuses stops the batch here, named),
  // and again from the kept rows on each download.
  const unwritable = firstUnwritableClaim(batch);
  if (unwritable) throw notSendable(field, [`${unwritable.accountNumber}: ${unwritable.problem}`]);
  try {
    build837({
      ...batch,
      claims: batch.claims.slice(0, 1),
      envelope: { ...stored.envelope, setControlNumbers: setControlNumbers.slice(0, 1) },
    });
  } catch (error) {
    if (!(error instanceof X12Error)) throw error;
    throw new HttpError(409, 'PRACTICE_NOT_READY_TO_SEND', `The 837P envelope cannot be written: ${error.message}.`);
  }
  const total = claims.reduce((sum, c) => sum + c.billedCents, 0);
  const [row] = await rawRows(
    tx,
    sql`insert into claim_batches (payer, status, created_at, created_by, interchange_control_number,
          group_control_number, first_set_control_number, set_count, claim_count, total_cents, envelope)
        values (${payer.name}, 'Submitted', ${ctx.now.toISOString()}::timestamptz, ${ctx.user.id}::int, ${numbers.isa},
          ${numbers.gs}, ${numbers.firstSt}, ${setCount}, ${claims.length}, ${total}, ${JSON.stringify(stored)}::jsonb)
        returning id`,
  );
  const batchId = Number(row?.id);
  const perSet = claimsPerSet(claims);
  const kept = perSet.flatMap((setClaims, s) =>
    setClaims.map((c) => ({
      claimId: c.id,
      setControlNumber: setControlNumbers[s],
      accountNumber: c.claim.accountNumber,
      billedCents: c.billedCents,
      sent: c.claim,
    })),
  );
  // In chunks: one statement per 2,000 claims keeps each parameter a few megabytes.
  for (let start = 0; start < kept.length; start += 2000) {
    const chunk = kept.slice(start, start + 2000).map((k, i) => ({ ...k, position: start + i + 1 }));
    await tx.execute(sql`insert into claim_batch_claims (batch_id, claim_id, position, set_control_number,
        account_number, billed_cents, sent)
      select ${batchId}::int, x."claimId", x.position, x."setControlNumber", x."accountNumber", x."billedCents", x.sent
      from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb)
        as x("claimId" int, position int, "setControlNumber" text, "accountNumber" text, "billedCents" int, sent jsonb)`);
  }
  // Submitted now: the timely-filing clock runs from this day (docs/claims.md). A replacement or void of a claim the
  // payer has keeps the day the claim was first filed: it is a correction of that filing, not a new one (the KPIs'
  // submitted cohort and billing cycle time count the claim once, when it was filed).
  const day = dayInZone(ctx.now);
  await tx.execute(sql`update claims set status = 'Submitted',
      submitted_on = case when frequency_code <> '1' and submitted_on is not null then submitted_on else ${day}::date end
    where id = any(${ids(claims.map((c) => c.id))})`);
  const audit: AuditInput[] = [
    {
      ...actorOf(ctx),
      action: 'claim_batch.create',
      resource: `claim_batch/${batchId}`,
      detail: `${countOf(claims.length, 'claim')}, ${formatDollars(total)}, to ${payer.name} (payer id ${payer.payerId}); ISA13 ${numbers.isa}, GS06 ${numbers.gs}`,
    },
    ...claims.map((c) => ({
      ...actorOf(ctx),
      action: 'claim.submit',
      resource: `claim/${c.id}`,
      patientId: c.patientId,
      detail: `${c.claim.accountNumber} sent to ${payer.name} in batch ${batchId}; Submitted`,
    })),
  ];
  return { batchId, audit };
}

/**
 * `POST /api/claim-batches`: one batch per payer of the claims to send, in one transaction: every batch is made
 * and every claim Submitted, or nothing is.
 */
export async function createClaimBatches(
  db: Db,
  ctx: RequestContext,
  body: NewClaimBatch,
): Promise<CreatedClaimBatches> {
  const batchIds = await db.transaction(async (tx) => {
    const { ids: claimIds, field } = await claimsToSend(tx, body);
    const practice = await loadPractice(tx, ctx);
    const loaded = await loadClaims837(tx, claimIds, field);
    const byPayer = new Map<string, LoadedClaim[]>();
    for (const claim of loaded) {
      const group = byPayer.get(claim.payer.name);
      if (group) group.push(claim);
      else byPayer.set(claim.payer.name, [claim]);
    }
    const made: number[] = [];
    const audit: AuditInput[] = [];
    for (const name of [...byPayer.keys()].sort()) {
      const claims = byPayer.get(name) ?? [];
      const result = await createBatch(tx, ctx, practice, claims[0]!.payer, claims, field);
      made.push(result.batchId);
      audit.push(...result.audit);
    }
    await recordMany(tx, audit);
    return made;
  });
  return { batches: await batchesByIds(db, batchIds) };
}
