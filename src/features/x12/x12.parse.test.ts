import { describe, expect, it } from 'vitest';
import {
  components,
  elementOf,
  parseX12,
  repetitions,
  tokenizeX12,
  transactionSetsOf,
  X12Error,
  type X12ErrorCode,
} from './x12.parse';

/** ISA without its terminator: 105 characters, delimiters * ^ : (ASC X12 005010 ISA segment). */
const ISA = 'ISA*00*          *00*          *ZZ*PAYERID        *ZZ*CLINIC         *260316*1200*^*00501*000000001*0*T*:';

/** A small 835 written by hand: segment positions 1–10. */
const REMIT = [
  ISA, // 1
  'GS*HP*PAYERID*CLINIC*20260316*1200*17*X*005010X221A1', // 2
  'ST*835*0001', // 3
  'BPR*I*150*C*ACH', // 4
  'TRN*1*12345*1512345678', // 5
  'CLP*ACC-1*1*200*150**MB*123', // 6
  'SVC*HC:99214:25*200*150**1', // 7
  'SE*6*0001', // 8
  'GE*1*17', // 9
  'IEA*1*000000001', // 10
];

function x12(lines: readonly string[], end = '~\n'): string {
  return lines.map((line) => line + end).join('');
}

/** REMIT with line `position` (1-based) replaced, or removed when `line` is null. */
function remitWith(position: number, line: string | null): string[] {
  const lines = [...REMIT];
  if (line === null) lines.splice(position - 1, 1);
  else lines[position - 1] = line;
  return lines;
}

function failure(text: string): X12Error {
  try {
    parseX12(text);
  } catch (error) {
    if (error instanceof X12Error) return error;
    throw error;
  }
  throw new Error('parseX12 accepted the text');
}

function expectFailure(text: string, code: X12ErrorCode, position: number, message?: string): void {
  const error = failure(text);
  expect({ code: error.code, position: error.position }).toEqual({ code, position });
  if (message !== undefined) expect(error.message).toBe(message);
}

