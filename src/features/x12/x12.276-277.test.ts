import { describe, expect, it } from 'vitest';
import { elementOf, parseX12, transactionSetsOf, X12Error } from './x12.parse';
import {
  build276,
  CLAIM_STATUS_CATEGORIES,
  CLAIM_STATUS_CODES,
  claimsByTraceNumber,
  ClaimStatusError,
  read277,
  type ClaimInquiry276,
  type ClaimStatusRequest276,
  type PersonName276,
} from './x12.276-277';

/*
 * Every X12 text below was written by hand from the structure of ASC X12 005010X212 (276: loops 2000A/2100A payer,
 * 2000B/2100B information receiver, 2000C/2100C service provider, 2000D/2100D subscriber, 2000E/2100E dependent,
 * 2200D/2200E claim; 277: the same hierarchy, with STC in 2200D/2200E and SVC/STC in 2220D/2220E).
 */

const person = (lastName: string, firstName: string): PersonName276 => ({
  lastName,
  firstName,
  middleName: '',
  suffix: '',
});

const MARIA_CLAIM: ClaimInquiry276 = {
  traceNumber: 'CS-ACC-2026-0001',
  subscriber: { name: person('Lopez', 'Maria'), memberId: 'W123456789', dob: '1961-03-14', sex: 'F' },
  dependent: null,
  accountNumber: 'ACC-2026-0001',
  payerClaimNumber: 'EV30000WY00',
  chargeCents: 19550,
  serviceFrom: '2026-11-20',
  serviceTo: null,
};

const SOFIA_CLAIM: ClaimInquiry276 = {
  traceNumber: 'CS-ACC-2026-0002',
  subscriber: { name: person('Lopez', 'Daniel'), memberId: 'W987654321', dob: null, sex: null },
  dependent: { name: person('Lopez', 'Sofia'), dob: '2015-06-02', sex: 'F' },
  accountNumber: 'ACC-2026-0002',
  payerClaimNumber: null,
  chargeCents: 11000,
  serviceFrom: '2026-11-21',
  serviceTo: '2026-11-22',
};

function requestOf(claims: ClaimInquiry276[]): ClaimStatusRequest276 {
  return {
    envelope: {
      interchangeControlNumber: 101,
      groupControlNumber: 201,
      setControlNumber: '0301',
      date: '20261124',
      time: '1000',
      usage: 'T',
      reference: 'CS-41',
      submitter: { id: 'RIVERSIDE', qualifier: 'ZZ' },
      receiver: { id: 'PRAIRIECH', qualifier: 'ZZ' },
    },
    payer: { name: 'Aetna', payerId: '60054' },
    informationReceiver: { name: 'Riverside Family Practice LLC', id: 'RIVERSIDE' },
    serviceProvider: { name: 'Riverside Family Practice LLC', npi: '1667788990' },
    claims,
  };
}

const lines = (segments: readonly string[]) => segments.map((s) => `${s}~\n`).join('');

