/**
 * Reading ASC X12 005010 interchanges: the tokenizer (delimiters from the ISA, then segments) and the envelope
 * check (ISA/GS/ST…SE/GE/IEA nesting, counts and control numbers). Pure and synchronous; see docs/x12.md.
 */

export interface X12Delimiters {
  /** ISA's 4th character. */
  element: string;
  /** ISA11: in 005010 the repetition separator (it was a standards id in 004010). */
  repetition: string;
  /** ISA16: the component (sub-element) separator. */
  component: string;
  /** The character right after ISA16. */
  segment: string;
}

/** The separators most clearinghouses expect; the writer uses them unless told otherwise. */
export const X12_DEFAULT_DELIMITERS: Readonly<X12Delimiters> = Object.freeze({
  element: '*',
  repetition: '^',
  component: ':',
  segment: '~',
});

export interface X12Segment {
  /** The segment id, e.g. 'CLP'. */
  readonly id: string;
  /**
   * The elements after the id as written (not split into components or repetitions; ISA keeps its padding):
   * elements[0] is element 01 (CLP01), so use `elementOf(segment, n)` to read element n by its X12 number.
   */
  readonly elements: readonly string[];
  /** 1-based ordinal of the segment in the file, ISA being 1; error messages and readers cite it. */
  readonly position: number;
}

export interface X12TransactionSet {
  /** ST01, e.g. '835', '837', '999', '277'. */
  readonly id: string;
  /** ST02. */
  readonly controlNumber: string;
  /** ST03, the implementation guide, e.g. '005010X222A1'; '' when absent. */
  readonly implementation: string;
  readonly st: X12Segment;
  readonly se: X12Segment;
  /** The segments between ST and SE, both excluded. */
  readonly segments: readonly X12Segment[];
}

export interface X12Group {
  /** GS01, the functional identifier code: 'HC' 837, 'HP' 835, 'FA' 999, 'HN' 277. */
  readonly functionalId: string;
  /** GS02, the application sender's code. */
  readonly senderId: string;
  /** GS03, the application receiver's code. */
  readonly receiverId: string;
  /** GS04, CCYYMMDD. */
  readonly date: string;
  /** GS05, HHMM[SS[D[D]]]. */
  readonly time: string;
  /** GS06. */
  readonly controlNumber: string;
  /** GS08, the version and implementation guide, e.g. '005010X221A1'. */
  readonly version: string;
  readonly gs: X12Segment;
  readonly ge: X12Segment;
  readonly transactionSets: readonly X12TransactionSet[];
}

export interface X12Interchange {
  readonly delimiters: X12Delimiters;
  /** ISA05. */
  readonly senderQualifier: string;
  /** ISA06 without its padding. */
  readonly senderId: string;
  /** ISA07. */
  readonly receiverQualifier: string;
  /** ISA08 without its padding. */
  readonly receiverId: string;
  /** ISA09, YYMMDD. */
  readonly date: string;
  /** ISA10, HHMM. */
  readonly time: string;
  /** ISA13, nine digits as written. */
  readonly controlNumber: string;
  /** ISA14: '1' when the sender asks for a TA1. */
  readonly ackRequested: string;
  /** ISA15: 'T' test or 'P' production. */
  readonly usage: string;
  readonly isa: X12Segment;
  readonly iea: X12Segment;
  /** TA1 interchange acknowledgments, which sit in the interchange outside any group. */
  readonly ta1: readonly X12Segment[];
  readonly groups: readonly X12Group[];
}

export interface X12Document {
  /** The first interchange's delimiters (a file nearly always holds one interchange). */
  readonly delimiters: X12Delimiters;
  /** Every segment of the file, envelopes included, in order. */
  readonly segments: readonly X12Segment[];
  readonly interchanges: readonly X12Interchange[];
}

