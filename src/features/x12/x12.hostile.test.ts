/**
 * Hostile files at the x12 layer: every reader (835, 999, 277CA, 271, 277) is given broken delimiters, cut files,
 * control numbers that disagree, text that is not X12 at all and an 837P meant for someone else, and must refuse
 * each whole with its own error and a message naming the fault. The files are written here from the structure of
 * each implementation guide (005010X221A1, X231A1, X214, X279A1, X212).
 */
import { describe, expect, it } from 'vitest';
import { AcknowledgementFormatError } from './x12.acknowledgement';
import { readAcknowledgement } from './x12.acknowledgement-file';
import { EligibilityError, read271 } from './x12.270-271';
import { ClaimStatusError, read277 } from './x12.276-277';
import { EraError, readEras } from './x12.835';
import { X12Error } from './x12.parse';

interface Delimiters {
  element: string;
  repetition: string;
  component: string;
  segment: string;
}

const STANDARD: Delimiters = { element: '*', repetition: '^', component: ':', segment: '~' };

interface FileParts {
  /** GS01 functional identifier. */
  gs01: string;
  /** GS08 and ST03. */
  version: string;
  /** ST01. */
  st01: string;
  /** The set's body, written with * ^ : (converted to the file's delimiters). */
  body: readonly string[];
}

interface Fault {
  delimiters?: Delimiters;
  /** ISA06 as written (15 characters when right). */
  isa06?: string;
  isa13?: string;
  iea02?: string;
  iea01?: string;
  gs06?: string;
  ge02?: string;
  st02?: string;
  se02?: string;
  /** Added to the counted SE01. */
  se01Off?: number;
  noIea?: boolean;
}

/** A whole interchange of one group and one set: SE01, GE01 and IEA01 counted, trailers copied from headers. */
function x12File(parts: FileParts, fault: Fault = {}): string {
  const d = fault.delimiters ?? STANDARD;
  const isa06 = fault.isa06 ?? 'PAYERSENDER    ';
  const isa13 = fault.isa13 ?? '000000912';
  const st02 = fault.st02 ?? '0001';
  const gs06 = fault.gs06 ?? '912';
  const isa = [
    'ISA',
    '00',
    '          ',
    '00',
    '          ',
    'ZZ',
    isa06,
    'ZZ',
    'CLINIC         ',
    '261201',
    '0900',
    d.repetition,
    '00501',
    isa13,
    '0',
    'T',
    d.component,
  ].join(d.element);
  // One pass, so that a delimiter changed to another standard one (a ':' repetition separator) is not changed twice.
  const own = (text: string) =>
    text.replace(/[*^:]/g, (c) => (c === '*' ? d.element : c === '^' ? d.repetition : d.component));
  const set = [`ST*${parts.st01}*${st02}*${parts.version}`, ...parts.body];
  set.push(`SE*${set.length + 1 + (fault.se01Off ?? 0)}*${fault.se02 ?? st02}`);
  const segments = [
    isa,
    own(`GS*${parts.gs01}*PAYERSENDER*CLINIC*20261201*0900*${gs06}*X*${parts.version}`),
    ...set.map(own),
    own(`GE*1*${fault.ge02 ?? gs06}`),
    ...(fault.noIea ? [] : [own(`IEA*${fault.iea01 ?? '1'}*${fault.iea02 ?? isa13}`)]),
  ];
  return segments.map((s) => `${s}${d.segment}\n`).join('');
}

/** 835 (005010X221A1): one payment of one claim of one line, balanced. */
const ERA: FileParts = {
  gs01: 'HP',
  version: '005010X221A1',
  st01: '835',
  body: [
    'BPR*I*150*C*ACH*CCP*01*999999992*DA*123456789*1512345678**01*999988880*DA*98765*20261120',
    'TRN*1*EFT-912*1512345678',
    'DTM*405*20261119',
    'N1*PR*Aetna',
    'N3*151 FARMINGTON AVENUE',
    'N4*HARTFORD*CT*06156',
    'N1*PE*Riverside Family Practice LLC*XX*1667788990',
    'LX*1',
    'CLP*ACC-912*1*200*150*50*12*ICN912',
    'NM1*QC*1*DOE*JANE****MI*W1',
    'SVC*HC:99214*200*150**1',
    'DTM*472*20261101',
    'CAS*PR*1*50',
  ],
};

/** 999 (005010X231A1): group 201 of one 837 accepted. */
const ACK_999: FileParts = {
  gs01: 'FA',
  version: '005010X231A1',
  st01: '999',
  body: ['AK1*HC*201*005010X222A1', 'AK2*837*0301*005010X222A1', 'IK5*A', 'AK9*A*1*1*1'],
};

