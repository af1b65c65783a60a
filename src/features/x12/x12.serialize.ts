/**
 * Writing ASC X12 005010 interchanges: segments to text, the fixed-width ISA, and a whole ISA/GS/ST…SE/GE/IEA
 * envelope with its counts. Values are refused rather than altered, so a claim is never sent with data the writer
 * changed silently; x12Text() is the explicit clean-up for free text. See docs/x12.md.
 */
import { delimiterProblem, X12_DEFAULT_DELIMITERS, X12_ENVELOPE_IDS, X12Error, type X12Delimiters } from './x12.parse';

/**
 * An element: a simple value 'MB'; a composite, its components ['HC', '99214', '25']; or repetitions, each a
 * composite of one or more components [['BK', 'M5450'], ['BF', 'E119']] (a repeated simple value is [['A'], ['B']]).
 */
export type X12Element = string | readonly string[] | readonly (readonly string[])[];

export interface X12SegmentInput {
  /** 2–3 uppercase letters or digits, e.g. 'CLM'. */
  readonly id: string;
  /** Element 01 first; trailing empty elements (and trailing empty components) are left out when written. */
  readonly elements: readonly X12Element[];
}

export interface X12WriteOptions {
  /**
   * A line break after each segment terminator (default true): clearinghouses accept it, and a person can read
   * the file and diff two of them. The reader skips it.
   */
  readonly newline?: boolean;
}

/** ASC X12 005010 ISA segment fields; widths are checked and ids padded, so the ISA comes out 106 characters. */
export interface IsaFields {
  /** ISA01, default '00' (no authorization information). */
  readonly authorizationQualifier?: string;
  /** ISA02, up to 10 characters, default blank. */
  readonly authorizationInfo?: string;
  /** ISA03, default '00' (no security information). */
  readonly securityQualifier?: string;
  /** ISA04, up to 10 characters, default blank. */
  readonly securityInfo?: string;
  /** ISA05, 2 characters, e.g. 'ZZ' mutually defined, '30' federal tax id. */
  readonly senderQualifier: string;
  /** ISA06, 1–15 characters, padded with spaces. */
  readonly senderId: string;
  /** ISA07. */
  readonly receiverQualifier: string;
  /** ISA08, 1–15 characters, padded with spaces. */
  readonly receiverId: string;
  /** ISA09, YYMMDD. */
  readonly date: string;
  /** ISA10, HHMM. */
  readonly time: string;
  /** ISA13, 1–999999999, written as 9 digits; IEA02 repeats it. */
  readonly controlNumber: number;
  /** ISA14: '1' asks the receiver for a TA1. */
  readonly ackRequested: '0' | '1';
  /** ISA15: 'T' test, 'P' production. */
  readonly usage: 'T' | 'P';
}

export interface GsFields {
  /** GS01, e.g. 'HC' for an 837. */
  readonly functionalId: string;
  /** GS02, 2–15 characters. */
  readonly senderId: string;
  /** GS03, 2–15 characters. */
  readonly receiverId: string;
  /** GS04, CCYYMMDD. */
  readonly date: string;
  /** GS05, HHMM (up to HHMMSSDD). */
  readonly time: string;
  /** GS06, 1–999999999; GE02 repeats it. */
  readonly controlNumber: number;
  /** GS08, e.g. '005010X222A1'. */
  readonly version: string;
}

export interface TransactionSetInput {
  /** ST01, e.g. '837'. */
  readonly id: string;
  /** ST02, 4–9 characters, unique in the group; SE02 repeats it. */
  readonly controlNumber: string;
  /** ST03, the implementation guide, e.g. '005010X222A1' (the 005010 guides want it equal to GS08). */
  readonly implementation?: string;
  /** The segments between ST and SE. */
  readonly segments: readonly X12SegmentInput[];
}

export interface EnvelopeInput {
  /** Default X12_DEFAULT_DELIMITERS: * ^ : ~. */
  readonly delimiters?: X12Delimiters;
  readonly isa: IsaFields;
  readonly gs: GsFields;
  readonly sets: readonly TransactionSetInput[];
}

