import { describe, expect, it } from 'vitest';
import { components, parseX12, X12_DEFAULT_DELIMITERS, X12Error, type X12ErrorCode } from './x12.parse';
import {
  envelope,
  isaSegment,
  serializeSegments,
  x12Text,
  type EnvelopeInput,
  type IsaFields,
  type X12SegmentInput,
} from './x12.serialize';

const ISA_FIELDS: IsaFields = {
  senderQualifier: 'ZZ',
  senderId: 'CLINIC',
  receiverQualifier: 'ZZ',
  receiverId: 'CLEARINGHOUSE',
  date: '260316',
  time: '0930',
  controlNumber: 42,
  ackRequested: '0',
  usage: 'T',
};

const CLAIM: X12SegmentInput[] = [
  { id: 'BHT', elements: ['0019', '00', 'ACC-2026-1', '20260316', '0930', 'CH'] },
  { id: 'NM1', elements: ['IL', '1', 'RUIZ', 'ANA', '', '', '', 'MI', '1EG4TE5MK73'] },
  { id: 'CLM', elements: ['ACC-2026-1', '125', '', '', ['11', 'B', '1'], 'Y', 'A', 'Y', 'Y'] },
  { id: 'HI', elements: [['ABK', 'M5450'], ['ABF', 'E119'], '', ''] },
  { id: 'SV1', elements: [['HC', '99214', '25', '', ''], '125', 'UN', '1', '', '', ['1', '2']] },
];

function envelopeInput(overrides: Partial<EnvelopeInput> = {}): EnvelopeInput {
  return {
    isa: ISA_FIELDS,
    gs: {
      functionalId: 'HC',
      senderId: 'CLINIC',
      receiverId: 'CLEARINGHOUSE',
      date: '20260316',
      time: '0930',
      controlNumber: 7,
      version: '005010X222A1',
    },
    sets: [{ id: '837', controlNumber: '0001', implementation: '005010X222A1', segments: CLAIM }],
    ...overrides,
  };
}

function failure(run: () => unknown): X12Error {
  try {
    run();
  } catch (error) {
    if (error instanceof X12Error) return error;
    throw error;
  }
  throw new Error('no X12Error thrown');
}

function expectFailure(run: () => unknown, code: X12ErrorCode, message?: string): void {
  const error = failure(run);
  expect(error.code).toBe(code);
  if (message !== undefined) expect(error.message).toBe(message);
}

describe('isaSegment', () => {
  it('builds the 106-character ISA with ids padded and the control number zero-padded', () => {
    const isa = isaSegment(ISA_FIELDS);
    expect(isa).toBe(
      'ISA*00*          *00*          *ZZ*CLINIC         *ZZ*CLEARINGHOUSE  *260316*0930*^*00501*000000042*0*T*:~',
    );
    expect(isa).toHaveLength(106);
  });

  it('places the delimiters where readers look for them (indexes 3, 82, 104, 105)', () => {
    const isa = isaSegment(
      { ...ISA_FIELDS, controlNumber: 999_999_999, usage: 'P', ackRequested: '1' },
      { element: '|', repetition: '{', component: '>', segment: '}' },
    );
    expect([isa[3], isa[82], isa[104], isa[105]]).toEqual(['|', '{', '>', '}']);
    expect(isa).toContain('|999999999|1|P|>}');
    expect(isa).toHaveLength(106);
  });

  it('refuses fields that do not fit their fixed widths', () => {
    expectFailure(
      () => isaSegment({ ...ISA_FIELDS, senderId: 'A-SENDER-ID-16CH' }),
      'ENVELOPE_FIELD',
      "ISA06 'A-SENDER-ID-16CH' is longer than its 15 characters",
    );
    expectFailure(() => isaSegment({ ...ISA_FIELDS, receiverId: '   ' }), 'ENVELOPE_FIELD', 'ISA08 is blank');
    expectFailure(() => isaSegment({ ...ISA_FIELDS, senderQualifier: 'Z' }), 'ENVELOPE_FIELD');
    expectFailure(() => isaSegment({ ...ISA_FIELDS, date: '2026-03-16' }), 'ENVELOPE_FIELD');
    expectFailure(() => isaSegment({ ...ISA_FIELDS, time: '930' }), 'ENVELOPE_FIELD');
    expectFailure(() => isaSegment({ ...ISA_FIELDS, controlNumber: 1_000_000_000 }), 'ENVELOPE_FIELD');
    expectFailure(() => isaSegment({ ...ISA_FIELDS, controlNumber: 1.5 }), 'ENVELOPE_FIELD');
    expectFailure(() => isaSegment({ ...ISA_FIELDS, controlNumber: 0 }), 'ENVELOPE_FIELD');
    expectFailure(() => isaSegment({ ...ISA_FIELDS, usage: 'X' as 'T' }), 'ENVELOPE_FIELD');
    expectFailure(() => isaSegment({ ...ISA_FIELDS, ackRequested: '2' as '0' }), 'ENVELOPE_FIELD');
    expectFailure(() => isaSegment({ ...ISA_FIELDS, authorizationInfo: 'ELEVEN CHRS' }), 'ENVELOPE_FIELD');
  });

  it('refuses a delimiter inside a field, and unusable delimiters', () => {
    expectFailure(() => isaSegment({ ...ISA_FIELDS, senderId: 'CLINIC*1' }), 'BAD_VALUE');
    expectFailure(
      () => isaSegment(ISA_FIELDS, { ...X12_DEFAULT_DELIMITERS, component: '*' }),
      'ISA_DELIMITERS',
      "Cannot write X12: the delimiters '*' '^' '*' '~' repeat",
    );
    expectFailure(() => isaSegment(ISA_FIELDS, { ...X12_DEFAULT_DELIMITERS, element: 'E' }), 'ISA_DELIMITERS');
  });
});