export type X12ErrorCode =
  /** Nothing but a BOM or line breaks. */
  | 'EMPTY'
  /** The text does not start with an ISA segment. */
  | 'NOT_X12'
  /** The ISA is not 106 characters, or one of its fixed-width elements is not its width. */
  | 'ISA_LENGTH'
  /** Two delimiters are the same character, or one is a letter, digit or space. */
  | 'ISA_DELIMITERS'
  /** ISA12 is not 00501. */
  | 'ISA_VERSION'
  /** A segment id that is not 2–3 uppercase letters or digits (an empty segment included). */
  | 'SEGMENT_ID'
  /** A control character (NUL, tab, DEL…) in a segment that is not one of the interchange's delimiters. */
  | 'BAD_CHARACTER'
  /** The text ends inside a segment, with no terminator. */
  | 'UNTERMINATED'
  /** Something other than another ISA follows an IEA. */
  | 'TRAILING_DATA'
  /** A segment where the envelope does not allow it: ST outside GS, data outside ST, SE without ST, … */
  | 'UNEXPECTED_SEGMENT'
  /** An SE, GE or IEA is missing: the next envelope segment or the end of the file came first. */
  | 'MISSING_TRAILER'
  | 'SE_COUNT'
  | 'GE_COUNT'
  | 'IEA_COUNT'
  /** SE02 ≠ ST02, GE02 ≠ GS06 or IEA02 ≠ ISA13. */
  | 'CONTROL_MISMATCH'
  /** Writing: a value holds a delimiter or a control character. */
  | 'BAD_VALUE'
  /** Writing: an envelope field does not fit its element (width, digits). */
  | 'ENVELOPE_FIELD';

export class X12Error extends Error {
  override readonly name = 'X12Error';
  constructor(
    readonly code: X12ErrorCode,
    /** 1-based position of the segment at fault (in the output, when writing); 0 when there is none. */
    readonly position: number,
    message: string,
  ) {
    super(message);
  }
}

/** Segments that belong to the envelope, never to a transaction set's body. */
export const X12_ENVELOPE_IDS: ReadonlySet<string> = new Set(['ISA', 'IEA', 'GS', 'GE', 'ST', 'SE', 'TA1']);

/** ISA01…ISA16 widths: ASC X12 005010 ISA segment, every element fixed width, 106 characters in all. */
const ISA_WIDTHS = [2, 10, 2, 10, 2, 15, 2, 15, 6, 4, 1, 5, 9, 1, 1, 1] as const;
const ISA_LENGTH = 106;
const BOM = 0xfeff;
const CR = 13;
const LF = 10;

/** Element n (1-based, as X12 numbers them: elementOf(clp, 4) is CLP04); '' when the segment stops before it. */
export function elementOf(segment: X12Segment, n: number): string {
  return segment.elements[n - 1] ?? '';
}

/** The components of a composite element (SVC01 'HC:99214:25' → ['HC', '99214', '25']). */
export function components(value: string, delimiters: X12Delimiters): string[] {
  return value.split(delimiters.component);
}

/** The repetitions of a repeating element (ISA11 separates them; e.g. a 271's EB03 service type codes). */
export function repetitions(value: string, delimiters: X12Delimiters): string[] {
  return value.split(delimiters.repetition);
}

/** Every transaction set with ST01 = id, with the group and interchange around it (for GS08 and sender checks). */
export function transactionSetsOf(
  document: X12Document,
  id: string,
): { interchange: X12Interchange; group: X12Group; set: X12TransactionSet }[] {
  const found: { interchange: X12Interchange; group: X12Group; set: X12TransactionSet }[] = [];
  for (const interchange of document.interchanges) {
    for (const group of interchange.groups) {
      for (const set of group.transactionSets) if (set.id === id) found.push({ interchange, group, set });
    }
  }
  return found;
}