function isControl(code: number): boolean {
  return code < 32 || (code >= 127 && code < 160);
}

function checkedDelimiters(delimiters: X12Delimiters): X12Delimiters {
  const problem = delimiterProblem(delimiters);
  if (problem) throw new X12Error('ISA_DELIMITERS', 0, `Cannot write X12: ${problem}`);
  return delimiters;
}

/**
 * Free text made safe for an element: delimiters and control characters become spaces, runs of spaces one, and the
 * ends are trimmed. Case is kept: payers match names as sent, and the 005010 guides allow lowercase.
 */
export function x12Text(value: string, delimiters: X12Delimiters = X12_DEFAULT_DELIMITERS): string {
  const reserved = new Set([delimiters.element, delimiters.repetition, delimiters.component, delimiters.segment]);
  let out = '';
  for (const char of value) {
    out += isControl(char.codePointAt(0) ?? 0) || reserved.has(char) ? ' ' : char;
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** Writes segments one by one, counting their positions for error messages. */
class SegmentWriter {
  private readonly parts: string[] = [];
  private position = 0;
  private readonly end: string;
  /** Characters refused in values, by code below 160 (control characters and delimiters): one lookup per character. */
  private readonly refused = new Uint8Array(160);
  /** Delimiters beyond that range, should a partner choose one. */
  private readonly refusedHigh: ReadonlySet<string>;

  constructor(
    private readonly delimiters: X12Delimiters,
    options: X12WriteOptions,
  ) {
    this.end = delimiters.segment + (options.newline === false ? '' : '\n');
    for (let code = 0; code < 160; code++) if (isControl(code)) this.refused[code] = 1;
    const all = [delimiters.element, delimiters.repetition, delimiters.component, delimiters.segment];
    for (const char of all) if (char.charCodeAt(0) < 160) this.refused[char.charCodeAt(0)] = 1;
    this.refusedHigh = new Set(all.filter((char) => char.charCodeAt(0) >= 160));
  }

  /** A prebuilt ISA, which is fixed width and so never trimmed. */
  isa(text: string): void {
    this.position++;
    this.parts.push(text.slice(0, -1), this.end);
  }

  segment(segment: X12SegmentInput): void {
    this.position++;
    const { id } = segment;
    if (!/^[A-Z0-9]{2,3}$/.test(id)) {
      throw new X12Error(
        'SEGMENT_ID',
        this.position,
        `Segment ${this.position} has id '${id}'; X12 segment ids are 2–3 uppercase letters or digits`,
      );
    }
    if (id === 'ISA') {
      throw new X12Error('SEGMENT_ID', this.position, `Segment ${this.position} is an ISA: build it with isaSegment()`);
    }
    const written = segment.elements.map((element, i) => this.element(element, id, i + 1));
    let last = written.length;
    while (last > 0 && written[last - 1] === '') last--;
    written.length = last;
    this.parts.push(last === 0 ? id : id + this.delimiters.element + written.join(this.delimiters.element), this.end);
  }

  text(): string {
    return this.parts.join('');
  }

  private element(element: X12Element, id: string, n: number): string {
    if (typeof element === 'string') return this.value(element, id, n, 0, 0);
    if (!element.some((part) => Array.isArray(part))) return this.composite(element as readonly string[], id, n, 0);
    const repeats = element as readonly (readonly string[])[];
    const written = repeats.map((part, r) => this.composite(part, id, n, repeats.length > 1 ? r + 1 : 0));
    return trimTrailingEmpty(written).join(this.delimiters.repetition);
  }

  private composite(parts: readonly string[], id: string, n: number, repetition: number): string {
    const written = parts.map((part, k) => this.value(part, id, n, parts.length > 1 ? k + 1 : 0, repetition));
    return trimTrailingEmpty(written).join(this.delimiters.component);
  }

  /** `component` and `repetition` are 1-based, 0 when the element has none; they only name the value in errors. */
  private value(value: string, id: string, n: number, component: number, repetition: number): string {
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code < 160 ? this.refused[code] === 1 : this.refusedHigh.has(value.charAt(i))) {
        this.refuse(value, value.charAt(i), id, n, component, repetition);
      }
    }
    return value;
  }

  private refuse(value: string, char: string, id: string, n: number, component: number, repetition: number): never {
    const d = this.delimiters;
    const what =
      char === d.element
        ? 'the element separator'
        : char === d.component
          ? 'the component separator'
          : char === d.repetition
            ? 'the repetition separator'
            : char === d.segment
              ? 'the segment terminator'
              : 'a control character';
    const name = `${id}${pad2(n)}${component > 0 ? `-${component}` : ''}${repetition > 0 ? ` repetition ${repetition}` : ''}`;
    throw new X12Error(
      'BAD_VALUE',
      this.position,
      `${name} '${value}' holds ${what} (segment ${this.position}); clean free text with x12Text() first`,
    );
  }
}

