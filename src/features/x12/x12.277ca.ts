/**
 * Reading the 277CA claim acknowledgment (ASC X12 005010X214), which accepts or rejects each claim of an 837P at
 * the clearinghouse's or the payer's front end, before adjudication. Not the 277 claim status response
 * (005010X212), which answers a 276 (x12.276-277.ts). Pure: segments in, plain data out (docs/x12-837.md).
 */
import { components, elementOf, type X12Delimiters, type X12Segment } from './x12.parse';
import { AcknowledgementFormatError, type AckInterchange } from './x12.acknowledgement';

/** STC01-1 categories of a claim acknowledgement, in our words. */
const CATEGORIES: Readonly<Record<string, string>> = {
  A0: 'Forwarded to another entity',
  A1: 'Received',
  A2: 'Accepted into adjudication',
  A3: 'Returned as unprocessable',
  A4: 'Not found',
  A5: 'Accepted as split claims',
  A6: 'Rejected for missing information',
  A7: 'Rejected for invalid information',
  A8: 'Rejected for a relational field in error',
  E0: 'Response not possible: error in the submitted data',
  E1: 'Response not possible: system status',
  E2: 'Response not possible: the payer is not responding',
  E3: 'Correction required: relational fields in error',
  E4: 'Trading partner agreement requirement not met',
};
const ACCEPTED_CATEGORIES = new Set(['A2', 'A5']);
/** Received or forwarded: not yet accepted or rejected, the claim still awaits the payer's own answer. */
const NOTED_CATEGORIES = new Set(['A0', 'A1']);

/** A few claim status codes (STC01-2) that front-end rejections commonly carry, in our words. */
const STATUS_CODES: Readonly<Record<string, string>> = {
  '19': 'entity acknowledges receipt of the claim',
  '20': 'accepted for processing',
  '21': 'missing or invalid information',
  '145': "entity's specialty or taxonomy code",
  '164': "entity's contract or member number",
  '187': 'date(s) of service',
  '562': "entity's National Provider Identifier (NPI)",
};

/** STC01-3 entity codes a claim acknowledgement names. */
const ENTITIES: Readonly<Record<string, string>> = {
  '40': 'receiver',
  '41': 'submitter',
  '82': 'rendering provider',
  '85': 'billing provider',
  IL: 'subscriber',
  PR: 'payer',
  QC: 'patient',
};

export type ClaimAnswer = 'Accepted' | 'Rejected' | 'Noted';

export interface Ack277Claim {
  /** TRN02 of loop 2200D: the CLM01 sent. */
  accountNumber: string;
  answer: ClaimAnswer;
  /** STC01 of the deciding status, as sent ('A7:562:85'). */
  code: string;
  /** The status in words, with STC12's free text when sent. */
  message: string;
  /** REF*1K: the payer's claim control number, for a later replacement or void. */
  payerClaimNumber: string | null;
  /** Segment position of the TRN, for error messages. */
  position: number;
}

export interface Ack277CA {
  kind: '277CA';
  interchange: AckInterchange;
  claims: Ack277Claim[];
}

interface Status {
  category: string;
  code: string;
  message: string;
}

function statusOf(stc: X12Segment, delimiters: X12Delimiters, where: string): Status {
  const composite = elementOf(stc, 1);
  const [category = '', status = '', entity = ''] = components(composite, delimiters);
  if (!CATEGORIES[category]) {
    throw new AcknowledgementFormatError(
      'ACKNOWLEDGEMENT_INVALID',
      `${where}: STC01-1 '${category}' at segment ${stc.position} is not a claim acknowledgement category (A0–A8, E0–E4)`,
    );
  }
  const parts = [CATEGORIES[category]];
  const statusText = STATUS_CODES[status] ?? (status ? `status code ${status}` : '');
  const entityText = ENTITIES[entity] ?? (entity ? `entity ${entity}` : '');
  if (statusText) parts.push(`${statusText}${entityText ? ` (${entityText})` : ''}`);
  const freeText = elementOf(stc, 12).trim();
  return {
    category,
    code: composite,
    message: `${composite} ${parts.join(': ')}${freeText ? ` — ${freeText}` : ''}`,
  };
}

function claimOf(trn: X12Segment, body: readonly X12Segment[], delimiters: X12Delimiters, where: string): Ack277Claim {
  const accountNumber = elementOf(trn, 2);
  if (!accountNumber) {
    throw new AcknowledgementFormatError(
      'ACKNOWLEDGEMENT_INVALID',
      `${where}: TRN at segment ${trn.position} has no TRN02 (the patient control number)`,
    );
  }
  const statuses: Status[] = [];
  let payerClaimNumber: string | null = null;
  for (const segment of body) {
    // Service line statuses (loop 2220D, after SVC) do not decide the claim's.
    if (segment.id === 'SVC') break;
    if (segment.id === 'STC') statuses.push(statusOf(segment, delimiters, where));
    if (segment.id === 'REF' && elementOf(segment, 1) === '1K') payerClaimNumber = elementOf(segment, 2) || null;
  }
  if (statuses.length === 0) {
    throw new AcknowledgementFormatError(
      'ACKNOWLEDGEMENT_INVALID',
      `${where}: claim ${accountNumber} (TRN at segment ${trn.position}) has no STC (claim level status, loop 2200D)`,
    );
  }
  const rejections = statuses.filter((s) => !ACCEPTED_CATEGORIES.has(s.category) && !NOTED_CATEGORIES.has(s.category));
  const acceptance = statuses.find((s) => ACCEPTED_CATEGORIES.has(s.category));
  const deciding = rejections.length > 0 ? rejections : acceptance ? [acceptance] : [statuses[0]!];
  return {
    accountNumber,
    answer: rejections.length > 0 ? 'Rejected' : acceptance ? 'Accepted' : 'Noted',
    code: deciding.map((s) => s.code).join(', '),
    message: deciding.map((s) => s.message).join('; '),
    payerClaimNumber,
    position: trn.position,
  };
}

/**
 * The claims of one 277CA transaction set: each patient level (HL03 'PT', loop 2000D) with its TRN (2200D) and
 * claim-level STC segments. Levels above it (source, receiver, provider) report on the batch as a whole.
 */
export function read277Set(segments: readonly X12Segment[], delimiters: X12Delimiters, where: string): Ack277Claim[] {
  const claims: Ack277Claim[] = [];
  let level = '';
  let trn: X12Segment | null = null;
  let body: X12Segment[] = [];
  const close = () => {
    if (level === 'PT') {
      if (!trn)
        throw new AcknowledgementFormatError(
          'ACKNOWLEDGEMENT_INVALID',
          `${where}: a patient level (HL…PT) has no TRN (loop 2200D)`,
        );
      claims.push(claimOf(trn, body, delimiters, where));
    }
    trn = null;
    body = [];
  };
  for (const segment of segments) {
    if (segment.id === 'HL') {
      close();
      level = elementOf(segment, 3);
    } else if (level === 'PT' && segment.id === 'TRN' && trn === null) {
      trn = segment;
    } else if (level === 'PT' && segment.id === 'TRN') {
      // A second claim under the same patient level (loop 2200D repeats).
      const previous: X12Segment = trn!;
      claims.push(claimOf(previous, body, delimiters, where));
      trn = segment;
      body = [];
    } else if (trn) {
      body.push(segment);
    }
  }
  close();
  return claims;
}