describe('build276', () => {
  it('writes a subscriber claim and a dependent claim as the guide lays them out', () => {
    const expected = lines([
      'ISA*00*          *00*          *ZZ*RIVERSIDE      *ZZ*PRAIRIECH      *261124*1000*^*00501*000000101*0*T*:',
      'GS*HR*RIVERSIDE*PRAIRIECH*20261124*1000*201*X*005010X212',
      'ST*276*0301*005010X212',
      'BHT*0010*13*CS-41*20261124*1000',
      'HL*1**20*1',
      'NM1*PR*2*Aetna*****PI*60054',
      'HL*2*1*21*1',
      'NM1*41*2*Riverside Family Practice LLC*****46*RIVERSIDE',
      'HL*3*2*19*1',
      'NM1*1P*2*Riverside Family Practice LLC*****XX*1667788990',
      // 2000D: the subscriber is the patient, so DMG here and no child level.
      'HL*4*3*22*0',
      'DMG*D8*19610314*F',
      'NM1*IL*1*Lopez*Maria****MI*W123456789',
      'TRN*1*CS-ACC-2026-0001',
      'REF*1K*EV30000WY00',
      'REF*EJ*ACC-2026-0001',
      'AMT*T3*195.5',
      'DTP*472*RD8*20261120-20261120',
      // 2000D then 2000E: the patient is the subscriber's dependent, the claim sits under the dependent.
      'HL*5*3*22*1',
      'NM1*IL*1*Lopez*Daniel****MI*W987654321',
      'HL*6*5*23',
      'DMG*D8*20150602*F',
      'NM1*QC*1*Lopez*Sofia',
      'TRN*1*CS-ACC-2026-0002',
      'REF*EJ*ACC-2026-0002',
      'AMT*T3*110',
      'DTP*472*RD8*20261121-20261122',
      'SE*26*0301',
      'GE*1*201',
      'IEA*1*000000101',
    ]);
    expect(build276(requestOf([MARIA_CLAIM, SOFIA_CLAIM]))).toBe(expected);
  });

  it('writes one line when asked, and reads back as a valid interchange', () => {
    const text = build276(requestOf([MARIA_CLAIM]), { newline: false });
    expect(text).not.toContain('\n');
    const [found] = transactionSetsOf(parseX12(text), '276');
    expect(found?.set.implementation).toBe('005010X212');
    expect(found?.group.functionalId).toBe('HR');
  });

  it('cleans delimiters out of names but never alters an identifier', () => {
    const claim = { ...MARIA_CLAIM, subscriber: { ...MARIA_CLAIM.subscriber, name: person("O'Neil*Ruiz", 'Ana~') } };
    expect(build276(requestOf([claim]))).toContain("NM1*IL*1*O'Neil Ruiz*Ana****MI*W123456789~");
    const badId = { ...MARIA_CLAIM, subscriber: { ...MARIA_CLAIM.subscriber, memberId: 'W12*34' } };
    expect(() => build276(requestOf([badId]))).toThrow(X12Error);
    expect(() => build276(requestOf([badId]))).toThrow("NM109 'W12*34' holds the element separator");
  });

  it('refuses what cannot be written, naming the element and the claim', () => {
    const refusals: [ClaimStatusRequest276, string][] = [
      [requestOf([]), 'TRN: a 276 needs at least one claim to ask about'],
      [requestOf([{ ...MARIA_CLAIM, traceNumber: ' ' }]), 'TRN02: the trace number is blank (claim 1, trace  )'],
      [requestOf([{ ...MARIA_CLAIM, traceNumber: 'T'.repeat(51) }]), 'TRN02: the trace number "TTTT'],
      [
        requestOf([MARIA_CLAIM, { ...SOFIA_CLAIM, accountNumber: '' }]),
        'REF02: the patient account number is blank (claim 2, trace CS-ACC-2026-0002)',
      ],
      [requestOf([{ ...MARIA_CLAIM, chargeCents: 19.5 }]), 'AMT02: 19.5 is not whole cents'],
      [requestOf([{ ...MARIA_CLAIM, chargeCents: -100 }]), 'AMT02: -100 is not whole cents'],
      [requestOf([{ ...MARIA_CLAIM, chargeCents: 1_000_000_001 }]), 'AMT02: 1000000001 is not whole cents'],
      [
        requestOf([{ ...MARIA_CLAIM, serviceFrom: '2026-02-30' }]),
        'DTP03: the first day of service "2026-02-30" is not a calendar date',
      ],
      [
        requestOf([{ ...MARIA_CLAIM, serviceFrom: '2026-11-22', serviceTo: '2026-11-20' }]),
        'DTP03: the service ends 2026-11-20 before it starts 2026-11-22',
      ],
      [
        requestOf([{ ...MARIA_CLAIM, subscriber: { ...MARIA_CLAIM.subscriber, dob: null } }]),
        "DMG02: the subscriber's date of birth is missing (claim 1",
      ],
      [
        requestOf([{ ...MARIA_CLAIM, subscriber: { ...MARIA_CLAIM.subscriber, sex: null } }]),
        'DMG03: the gender must be F, M or U, not null',
      ],
      [
        requestOf([{ ...MARIA_CLAIM, subscriber: { ...MARIA_CLAIM.subscriber, name: person('**', 'Ana') } }]),
        'NM103: the last name is blank',
      ],
      [
        requestOf([{ ...MARIA_CLAIM, subscriber: { ...MARIA_CLAIM.subscriber, memberId: '' } }]),
        'NM109: the member id is blank',
      ],
      [
        { ...requestOf([MARIA_CLAIM]), payer: { name: 'Aetna', payerId: '' } },
        'NM109: the payer id is blank (loop 2100A)',
      ],
      [
        { ...requestOf([MARIA_CLAIM]), serviceProvider: { name: 'Riverside', npi: '166778899' } },
        'NM109: the NPI "166778899" is not 10 digits (loop 2100C)',
      ],
      [
        { ...requestOf([MARIA_CLAIM]), envelope: { ...requestOf([]).envelope, date: '20261131' } },
        'BHT04: the date "20261131" is not a calendar date CCYYMMDD',
      ],
      [
        { ...requestOf([MARIA_CLAIM]), envelope: { ...requestOf([]).envelope, time: '2460' } },
        'BHT05: the time "2460" is not HHMM',
      ],
      [
        { ...requestOf([MARIA_CLAIM]), envelope: { ...requestOf([]).envelope, reference: '' } },
        'BHT03: the reference is blank',
      ],
    ];
    for (const [request, message] of refusals) {
      let caught: unknown = null;
      try {
        build276(request);
      } catch (error) {
        caught = error;
      }
      expect(caught, message).toBeInstanceOf(ClaimStatusError);
      expect((caught as ClaimStatusError).code).toBe('BAD_INPUT');
      expect((caught as Error).message).toContain(message);
    }
  });
});