function isAlphanumericOrSpace(code: number): boolean {
  return code === 32 || (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * Why a delimiter set is unusable, or null. Data could not be told from structure if two delimiters were the same
 * character or one were a letter, digit or space; line breaks are kept for the segment terminator because the
 * reader skips them between segments.
 */
export function delimiterProblem(delimiters: X12Delimiters): string | null {
  const named: [string, string][] = [
    ['element separator', delimiters.element],
    ['repetition separator', delimiters.repetition],
    ['component separator', delimiters.component],
    ['segment terminator', delimiters.segment],
  ];
  for (const [name, char] of named) {
    if (char.length !== 1) return `the ${name} must be one character, not '${char}'`;
    const code = char.charCodeAt(0);
    if (isAlphanumericOrSpace(code)) return `the ${name} '${char}' is a letter, digit or space`;
    if ((code === CR || code === LF) && name !== 'segment terminator') {
      return `the ${name} is a line break; only the segment terminator may be one`;
    }
  }
  const chars = named.map(([, char]) => char);
  if (new Set(chars).size !== chars.length) return `the delimiters ${chars.map((c) => `'${c}'`).join(' ')} repeat`;
  return null;
}

function isSegmentId(id: string): boolean {
  if (id.length < 2 || id.length > 3) return false;
  for (let i = 0; i < id.length; i++) {
    const code = id.charCodeAt(i);
    if (!((code >= 48 && code <= 57) || (code >= 65 && code <= 90))) return false;
  }
  return true;
}

function skipLineBreaks(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code !== CR && code !== LF) break;
    i++;
  }
  return i;
}

/**
 * Control characters other than line breaks: X12 data is text, so one in a segment means a damaged or binary file,
 * and a NUL could not even be kept in a PostgreSQL text column. Delimiters may themselves be control characters
 * (FS, GS, RS are common), so those are let through.
 */
function isControl(code: number): boolean {
  return (code < 32 && code !== CR && code !== LF) || (code >= 127 && code < 160);
}

function controlCharacterAt(raw: string, delimiters: X12Delimiters): number {
  for (let i = 0; i < raw.length; i++) {
    if (!isControl(raw.charCodeAt(i))) continue;
    const char = raw.charAt(i);
    if (char !== delimiters.element && char !== delimiters.repetition && char !== delimiters.component) return i;
  }
  return -1;
}

/** A short, printable quotation of raw text for error messages. */
function quote(raw: string): string {
  const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
  return `'${shown.replace(/\r/g, '\\r').replace(/\n/g, '\\n')}'`;
}

/** Reads the fixed-width ISA at `start`: its delimiters and elements, and where the next segment begins. */
function readIsa(
  text: string,
  start: number,
  position: number,
): { delimiters: X12Delimiters; segment: X12Segment; end: number } {
  const element = text.charAt(start + 3);
  if (text.slice(start, start + 3) !== 'ISA' || element === '' || isAlphanumericOrSpace(element.charCodeAt(0))) {
    throw new X12Error(
      'NOT_X12',
      position,
      `Segment ${position} should be an ISA interchange header but starts ${quote(text.slice(start, start + 20))}`,
    );
  }
  // separators[i] precedes ISA(i+1). The search stops a little past 106 characters so that an ISA missing its
  // separators is not read on into the whole file.
  const limit = start + ISA_LENGTH + 40;
  const separators = [start + 3];
  for (let i = 1; i < 16; i++) {
    const at = text.indexOf(element, (separators[i - 1] ?? start) + 1);
    if (at < 0 || at > limit) {
      throw new X12Error(
        'ISA_LENGTH',
        position,
        `The ISA segment (segment ${position}) has ${i} elements before its text runs out; ASC X12 005010 gives it 16 ` +
          'elements in exactly 106 characters',
      );
    }
    separators.push(at);
  }
  const widthErrors: string[] = [];
  for (let i = 0; i < 15; i++) {
    const width = (separators[i + 1] ?? 0) - (separators[i] ?? 0) - 1;
    const expected = ISA_WIDTHS[i] ?? 0;
    const name = `ISA${String(i + 1).padStart(2, '0')}`;
    if (width !== expected) widthErrors.push(`${name} is ${width} characters, must be ${expected}`);
  }
  const lastSeparator = separators[15] ?? 0;
  const length = lastSeparator - start + 3;
  if (widthErrors.length > 0 || length !== ISA_LENGTH) {
    throw new X12Error(
      'ISA_LENGTH',
      position,
      `The ISA segment (segment ${position}) is ${length} characters with its terminator; ASC X12 005010 fixes it ` +
        `at 106${widthErrors.length > 0 ? ` (${widthErrors.join('; ')})` : ''}`,
    );
  }
  const delimiters: X12Delimiters = {
    element,
    repetition: text.charAt(start + 82),
    component: text.charAt(start + 104),
    segment: text.charAt(start + 105),
  };
  const problem = delimiterProblem(delimiters);
  if (problem) {
    throw new X12Error('ISA_DELIMITERS', position, `The ISA segment (segment ${position}) is unusable: ${problem}`);
  }
  const elements = text.slice(start + 4, start + 105).split(element);
  if (elements[11] !== '00501') {
    throw new X12Error(
      'ISA_VERSION',
      position,
      `ISA12 is '${elements[11] ?? ''}' (segment ${position}); only ASC X12 005010 interchanges (00501) are read`,
    );
  }
  return { delimiters, segment: { id: 'ISA', elements, position }, end: start + ISA_LENGTH };
}