/** 277CA (005010X214): the clearinghouse accepts one claim. */
const ACK_277CA: FileParts = {
  gs01: 'HN',
  version: '005010X214',
  st01: '277',
  body: [
    'BHT*0085*08*277CA-912*20261201*0900*TH',
    'HL*1**20*1',
    'NM1*AY*2*PRAIRIE CLEARINGHOUSE*****46*PRAIRIECH',
    'TRN*1*CH912',
    'DTP*050*D8*20261201',
    'DTP*009*D8*20261201',
    'HL*2*1*21*1',
    'NM1*41*2*RIVERSIDE FAMILY PRACTICE LLC*****46*371234567',
    'TRN*2*BATCH-912',
    'STC*A1:19:PR*20261201*WQ*200',
    'QTY*90*1',
    'AMT*YU*200',
    'HL*3*2*19*1',
    'NM1*85*2*RIVERSIDE FAMILY PRACTICE LLC*****XX*1667788990',
    'TRN*1*0',
    'QTY*QA*1',
    'HL*4*3*PT',
    'NM1*QC*1*DOE*JANE****MI*W1',
    'TRN*2*ACC-912',
    'STC*A2:20:PR*20261201*WQ*200',
    'REF*D9*CH000912',
    'DTP*472*D8*20261120',
  ],
};

/** 271 (005010X279A1): the payer says one subscriber is covered. */
const ELIGIBILITY_271: FileParts = {
  gs01: 'HB',
  version: '005010X279A1',
  st01: '271',
  body: [
    'BHT*0022*11*ELIG-912*20261201*0900',
    'HL*1**20*1',
    'NM1*PR*2*Aetna*****PI*60054',
    'HL*2*1*21*1',
    'NM1*1P*2*Riverside Family Practice LLC*****XX*1667788990',
    'HL*3*2*22*0',
    'TRN*2*TRC912*9371234567',
    'NM1*IL*1*DOE*JANE****MI*W1',
    'DMG*D8*19800101*F',
    'EB*1*IND*30^1*PR*Choice POS II',
  ],
};

/** 277 (005010X212): the payer answers where one claim stands. */
const STATUS_277: FileParts = {
  gs01: 'HN',
  version: '005010X212',
  st01: '277',
  body: [
    'BHT*0010*08*R-912*20261201*0900*DG',
    'HL*1**20*1',
    'NM1*PR*2*Aetna*****PI*60054',
    'HL*2*1*21*1',
    'NM1*41*2*Riverside Family Practice LLC*****46*RIVERSIDE',
    'HL*3*2*19*1',
    'NM1*1P*2*Riverside Family Practice LLC*****XX*1667788990',
    'HL*4*3*22*0',
    'NM1*IL*1*DOE*JANE****MI*W1',
    'TRN*2*ACC-912',
    'STC*F1:65*20261201**200*150',
  ],
};

/** 837P (005010X222A1): one claim, as a clinic sends it; no reader of an answer may take it. */
const CLAIM_837P: FileParts = {
  gs01: 'HC',
  version: '005010X222A1',
  st01: '837',
  body: [
    'BHT*0019*00*B-912*20261201*0900*CH',
    'NM1*41*2*RIVERSIDE FAMILY PRACTICE LLC*****46*371234567',
    'PER*IC*BILLING OFFICE*TE*2175550100',
    'NM1*40*2*AETNA*****46*60054',
    'HL*1**20*1',
    'NM1*85*2*RIVERSIDE FAMILY PRACTICE LLC*****XX*1667788990',
    'N3*418 MAPLE AVENUE',
    'N4*SPRINGFIELD*IL*62701',
    'REF*EI*371234567',
    'HL*2*1*22*0',
    'SBR*P*18*******CI',
    'NM1*IL*1*DOE*JANE****MI*W1',
    'NM1*PR*2*AETNA*****PI*60054',
    'CLM*ACC-912*200***11:B:1*Y*A*Y*Y',
    'HI*ABK:E119',
    'LX*1',
    'SV1*HC:99214*200*UN*1***1',
    'DTP*472*D8*20261101',
  ],
};

type ErrorClass = new (...args: never[]) => Error & { code: string };

interface Reader {
  name: string;
  file: FileParts;
  read: (text: string) => unknown;
  /** The reader's error for a file that is not X12 or breaks its envelope. */
  envelopeError: ErrorClass;
  /** The reader's error (and code) for an X12 file of the wrong set. */
  wrongSet: { error: ErrorClass; code: string; message: RegExp };
  /** The envelope error's code from the X12 code: the acknowledgement reader folds them into one. */
  envelopeCode: (x12Code: string) => string;
}