/* ---------------------------------------------------------------------------------------------------------------
 * 277 files
 * ------------------------------------------------------------------------------------------------------------- */

const ISA = 'ISA*00*          *00*          *ZZ*PRAIRIECH      *ZZ*RIVERSIDE      *261201*0900*^*00501*000000501*0*T*:';

/** A whole interchange around one transaction set whose body is `body`. */
function x12File(
  body: readonly string[],
  options: { st01?: string; version?: string; st03?: string; functionalId?: string } = {},
): string {
  const version = options.version ?? '005010X212';
  const st01 = options.st01 ?? '277';
  return lines([
    ISA,
    `GS*${options.functionalId ?? 'HN'}*PRAIRIECH*RIVERSIDE*20261201*0900*501*X*${version}`,
    `ST*${st01}*0001*${options.st03 ?? version}`,
    ...body,
    `SE*${body.length + 2}*0001`,
    'GE*1*501',
    'IEA*1*000000501',
  ]);
}

/** Loops 2000A–2100C: the payer answers the clinic about its provider. Segments 4–10 of the file. */
const HEADER = [
  'BHT*0010*08*R-41*20261201*0900*DG',
  'HL*1**20*1',
  'NM1*PR*2*Aetna*****PI*60054',
  'HL*2*1*21*1',
  'NM1*41*2*Riverside Family Practice LLC*****46*RIVERSIDE',
  'HL*3*2*19*1',
  'NM1*1P*2*Riverside Family Practice LLC*****XX*1667788990',
];

/** A subscriber who is the patient (2000D/2100D) and one claim (2200D): HL at 11, NM1 12, TRN 13, first STC 14. */
function subscriberClaim(hl: number, trace: string, rest: readonly string[]): string[] {
  return [`HL*${hl}*3*22*0`, 'NM1*IL*1*Lopez*Maria****MI*W123456789', `TRN*2*${trace}`, ...rest];
}

const read = (rest: readonly string[]) => read277(x12File([...HEADER, ...subscriberClaim(4, 'CS-1', rest)]));

function refusal(text: string): ClaimStatusError {
  try {
    read277(text);
  } catch (error) {
    if (error instanceof ClaimStatusError) return error;
    throw error;
  }
  throw new Error('read277 did not refuse the file');
}