/**
 * The tokenizer: the text's segments and each interchange's delimiters, without the envelope check. Takes an
 * optional BOM and line breaks after segment terminators; each IEA may be followed only by another ISA.
 */
export function tokenizeX12(text: string): { segments: X12Segment[]; delimiters: X12Delimiters[] } {
  let at = text.charCodeAt(0) === BOM ? 1 : 0;
  at = skipLineBreaks(text, at);
  if (at >= text.length) throw new X12Error('EMPTY', 0, 'The file is empty: an X12 interchange starts with ISA');

  const segments: X12Segment[] = [];
  const delimiterSets: X12Delimiters[] = [];
  while (at < text.length) {
    const isa = readIsa(text, at, segments.length + 1);
    segments.push(isa.segment);
    delimiterSets.push(isa.delimiters);
    const { element, segment: terminator } = isa.delimiters;
    at = isa.end;
    let closed = false;
    while (!closed) {
      at = skipLineBreaks(text, at);
      if (at >= text.length) break;
      const position = segments.length + 1;
      let end = text.indexOf(terminator, at);
      if (end < 0) {
        throw new X12Error(
          'UNTERMINATED',
          position,
          `Segment ${position} ${quote(text.slice(at))} has no segment terminator '${terminator}'`,
        );
      }
      const segmentEnd = end;
      // A line-break terminator leaves the CR of a CRLF before it.
      while (end > at && (text.charCodeAt(end - 1) === CR || text.charCodeAt(end - 1) === LF)) end--;
      const idEnd = text.indexOf(element, at);
      const id = idEnd < 0 || idEnd > end ? text.slice(at, end) : text.slice(at, idEnd);
      if (!isSegmentId(id)) {
        throw new X12Error(
          'SEGMENT_ID',
          position,
          `Segment ${position} ${quote(text.slice(at, end))} does not start with a segment id (2–3 uppercase letters or digits)`,
        );
      }
      const bad = controlCharacterAt(text.slice(at, end), isa.delimiters);
      if (bad >= 0) {
        const code = text
          .charCodeAt(at + bad)
          .toString(16)
          .toUpperCase()
          .padStart(4, '0');
        throw new X12Error(
          'BAD_CHARACTER',
          position,
          `Segment ${position} (${id}) holds a control character (U+${code}) at its character ${bad + 1}; X12 data ` +
            'is text, so the file is damaged or not X12',
        );
      }
      const elements = idEnd < 0 || idEnd > end ? [] : text.slice(idEnd + 1, end).split(element);
      segments.push({ id, elements, position });
      at = segmentEnd + 1;
      closed = id === 'IEA';
    }
    at = skipLineBreaks(text, at);
    if (at < text.length && !text.startsWith('ISA', at)) {
      throw new X12Error(
        'TRAILING_DATA',
        segments.length + 1,
        `${quote(text.slice(at))} follows the IEA at segment ${segments.length}; only another ISA may follow an IEA`,
      );
    }
  }
  return { segments, delimiters: delimiterSets };
}