const READERS: Reader[] = [
  {
    name: '835',
    file: ERA,
    read: readEras,
    envelopeError: X12Error,
    wrongSet: { error: EraError, code: 'NOT_835', message: /holds no 835 .*it holds a health care claim \(837\)/ },
    envelopeCode: (code) => code,
  },
  {
    name: '999',
    file: ACK_999,
    read: readAcknowledgement,
    envelopeError: AcknowledgementFormatError,
    wrongSet: { error: AcknowledgementFormatError, code: 'NOT_AN_ACKNOWLEDGEMENT', message: /no 999 or 277CA.*837/ },
    envelopeCode: () => 'X12_INVALID',
  },
  {
    name: '277CA',
    file: ACK_277CA,
    read: readAcknowledgement,
    envelopeError: AcknowledgementFormatError,
    wrongSet: { error: AcknowledgementFormatError, code: 'NOT_AN_ACKNOWLEDGEMENT', message: /no 999 or 277CA.*837/ },
    envelopeCode: () => 'X12_INVALID',
  },
  {
    name: '271',
    file: ELIGIBILITY_271,
    read: read271,
    envelopeError: X12Error,
    wrongSet: { error: EligibilityError, code: 'NOT_271', message: /holds no 271 .*a health care claim \(837\)/ },
    envelopeCode: (code) => code,
  },
  {
    name: '277',
    file: STATUS_277,
    read: read277,
    envelopeError: X12Error,
    wrongSet: { error: ClaimStatusError, code: 'NOT_277', message: /no 277 claim status response.*837/ },
    envelopeCode: (code) => code,
  },
];

function refusal(read: (text: string) => unknown, text: string): Error & { code: string } {
  try {
    read(text);
  } catch (error) {
    if (error instanceof Error && 'code' in error) return error as Error & { code: string };
    throw error;
  }
  throw new Error('the file was accepted');
}