describe('read277: the statuses of a claim', () => {
  it('reads a paid claim: amounts in cents, the payment date, check and dates of service', () => {
    const file = read([
      'STC*F1:65:PR*20261215**195.5*150*20261214*CHK*20261216*CHK-88812',
      'REF*1K*EV30000WY00',
      'REF*EJ*ACC-2026-0001',
      'DTP*472*RD8*20261120-20261120',
    ]);
    expect(file.interchange).toEqual({ senderId: 'PRAIRIECH', controlNumber: '000000501' });
    expect(file.transactionSets).toEqual([
      { controlNumber: '0001', position: 3, reference: 'R-41', createdOn: '2026-12-01', claimCount: 1 },
    ]);
    const [claim] = file.claims;
    expect(claim).toMatchObject({
      position: 13,
      transactionSet: '0001',
      traceNumber: 'CS-1',
      level: 'subscriber',
      payer: { name: 'Aetna', idQualifier: 'PI', id: '60054' },
      informationReceiver: { name: 'Riverside Family Practice LLC', id: 'RIVERSIDE' },
      provider: { idQualifier: 'XX', id: '1667788990' },
      subscriber: { name: 'Lopez', firstName: 'Maria', idQualifier: 'MI', id: 'W123456789' },
      patient: { name: 'Lopez', firstName: 'Maria' },
      payerClaimNumber: 'EV30000WY00',
      accountNumber: 'ACC-2026-0001',
      serviceFrom: '2026-11-20',
      serviceTo: '2026-11-20',
      outcome: 'finalized_paid',
      needsAction: false,
      message: 'F1:65:PR Finalized: paid — the claim or line has been paid (payer)',
      lines: [],
    });
    expect(claim?.current).toEqual({
      position: 14,
      codes: [
        {
          raw: 'F1:65:PR',
          category: 'F1',
          categoryMeaning: 'Finalized: paid',
          outcome: 'finalized_paid',
          needsAction: false,
          code: '65',
          codeMeaning: 'the claim or line has been paid',
          entity: 'PR',
          entityMeaning: 'payer',
          codeListQualifier: null,
          message: 'F1:65:PR Finalized: paid — the claim or line has been paid (payer)',
        },
      ],
      effectiveDate: '2026-12-15',
      actionCode: null,
      chargeCents: 19550,
      paidCents: 15000,
      adjudicatedOn: '2026-12-14',
      paymentMethod: 'CHK',
      checkIssuedOn: '2026-12-16',
      checkNumber: 'CHK-88812',
      freeText: null,
      outcome: 'finalized_paid',
      needsAction: false,
      message: 'F1:65:PR Finalized: paid — the claim or line has been paid (payer)',
    });
  });

  it('reads a denied, a pending, a not found, a request for information and a rejected claim', () => {
    const cases: [string, string, boolean, string][] = [
      [
        'STC*F2:88:IL*20261215**110*0*20261214',
        'finalized_denied',
        true,
        'F2:88:IL Finalized: denied — the entity is not eligible for benefits on the dates of service (subscriber)',
      ],
      ['STC*P1:20*20261210**195.5', 'pending', false, 'P1:20 Pending: in process — accepted for processing'],
      [
        'STC*A4:35*20261210',
        'not_found',
        true,
        'A4:35 Not found: the payer cannot find the claim — the claim was not found',
      ],
      [
        'STC*R3:252:82*20261210**195.5',
        'request_info',
        true,
        "R3:252:82 Request for information normally sent on a claim or line — the entity's prior authorization or " +
          'certification number (rendering provider)',
      ],
      [
        'STC*A7:562:82*20261210**195.5',
        'rejected',
        true,
        "A7:562:82 Rejected for invalid information — the entity's National Provider Identifier (NPI) (rendering provider)",
      ],
      ['STC*E1:484*20261210', 'error', true, 'E1:484 No answer possible: payer system status'],
      ['STC*F4:98*20261215**110*0', 'finalized_no_payment', false, 'F4:98 Finalized: adjudication complete'],
      [
        'STC*P3:294*20261210**110',
        'pending',
        true,
        'P3:294 Pending: waiting for information requested from the provider',
      ],
    ];
    for (const [stc, outcome, needsAction, message] of cases) {
      const [claim] = read([stc]).claims;
      expect(claim?.outcome, stc).toBe(outcome);
      expect(claim?.needsAction, stc).toBe(needsAction);
      expect(claim?.message, stc).toContain(message);
    }
  });

  it('keeps a code it does not know as its code, with no meaning', () => {
    const [claim] = read(['STC*DR01:9999:ZZ*20261210']).claims;
    expect(claim?.current.codes[0]).toMatchObject({
      category: 'DR01',
      categoryMeaning: null,
      outcome: 'unknown',
      needsAction: true,
      code: '9999',
      codeMeaning: null,
      entity: 'ZZ',
      entityMeaning: null,
      message: 'DR01:9999:ZZ status category DR01 — status code 9999 (entity ZZ)',
    });
    // A code such as 'constructor' finds no meaning on Object.prototype.
    expect(read(['STC*F1:constructor*20261210']).claims[0]?.current.codes[0]?.codeMeaning).toBeNull();
  });

  it('reads several STCs: the latest in force, STC10/STC11 as further reasons, STC12 text', () => {
    const [claim] = read([
      'STC*P3:294*20261201**195.5',
      'STC*A7:21:82*20261210**195.5*0*****A7:562:82*A7:145:82*NPI does not match the taxonomy',
      'STC*P1:20*20261205**195.5',
    ]).claims;
    expect(claim?.statuses.map((s) => s.position)).toEqual([14, 15, 16]);
    expect(claim?.current.position).toBe(15);
    expect(claim?.current.codes.map((c) => c.raw)).toEqual(['A7:21:82', 'A7:562:82', 'A7:145:82']);
    expect(claim?.current.freeText).toBe('NPI does not match the taxonomy');
    expect(claim?.outcome).toBe('rejected');
    expect(claim?.message).toBe(
      'A7:21:82 Rejected for invalid information — missing or invalid information (another status code says which) ' +
        "(rendering provider); A7:562:82 Rejected for invalid information — the entity's National Provider " +
        "Identifier (NPI) (rendering provider); A7:145:82 Rejected for invalid information — the entity's specialty " +
        'or taxonomy code (rendering provider) — NPI does not match the taxonomy',
    );
    // On a tie the first written is in force.
    const [tied] = read(['STC*F1:65*20261215**100*100', 'STC*F3:101*20261215**100*100']).claims;
    expect(tied?.outcome).toBe('finalized_paid');
  });

  it('reads service line statuses (loop 2220D), and a denied line needs a person', () => {
    const [claim] = read([
      'STC*F1:65*20261215**195.5*120*20261214*ACH*20261216*EFT-1',
      'REF*EJ*ACC-2026-0001',
      'DTP*472*RD8*20261120-20261120',
      'SVC*HC:99214:25*150*120****1',
      'STC*F1:65*20261215',
      'REF*FJ*ACC-2026-0001-1',
      'DTP*472*D8*20261120',
      'SVC*HC:83036*45.5*0****1',
      'STC*F2:54*20261215',
      'REF*FJ*ACC-2026-0001-2',
      'DTP*472*D8*20261120',
    ]).claims;
    expect(claim?.outcome).toBe('finalized_paid');
    expect(claim?.current.needsAction).toBe(false);
    expect(claim?.needsAction).toBe(true);
    expect(claim?.accountNumber).toBe('ACC-2026-0001');
    expect(claim?.lines).toHaveLength(2);
    expect(claim?.lines[0]).toMatchObject({
      position: 17,
      qualifier: 'HC',
      procedureCode: '99214',
      modifiers: ['25'],
      chargeCents: 15000,
      paidCents: 12000,
      revenueCode: null,
      units: 1,
      lineControlNumber: 'ACC-2026-0001-1',
      serviceFrom: '2026-11-20',
      serviceTo: '2026-11-20',
      outcome: 'finalized_paid',
      needsAction: false,
    });
    expect(claim?.lines[1]).toMatchObject({
      procedureCode: '83036',
      chargeCents: 4550,
      paidCents: 0,
      lineControlNumber: 'ACC-2026-0001-2',
      outcome: 'finalized_denied',
      needsAction: true,
    });
    expect(claim?.lines[1]?.current.message).toBe(
      'F2:54 Finalized: denied — duplicate of a claim or line already processed',
    );
  });

  it('matches several claims, a dependent among them, by their trace numbers', () => {
    const file = read277(
      x12File([
        ...HEADER,
        ...subscriberClaim(4, 'CS-1', ['STC*F1:65*20261215**195.5*150', 'REF*EJ*ACC-1']),
        // A second claim under the same subscriber: loop 2200D repeats.
        'TRN*2*CS-3',
        'STC*P1:20*20261210**80',
        'REF*EJ*ACC-3',
        'HL*5*3*22*1',
        'NM1*IL*1*Lopez*Daniel****MI*W987654321',
        'HL*6*5*23',
        'NM1*QC*1*Lopez*Sofia',
        'TRN*2*CS-2',
        'STC*A4:35*20261210',
        'REF*EJ*ACC-2',
        // One inquiry may match two claims: both echo its trace number.
        'TRN*2*CS-2',
        'STC*F2:96:1P*20261210**40*0',
        'REF*EJ*ACC-2B',
      ]),
    );
    expect(file.claims.map((c) => c.traceNumber)).toEqual(['CS-1', 'CS-3', 'CS-2', 'CS-2']);
    const byTrace = claimsByTraceNumber(file.claims);
    expect(byTrace.get('CS-1')?.map((c) => c.accountNumber)).toEqual(['ACC-1']);
    expect(byTrace.get('CS-3')?.map((c) => c.outcome)).toEqual(['pending']);
    expect(byTrace.get('CS-2')?.map((c) => [c.accountNumber, c.outcome])).toEqual([
      ['ACC-2', 'not_found'],
      ['ACC-2B', 'finalized_denied'],
    ]);
    expect(byTrace.get('CS-9')).toBeUndefined();
    const dependent = byTrace.get('CS-2')?.[0];
    expect(dependent?.level).toBe('dependent');
    expect(dependent?.subscriber).toMatchObject({ name: 'Lopez', firstName: 'Daniel', id: 'W987654321' });
    expect(dependent?.patient).toMatchObject({ name: 'Lopez', firstName: 'Sofia', id: null });
  });

  it('reads a 277 written with other delimiters', () => {
    const text = x12File([...HEADER, ...subscriberClaim(4, 'CS-1', ['STC*F1:65:PR*20261215**10*10'])])
      .replace(/\*/g, '|')
      .replace(/:/g, '>');
    const [claim] = read277(text).claims;
    expect(claim?.current.codes[0]).toMatchObject({ raw: 'F1>65>PR', category: 'F1', code: '65', entity: 'PR' });
  });
});

