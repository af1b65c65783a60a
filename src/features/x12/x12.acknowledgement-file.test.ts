import { describe, expect, it } from 'vitest';
import { ack277CA, ack999 } from '@/testing/x12-acknowledgements';
import { AcknowledgementFormatError } from './x12.acknowledgement';
import { readAcknowledgement } from './x12.acknowledgement-file';

/** A 999 rejecting transaction set 0301 of group 201, written out whole (ASC X12 005010X231A1). */
const REJECTING_999 = [
  'ISA*00*          *00*          *ZZ*PRAIRIECH      *30*371234567      *261124*1130*^*00501*000000777*0*T*:~',
  'GS*FA*PRAIRIECH*371234567*20261124*1130*777*X*005010X231A1~',
  'ST*999*0001*005010X231A1~',
  'AK1*HC*201*005010X222A1~',
  'AK2*837*0301*005010X222A1~',
  'IK3*CLM*22*2300*8~',
  'IK4*5:3*1325*7*9~',
  'IK3*NM1*10*2010AA*8~',
  'IK4*9*67*I12*123~',
  'IK5*R*5~',
  'AK9*R*1*1*0~',
  'SE*10*0001~',
  'GE*1*777~',
  'IEA*1*000000777~',
  '',
].join('\n');

function refusal(text: string): AcknowledgementFormatError {
  try {
    readAcknowledgement(text);
  } catch (error) {
    if (error instanceof AcknowledgementFormatError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('reading a 999', () => {
  it('reads a rejected set with its segment and element errors in words', () => {
    const ack = readAcknowledgement(REJECTING_999);
    expect(ack).toEqual({
      kind: '999',
      interchange: { senderId: 'PRAIRIECH', controlNumber: '000000777' },
      groups: [
        {
          functionalId: 'HC',
          groupControlNumber: '201',
          code: 'R',
          accepted: false,
          errors: [],
          sets: [
            {
              setControlNumber: '0301',
              code: 'R',
              accepted: false,
              errors: [
                {
                  setControlNumber: '0301',
                  segment: 'IK3',
                  code: '8',
                  message: 'CLM (segment 22 of the set, loop 2300): segment has data element errors',
                },
                {
                  setControlNumber: '0301',
                  segment: 'IK4',
                  code: '7',
                  message: "CLM05-3 (element 1325): invalid code value '9'",
                },
                {
                  setControlNumber: '0301',
                  segment: 'IK3',
                  code: '8',
                  message: 'NM1 (segment 10 of the set, loop 2010AA): segment has data element errors',
                },
                {
                  setControlNumber: '0301',
                  segment: 'IK4',
                  code: 'I12',
                  message:
                    "NM109 (element 67): value does not match the pattern the implementation guide requires '123'",
                },
                {
                  setControlNumber: '0301',
                  segment: 'IK5',
                  code: '5',
                  message: 'transaction set 0301 rejected: one or more segments in error',
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it('reads acceptance, with errors noted (E) counted as accepted', () => {
    const ack = readAcknowledgement(
      ack999({
        interchangeControlNumber: 5,
        groupControlNumber: 12,
        sets: [
          { controlNumber: '0007', code: 'A' },
          { controlNumber: '0008', code: 'E', errors: ['IK3*REF*30*2400*I9'] },
        ],
      }),
    );
    if (ack.kind !== '999') throw new Error('not a 999');
    expect(ack.groups[0]).toMatchObject({ groupControlNumber: '12', code: 'A', accepted: true });
    expect(ack.groups[0]!.sets.map((s) => [s.setControlNumber, s.code, s.accepted])).toEqual([
      ['0007', 'A', true],
      ['0008', 'E', true],
    ]);
    expect(ack.groups[0]!.sets[1]!.errors[0]!.message).toBe(
      'REF (segment 30 of the set, loop 2400): segment the implementation guide does not use in this situation is present',
    );
  });

  it('refuses a 999 without its trailer or with an unknown code', () => {
    const noIk5 = REJECTING_999.replace('IK5*R*5~\n', '').replace('SE*10*', 'SE*9*');
    expect(refusal(noIk5).message).toMatch(/AK2 of transaction set 0301 has no IK5/);
    const badCode = REJECTING_999.replace('AK9*R*1*1*0', 'AK9*Q*1*1*0');
    expect(refusal(badCode).message).toMatch(/AK9-01 'Q' is not an acknowledgement code/);
    const stray = REJECTING_999.replace('AK2*837*0301*005010X222A1~\n', '').replace('SE*10*', 'SE*9*');
    expect(refusal(stray).message).toMatch(/IK3 at segment 5 is outside an AK2…IK5 loop/);
  });
});

describe('reading a 277CA', () => {
  it('gives each claim its answer: accepted, rejected with the reason and free text, or only received', () => {
    const ack = readAcknowledgement(
      ack277CA({
        interchangeControlNumber: 9,
        claims: [
          { accountNumber: 'ACC-1', status: 'A2:20:PR', billedCents: 15000, payerClaimNumber: 'AET000111' },
          { accountNumber: 'ACC-2', status: 'A7:562:85', billedCents: 9000, text: 'NPI NOT ON FILE' },
          { accountNumber: 'ACC-3', status: 'A1:19:PR', billedCents: 100 },
          { accountNumber: 'ACC-4', status: 'A3:21', billedCents: 100 },
        ],
      }),
    );
    if (ack.kind !== '277CA') throw new Error('not a 277CA');
    expect(ack.interchange).toEqual({ senderId: 'PRAIRIECH', controlNumber: '000000009' });
    expect(ack.claims.map(({ position: _p, ...c }) => c)).toEqual([
      {
        accountNumber: 'ACC-1',
        answer: 'Accepted',
        code: 'A2:20:PR',
        message: 'A2:20:PR Accepted into adjudication: accepted for processing (payer)',
        payerClaimNumber: 'AET000111',
      },
      {
        accountNumber: 'ACC-2',
        answer: 'Rejected',
        code: 'A7:562:85',
        message:
          "A7:562:85 Rejected for invalid information: entity's National Provider Identifier (NPI) (billing provider) — NPI NOT ON FILE",
        payerClaimNumber: null,
      },
      {
        accountNumber: 'ACC-3',
        answer: 'Noted',
        code: 'A1:19:PR',
        message: 'A1:19:PR Received: entity acknowledges receipt of the claim (payer)',
        payerClaimNumber: null,
      },
      {
        accountNumber: 'ACC-4',
        answer: 'Rejected',
        code: 'A3:21',
        message: 'A3:21 Returned as unprocessable: missing or invalid information',
        payerClaimNumber: null,
      },
    ]);
  });

  it('refuses a status category a 277CA does not use, and a claim without a status', () => {
    const pending = ack277CA({
      interchangeControlNumber: 9,
      claims: [{ accountNumber: 'ACC-1', status: 'P1:1', billedCents: 100 }],
    });
    expect(refusal(pending).message).toMatch(/STC01-1 'P1' at segment \d+ is not a claim acknowledgement category/);
  });

  it('refuses a 277 that is not the claim acknowledgement (005010X212 is a claim status response)', () => {
    const text = ack277CA({ interchangeControlNumber: 9, claims: [] }).replaceAll('005010X214', '005010X212');
    expect(refusal(text)).toMatchObject({ code: 'NOT_AN_ACKNOWLEDGEMENT' });
  });
});

describe('what is not an acknowledgement', () => {
  it('refuses text that is not X12, and X12 that holds neither a 999 nor a 277CA', () => {
    expect(refusal('hello')).toMatchObject({
      code: 'X12_INVALID',
      message: expect.stringMatching(/^not a valid X12 file: /) as string,
    });
    const other = REJECTING_999.replace('GS*FA', 'GS*HP')
      .replaceAll('ST*999', 'ST*835')
      .replace('AK1*HC*201*005010X222A1~', 'BPR*I~');
    expect(refusal(other)).toMatchObject({
      code: 'NOT_AN_ACKNOWLEDGEMENT',
      message: 'the file holds no 999 or 277CA (it holds 835)',
    });
  });
});