function trimTrailingEmpty(values: string[]): string[] {
  let last = values.length;
  while (last > 0 && values[last - 1] === '') last--;
  return last === values.length ? values : values.slice(0, last);
}

/**
 * Segments as X12 text, each ended by the terminator (and a line break unless `newline: false`). For bodies and
 * hand-built envelopes; an ISA must come from isaSegment() since its elements are fixed width.
 */
export function serializeSegments(
  segments: readonly X12SegmentInput[],
  delimiters: X12Delimiters = X12_DEFAULT_DELIMITERS,
  options: X12WriteOptions = {},
): string {
  const writer = new SegmentWriter(checkedDelimiters(delimiters), options);
  for (const segment of segments) writer.segment(segment);
  return writer.text();
}

function fieldError(message: string): X12Error {
  return new X12Error('ENVELOPE_FIELD', 0, message);
}

function fixed(name: string, value: string, width: number, delimiters: X12Delimiters): string {
  if (value.length > width) throw fieldError(`${name} '${value}' is longer than its ${width} characters`);
  checkEnvelopeValue(name, value, delimiters);
  return value.padEnd(width, ' ');
}

function checkEnvelopeValue(name: string, value: string, delimiters: X12Delimiters): void {
  const reserved = [delimiters.element, delimiters.repetition, delimiters.component, delimiters.segment];
  for (let i = 0; i < value.length; i++) {
    if (isControl(value.charCodeAt(i)) || reserved.includes(value.charAt(i))) {
      throw new X12Error('BAD_VALUE', 0, `${name} '${value}' holds a delimiter or a control character`);
    }
  }
}

function matching(name: string, value: string, pattern: RegExp, what: string): string {
  if (!pattern.test(value)) throw fieldError(`${name} '${value}' must be ${what}`);
  return value;
}

function lengthChecked(name: string, value: string, min: number, max: number): string {
  if (value.length < min || value.length > max) {
    throw fieldError(`${name} '${value}' must be ${min}–${max} characters`);
  }
  return value;
}

function controlNumber(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 999_999_999) {
    throw fieldError(`${name} ${value} must be a whole number from 1 to 999999999`);
  }
  return value;
}

/**
 * The ISA segment, exactly 106 characters with its terminator (ASC X12 005010 ISA segment): receivers locate the
 * delimiters by position, so every element is padded to its width and nothing is trimmed.
 */