/** Each hostile file: its name, how it is made from the reader's good file, the X12 code and the message. */
const HOSTILE: { name: string; text: (file: FileParts) => string; code: string; message: RegExp }[] = [
  {
    name: 'an ISA one character short (ISA06 of 14)',
    text: (file) => x12File(file, { isa06: 'PAYERSENDER   ' }),
    code: 'ISA_LENGTH',
    message: /ISA segment \(segment 1\) is 105 characters.*ISA06 is 14 characters, must be 15/,
  },
  {
    name: 'an ISA one character long (ISA06 of 16)',
    text: (file) => x12File(file, { isa06: 'PAYERSENDER     ' }),
    code: 'ISA_LENGTH',
    message: /is 107 characters.*ISA06 is 16 characters, must be 15/,
  },
  {
    name: 'an ISA cut off before its 16 elements',
    text: (file) => x12File(file).slice(0, 60),
    code: 'ISA_LENGTH',
    message: /has \d+ elements before its text runs out/,
  },
  {
    name: 'the element separator also the segment terminator',
    text: (file) => x12File(file, { delimiters: { ...STANDARD, segment: '*' } }),
    code: 'ISA_DELIMITERS',
    message: /unusable: the delimiters '\*' '\^' ':' '\*' repeat/,
  },
  {
    name: 'the repetition separator also the component separator',
    text: (file) => x12File(file, { delimiters: { ...STANDARD, repetition: ':' } }),
    code: 'ISA_DELIMITERS',
    message: /unusable: the delimiters '\*' ':' ':' '~' repeat/,
  },
  {
    name: 'the repetition separator also the segment terminator',
    text: (file) => x12File(file, { delimiters: { ...STANDARD, repetition: '~' } }),
    code: 'ISA_DELIMITERS',
    message: /unusable: the delimiters '\*' '~' ':' '~' repeat/,
  },
  {
    name: 'a letter as the component separator',
    text: (file) => x12File(file, { delimiters: { ...STANDARD, component: 'A' } }),
    code: 'ISA_DELIMITERS',
    message: /the component separator 'A' is a letter, digit or space/,
  },
  {
    name: 'no IEA',
    text: (file) => x12File(file, { noIea: true }),
    code: 'MISSING_TRAILER',
    message: /the file ends at segment \d+, but the interchange starting at segment 1 \(ISA\) has no IEA/,
  },
  {
    name: 'a file cut in the middle of a segment',
    text: (file) => {
      const whole = x12File(file);
      return whole.slice(0, whole.indexOf('\nSE*') + 5);
    },
    code: 'UNTERMINATED',
    message: /Segment \d+ 'SE\*\d' has no segment terminator '~'/,
  },
  {
    name: 'a file cut after a whole segment, inside its transaction set',
    text: (file) => {
      const whole = x12File(file);
      return whole.slice(0, whole.indexOf('\nSE*') + 1);
    },
    code: 'MISSING_TRAILER',
    message: /the file ends at segment \d+, but the transaction set starting at segment 3 \(ST\) has no SE/,
  },
  {
    name: 'an SE count one too many',
    text: (file) => x12File(file, { se01Off: 1 }),
    code: 'SE_COUNT',
    message: /SE01/,
  },
  {
    name: 'an SE count one too few',
    text: (file) => x12File(file, { se01Off: -1 }),
    code: 'SE_COUNT',
    message: /SE01/,
  },
  {
    name: 'an IEA count of 2 groups for 1',
    text: (file) => x12File(file, { iea01: '2' }),
    code: 'IEA_COUNT',
    message: /IEA01/,
  },
  {
    name: 'ISA13 ≠ IEA02',
    text: (file) => x12File(file, { iea02: '000000913' }),
    code: 'CONTROL_MISMATCH',
    message: /IEA02 is '000000913' but ISA13 at segment 1 is '000000912'/,
  },
  {
    name: 'GS06 ≠ GE02',
    text: (file) => x12File(file, { ge02: '913' }),
    code: 'CONTROL_MISMATCH',
    message: /GE02 is '913' but GS06 at segment 2 is '912'/,
  },
  {
    name: 'ST02 ≠ SE02',
    text: (file) => x12File(file, { se02: '0002' }),
    code: 'CONTROL_MISMATCH',
    message: /SE02 is '0002' but ST02 at segment 3 is '0001'/,
  },
  {
    name: 'control numbers equal in value but not as written (IEA02 912 for 000000912)',
    text: (file) => x12File(file, { iea02: '912' }),
    code: 'CONTROL_MISMATCH',
    message: /IEA02 is '912' but ISA13/,
  },
  {
    name: 'an empty file',
    text: () => '',
    code: 'EMPTY',
    message: /The file is empty/,
  },
  {
    name: 'a byte-order mark and line breaks only',
    text: () => '\uFEFF\r\n\r\n',
    code: 'EMPTY',
    message: /The file is empty/,
  },
  {
    name: 'binary bytes (the start of a PNG)',
    text: () => '\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR\u0000\u0000\u0001\u0000',
    code: 'NOT_X12',
    message: /Segment 1 should be an ISA interchange header but starts/,
  },
  {
    name: 'binary bytes (a ZIP archive read as text)',
    text: () => 'PK\u0003\u0004\u0014\u0000\u0008\u0000\u0008\u0000\uFFFD\uFFFD',
    code: 'NOT_X12',
    message: /should be an ISA interchange header/,
  },
  {
    name: 'an HTML page (a portal login screen saved instead of the file)',
    text: () => '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Session expired</body></html>\n',
    code: 'NOT_X12',
    message: /should be an ISA interchange header but starts '<!DOCTYPE html>/,
  },
  {
    name: 'ISA followed by letters instead of a separator',
    text: () => 'ISAAC NEWTON WROTE THIS',
    code: 'NOT_X12',
    message: /should be an ISA interchange header/,
  },
  {
    name: 'a NUL byte inside an element',
    text: (file) => x12File({ ...file, body: file.body.map((s, i) => (i === 1 ? `${s}\u0000` : s)) }),
    code: 'BAD_CHARACTER',
    message: /segment 5 .*a control character \(U\+0000\)/i,
  },
];