describe('parseX12: a well-formed interchange', () => {
  it('reads delimiters from the ISA and every segment with its 1-based position', () => {
    expect(ISA.length + 1).toBe(106);
    const doc = parseX12(x12(REMIT));
    expect(doc.delimiters).toEqual({ element: '*', repetition: '^', component: ':', segment: '~' });
    expect(doc.segments.map((s) => `${s.position}:${s.id}`)).toEqual([
      '1:ISA',
      '2:GS',
      '3:ST',
      '4:BPR',
      '5:TRN',
      '6:CLP',
      '7:SVC',
      '8:SE',
      '9:GE',
      '10:IEA',
    ]);
    const clp = doc.segments[5]!;
    expect(clp.elements).toEqual(['ACC-1', '1', '200', '150', '', 'MB', '123']);
    expect(elementOf(clp, 1)).toBe('ACC-1');
    expect(elementOf(clp, 5)).toBe('');
    expect(elementOf(clp, 12)).toBe('');
    expect(components(elementOf(doc.segments[6]!, 1), doc.delimiters)).toEqual(['HC', '99214', '25']);
  });

  it('keeps the ISA elements at their fixed widths and exposes the envelope', () => {
    const doc = parseX12(x12(REMIT));
    expect(doc.segments[0]!.elements).toHaveLength(16);
    expect(elementOf(doc.segments[0]!, 6)).toBe('PAYERID        ');
    expect(doc.interchanges).toHaveLength(1);
    const interchange = doc.interchanges[0]!;
    expect(interchange).toMatchObject({
      senderQualifier: 'ZZ',
      senderId: 'PAYERID',
      receiverQualifier: 'ZZ',
      receiverId: 'CLINIC',
      date: '260316',
      time: '1200',
      controlNumber: '000000001',
      ackRequested: '0',
      usage: 'T',
      ta1: [],
    });
    expect(interchange.isa.position).toBe(1);
    expect(interchange.iea.position).toBe(10);
    const group = interchange.groups[0]!;
    expect(group).toMatchObject({
      functionalId: 'HP',
      senderId: 'PAYERID',
      receiverId: 'CLINIC',
      date: '20260316',
      time: '1200',
      controlNumber: '17',
      version: '005010X221A1',
    });
    const set = group.transactionSets[0]!;
    expect({ id: set.id, controlNumber: set.controlNumber, implementation: set.implementation }).toEqual({
      id: '835',
      controlNumber: '0001',
      implementation: '',
    });
    expect(set.st.position).toBe(3);
    expect(set.se.position).toBe(8);
    expect(set.segments.map((s) => s.id)).toEqual(['BPR', 'TRN', 'CLP', 'SVC']);
  });

  it('selects transaction sets by ST01 across groups, with their group for the GS08 check', () => {
    const text = x12([
      ISA,
      'GS*HP*PAYERID*CLINIC*20260316*1200*17*X*005010X221A1',
      'ST*835*0001',
      'BPR*I*150*C*ACH',
      'SE*3*0001',
      'ST*835*0002',
      'BPR*I*90*C*ACH',
      'SE*3*0002',
      'GE*2*17',
      'GS*FA*PAYERID*CLINIC*20260316*1200*18*X*005010X231A1',
      'ST*999*0001*005010X231A1',
      'AK1*HC*5*005010X222A1',
      'AK9*A*1*1*1',
      'SE*4*0001',
      'GE*1*18',
      'IEA*2*000000001',
    ]);
    const doc = parseX12(text);
    expect(transactionSetsOf(doc, '835').map(({ group, set }) => [group.version, set.controlNumber])).toEqual([
      ['005010X221A1', '0001'],
      ['005010X221A1', '0002'],
    ]);
    const [ack] = transactionSetsOf(doc, '999');
    expect(ack?.set.implementation).toBe('005010X231A1');
    expect(ack?.group.functionalId).toBe('FA');
    expect(transactionSetsOf(doc, '277')).toEqual([]);
  });

  it('accepts a UTF-8 BOM and LF, CRLF or nothing after each terminator, with the same segments', () => {
    const plain = tokenizeX12(x12(REMIT, '~')).segments;
    expect(plain).toHaveLength(10);
    for (const text of [
      x12(REMIT, '~\n'),
      x12(REMIT, '~\r\n'),
      `\uFEFF${x12(REMIT, '~\r\n')}`,
      `\uFEFF${x12(REMIT)}`,
    ]) {
      expect(parseX12(text).segments).toEqual(plain);
    }
  });

  it('accepts blank lines between segments and after the IEA', () => {
    expect(parseX12(`${x12(REMIT, '~\r\n\r\n')}\n\n`).segments).toHaveLength(10);
  });

  it('takes non-default delimiters from the ISA, so the usual ones are plain data', () => {
    const isa = ISA.replaceAll('*', '|').replace('|^|', '|!|').replace(/:$/, '>');
    expect(isa.length).toBe(105);
    const text = x12(
      [
        isa,
        'GS|HC|CLINIC|PAYERID|20260316|1200|5|X|005010X222A1',
        'ST|837|0001|005010X222A1',
        "NM1|IL|1|O'NEIL*SMITH|ANN:MARIE~JO",
        'SV1|HC>99214>25|125|UN|1',
        'HI|ABK>M5450!ABF>E119',
        'SE|5|0001',
        'GE|1|5',
        'IEA|1|000000001',
      ],
      '}\r\n',
    );
    const doc = parseX12(text);
    expect(doc.delimiters).toEqual({ element: '|', repetition: '!', component: '>', segment: '}' });
    const [nm1, sv1, hi] = doc.interchanges[0]!.groups[0]!.transactionSets[0]!.segments;
    expect(nm1?.elements).toEqual(['IL', '1', "O'NEIL*SMITH", 'ANN:MARIE~JO']);
    expect(components(elementOf(sv1!, 1), doc.delimiters)).toEqual(['HC', '99214', '25']);
    expect(repetitions(elementOf(hi!, 1), doc.delimiters).map((r) => components(r, doc.delimiters))).toEqual([
      ['ABK', 'M5450'],
      ['ABF', 'E119'],
    ]);
  });

  it('takes a line break as the segment terminator: LF, or CR with the LF of a CRLF skipped', () => {
    for (const end of ['\n', '\r\n']) {
      const doc = parseX12(x12(REMIT, end));
      expect(doc.delimiters.segment).toBe(end.charAt(0));
      expect(doc.segments.map((s) => s.id)).toEqual(REMIT.map((line) => line.slice(0, line.indexOf('*'))));
      expect(doc.segments[5]!.elements).toEqual(['ACC-1', '1', '200', '150', '', 'MB', '123']);
    }
  });

  it('reads a file of two interchanges, each with its own delimiters', () => {
    const second = [
      ISA.replaceAll('*', '|').replace('000000001', '000000002'),
      'GS|HP|PAYERID|CLINIC|20260316|1300|18|X|005010X221A1',
      'ST|835|0001',
      'BPR|I|10|C|ACH',
      'SE|3|0001',
      'GE|1|18',
      'IEA|1|000000002',
    ];
    const doc = parseX12(x12(REMIT) + x12(second, '#\n'));
    expect(doc.interchanges.map((i) => [i.controlNumber, i.delimiters.element, i.delimiters.segment])).toEqual([
      ['000000001', '*', '~'],
      ['000000002', '|', '#'],
    ]);
    expect(doc.segments).toHaveLength(17);
    expect(doc.interchanges[1]!.isa.position).toBe(11);
  });

  it('keeps TA1 interchange acknowledgments, which sit outside any group', () => {
    const doc = parseX12(x12([ISA, 'TA1*000000123*260316*1200*A*000', 'IEA*0*000000001']));
    expect(doc.interchanges[0]!.ta1.map((s) => s.elements[3])).toEqual(['A']);
    expect(doc.interchanges[0]!.groups).toEqual([]);
  });
});

