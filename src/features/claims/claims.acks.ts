/**
 * Reading the acknowledgements a clearinghouse sends back for an 837P batch: the 999 implementation
 * acknowledgment (ASC X12 005010X231A1), which accepts or rejects each transaction set of the file, and the 277CA
 * claim acknowledgment (ASC X12 005010X214), which accepts or rejects each claim. Pure: text in, plain data out;
 * the database layer (server/claims.acks.queries.ts) matches it to batches and claims. docs/x12-837.md.
 */
import {
  components,
  elementOf,
  parseX12,
  transactionSetsOf,
  X12Error,
  type X12Delimiters,
  type X12Document,
  type X12Segment,
} from '@/features/x12/x12.parse';
import type { AcknowledgementError } from './claims.batches.schema';

/** A file that is X12 but not an acknowledgement this product reads, or one that breaks the guide's structure. */
export class AcknowledgementFormatError extends Error {
  override readonly name = 'AcknowledgementFormatError';
  constructor(
    readonly code: 'X12_INVALID' | 'NOT_AN_ACKNOWLEDGEMENT' | 'ACKNOWLEDGEMENT_INVALID',
    message: string,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------
// 999 (005010X231A1)

/** IK5-01 and AK9-01: the acknowledgement code of a transaction set or a group. */
const ACK_CODES: Readonly<Record<string, string>> = {
  A: 'accepted',
  E: 'accepted with errors noted',
  P: 'partially accepted: at least one transaction set rejected',
  R: 'rejected',
  M: 'rejected: message authentication code failed',
  W: 'rejected: failed validity tests',
  X: 'rejected: content could not be analysed after decryption',
};
/** Codes under which what was acknowledged was taken in (the rest reject it). */
const ACCEPTING = new Set(['A', 'E']);

/** IK3-04: why a segment is in error. */
const SEGMENT_ERRORS: Readonly<Record<string, string>> = {
  '1': 'unrecognised segment id',
  '2': 'unexpected segment',
  '3': 'required segment missing',
  '4': 'loop occurs more often than allowed',
  '5': 'segment used more often than allowed',
  '6': 'segment not in the transaction set',
  '7': 'segment not in its proper sequence',
  '8': 'segment has data element errors',
  I4: 'segment the implementation guide does not use is present',
  I6: 'segment the implementation guide requires here is missing',
  I7: 'loop occurs fewer times than the implementation guide requires',
  I8: 'segment used fewer times than the implementation guide requires',
  I9: 'segment the implementation guide does not use in this situation is present',
};

/** IK4-03: why a data element is in error. */
const ELEMENT_ERRORS: Readonly<Record<string, string>> = {
  '1': 'required data element missing',
  '2': 'conditionally required data element missing',
  '3': 'too many data elements',
  '4': 'data element too short',
  '5': 'data element too long',
  '6': 'invalid character in data element',
  '7': 'invalid code value',
  '8': 'invalid date',
  '9': 'invalid time',
  '10': 'exclusion condition violated',
  '12': 'too many repetitions',
  '13': 'too many components',
  I6: 'code value the implementation guide does not use',
  I9: 'data element the implementation guide requires in this situation is missing',
  I10: 'data element the implementation guide does not use is present',
  I11: 'too few repetitions for the implementation guide',
  I12: 'value does not match the pattern the implementation guide requires',
  I13: 'data element the implementation guide does not use in this situation is present',
};

/** IK5-02…06: why a transaction set is in error. */
const SET_ERRORS: Readonly<Record<string, string>> = {
  '1': 'transaction set not supported',
  '2': 'transaction set trailer missing',
  '3': 'control numbers in the header and trailer differ',
  '4': 'number of included segments differs from the count',
  '5': 'one or more segments in error',
  '6': 'missing or invalid transaction set identifier',
  '7': 'missing or invalid transaction set control number',
  '23': 'transaction set control number not unique within the group',
  I5: 'one or more segments in error under the implementation guide',
  I6: 'implementation guide not supported',
};

/** AK9-05…09: why a functional group is in error. */
const GROUP_ERRORS: Readonly<Record<string, string>> = {
  '1': 'functional group not supported',
  '2': 'functional group version not supported',
  '3': 'functional group trailer missing',
  '4': 'group control numbers in the header and trailer differ',
  '5': 'number of included transaction sets differs from the count',
  '6': 'group control number violates syntax',
  '19': 'group control number not unique within the interchange',
};

function described(table: Readonly<Record<string, string>>, code: string): string {
  return table[code] ?? `error code ${code}`;
}

export interface Ack999Set {
  /** AK2-02: the ST02 of the set acknowledged. */
  setControlNumber: string;
  /** IK5-01. */
  code: string;
  accepted: boolean;
  errors: AcknowledgementError[];
}

export interface Ack999Group {
  /** AK1-01: the GS01 acknowledged ('HC' for an 837). */
  functionalId: string;
  /** AK1-02: the GS06 acknowledged. */
  groupControlNumber: string;
  /** AK9-01. */
  code: string;
  accepted: boolean;
  sets: Ack999Set[];
  /** AK9 group errors, and the IK5 notes of sets the 999 lists. */
  errors: AcknowledgementError[];
}

/** The interchange an acknowledgement came in (ISA06, ISA13 of the first): with the kind, what makes it the same one. */
export interface AckInterchange {
  senderId: string;
  controlNumber: string;
}

export interface Ack999 {
  kind: '999';
  interchange: AckInterchange;
  groups: Ack999Group[];
}

function elementName(segmentId: string, position: string, delimiters: X12Delimiters): string {
  const [element = '', component = ''] = components(position, delimiters);
  const n = element.padStart(2, '0');
  return `${segmentId}${n}${component ? `-${component}` : ''}`;
}

function read999Set(segments: readonly X12Segment[], delimiters: X12Delimiters, where: string): Ack999Group {
  const ak1 = segments[0];
  if (!ak1 || ak1.id !== 'AK1') {
    throw new AcknowledgementFormatError(
      'ACKNOWLEDGEMENT_INVALID',
      `${where}: a 999 starts with AK1 (segment ${ak1?.position ?? '?'})`,
    );
  }
  const group: Ack999Group = {
    functionalId: elementOf(ak1, 1),
    groupControlNumber: elementOf(ak1, 2),
    code: '',
    accepted: false,
    sets: [],
    errors: [],
  };
  let set: Ack999Set | null = null;
  let segmentInError = '';
  for (const segment of segments.slice(1)) {
    switch (segment.id) {
      case 'AK2':
        set = { setControlNumber: elementOf(segment, 2), code: '', accepted: false, errors: [] };
        group.sets.push(set);
        segmentInError = '';
        break;
      case 'IK3': {
        if (!set) throw outside(segment, where);
        segmentInError = elementOf(segment, 1);
        const loop = elementOf(segment, 3);
        set.errors.push({
          setControlNumber: set.setControlNumber,
          segment: 'IK3',
          code: elementOf(segment, 4),
          message: `${segmentInError} (segment ${elementOf(segment, 2)} of the set${loop ? `, loop ${loop}` : ''}): ${described(SEGMENT_ERRORS, elementOf(segment, 4))}`,
        });
        break;
      }
      case 'IK4': {
        if (!set) throw outside(segment, where);
        const reference = elementOf(segment, 2);
        const bad = elementOf(segment, 4);
        set.errors.push({
          setControlNumber: set.setControlNumber,
          segment: 'IK4',
          code: elementOf(segment, 3),
          message: `${elementName(segmentInError, elementOf(segment, 1), delimiters)}${reference ? ` (element ${reference})` : ''}: ${described(ELEMENT_ERRORS, elementOf(segment, 3))}${bad ? ` '${bad}'` : ''}`,
        });
        break;
      }
      case 'IK5': {
        if (!set) throw outside(segment, where);
        set.code = elementOf(segment, 1);
        set.accepted = ACCEPTING.has(set.code);
        for (let n = 2; n <= 6; n++) {
          const code = elementOf(segment, n);
          if (code) {
            set.errors.push({
              setControlNumber: set.setControlNumber,
              segment: 'IK5',
              code,
              message: `transaction set ${set.setControlNumber} ${described(ACK_CODES, set.code)}: ${described(SET_ERRORS, code)}`,
            });
          }
        }
        set = null;
        break;
      }
      case 'AK9': {
        group.code = elementOf(segment, 1);
        group.accepted = ACCEPTING.has(group.code);
        for (let n = 5; n <= 9; n++) {
          const code = elementOf(segment, n);
          if (code) {
            group.errors.push({
              setControlNumber: null,
              segment: 'AK9',
              code,
              message: `group ${group.groupControlNumber} ${described(ACK_CODES, group.code)}: ${described(GROUP_ERRORS, code)}`,
            });
          }
        }
        break;
      }
      default:
        // CTX (context) and anything else carry nothing the batch needs.
        break;
    }
  }
  if (!group.code) {
    throw new AcknowledgementFormatError(
      'ACKNOWLEDGEMENT_INVALID',
      `${where}: the 999 has no AK9 (functional group response trailer)`,
    );
  }
  const unanswered = group.sets.find((s) => !s.code);
  if (unanswered) {
    throw new AcknowledgementFormatError(
      'ACKNOWLEDGEMENT_INVALID',
      `${where}: AK2 of transaction set ${unanswered.setControlNumber} has no IK5 (transaction set response trailer)`,
    );
  }
  if (!ACK_CODES[group.code]) {
    throw new AcknowledgementFormatError(
      'ACKNOWLEDGEMENT_INVALID',
      `${where}: AK9-01 '${group.code}' is not an acknowledgement code (A, E, P, R, M, W, X)`,
    );
  }
  const badSet = group.sets.find((s) => !ACK_CODES[s.code]);
  if (badSet) {
    throw new AcknowledgementFormatError(
      'ACKNOWLEDGEMENT_INVALID',
      `${where}: IK5-01 '${badSet.code}' of transaction set ${badSet.setControlNumber} is not an acknowledgement code (A, E, R, M, W, X)`,
    );
  }
  return group;
}

function outside(segment: X12Segment, where: string): AcknowledgementFormatError {
  return new AcknowledgementFormatError(
    'ACKNOWLEDGEMENT_INVALID',
    `${where}: ${segment.id} at segment ${segment.position} is outside an AK2…IK5 loop`,
  );
}

// ---------------------------------------------------------------------------------------------
// 277CA (005010X214)

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
function read277Set(segments: readonly X12Segment[], delimiters: X12Delimiters, where: string): Ack277Claim[] {
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

// ---------------------------------------------------------------------------------------------

function parsed(text: string): X12Document {
  try {
    return parseX12(text);
  } catch (error) {
    if (error instanceof X12Error)
      throw new AcknowledgementFormatError('X12_INVALID', `not a valid X12 file: ${error.message}`);
    throw error;
  }
}

/**
 * A 999 or a 277CA read from its text. Refused (AcknowledgementFormatError) when the text is not X12, holds
 * neither or both, or breaks the structure this reader relies on.
 */
export function readAcknowledgement(text: string): Ack999 | Ack277CA {
  const document = parsed(text);
  const [first] = document.interchanges;
  const interchange = { senderId: first?.senderId ?? '', controlNumber: first?.controlNumber ?? '' };
  const acks999 = transactionSetsOf(document, '999');
  const acks277 = transactionSetsOf(document, '277');
  if (acks999.length > 0 && acks277.length > 0) {
    throw new AcknowledgementFormatError(
      'NOT_AN_ACKNOWLEDGEMENT',
      'the file holds both 999 and 277 transaction sets: send them one file at a time',
    );
  }
  if (acks999.length > 0) {
    const groups = acks999.map(({ set, group }) => {
      const where = `999 ${set.controlNumber}`;
      if (group.functionalId !== 'FA') {
        throw new AcknowledgementFormatError(
          'ACKNOWLEDGEMENT_INVALID',
          `${where}: its functional group is '${group.functionalId}', not FA`,
        );
      }
      return read999Set(set.segments, document.delimiters, where);
    });
    return { kind: '999', interchange, groups };
  }
  if (acks277.length > 0) {
    const claims = acks277.flatMap(({ set, group }) => {
      const version = set.implementation || group.version;
      if (!version.startsWith('005010X214')) {
        throw new AcknowledgementFormatError(
          'NOT_AN_ACKNOWLEDGEMENT',
          `277 ${set.controlNumber} is implementation '${version}', not a 277CA claim acknowledgement (005010X214)`,
        );
      }
      return read277Set(set.segments, document.delimiters, `277CA ${set.controlNumber}`);
    });
    if (claims.length === 0) {
      throw new AcknowledgementFormatError(
        'ACKNOWLEDGEMENT_INVALID',
        'the 277CA answers no claim (no patient level with a TRN)',
      );
    }
    return { kind: '277CA', interchange, claims };
  }
  const found = [
    ...new Set(document.interchanges.flatMap((i) => i.groups.flatMap((g) => g.transactionSets.map((s) => s.id)))),
  ];
  throw new AcknowledgementFormatError(
    'NOT_AN_ACKNOWLEDGEMENT',
    `the file holds no 999 or 277CA${found.length ? ` (it holds ${found.join(', ')})` : ''}`,
  );
}