function count(segment: X12Segment, n: number): number | null {
  const value = elementOf(segment, n);
  return /^\d{1,10}$/.test(value) ? Number(value) : null;
}

interface OpenSet {
  st: X12Segment;
  segments: X12Segment[];
}
interface OpenGroup {
  gs: X12Segment;
  sets: X12TransactionSet[];
}
interface OpenInterchange {
  isa: X12Segment;
  delimiters: X12Delimiters;
  ta1: X12Segment[];
  groups: X12Group[];
}

/**
 * The envelope check of ASC X12 005010: ISA/IEA around GS/GE around ST/SE, each trailer's count and control
 * number matching its header, and nothing but TA1 outside a transaction set.
 */
function buildEnvelopes(segments: readonly X12Segment[], delimiterSets: readonly X12Delimiters[]): X12Interchange[] {
  const interchanges: X12Interchange[] = [];
  let interchange: OpenInterchange | null = null;
  let group: OpenGroup | null = null;
  let set: OpenSet | null = null;

  const missingTrailer = (segment: X12Segment | null, last: X12Segment): X12Error => {
    const [trailer, opener] = set
      ? ['SE', `the transaction set starting at segment ${set.st.position} (ST)`]
      : group
        ? ['GE', `the functional group starting at segment ${group.gs.position} (GS)`]
        : ['IEA', `the interchange starting at segment ${interchange?.isa.position ?? 1} (ISA)`];
    const where = segment
      ? `segment ${segment.position} is ${segment.id}`
      : `the file ends at segment ${last.position}`;
    return new X12Error(
      'MISSING_TRAILER',
      segment?.position ?? last.position,
      `${where}, but ${opener} has no ${trailer}`,
    );
  };
  const mismatch = (segment: X12Segment, n: number, header: X12Segment, m: number): X12Error =>
    new X12Error(
      'CONTROL_MISMATCH',
      segment.position,
      `${segment.id}${String(n).padStart(2, '0')} is '${elementOf(segment, n)}' but ${header.id}${String(m).padStart(2, '0')} ` +
        `at segment ${header.position} is '${elementOf(header, m)}' (segment ${segment.position})`,
    );

  for (const segment of segments) {
    switch (segment.id) {
      case 'ISA': {
        if (interchange) throw missingTrailer(segment, segment);
        const delimiters = delimiterSets[interchanges.length] ?? X12_DEFAULT_DELIMITERS;
        interchange = { isa: segment, delimiters, ta1: [], groups: [] };
        break;
      }
      case 'TA1': {
        if (!interchange || group) {
          throw new X12Error(
            'UNEXPECTED_SEGMENT',
            segment.position,
            `TA1 at segment ${segment.position} must sit in an interchange outside any functional group`,
          );
        }
        interchange.ta1.push(segment);
        break;
      }
      case 'GS': {
        if (group) throw missingTrailer(segment, segment);
        if (!interchange) {
          throw new X12Error(
            'UNEXPECTED_SEGMENT',
            segment.position,
            `GS at segment ${segment.position} is outside an interchange`,
          );
        }
        group = { gs: segment, sets: [] };
        break;
      }
      case 'ST': {
        if (set) throw missingTrailer(segment, segment);
        if (!group) {
          throw new X12Error(
            'UNEXPECTED_SEGMENT',
            segment.position,
            `ST at segment ${segment.position} is outside a functional group: no GS opens one before it`,
          );
        }
        set = { st: segment, segments: [] };
        break;
      }
      case 'SE': {
        if (!set) {
          throw new X12Error(
            'UNEXPECTED_SEGMENT',
            segment.position,
            `SE at segment ${segment.position} closes no transaction set: no ST opens one before it`,
          );
        }
        const actual = segment.position - set.st.position + 1;
        const declared = count(segment, 1);
        if (declared !== actual) {
          throw new X12Error(
            'SE_COUNT',
            segment.position,
            `SE01 is '${elementOf(segment, 1)}' but the transaction set starting at segment ${set.st.position} has ` +
              `${actual} segments (segment ${segment.position})`,
          );
        }
        if (elementOf(segment, 2) !== elementOf(set.st, 2)) throw mismatch(segment, 2, set.st, 2);
        group?.sets.push({
          id: elementOf(set.st, 1),
          controlNumber: elementOf(set.st, 2),
          implementation: elementOf(set.st, 3),
          st: set.st,
          se: segment,
          segments: set.segments,
        });
        set = null;
        break;
      }
      case 'GE': {
        if (set) throw missingTrailer(segment, segment);
        if (!group) {
          throw new X12Error(
            'UNEXPECTED_SEGMENT',
            segment.position,
            `GE at segment ${segment.position} closes no functional group: no GS opens one before it`,
          );
        }
        if (count(segment, 1) !== group.sets.length) {
          throw new X12Error(
            'GE_COUNT',
            segment.position,
            `GE01 is '${elementOf(segment, 1)}' but the functional group starting at segment ${group.gs.position} has ` +
              `${group.sets.length} transaction sets (segment ${segment.position})`,
          );
        }
        if (elementOf(segment, 2) !== elementOf(group.gs, 6)) throw mismatch(segment, 2, group.gs, 6);
        const gs = group.gs;
        interchange?.groups.push({
          functionalId: elementOf(gs, 1),
          senderId: elementOf(gs, 2),
          receiverId: elementOf(gs, 3),
          date: elementOf(gs, 4),
          time: elementOf(gs, 5),
          controlNumber: elementOf(gs, 6),
          version: elementOf(gs, 8),
          gs,
          ge: segment,
          transactionSets: group.sets,
        });
        group = null;
        break;
      }
      case 'IEA': {
        if (set || group) throw missingTrailer(segment, segment);
        if (!interchange) {
          throw new X12Error(
            'UNEXPECTED_SEGMENT',
            segment.position,
            `IEA at segment ${segment.position} closes no interchange`,
          );
        }
        if (count(segment, 1) !== interchange.groups.length) {
          throw new X12Error(
            'IEA_COUNT',
            segment.position,
            `IEA01 is '${elementOf(segment, 1)}' but the interchange starting at segment ${interchange.isa.position} ` +
              `has ${interchange.groups.length} functional groups (segment ${segment.position})`,
          );
        }
        const isa = interchange.isa;
        if (elementOf(segment, 2) !== elementOf(isa, 13)) throw mismatch(segment, 2, isa, 13);
        interchanges.push({
          delimiters: interchange.delimiters,
          senderQualifier: elementOf(isa, 5),
          senderId: elementOf(isa, 6).trimEnd(),
          receiverQualifier: elementOf(isa, 7),
          receiverId: elementOf(isa, 8).trimEnd(),
          date: elementOf(isa, 9),
          time: elementOf(isa, 10),
          controlNumber: elementOf(isa, 13),
          ackRequested: elementOf(isa, 14),
          usage: elementOf(isa, 15),
          isa,
          iea: segment,
          ta1: interchange.ta1,
          groups: interchange.groups,
        });
        interchange = null;
        break;
      }
      default: {
        if (!set) {
          const outside = group ? 'a transaction set' : interchange ? 'a functional group' : 'an interchange';
          throw new X12Error(
            'UNEXPECTED_SEGMENT',
            segment.position,
            `${segment.id} at segment ${segment.position} is outside ${outside}; only envelope segments may be there`,
          );
        }
        set.segments.push(segment);
      }
    }
  }
  const last = segments[segments.length - 1];
  if (interchange && last) throw missingTrailer(null, last);
  return interchanges;
}

/**
 * Parses and checks a whole X12 file. Throws X12Error on the first fault, naming the segment and its position:
 * a file that fails the envelope check is not read in part, since a clearinghouse would reject it whole.
 */
export function parseX12(text: string): X12Document {
  const { segments, delimiters } = tokenizeX12(text);
  const interchanges = buildEnvelopes(segments, delimiters);
  return { delimiters: delimiters[0] ?? X12_DEFAULT_DELIMITERS, segments, interchanges };
}