describe('serializeSegments', () => {
  it('writes composites and repetitions and leaves out trailing empty elements and components', () => {
    expect(serializeSegments(CLAIM)).toBe(
      [
        'BHT*0019*00*ACC-2026-1*20260316*0930*CH~',
        'NM1*IL*1*RUIZ*ANA****MI*1EG4TE5MK73~',
        'CLM*ACC-2026-1*125***11:B:1*Y*A*Y*Y~',
        'HI*ABK:M5450*ABF:E119~',
        'SV1*HC:99214:25*125*UN*1***1:2~',
        '',
      ].join('\n'),
    );
  });

  it('writes repetitions with the repetition separator and a segment with no elements as its id', () => {
    const text = serializeSegments(
      [
        { id: 'EB', elements: ['1', '', [['30'], ['98'], ['']]] },
        {
          id: 'HI',
          elements: [
            [
              ['ABK', 'M5450'],
              ['ABF', 'E119', '', ''],
            ],
          ],
        },
        { id: 'LE', elements: ['', ''] },
      ],
      X12_DEFAULT_DELIMITERS,
      { newline: false },
    );
    expect(text).toBe('EB*1**30^98~HI*ABK:M5450^ABF:E119~LE~');
  });

  it('refuses a value holding any delimiter or a control character, naming the element', () => {
    const nm1 = (last: string): X12SegmentInput[] => [
      { id: 'REF', elements: ['EA', 'MRN1'] },
      { id: 'NM1', elements: ['IL', '1', last, 'ANA'] },
    ];
    expectFailure(
      () => serializeSegments(nm1("O'BRIEN*SMITH")),
      'BAD_VALUE',
      "NM103 'O'BRIEN*SMITH' holds the element separator (segment 2); clean free text with x12Text() first",
    );
    for (const bad of ['A:B', 'A^B', 'A~B', 'A\nB', 'A\tB', 'A\u0085B']) {
      expectFailure(() => serializeSegments(nm1(bad)), 'BAD_VALUE');
    }
    expectFailure(
      () => serializeSegments([{ id: 'SV1', elements: [['HC', '99214', 'A:B']] }]),
      'BAD_VALUE',
      "SV101-3 'A:B' holds the component separator (segment 1); clean free text with x12Text() first",
    );
    expect(() =>
      serializeSegments(nm1('O*BRIEN'), { element: '|', repetition: '!', component: '>', segment: '}' }),
    ).not.toThrow();
  });

  it('refuses bad segment ids and an ISA not built by isaSegment()', () => {
    expectFailure(() => serializeSegments([{ id: 'nm1', elements: [] }]), 'SEGMENT_ID');
    expectFailure(() => serializeSegments([{ id: 'CLMX', elements: [] }]), 'SEGMENT_ID');
    expectFailure(() => serializeSegments([{ id: 'ISA', elements: ['00'] }]), 'SEGMENT_ID');
  });
});