export function isaSegment(fields: IsaFields, delimiters: X12Delimiters = X12_DEFAULT_DELIMITERS): string {
  const d = checkedDelimiters(delimiters);
  const qualifier = (name: string, value: string): string => {
    if (value.length !== 2) throw fieldError(`${name} '${value}' must be 2 characters`);
    return fixed(name, value, 2, d);
  };
  const id = (name: string, value: string): string => {
    if (value.trim() === '') throw fieldError(`${name} is blank`);
    return fixed(name, value, 15, d);
  };
  if (fields.ackRequested !== '0' && fields.ackRequested !== '1') {
    throw fieldError(`ISA14 '${String(fields.ackRequested)}' must be 0 or 1`);
  }
  if (fields.usage !== 'T' && fields.usage !== 'P') throw fieldError(`ISA15 '${String(fields.usage)}' must be T or P`);
  const elements = [
    qualifier('ISA01', fields.authorizationQualifier ?? '00'),
    fixed('ISA02', fields.authorizationInfo ?? '', 10, d),
    qualifier('ISA03', fields.securityQualifier ?? '00'),
    fixed('ISA04', fields.securityInfo ?? '', 10, d),
    qualifier('ISA05', fields.senderQualifier),
    id('ISA06', fields.senderId),
    qualifier('ISA07', fields.receiverQualifier),
    id('ISA08', fields.receiverId),
    matching('ISA09', fields.date, /^\d{6}$/, 'YYMMDD'),
    matching('ISA10', fields.time, /^\d{4}$/, 'HHMM'),
    d.repetition,
    '00501',
    String(controlNumber('ISA13', fields.controlNumber)).padStart(9, '0'),
    fields.ackRequested,
    fields.usage,
    d.component,
  ];
  const text = `ISA${d.element}${elements.join(d.element)}${d.segment}`;
  // Unreachable while the widths above hold; a wrong ISA would misplace every delimiter for the receiver.
  if (text.length !== 106) throw fieldError(`The ISA came out ${text.length} characters instead of 106`);
  return text;
}

/**
 * A whole interchange: ISA, one GS, each transaction set as ST…SE, GE and IEA, with SE01, GE01 and IEA01 counted
 * and the trailers' control numbers copied from their headers.
 */
export function envelope(input: EnvelopeInput, options: X12WriteOptions = {}): string {
  const d = checkedDelimiters(input.delimiters ?? X12_DEFAULT_DELIMITERS);
  const { gs } = input;
  if (input.sets.length === 0) throw fieldError('A functional group needs at least one transaction set');
  const isa = isaSegment(input.isa, d);
  const groupControl = String(controlNumber('GS06', gs.controlNumber));
  const gsSegment: X12SegmentInput = {
    id: 'GS',
    elements: [
      matching('GS01', gs.functionalId, /^[A-Z]{2}$/, '2 uppercase letters'),
      lengthChecked('GS02', gs.senderId, 2, 15),
      lengthChecked('GS03', gs.receiverId, 2, 15),
      matching('GS04', gs.date, /^\d{8}$/, 'CCYYMMDD'),
      matching('GS05', gs.time, /^\d{4}(\d{2}(\d{1,2})?)?$/, 'HHMM, HHMMSS or HHMMSSD[D]'),
      groupControl,
      'X',
      lengthChecked('GS08', gs.version, 1, 12),
    ],
  };

  const writer = new SegmentWriter(d, options);
  writer.isa(isa);
  writer.segment(gsSegment);
  const seen = new Set<string>();
  for (const set of input.sets) {
    lengthChecked('ST02', set.controlNumber, 4, 9);
    if (seen.has(set.controlNumber)) throw fieldError(`ST02 '${set.controlNumber}' is used twice in the group`);
    seen.add(set.controlNumber);
    writer.segment({
      id: 'ST',
      elements: [matching('ST01', set.id, /^\d{3}$/, '3 digits'), set.controlNumber, set.implementation ?? ''],
    });
    for (const segment of set.segments) {
      if (X12_ENVELOPE_IDS.has(segment.id)) {
        throw new X12Error(
          'UNEXPECTED_SEGMENT',
          0,
          `Transaction set ${set.controlNumber} holds a ${segment.id}; envelope segments are written by envelope()`,
        );
      }
      writer.segment(segment);
    }
    writer.segment({ id: 'SE', elements: [String(set.segments.length + 2), set.controlNumber] });
  }
  writer.segment({ id: 'GE', elements: [String(input.sets.length), groupControl] });
  writer.segment({ id: 'IEA', elements: ['1', String(input.isa.controlNumber).padStart(9, '0')] });
  return writer.text();
}