describe('read277: refusals', () => {
  it('refuses dates that are not calendar dates, naming the element and segment', () => {
    const cases: [string[], string][] = [
      [['STC*F1:65*20261301'], 'STC02: "20261301" is not a calendar date CCYYMMDD between 1900 and 2999 (segment 14)'],
      [['STC*F1:65*20250229'], 'STC02: "20250229" is not a calendar date CCYYMMDD between 1900 and 2999 (segment 14)'],
      [['STC*F1:65*2026-12-01'], 'STC02: "2026-12-01" is not a date CCYYMMDD (segment 14)'],
      [['STC*F1:65*20261201**10*10*30000101'], 'STC06: "30000101" is not a calendar date'],
      [['STC*F1:65*20261201**10*10*20261201*CHK*20261232*9'], 'STC08: "20261232" is not a calendar date'],
      [
        ['STC*F1:65*20261201', 'DTP*472*RD8*20261122-20261120'],
        'DTP03: "20261122-20261120" ends before it starts (segment 15)',
      ],
      [['STC*F1:65*20261201', 'DTP*472*RD8*20261120'], 'DTP03: "20261120" is not a range of dates CCYYMMDD-CCYYMMDD'],
      [['STC*F1:65*20261201', 'DTP*472*D8*20261131'], 'DTP03: "20261131" is not a calendar date'],
    ];
    for (const [rest, message] of cases) {
      const error = refusal(x12File([...HEADER, ...subscriberClaim(4, 'CS-1', rest)]));
      expect(error.code, message).toBe('BAD_DATE');
      expect(error.message).toContain(message);
    }
    expect(
      refusal(x12File([...HEADER, ...subscriberClaim(4, 'CS-1', ['STC*F1:65*20261201', 'DTP*472*DT*x'])])).code,
    ).toBe('BAD_VALUE');
  });

  it('refuses amounts that are not amounts, fractions of a cent and amounts above $10,000,000.00', () => {
    const cases: [string, string][] = [
      ['STC*F1:65*20261215**1x', 'STC04: "1x" is not an amount (segment 14)'],
      ['STC*F1:65*20261215**-10', 'STC04: "-10" is not an amount (segment 14)'],
      ['STC*F1:65*20261215**10*1,5', 'STC05: "1,5" is not an amount (segment 14)'],
      ['STC*F1:65*20261215**10*.', 'STC05: "." is not an amount (segment 14)'],
      ['STC*F1:65*20261215**10.005', 'STC04: "10.005" has a fraction of a cent (segment 14)'],
      [
        'STC*F1:65*20261215**10000000.01',
        'STC04: "10000000.01" is more than 10000000.00, the largest amount accepted (segment 14)',
      ],
      [
        'STC*F1:65*20261215**10*-99999999999999999',
        'STC05: "-99999999999999999" is more than 10000000.00, the largest amount accepted (segment 14)',
      ],
    ];
    for (const [stc, message] of cases) {
      const error = refusal(x12File([...HEADER, ...subscriberClaim(4, 'CS-1', [stc])]));
      expect(error.code, stc).toBe('BAD_AMOUNT');
      expect(error.position).toBe(14);
      expect(error.message).toBe(message);
    }
    // The largest amount, and a payment taken back, are read.
    const [claim] = read(['STC*F3:101*20261215**10000000*-25.5']).claims;
    expect([claim?.current.chargeCents, claim?.current.paidCents]).toEqual([1_000_000_000, -2550]);
    expect(
      refusal(x12File([...HEADER, ...subscriberClaim(4, 'CS-1', ['STC*F1:65*20261215', 'SVC*HC:99213*1x'])])).message,
    ).toBe('SVC02: "1x" is not an amount (segment 15)');
  });

  it('refuses a 277CA claim acknowledgment (005010X214), saying what it is', () => {
    const body = [
      'BHT*0085*08*277X214*20261201*0900*TH',
      'HL*1**20*1',
      'NM1*PR*2*Aetna*****PI*60054',
      'HL*2*1*21*1',
      'NM1*41*2*Riverside Family Practice LLC*****46*RIVERSIDE',
      'HL*3*2*19*1',
      'NM1*85*2*Riverside Family Practice LLC*****XX*1667788990',
      'HL*4*3*PT',
      'NM1*QC*1*Lopez*Maria****MI*W123456789',
      'TRN*2*ACC-2026-0001',
      'STC*A2:20:PR*20261125*WQ*195.5',
    ];
    const error = refusal(x12File(body, { version: '005010X214' }));
    expect(error.code).toBe('CLAIM_ACKNOWLEDGMENT');
    expect(error.position).toBe(2);
    expect(error.message).toBe(
      'GS08: "005010X214" is a 277CA claim acknowledgment (005010X214), not a claim status response (005010X212); ' +
        'read it as an acknowledgement (segment 2)',
    );
    // GS08 right but ST03 the 277CA's: still refused, at the ST.
    const st03 = refusal(x12File(body, { st03: '005010X214' }));
    expect([st03.code, st03.position]).toEqual(['CLAIM_ACKNOWLEDGMENT', 3]);
    expect(st03.message).toContain('ST03: "005010X214" is a 277CA claim acknowledgment');
  });

  it('refuses another version of the 277', () => {
    const error = refusal(
      x12File([...HEADER, ...subscriberClaim(4, 'CS-1', ['STC*F1:65'])], { version: '004010X093A1' }),
    );
    expect(error.code).toBe('UNSUPPORTED_VERSION');
    expect(error.message).toContain('GS08: "004010X093A1" is not 005010X212');
  });

  it('refuses an 835, 837, 999 or 271, saying what the file holds', () => {
    const cases: [string, string, string, string][] = [
      ['835', 'HP', '005010X221A1', 'a remittance advice (835, health care claim payment/advice)'],
      ['837', 'HC', '005010X222A1', 'a claim (837)'],
      ['999', 'FA', '005010X231A1', 'an implementation acknowledgment (999)'],
      ['271', 'HB', '005010X279A1', 'an eligibility response (271)'],
      ['276', 'HR', '005010X212', 'a claim status request (276)'],
    ];
    for (const [st01, functionalId, version, what] of cases) {
      const error = refusal(x12File(['BHT*0010*08*X*20261201*0900'], { st01, functionalId, version }));
      expect(error.code, st01).toBe('NOT_277');
      expect(error.message).toBe(`The file holds no 277 claim status response: it holds ${what}`);
    }
  });

  it('lets an X12 syntax or envelope error through as X12Error', () => {
    expect(() => read277('not x12 at all')).toThrow(X12Error);
    const wrongCount = x12File([...HEADER, ...subscriberClaim(4, 'CS-1', ['STC*F1:65'])]).replace(
      /SE\*\d+\*/,
      'SE*99*',
    );
    expect(() => read277(wrongCount)).toThrow(X12Error);
  });

  it('refuses a 277 with no claim status loop', () => {
    const error = refusal(x12File(HEADER));
    expect(error.code).toBe('NO_CLAIM_STATUS');
    expect(error.message).toContain('answers no claim');
  });

  it('refuses a missing TRN, a blank trace number, and an STC before any TRN', () => {
    const noTrn = refusal(
      x12File([...HEADER, 'HL*4*3*22*0', 'NM1*IL*1*Lopez*Maria****MI*W123456789', 'HL*5*3*22*0', 'NM1*IL*1*Ruiz*Ana']),
    );
    expect([noTrn.code, noTrn.position]).toEqual(['MISSING_TRN', 11]);
    expect(noTrn.message).toContain('HL 4 (subscriber level, segment 11) has no TRN');

    const blank = refusal(x12File([...HEADER, ...subscriberClaim(4, '', ['STC*F1:65'])]));
    expect([blank.code, blank.message]).toEqual(['MISSING_TRN', 'TRN02: the trace number is blank (segment 13)']);

    const stcFirst = refusal(
      x12File([...HEADER, 'HL*4*3*22*0', 'NM1*IL*1*Lopez*Maria****MI*W123456789', 'STC*F1:65*20261215']),
    );
    expect([stcFirst.code, stcFirst.position]).toEqual(['STRUCTURE', 13]);
    expect(stcFirst.message).toContain('STC at segment 13 comes before a TRN');

    // An STC of the claim before it under a new level is not that claim's: the TRN is missing.
    const afterHl = refusal(
      x12File([...HEADER, ...subscriberClaim(4, 'CS-1', ['STC*F1:65']), 'HL*5*3*22*0', 'STC*F1:65']),
    );
    expect(afterHl.message).toContain('STC at segment 16 comes before a TRN');

    const noStc = refusal(x12File([...HEADER, ...subscriberClaim(4, 'CS-1', ['REF*EJ*ACC-1'])]));
    expect(noStc.message).toContain('The claim with trace number "CS-1" (TRN at segment 13) has no STC');

    const trnTooHigh = refusal(x12File([...HEADER, 'TRN*2*X']));
    expect(trnTooHigh.message).toContain('TRN at segment 11 is outside a subscriber or dependent level');

    const trn01 = refusal(x12File([...HEADER, 'HL*4*3*22*0', 'TRN*1*CS-1', 'STC*F1:65']));
    expect([trn01.code, trn01.message]).toEqual([
      'BAD_VALUE',
      'TRN01: "1" is not 2 (referenced transaction trace number): a 277 echoes the 276\'s trace (segment 12)',
    ]);
  });

  it('refuses HL parents that do not exist or are of the wrong level', () => {
    const missing = refusal(
      x12File(
        [...HEADER, ...subscriberClaim(4, 'CS-1', ['STC*F1:65'])].map((s) => (s === 'HL*4*3*22*0' ? 'HL*4*9*22*0' : s)),
      ),
    );
    expect([missing.code, missing.position]).toEqual(['STRUCTURE', 11]);
    expect(missing.message).toBe(
      'HL02: the parent "9" of HL 4 (subscriber level, loop 2000D) is no earlier HL (segment 11)',
    );
    const wrongLevel = refusal(x12File([...HEADER, 'HL*4*2*22*0', 'TRN*2*CS-1', 'STC*F1:65']));
    expect(wrongLevel.message).toBe(
      'HL02: HL 4 is a subscriber level (22), whose parent must be a service provider level (19), but HL 2 is an ' +
        'information receiver level (21) (segment 11)',
    );
    const duplicate = refusal(x12File([...HEADER, 'HL*3*2*19*1']));
    expect(duplicate.message).toBe('HL01: "3" is used by an earlier HL (segment 11)');
    const patientLevel = refusal(x12File([...HEADER, 'HL*4*3*PT', 'TRN*2*CS-1', 'STC*F1:65']));
    expect(patientLevel.message).toContain('HL03: "PT" is not a level of a 005010X212 277');
  });

  it('refuses a blank status category or status code', () => {
    expect(refusal(x12File([...HEADER, ...subscriberClaim(4, 'CS-1', ['STC*:65'])])).message).toBe(
      'STC01-1: the claim status category code is blank (segment 14)',
    );
    expect(refusal(x12File([...HEADER, ...subscriberClaim(4, 'CS-1', ['STC*F1*20261201'])])).message).toBe(
      'STC01-2: the claim status code is blank (segment 14)',
    );
    expect(refusal(x12File([...HEADER, ...subscriberClaim(4, 'CS-1', ['STC*F1:65*********F1'])])).message).toBe(
      'STC10-2: the claim status code is blank (segment 14)',
    );
  });
});