describe('parseX12: refusals', () => {
  it('EMPTY: no text, or only a BOM and line breaks', () => {
    for (const text of ['', '\uFEFF', '\r\n\n']) expectFailure(text, 'EMPTY', 0);
  });

  it('NOT_X12: a file that does not start with ISA', () => {
    expectFailure(x12(REMIT.slice(1)), 'NOT_X12', 1);
    expectFailure('<?xml version="1.0"?><claims/>', 'NOT_X12', 1);
    expectFailure('ISAAC NEWTON,1643\n', 'NOT_X12', 1);
    expect(failure('MSH|^~\\&|LAB').message).toBe(
      "Segment 1 should be an ISA interchange header but starts 'MSH|^~\\&|LAB'",
    );
  });

  it('ISA_LENGTH: an ISA of 105 characters', () => {
    const short = ISA.replace('PAYERID        ', 'PAYERID       ');
    expectFailure(
      x12(remitWith(1, short)),
      'ISA_LENGTH',
      1,
      'The ISA segment (segment 1) is 105 characters with its terminator; ASC X12 005010 fixes it at 106 ' +
        '(ISA06 is 14 characters, must be 15)',
    );
  });

  it('ISA_LENGTH: an ISA of 107 characters', () => {
    const long = ISA.replace('000000001', '0000000001');
    expectFailure(
      x12(remitWith(1, long)),
      'ISA_LENGTH',
      1,
      'The ISA segment (segment 1) is 107 characters with its terminator; ASC X12 005010 fixes it at 106 ' +
        '(ISA13 is 10 characters, must be 9)',
    );
  });

  it('ISA_LENGTH: an ISA cut short, or with an element too long and another too short', () => {
    expectFailure('ISA*00*          *00*', 'ISA_LENGTH', 1);
    const shifted = ISA.replace('PAYERID        ', 'PAYERID         ').replace('CLINIC         ', 'CLINIC        ');
    expect(failure(x12(remitWith(1, shifted))).message).toContain(
      'ISA06 is 16 characters, must be 15; ISA08 is 14 characters, must be 15',
    );
  });

  it('ISA_DELIMITERS: delimiters that repeat or are letters', () => {
    expectFailure(x12(remitWith(1, ISA.replace('*^*', '*:*'))), 'ISA_DELIMITERS', 1);
    expectFailure(x12(remitWith(1, ISA.replace('*T*:', '*T*A'))), 'ISA_DELIMITERS', 1);
  });

  it('ISA_VERSION: an interchange of another version than 00501', () => {
    expectFailure(
      x12(remitWith(1, ISA.replace('00501', '00401'))),
      'ISA_VERSION',
      1,
      "ISA12 is '00401' (segment 1); only ASC X12 005010 interchanges (00501) are read",
    );
  });

  it('SEGMENT_ID: an empty segment or an id that is not 2–3 uppercase letters or digits', () => {
    expectFailure(x12(REMIT).replace('BPR', 'bpr'), 'SEGMENT_ID', 4);
    expectFailure(x12(REMIT).replace('~\nTRN', '~~\nTRN'), 'SEGMENT_ID', 5);
    expectFailure(x12(remitWith(5, 'TRNX*1*12345')), 'SEGMENT_ID', 5);
  });

  it('UNTERMINATED: the last segment has no terminator', () => {
    expectFailure(
      x12(REMIT).slice(0, -2),
      'UNTERMINATED',
      10,
      "Segment 10 'IEA*1*000000001' has no segment terminator '~'",
    );
  });

  it('TRAILING_DATA: anything but another ISA after the IEA', () => {
    expectFailure(
      `${x12(REMIT)}GS*HP*X~\n`,
      'TRAILING_DATA',
      11,
      "'GS*HP*X~\\n' follows the IEA at segment 10; only another ISA may follow an IEA",
    );
    expectFailure(`${x12(REMIT)}  \n`, 'TRAILING_DATA', 11);
  });

  it('SE_COUNT: SE01 differs from the segments from ST to SE', () => {
    expectFailure(
      x12(remitWith(8, 'SE*5*0001')),
      'SE_COUNT',
      8,
      "SE01 is '5' but the transaction set starting at segment 3 has 6 segments (segment 8)",
    );
    expectFailure(x12(remitWith(8, 'SE**0001')), 'SE_COUNT', 8);
    expectFailure(x12(remitWith(8, 'SE*six*0001')), 'SE_COUNT', 8);
  });

  it('CONTROL_MISMATCH: SE02 ≠ ST02', () => {
    expectFailure(
      x12(remitWith(8, 'SE*6*0002')),
      'CONTROL_MISMATCH',
      8,
      "SE02 is '0002' but ST02 at segment 3 is '0001' (segment 8)",
    );
  });

  it('GE_COUNT: GE01 differs from the transaction sets in the group', () => {
    expectFailure(
      x12(remitWith(9, 'GE*2*17')),
      'GE_COUNT',
      9,
      "GE01 is '2' but the functional group starting at segment 2 has 1 transaction sets (segment 9)",
    );
  });

  it('CONTROL_MISMATCH: GE02 ≠ GS06', () => {
    expectFailure(
      x12(remitWith(9, 'GE*1*017')),
      'CONTROL_MISMATCH',
      9,
      "GE02 is '017' but GS06 at segment 2 is '17' (segment 9)",
    );
  });

  it('IEA_COUNT: IEA01 differs from the groups in the interchange', () => {
    expectFailure(
      x12(remitWith(10, 'IEA*0*000000001')),
      'IEA_COUNT',
      10,
      "IEA01 is '0' but the interchange starting at segment 1 has 1 functional groups (segment 10)",
    );
  });

  it('CONTROL_MISMATCH: IEA02 ≠ ISA13', () => {
    expectFailure(
      x12(remitWith(10, 'IEA*1*000000002')),
      'CONTROL_MISMATCH',
      10,
      "IEA02 is '000000002' but ISA13 at segment 1 is '000000001' (segment 10)",
    );
  });

  it('MISSING_TRAILER: the file ends before the IEA', () => {
    expectFailure(
      x12(REMIT.slice(0, -1)),
      'MISSING_TRAILER',
      9,
      'the file ends at segment 9, but the interchange starting at segment 1 (ISA) has no IEA',
    );
    expectFailure(x12([ISA]), 'MISSING_TRAILER', 1);
  });

  it('MISSING_TRAILER: an ST, GS or ISA before the SE, GE or IEA of the one open', () => {
    const lines = remitWith(8, null);
    lines.splice(7, 0, 'ST*835*0002', 'BPR*I*0*C*NON', 'SE*3*0002');
    expectFailure(
      x12(lines),
      'MISSING_TRAILER',
      8,
      'segment 8 is ST, but the transaction set starting at segment 3 (ST) has no SE',
    );
    expectFailure(x12(remitWith(8, null)), 'MISSING_TRAILER', 8);
    expectFailure(
      x12([...REMIT.slice(0, 8), ...REMIT.slice(1, 8), 'GE*1*17', 'IEA*1*000000001']),
      'MISSING_TRAILER',
      9,
      'segment 9 is GS, but the functional group starting at segment 2 (GS) has no GE',
    );
    expectFailure(x12(remitWith(9, null)), 'MISSING_TRAILER', 9);
    expectFailure(
      x12([...REMIT.slice(0, 9), ...REMIT]),
      'MISSING_TRAILER',
      10,
      'segment 10 is ISA, but the interchange starting at segment 1 (ISA) has no IEA',
    );
  });

  it('UNEXPECTED_SEGMENT: an ST outside a group', () => {
    expectFailure(
      x12(remitWith(2, null)),
      'UNEXPECTED_SEGMENT',
      2,
      'ST at segment 2 is outside a functional group: no GS opens one before it',
    );
  });

  it('UNEXPECTED_SEGMENT: data outside a transaction set', () => {
    const lines = [...REMIT];
    lines.splice(8, 0, 'CLP*ACC-2*1*50*0**MB*124');
    expectFailure(
      x12(lines),
      'UNEXPECTED_SEGMENT',
      9,
      'CLP at segment 9 is outside a transaction set; only envelope segments may be there',
    );
    expectFailure(x12([ISA, 'BPR*I*0*C*NON', 'IEA*0*000000001']), 'UNEXPECTED_SEGMENT', 2);
  });

  it('UNEXPECTED_SEGMENT: a trailer that closes nothing, or a TA1 inside a group', () => {
    expectFailure(x12([ISA, 'GS*HP*P*C*20260316*1200*1*X*005010X221A1', 'SE*1*0001']), 'UNEXPECTED_SEGMENT', 3);
    expectFailure(x12([ISA, 'GE*0*1', 'IEA*0*000000001']), 'UNEXPECTED_SEGMENT', 2);
    expectFailure(x12(remitWith(3, 'TA1*000000123*260316*1200*A*000')), 'UNEXPECTED_SEGMENT', 3);
  });

  it('throws an X12Error that is an Error', () => {
    const error = failure(x12(remitWith(8, 'SE*5*0001')));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('X12Error');
  });
});