describe.each(READERS)('the $name reader refuses a hostile file', (reader) => {
  it('reads its good file (the base of every hostile one)', () => {
    expect(() => reader.read(x12File(reader.file))).not.toThrow();
  });

  it.each(HOSTILE)('$name', ({ text, code, message }) => {
    const error = refusal(reader.read, text(reader.file));
    expect(error).toBeInstanceOf(reader.envelopeError);
    expect(error.code).toBe(reader.envelopeCode(code));
    expect(error.message).toMatch(message);
  });

  it('a set whose ST01 is a name of Object.prototype, refused as the wrong set, not read as a code table entry', () => {
    const error = refusal(reader.read, x12File({ ...CLAIM_837P, st01: 'constructor' }));
    expect(error).toBeInstanceOf(reader.wrongSet.error);
    expect(error.message).not.toMatch(/function|native code/);
  });

  it('an 837P, a claim the clinic sends, not an answer to read', () => {
    const error = refusal(reader.read, x12File(CLAIM_837P));
    expect(error).toBeInstanceOf(reader.wrongSet.error);
    expect(error.code).toBe(reader.wrongSet.code);
    expect(error.message).toMatch(reader.wrongSet.message);
  });

  it('reads the same file written with other delimiters, control characters among them', () => {
    const delimiters = { element: '\u001d', repetition: '\u001f', component: '\u001e', segment: '\u001c' };
    // Composite codes are kept as written (STC01 of a 277), so the file's own separators are put back to compare.
    const asStandard = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
        typeof v === 'string' ? v.replaceAll('\u001e', ':').replaceAll('\u001f', '^') : v,
      );
    expect(asStandard(reader.read(x12File(reader.file, { delimiters })))).toEqual(
      asStandard(reader.read(x12File(reader.file))),
    );
  });
});

describe('a large 835', () => {
  it('parses a ~5 MB remittance of 20,000 claims with every claim and line counted', () => {
    const claims = 20_000;
    const body: string[] = [
      `BPR*I*${claims * 150}*C*ACH*CCP*01*999999992*DA*123456789*1512345678**01*999988880*DA*98765*20261120`,
      'TRN*1*EFT-BIG*1512345678',
      'DTM*405*20261119',
      'N1*PR*Aetna',
      'N3*151 FARMINGTON AVENUE',
      'N4*HARTFORD*CT*06156',
      'N1*PE*Riverside Family Practice LLC*XX*1667788990',
      'LX*1',
    ];
    for (let i = 0; i < claims; i++) {
      body.push(
        `CLP*ACC-${i}*1*200*150*50*12*ICN${String(i).padStart(10, '0')}`,
        `NM1*QC*1*PATIENT${i}*ANY****MI*W${String(i).padStart(9, '0')}`,
        'REF*EA*MEDICAL-RECORD-0001',
        'DTM*232*20261101',
        'SVC*HC:99213*120*90**1',
        'DTM*472*20261101',
        'CAS*PR*1*30',
        'REF*6R*LINE-CONTROL-1',
        'SVC*HC:36415*80*60**1',
        'DTM*472*20261101',
        'CAS*PR*2*20',
        'REF*6R*LINE-CONTROL-2',
      );
    }
    const text = x12File({ ...ERA, body });
    expect(text.length).toBeGreaterThan(4_500_000);
    expect(text.length).toBeLessThan(6_000_000);
    const [era, ...more] = readEras(text);
    expect(more).toHaveLength(0);
    expect(era?.paymentCents).toBe(claims * 15_000);
    expect(era?.claims).toHaveLength(claims);
    expect(era?.claims.reduce((n, c) => n + c.lines.length, 0)).toBe(claims * 2);
    expect(era?.claims.at(-1)).toMatchObject({ chargeCents: 20_000, paidCents: 15_000 });
  });
});

describe('a file of two interchanges, each with its own delimiters', () => {
  const other: Delimiters = { element: '|', repetition: '!', component: '>', segment: "'" };

  it('reads each 277CA with its own component separator', () => {
    const second = { ...ACK_277CA, body: ACK_277CA.body.map((s) => s.replace('ACC-912', 'ACC-913')) };
    const ack = readAcknowledgement(x12File(ACK_277CA) + x12File(second, { delimiters: other, isa13: '000000913' }));
    expect(ack).toMatchObject({
      kind: '277CA',
      claims: [
        { accountNumber: 'ACC-912', answer: 'Accepted' },
        { accountNumber: 'ACC-913', answer: 'Accepted' },
      ],
    });
  });

  it('reads each 999 with its own component separator', () => {
    const rejecting = {
      ...ACK_999,
      body: [
        'AK1*HC*201*005010X222A1',
        'AK2*837*0301*005010X222A1',
        'IK3*CLM*22*2300*8',
        'IK4*5:3*1325*7*9',
        'IK5*R*5',
        'AK9*R*1*1*0',
      ],
    };
    const ack = readAcknowledgement(x12File(rejecting) + x12File(rejecting, { delimiters: other, isa13: '000000913' }));
    if (ack.kind !== '999') throw new Error('not a 999');
    const messages = ack.groups.flatMap((g) => g.sets.flatMap((s) => s.errors.map((e) => e.message)));
    expect(messages).toHaveLength(6);
    expect(messages[1]).toBe("CLM05-3 (element 1325): invalid code value '9'");
    expect(messages.slice(3)).toEqual(messages.slice(0, 3));
  });
});