/* ---------------------------------------------------------------------------------------------------------------
 * Round trip and scale
 * ------------------------------------------------------------------------------------------------------------- */

/**
 * A payer's 277 answering a 276: for each claim of the request (its 2200D/2200E), the same hierarchy with TRN*2
 * echoing the request's TRN02 and REF*EJ, and the status `statusOf` gives it.
 */
function answer276(request276: string, statusOf: (trace: string) => string): string {
  const [found] = transactionSetsOf(parseX12(request276), '276');
  if (!found) throw new Error('no 276');
  const body: string[] = ['BHT*0010*08*R-1*20261201*0900*DG'];
  for (const s of found.set.segments) {
    const e = (n: number) => elementOf(s, n);
    if (s.id === 'HL') body.push(['HL', ...s.elements].join('*'));
    else if (s.id === 'NM1') body.push(['NM1', ...s.elements].join('*'));
    else if (s.id === 'TRN') body.push(`TRN*2*${e(2)}`, statusOf(e(2)));
    else if (s.id === 'REF') body.push(`REF*${e(1)}*${e(2)}`);
    else if (s.id === 'DTP') body.push(`DTP*472*${e(2)}*${e(3)}`);
  }
  return x12File(body);
}

describe('276 → 277 round trip', () => {
  it('gives back every trace number build276 wrote, with its claim', () => {
    const inquiries = [
      MARIA_CLAIM,
      SOFIA_CLAIM,
      { ...MARIA_CLAIM, traceNumber: 'CS-ACC-2026-0003', accountNumber: 'ACC-3' },
    ];
    const request = build276(requestOf(inquiries));
    const statuses: Record<string, string> = {
      'CS-ACC-2026-0001': 'STC*F1:65*20261215**195.5*150*20261214*CHK*20261216*88812',
      'CS-ACC-2026-0002': 'STC*P1:20*20261210**110',
      'CS-ACC-2026-0003': 'STC*R4:298*20261210**195.5',
    };
    const file = read277(answer276(request, (trace) => statuses[trace] ?? 'STC*E0:0'));
    const byTrace = claimsByTraceNumber(file.claims);
    expect([...byTrace.keys()]).toEqual(inquiries.map((c) => c.traceNumber));
    for (const inquiry of inquiries) {
      const [answer] = byTrace.get(inquiry.traceNumber) ?? [];
      expect(answer?.accountNumber).toBe(inquiry.accountNumber);
      expect(answer?.serviceFrom).toBe(inquiry.serviceFrom);
      expect(answer?.serviceTo).toBe(inquiry.serviceTo ?? inquiry.serviceFrom);
      expect(answer?.level).toBe(inquiry.dependent ? 'dependent' : 'subscriber');
    }
    expect(file.claims.map((c) => c.outcome)).toEqual(['finalized_paid', 'pending', 'request_info']);
    expect(byTrace.get('CS-ACC-2026-0001')?.[0]?.payerClaimNumber).toBe('EV30000WY00');
  });
});

