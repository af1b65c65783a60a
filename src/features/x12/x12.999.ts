/**
 * Reading the 999 implementation acknowledgment (ASC X12 005010X231A1), which accepts or rejects each transaction
 * set of a file the clearinghouse received, with the segment and element errors it names. Pure: segments in,
 * plain data out (docs/x12-837.md).
 */
import { components, elementOf, type X12Delimiters, type X12Segment } from './x12.parse';
import { AcknowledgementFormatError, type AckInterchange } from './x12.acknowledgement';

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

/** One error a 999 reports (IK3 segment and IK4 element notes, IK5/AK9 codes), in words. */
export interface Ack999Error {
  /** The transaction set it is about (ST02), or null for the whole group. */
  setControlNumber: string | null;
  /** e.g. 'IK3', 'IK4', 'IK5', 'AK9'. */
  segment: string;
  /** The X12 error code as sent, e.g. '8', 'I12'. */
  code: string;
  message: string;
}

export interface Ack999Set {
  /** AK2-02: the ST02 of the set acknowledged. */
  setControlNumber: string;
  /** IK5-01. */
  code: string;
  accepted: boolean;
  errors: Ack999Error[];
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
  errors: Ack999Error[];
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

export function read999Set(segments: readonly X12Segment[], delimiters: X12Delimiters, where: string): Ack999Group {
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