describe('envelope', () => {
  it('writes ISA, GS, ST…SE, GE and IEA with the counts and control numbers', () => {
    const text = envelope(envelopeInput());
    expect(text).toBe(
      [
        'ISA*00*          *00*          *ZZ*CLINIC         *ZZ*CLEARINGHOUSE  *260316*0930*^*00501*000000042*0*T*:~',
        'GS*HC*CLINIC*CLEARINGHOUSE*20260316*0930*7*X*005010X222A1~',
        'ST*837*0001*005010X222A1~',
        'BHT*0019*00*ACC-2026-1*20260316*0930*CH~',
        'NM1*IL*1*RUIZ*ANA****MI*1EG4TE5MK73~',
        'CLM*ACC-2026-1*125***11:B:1*Y*A*Y*Y~',
        'HI*ABK:M5450*ABF:E119~',
        'SV1*HC:99214:25*125*UN*1***1:2~',
        'SE*7*0001~',
        'GE*1*7~',
        'IEA*1*000000042~',
        '',
      ].join('\n'),
    );
  });

  it('is read back by parseX12, on one line too', () => {
    const sets = [
      { id: '837', controlNumber: '0001', implementation: '005010X222A1', segments: CLAIM },
      { id: '837', controlNumber: '0002', implementation: '005010X222A1', segments: CLAIM.slice(0, 2) },
    ];
    const text = envelope(envelopeInput({ sets }), { newline: false });
    expect(text).not.toContain('\n');
    const doc = parseX12(text);
    const group = doc.interchanges[0]!.groups[0]!;
    expect(group.version).toBe('005010X222A1');
    expect(group.transactionSets.map((s) => [s.controlNumber, s.segments.length, s.se.elements[0]])).toEqual([
      ['0001', 5, '7'],
      ['0002', 2, '4'],
    ]);
    const sv1 = group.transactionSets[0]!.segments[4]!;
    expect(components(sv1.elements[0]!, doc.delimiters)).toEqual(['HC', '99214', '25']);
  });

  it('refuses envelope segments in a body, a repeated ST02, an empty group and bad GS or ST fields', () => {
    const withBody = (segments: X12SegmentInput[]) =>
      envelopeInput({ sets: [{ id: '837', controlNumber: '0001', segments }] });
    expectFailure(() => envelope(withBody([{ id: 'SE', elements: ['3', '0001'] }])), 'UNEXPECTED_SEGMENT');
    expectFailure(() => envelope(withBody([{ id: 'GS', elements: ['HC'] }])), 'UNEXPECTED_SEGMENT');
    const twice = { id: '837', controlNumber: '0001', segments: CLAIM };
    expectFailure(
      () => envelope(envelopeInput({ sets: [twice, twice] })),
      'ENVELOPE_FIELD',
      "ST02 '0001' is used twice in the group",
    );
    expectFailure(() => envelope(envelopeInput({ sets: [] })), 'ENVELOPE_FIELD');
    expectFailure(() => envelope(envelopeInput({ sets: [{ ...twice, controlNumber: '001' }] })), 'ENVELOPE_FIELD');
    expectFailure(() => envelope(envelopeInput({ sets: [{ ...twice, id: '837P' }] })), 'ENVELOPE_FIELD');
    const gs = envelopeInput().gs;
    expectFailure(() => envelope(envelopeInput({ gs: { ...gs, controlNumber: 0 } })), 'ENVELOPE_FIELD');
    expectFailure(() => envelope(envelopeInput({ gs: { ...gs, date: '260316' } })), 'ENVELOPE_FIELD');
    expectFailure(() => envelope(envelopeInput({ gs: { ...gs, senderId: 'A-GS-SENDER-16CH' } })), 'ENVELOPE_FIELD');
  });

  it('gives the position of a bad value in the written interchange', () => {
    const body: X12SegmentInput[] = [...CLAIM.slice(0, 2), { id: 'N3', elements: ['12 MAIN ST~APT 4'] }];
    const error = failure(() =>
      envelope(envelopeInput({ sets: [{ id: '837', controlNumber: '0001', segments: body }] })),
    );
    expect({ code: error.code, position: error.position }).toEqual({ code: 'BAD_VALUE', position: 6 });
  });
});

describe('x12Text', () => {
  it('turns delimiters and control characters into single spaces and trims, keeping case', () => {
    expect(x12Text("  O'Brien*Smith:Jr^~  ")).toBe("O'Brien Smith Jr");
    expect(x12Text('12 Main St\r\n\tApt 4')).toBe('12 Main St Apt 4');
    expect(x12Text('Muñoz')).toBe('Muñoz');
    expect(x12Text('***')).toBe('');
  });

  it('uses the delimiters it is given', () => {
    const pipes = { element: '|', repetition: '!', component: '>', segment: '}' };
    expect(x12Text('A*B|C!D>E}F', pipes)).toBe('A*B C D E F');
  });

  it('makes any text writable', () => {
    const name = x12Text('Ann\u0000 ~Marie*: ^O\u007fNeil');
    expect(() => serializeSegments([{ id: 'NM1', elements: ['IL', '1', name] }])).not.toThrow();
  });
});