describe('a large 277', () => {
  it('reads 1,000 claims', () => {
    const body = [...HEADER];
    for (let i = 0; i < 1000; i++) {
      body.push(
        `HL*${4 + i}*3*22*0`,
        `NM1*IL*1*Patient${i}*Test****MI*M${i}`,
        `TRN*2*CS-${i}`,
        `STC*${i % 2 === 0 ? 'F1:65' : 'P1:20'}*20261215**${100 + i}.25*${i % 2 === 0 ? 100 + i : 0}`,
        `REF*EJ*ACC-${i}`,
        'DTP*472*RD8*20261120-20261120',
      );
    }
    const file = read277(x12File(body));
    expect(file.claims).toHaveLength(1000);
    expect(claimsByTraceNumber(file.claims).size).toBe(1000);
    expect(file.claims[999]).toMatchObject({ traceNumber: 'CS-999', accountNumber: 'ACC-999', outcome: 'pending' });
    expect(file.claims[998]?.current.chargeCents).toBe(109825);
  });
});

describe('code lists', () => {
  it('map every category to an outcome consistent with its family', () => {
    for (const [code, entry] of Object.entries(CLAIM_STATUS_CATEGORIES)) {
      if (code.startsWith('R')) expect(entry.outcome, code).toBe('request_info');
      if (code.startsWith('P')) expect(entry.outcome, code).toBe('pending');
      if (code.startsWith('E')) expect(entry.outcome, code).toBe('error');
      if (code.startsWith('F')) expect(entry.outcome.startsWith('finalized'), code).toBe(true);
      if (['rejected', 'not_found', 'request_info', 'error', 'finalized_denied'].includes(entry.outcome)) {
        expect(entry.needsAction, code).toBe(true);
      }
    }
    expect(Object.keys(CLAIM_STATUS_CODES).length).toBeGreaterThan(200);
  });
});
