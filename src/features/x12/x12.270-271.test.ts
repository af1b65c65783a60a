import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseX12, transactionSetsOf, X12Error } from './x12.parse';
import { isaSegment } from './x12.serialize';
import {
  build270,
  EligibilityError,
  MAX_INQUIRIES_PER_TRANSACTION_SET,
  read271,
  summarise271Benefits,
  type Batch270,
  type Inquiry270,
  type Person271,
} from './x12.270-271';

/*
 * Every X12 text here was written by hand from the structure of ASC X12 005010X279A1: the 270's loops 2000A/2100A
 * (payer), 2000B/2100B (provider), 2000C/2100C/2110C (subscriber) and 2000D/2100D/2110D (dependent), and the 271's
 * same loops with AAA, EB, MSG, DTP and LS/LE (2120).
 */

const ORIGINATOR = '9371234567';

const MARIA: Inquiry270 = {
  traceNumber: 'TRC0001',
  subscriber: {
    name: { lastName: 'Lopez', firstName: 'Maria' },
    memberId: 'W123456789',
    dob: '1961-03-14',
    sex: 'F',
    groupNumber: 'GRP004512',
  },
  serviceDate: '2026-11-24',
};

const SOFIA: Inquiry270 = {
  traceNumber: 'TRC0002',
  subscriber: {
    name: { lastName: 'Lopez', firstName: 'Daniel' },
    memberId: 'W987654321',
    dob: null,
    sex: null,
    groupNumber: 'GRP004512',
  },
  dependent: { name: { lastName: 'Lopez', firstName: 'Sofia' }, dob: '2015-06-02', sex: 'F', relationship: 'child' },
  serviceDate: { from: '2026-11-01', to: '2026-11-30' },
  serviceTypeCodes: ['30', '98'],
};

function batchOf(inquiries: Inquiry270[], setControlNumbers = ['0001']): Batch270 {
  return {
    envelope: {
      interchangeControlNumber: 501,
      groupControlNumber: 601,
      setControlNumbers,
      date: '20261124',
      time: '0930',
      usage: 'T',
      reference: 'ELIG-41',
      sender: { id: 'RIVERSIDE', qualifier: 'ZZ' },
      receiver: { id: 'PRAIRIECH', qualifier: 'ZZ' },
    },
    originatorId: ORIGINATOR,
    source: { name: 'Aetna', payerId: '60054' },
    receiver: { kind: 'organization', name: 'Riverside Family Practice LLC', npi: '1667788990' },
    inquiries,
  };
}

const lines = (...segments: string[]) => segments.map((s) => `${s}\n`).join('');

describe('build270', () => {
  it('writes the inquiry of a subscriber who is the patient, byte for byte', () => {
    expect(build270(batchOf([MARIA]))).toBe(
      lines(
        'ISA*00*          *00*          *ZZ*RIVERSIDE      *ZZ*PRAIRIECH      *261124*0930*^*00501*000000501*0*T*:~',
        'GS*HS*RIVERSIDE*PRAIRIECH*20261124*0930*601*X*005010X279A1~',
        'ST*270*0001*005010X279A1~',
        'BHT*0022*13*ELIG-41*20261124*0930~',
        'HL*1**20*1~',
        'NM1*PR*2*Aetna*****PI*60054~',
        'HL*2*1*21*1~',
        'NM1*1P*2*Riverside Family Practice LLC*****XX*1667788990~',
        'HL*3*2*22*0~',
        'TRN*1*TRC0001*9371234567~',
        'NM1*IL*1*Lopez*Maria****MI*W123456789~',
        'REF*6P*GRP004512~',
        'DMG*D8*19610314*F~',
        'DTP*291*D8*20261124~',
        'EQ*30~',
        'SE*14*0001~',
        'GE*1*601~',
        'IEA*1*000000501~',
      ),
    );
  });

  it('writes the inquiry of a dependent under the subscriber, byte for byte', () => {
    expect(build270(batchOf([SOFIA]))).toBe(
      lines(
        'ISA*00*          *00*          *ZZ*RIVERSIDE      *ZZ*PRAIRIECH      *261124*0930*^*00501*000000501*0*T*:~',
        'GS*HS*RIVERSIDE*PRAIRIECH*20261124*0930*601*X*005010X279A1~',
        'ST*270*0001*005010X279A1~',
        'BHT*0022*13*ELIG-41*20261124*0930~',
        'HL*1**20*1~',
        'NM1*PR*2*Aetna*****PI*60054~',
        'HL*2*1*21*1~',
        'NM1*1P*2*Riverside Family Practice LLC*****XX*1667788990~',
        'HL*3*2*22*1~',
        'NM1*IL*1*Lopez*Daniel****MI*W987654321~',
        'REF*6P*GRP004512~',
        'HL*4*3*23*0~',
        'TRN*1*TRC0002*9371234567~',
        'NM1*03*1*Lopez*Sofia~',
        'DMG*D8*20150602*F~',
        'INS*N*19~',
        'DTP*291*RD8*20261101-20261130~',
        'EQ*30~',
        'EQ*98~',
        'SE*18*0001~',
        'GE*1*601~',
        'IEA*1*000000501~',
      ),
    );
  });

  it('numbers HL across inquiries, names a person provider, cleans names and leaves out what is absent', () => {
    const batch = batchOf([
      { ...MARIA, serviceDate: null },
      SOFIA,
      {
        traceNumber: 'TRC0003',
        subscriber: {
          name: { lastName: 'O*Brien', firstName: 'Sean', middleName: 'P', suffix: 'Jr' },
          memberId: 'X55',
          dob: '1980-01-31',
          sex: null,
        },
      },
    ]);
    batch.receiver = { kind: 'person', name: { lastName: 'Mitchell', firstName: 'Sarah' }, npi: '1679576722' };
    const text = build270(batch);
    expect(text).toContain('NM1*1P*1*Mitchell*Sarah****XX*1679576722~\n');
    expect(text).toContain('HL*3*2*22*0~\nTRN*1*TRC0001*9371234567~\n');
    expect(text).toContain('DMG*D8*19610314*F~\nEQ*30~\nHL*4*2*22*1~\n');
    expect(text).toContain('HL*5*4*23*0~\nTRN*1*TRC0002*9371234567~\n');
    expect(text).toContain(
      'HL*6*2*22*0~\nTRN*1*TRC0003*9371234567~\nNM1*IL*1*O Brien*Sean*P**Jr*MI*X55~\nDMG*D8*19800131~\nEQ*30~\nSE*',
    );
  });

  it('splits a batch into transaction sets of at most 99 patients, each with its own header', () => {
    const many = Array.from({ length: MAX_INQUIRIES_PER_TRANSACTION_SET + 1 }, (_, i) => ({
      ...MARIA,
      traceNumber: `T${i}`,
    }));
    const document = parseX12(build270(batchOf(many, ['0001', '0002'])));
    const sets = transactionSetsOf(document, '270');
    expect(sets.map(({ set }) => set.controlNumber)).toEqual(['0001', '0002']);
    expect(sets.map(({ set }) => set.segments.filter((s) => s.id === 'TRN').length)).toEqual([99, 1]);
    expect(sets.map(({ set }) => set.segments[0]!.elements[2])).toEqual(['ELIG-41-1', 'ELIG-41-2']);
    expect(sets[1]!.set.segments.filter((s) => s.id === 'HL').map((s) => s.elements[0])).toEqual(['1', '2', '3']);

    const real = parseX12(build270(batchOf([MARIA, SOFIA], ['0001', '0002']), { inquiriesPerSet: 1 }));
    expect(transactionSetsOf(real, '270')).toHaveLength(2);
  });

  describe('refuses what it cannot write, naming the element', () => {
    const refusals: [string, () => Batch270, string][] = [
      [
        'a blank member id',
        () => batchOf([{ ...MARIA, subscriber: { ...MARIA.subscriber, memberId: ' ' } }]),
        'NM109 (subscriber member id) is blank',
      ],
      [
        'a delimiter in the member id',
        () => batchOf([{ ...MARIA, subscriber: { ...MARIA.subscriber, memberId: 'W12*34' } }]),
        `NM109 (subscriber member id) "W12*34" holds '*', an X12 delimiter`,
      ],
      [
        'a date of birth off the calendar',
        () => batchOf([{ ...MARIA, subscriber: { ...MARIA.subscriber, dob: '1961-02-30' } }]),
        'DMG02 (subscriber date of birth) "1961-02-30" is not a calendar date YYYY-MM-DD',
      ],
      [
        'no date of birth for a subscriber who is the patient',
        () => batchOf([{ ...MARIA, subscriber: { ...MARIA.subscriber, dob: null } }]),
        'DMG02 (subscriber date of birth) is missing',
      ],
      [
        'a birth after the date asked about',
        () => batchOf([{ ...MARIA, subscriber: { ...MARIA.subscriber, dob: '2026-12-01' } }]),
        'date of birth 2026-12-01 is after the date asked about',
      ],
      [
        'a service date off the calendar',
        () => batchOf([{ ...MARIA, serviceDate: '2026-13-01' }]),
        'DTP03 (service date) "2026-13-01"',
      ],
      [
        'a range that ends before it starts',
        () => batchOf([{ ...SOFIA, serviceDate: { from: '2026-11-30', to: '2026-11-01' } }]),
        'end before they start',
      ],
      [
        'a service type code of three characters',
        () => batchOf([{ ...MARIA, serviceTypeCodes: ['30', 'ABC'] }]),
        'EQ01 "ABC" is not a service type code (1–2 uppercase letters or digits)',
      ],
      [
        'a lowercase service type code',
        () => batchOf([{ ...MARIA, serviceTypeCodes: ['al'] }]),
        'EQ01 "al" is not a service type code',
      ],
      [
        'a service type code twice',
        () => batchOf([{ ...MARIA, serviceTypeCodes: ['30', '30'] }]),
        'EQ01 "30" is listed twice',
      ],
      ['no service type code', () => batchOf([{ ...MARIA, serviceTypeCodes: [] }]), 'EQ01: no service type code'],
      [
        'a blank last name once cleaned',
        () =>
          batchOf([{ ...MARIA, subscriber: { ...MARIA.subscriber, name: { lastName: '~*', firstName: 'Maria' } } }]),
        'NM103 (subscriber last name) is blank',
      ],
      [
        'a dependent without a date of birth',
        () => batchOf([{ ...SOFIA, dependent: { ...SOFIA.dependent!, dob: '' } }]),
        'DMG02 (dependent date of birth)',
      ],
      [
        'an NPI with a wrong check digit',
        () => ({ ...batchOf([MARIA]), receiver: { kind: 'organization', name: 'X', npi: '1667788991' } }),
        'NM109 (NPI) "1667788991"',
      ],
      [
        'a payer without an id',
        () => ({ ...batchOf([MARIA]), source: { name: 'Aetna', payerId: '' } }),
        'NM109 (payer id) is blank',
      ],
      [
        'an originator id that is not 10 characters',
        () => ({ ...batchOf([MARIA]), originatorId: '937123' }),
        'TRN03 (originator id) "937123" must be exactly 10',
      ],
      [
        'a trace number twice',
        () => batchOf([MARIA, { ...MARIA }]),
        'TRN02 trace number "TRC0001" is inquiry 1\'s too',
      ],
      [
        'a blank trace number',
        () => batchOf([{ ...MARIA, traceNumber: '' }]),
        'Inquiry 1: TRN02 (trace number) is blank',
      ],
      ['no inquiry', () => batchOf([]), 'there is no inquiry to send'],
      [
        'too few ST control numbers',
        () => batchOf([MARIA, SOFIA], []),
        'the inquiries make 1 transaction set(s), which need as many ST control numbers, not 0',
      ],
      [
        'a file date off the calendar',
        () => ({ ...batchOf([MARIA]), envelope: { ...batchOf([]).envelope, date: '20261332' } }),
        'date "20261332"',
      ],
    ];
    for (const [what, batch, message] of refusals) {
      it(what, () => {
        const run = () => build270(batch());
        expect(run).toThrow(EligibilityError);
        expect(run).toThrow(message);
      });
    }
    it('names the inquiry by its place and trace number', () => {
      const bad = { ...SOFIA, traceNumber: 'TRC0009', dependent: { ...SOFIA.dependent!, sex: 'X' as 'F' } };
      expect(() => build270(batchOf([MARIA, bad]))).toThrow(
        'Inquiry 2 (trace "TRC0009"): DMG03 (dependent sex) "X" must be F, M or U',
      );
    });
    it('more than 99 inquiries per set', () => {
      expect(() => build270(batchOf([MARIA]), { inquiriesPerSet: 100 })).toThrow(
        'inquiriesPerSet 100 must be a whole number from 1 to 99',
      );
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------

const ISA_271 = isaSegment({
  senderQualifier: 'ZZ',
  senderId: 'PRAIRIECH',
  receiverQualifier: 'ZZ',
  receiverId: 'RIVERSIDE',
  date: '261124',
  time: '0931',
  controlNumber: 777,
  ackRequested: '0',
  usage: 'T',
});

interface FileOptions {
  st01?: string;
  gs01?: string;
  version?: string;
  st03?: string;
}

/** A 271 interchange around hand-written body segments (given without terminators); SE01 counted. */
function file271(body: readonly string[], options: FileOptions = {}): string {
  const version = options.version ?? '005010X279A1';
  const set = [`ST*${options.st01 ?? '271'}*0001*${options.st03 ?? version}`, ...body];
  set.push(`SE*${set.length + 1}*0001`);
  return lines(
    ISA_271,
    `GS*${options.gs01 ?? 'HB'}*PRAIRIECH*RIVERSIDE*20261124*0931*777*X*${version}~`,
    ...set.map((s) => `${s}~`),
    'GE*1*777~',
    'IEA*1*000000777~',
  );
}

/** The file position of a body segment (ISA 1, GS 2, ST 3). */
const positionIn = (body: readonly string[], segment: string) => body.indexOf(segment) + 4;

const HEAD = [
  'BHT*0022*11*ELIG-41*20261124*093105',
  'HL*1**20*1',
  'NM1*PR*2*Aetna*****PI*60054',
  'HL*2*1*21*1',
  'NM1*1P*2*Riverside Family Practice LLC*****XX*1667788990',
];

const ACTIVE = [
  'HL*3*2*22*0',
  'TRN*2*TRC0001*9371234567',
  'TRN*1*AET-88-1*1060054000',
  'NM1*IL*1*LOPEZ*MARIA*R***MI*W123456789',
  'REF*6P*GRP004512*RIVERSIDE EMPLOYER GROUP',
  'N3*418 MAPLE AVENUE',
  'N4*SPRINGFIELD*IL*62701',
  'DMG*D8*19610314*F',
  'INS*Y*18*001*25',
  'DTP*346*D8*20260101',
  'DTP*347*D8*20261231',
  'EB*1*IND*30^1^33^35^47^86^88^98^AL^MH^UC*PR*Choice POS II',
  'EB*B*IND*98*PR**27*25*****Y',
  'MSG*COPAY WAIVED FOR PREVENTIVE VISITS',
  'EB*B*IND*98*PR**27*60*****N',
  'EB*A*IND*98*PR**27**.2****Y',
  'EB*A*IND*98*PR**27**.4****N',
  'EB*C*IND*30*PR**23*1500*****Y',
  'EB*C*IND*30*PR**29*1234.56*****Y',
  'EB*C*IND*30*PR**23*3000*****N',
  'EB*C*IND*30*PR**29*3000*****N',
  'EB*C*FAM*30*PR**23*3000*****Y',
  'EB*C*FAM*30*PR**29*2100*****Y',
  'EB*G*IND*30*PR**23*6000*****Y',
  'EB*G*IND*30*PR**29*5012.4*****Y',
  'EB*G*IND*30*PR**23*12000*****N',
  'EB*G*IND*30*PR**29*12000*****N',
  'MSG*OUT OF NETWORK MAXIMUM EXCLUDES PENALTIES',
  'EB*L',
  'LS*2120',
  'NM1*P3*1*CARTER*EMILY****XX*1932154911',
  'LE*2120',
  'EB*F*IND*AD*PR**23***VS*20*Y',
  'DTP*348*RD8*20260101-20261231',
];

const INACTIVE = [
  'HL*4*2*22*0',
  'TRN*2*TRC0003*9371234567',
  'NM1*IL*1*NGUYEN*THANH****MI*H55501234',
  'DMG*D8*19790911*M',
  'DTP*357*D8*20260630',
  'EB*6*IND*30',
  'MSG*COVERAGE TERMINATED 06/30/2026',
];

const only = (text: string): Person271[] => read271(text).flatMap((set) => set.people);

describe('read271: an active subscriber', () => {
  const body = [...HEAD, ...ACTIVE];
  const [set] = read271(file271(body));
  const maria = set!.people[0]!;

  it('reads the set, the payer and the provider', () => {
    expect(set).toMatchObject({
      controlNumber: '0001',
      position: 3,
      reference: 'ELIG-41',
      date: '2026-11-24',
      time: '093105',
    });
    expect(set!.sources).toEqual([
      expect.objectContaining({ entityCode: 'PR', lastName: 'Aetna', idQualifier: 'PI', id: '60054', rejections: [] }),
    ]);
    expect(set!.receivers[0]).toMatchObject({ entityCode: '1P', id: '1667788990', hl: '2' });
  });

  it('reads the subscriber as the payer has them, with the trace number echoed back', () => {
    expect(maria).toMatchObject({
      level: 'subscriber',
      patient: true,
      traceNumber: 'TRC0001',
      lastName: 'LOPEZ',
      firstName: 'MARIA',
      middleName: 'R',
      memberId: 'W123456789',
      dob: '1961-03-14',
      sex: 'F',
      relationship: '18',
      subscriber: null,
    });
    expect(maria.traces.map((t) => [t.type, t.traceNumber, t.originatorId])).toEqual([
      ['2', 'TRC0001', '9371234567'],
      ['1', 'AET-88-1', '1060054000'],
    ]);
    expect(maria.references).toEqual([
      { qualifier: '6P', value: 'GRP004512', description: 'RIVERSIDE EMPLOYER GROUP' },
    ]);
    expect(maria.dates.map((d) => [d.qualifier, d.label, d.from, d.to])).toEqual([
      ['346', 'Plan begin', '2026-01-01', '2026-01-01'],
      ['347', 'Plan end', '2026-12-31', '2026-12-31'],
    ]);
  });

  it('keeps each EB as sent, with its messages, dates and related entities', () => {
    expect(maria.benefits).toHaveLength(17);
    const [coverage, copay] = maria.benefits;
    expect(coverage).toMatchObject({
      loop: '2110C',
      informationCode: '1',
      informationLabel: 'Active coverage',
      coverageLevel: 'IND',
      insuranceType: 'PR',
      planCoverageDescription: 'Choice POS II',
      amountCents: null,
    });
    expect(coverage!.serviceTypeCodes).toEqual(['30', '1', '33', '35', '47', '86', '88', '98', 'AL', 'MH', 'UC']);
    expect(copay).toMatchObject({
      informationLabel: 'Co-payment',
      timePeriod: '27',
      timePeriodLabel: 'Visit',
      amountCents: 2500,
      inPlanNetwork: 'Y',
      messages: ['COPAY WAIVED FOR PREVENTIVE VISITS'],
      position: positionIn(body, 'EB*B*IND*98*PR**27*25*****Y'),
    });
    expect(maria.benefits[3]).toMatchObject({ informationCode: 'A', percent: 0.2, amountCents: null });
    const pcp = maria.benefits.find((b) => b.informationCode === 'L')!;
    expect(pcp.relatedEntities).toEqual([
      expect.objectContaining({ entityCode: 'P3', lastName: 'CARTER', firstName: 'EMILY', id: '1932154911' }),
    ]);
    expect(maria.benefits.at(-1)).toMatchObject({
      informationCode: 'F',
      informationLabel: 'Limitations',
      quantityQualifier: 'VS',
      quantity: 20,
      authorizationRequired: 'Y',
      dates: [expect.objectContaining({ qualifier: '348', from: '2026-01-01', to: '2026-12-31', range: true })],
    });
  });

  it('sums up copays, coinsurance, deductibles and out-of-pocket in and out of network', () => {
    const summary = summarise271Benefits(maria);
    expect(summary).toMatchObject({
      active: true,
      rejections: [],
      planName: 'Choice POS II',
      insuranceType: 'PR',
      groupNumber: 'GRP004512',
      coverageBegin: '2026-01-01',
      coverageEnd: '2026-12-31',
    });
    expect(summary.copays.map((c) => [c.serviceTypeCodes, c.inPlanNetwork, c.amountCents, c.messages])).toEqual([
      [['98'], 'Y', 2500, ['COPAY WAIVED FOR PREVENTIVE VISITS']],
      [['98'], 'N', 6000, []],
    ]);
    expect(summary.coinsurance.map((c) => [c.inPlanNetwork, c.percent])).toEqual([
      ['Y', 0.2],
      ['N', 0.4],
    ]);
    const pick = (a: (typeof summary)['deductibles']) =>
      a.map((d) => [d.coverageLevel, d.inPlanNetwork, d.totalCents, d.totalPeriod, d.remainingCents]);
    expect(pick(summary.deductibles)).toEqual([
      ['IND', 'Y', 150000, '23', 123456],
      ['IND', 'N', 300000, '23', 300000],
      ['FAM', 'Y', 300000, '23', 210000],
    ]);
    expect(pick(summary.outOfPocket)).toEqual([
      ['IND', 'Y', 600000, '23', 501240],
      ['IND', 'N', 1200000, '23', 1200000],
    ]);
    expect(summary.outOfPocket[1]!.messages).toEqual(['OUT OF NETWORK MAXIMUM EXCLUDES PENALTIES']);
  });
});

describe('read271: other answers', () => {
  it('reads an inactive subscriber (EB*6) as not active, with the end of coverage', () => {
    const [person] = only(file271([...HEAD, ...INACTIVE.map((s) => s.replace('HL*4*', 'HL*3*'))]));
    expect(person!.benefits[0]).toMatchObject({ informationCode: '6', informationLabel: 'Inactive' });
    expect(summarise271Benefits(person!)).toMatchObject({ active: false, coverageEnd: '2026-06-30', planName: null });
  });

  it('reads a payer that cannot answer (2100A AAA 42) with no subscriber loop', () => {
    const [set] = read271(
      file271(['BHT*0022*11*ELIG-41*20261124*0931', 'HL*1**20*0', 'NM1*PR*2*Aetna*****PI*60054', 'AAA*Y**42*R']),
    );
    expect(set!.people).toEqual([]);
    expect(set!.sources[0]!.rejections).toEqual([
      {
        loop: '2100A',
        position: 7,
        validRequest: true,
        reasonCode: '42',
        reason: 'The payer cannot answer at the moment (its system is down or busy); try again later',
        followUpCode: 'R',
        followUp: 'The request may be sent again',
      },
    ]);
  });

  it('marks the people under a rejected payer or provider as unknown, not inactive', () => {
    const body = [
      'BHT*0022*11*ELIG-41*20261124*0931',
      'HL*1**20*1',
      'AAA*Y**42*R',
      'NM1*PR*2*Aetna*****PI*60054',
      'HL*2*1*21*1',
      'NM1*1P*2*Riverside Family Practice LLC*****XX*1667788990',
      'AAA*N**51*C',
      ...ACTIVE.slice(0, 4),
      'EB*6*IND*30',
    ];
    const [person] = only(file271(body));
    const summary = summarise271Benefits(person!);
    expect(summary.active).toBeNull();
    expect(summary.rejections.map((r) => [r.loop, r.reasonCode, r.reason])).toEqual([
      ['2000A', '42', 'The payer cannot answer at the moment (its system is down or busy); try again later'],
      ['2100B', '51', 'The payer has no record of this provider'],
    ]);
  });

  it('reads subscriber rejections (2100C AAA 72 invalid member id, 75 not found) in plain words', () => {
    const people = only(
      file271([
        ...HEAD,
        'HL*3*2*22*0',
        'TRN*2*TRC0004*9371234567',
        'NM1*IL*1*SMITH*JOHN****MI*BAD-ID',
        'AAA*N**72*C',
        'HL*4*2*22*0',
        'TRN*2*TRC0005*9371234567',
        'NM1*IL*1*DOE*JANE****MI*X1',
        'AAA*Y**75*N',
        'DMG*D8*19900101*F',
      ]),
    );
    expect(people.map((p) => summarise271Benefits(p))).toMatchObject([
      {
        active: null,
        rejections: [
          {
            loop: '2100C',
            validRequest: false,
            reasonCode: '72',
            reason: 'The member id is missing or not valid',
            followUp: 'Correct the request and send it again',
          },
        ],
      },
      {
        active: null,
        rejections: [
          {
            loop: '2100C',
            validRequest: true,
            reasonCode: '75',
            reason: 'The payer cannot find the subscriber',
            followUp: 'Do not send this request again',
          },
        ],
      },
    ]);
  });

  it('keeps a 2110C rejection of one service type without making the coverage unknown', () => {
    const [person] = only(file271([...HEAD, ...ACTIVE.slice(0, 4), 'EB*1*IND*30', 'EB*V**AL', 'AAA*Y**53*C']));
    const summary = summarise271Benefits(person!);
    expect(summary.active).toBe(true);
    expect(summary.rejections).toEqual([expect.objectContaining({ loop: '2110C', reasonCode: '53' })]);
  });

  it('reads a dependent under its subscriber, the dependent being the patient', () => {
    const people = only(
      file271([
        ...HEAD,
        'HL*3*2*22*1',
        'NM1*IL*1*LOPEZ*DANIEL****MI*W987654321',
        'REF*6P*GRP004512',
        'HL*4*3*23*0',
        'TRN*2*TRC0002*9371234567',
        'NM1*03*1*LOPEZ*SOFIA',
        'DMG*D8*20150602*F',
        'INS*N*19',
        'DTP*346*D8*20250101',
        'EB*1*CHD*30**Choice POS II',
        'EB*B*CHD*98***27*20*****Y',
        'HL*5*3*23*0',
        'TRN*2*TRC0006*9371234567',
        'NM1*03*1*LOPEZ*MATEO',
        'AAA*Y**67*C',
      ]),
    );
    expect(people.map((p) => [p.level, p.patient, p.traceNumber])).toEqual([
      ['subscriber', false, null],
      ['dependent', true, 'TRC0002'],
      ['dependent', true, 'TRC0006'],
    ]);
    const sofia = people[1]!;
    expect(sofia).toMatchObject({ firstName: 'SOFIA', memberId: null, dob: '2015-06-02', relationship: '19' });
    expect(sofia.subscriber).toMatchObject({ hl: '3', firstName: 'DANIEL', memberId: 'W987654321' });
    expect(sofia.benefits[0]!.loop).toBe('2110D');
    expect(summarise271Benefits(sofia)).toMatchObject({
      active: true,
      planName: 'Choice POS II',
      coverageBegin: '2025-01-01',
      copays: [expect.objectContaining({ coverageLevel: 'CHD', amountCents: 2000 })],
    });
    expect(summarise271Benefits(people[2]!)).toMatchObject({
      active: null,
      rejections: [expect.objectContaining({ loop: '2100D', reason: 'The payer cannot find the patient' })],
    });
  });

  it('matches several subscribers of one 271 by trace number, whatever their order', () => {
    const people = only(file271([...HEAD, ...INACTIVE, ...ACTIVE]));
    const byTrace = new Map(people.map((p) => [p.traceNumber, p]));
    expect(byTrace.get('TRC0001')!.lastName).toBe('LOPEZ');
    expect(byTrace.get('TRC0003')!.lastName).toBe('NGUYEN');
    expect(summarise271Benefits(byTrace.get('TRC0003')!).active).toBe(false);
  });

  it('takes the trace number of our originator when told it, the first TRN*2 when not', () => {
    const body = [...HEAD, 'HL*3*2*22*0', 'TRN*2*CH-000017*9999999999', ...ACTIVE.slice(1, 4), 'EB*1'];
    expect(only(file271(body))[0]!.traceNumber).toBe('CH-000017');
    expect(read271(file271(body), { originatorId: ORIGINATOR })[0]!.people[0]!.traceNumber).toBe('TRC0001');
    expect(() => read271(file271(body), { originatorId: '9000000001' })).toThrow(
      'Loop 2000C (HL 3, segment 9) has no TRN*2 from originator "9000000001" (found "9999999999", "9371234567")',
    );
  });

  it('accepts an EB01 code outside the list, labelled null, and leaves it out of the summary', () => {
    const [person] = only(file271([...HEAD, ...ACTIVE.slice(0, 4), 'EB*ZZ*IND*30', 'EB*1*IND*30']));
    expect(person!.benefits[0]).toMatchObject({ informationCode: 'ZZ', informationLabel: null });
    expect(summarise271Benefits(person!).active).toBe(true);
    const [unknownOnly] = only(file271([...HEAD, ...ACTIVE.slice(0, 4), 'EB*ZZ']));
    expect(summarise271Benefits(unknownOnly!).active).toBeNull();
  });

  it('names an AAA03 code outside the list rather than refusing it', () => {
    const [person] = only(file271([...HEAD, ...ACTIVE.slice(0, 4), 'AAA*Y**Q9']));
    expect(person!.rejections[0]!.reason).toBe('Reason code Q9 (not in the 005010X279A1 list)');
  });

  it('reads a 271 of 1,000 subscribers', () => {
    const body = [...HEAD];
    for (let i = 0; i < 1000; i++) {
      body.push(
        `HL*${i + 3}*2*22*0`,
        `TRN*2*T${i}*9371234567`,
        `NM1*IL*1*LAST${i}*FIRST****MI*M${i}`,
        'DMG*D8*19800101*F',
        'DTP*346*D8*20260101',
        `EB*${i % 10 === 0 ? '6' : '1'}*IND*30**Gold`,
        'EB*B*IND*98***27*25*****Y',
        'EB*C*IND*30***23*1500*****Y',
        'EB*C*IND*30***29*500*****Y',
        'MSG*THANK YOU',
      );
    }
    const people = only(file271(body));
    expect(people).toHaveLength(1000);
    expect(new Set(people.map((p) => p.traceNumber)).size).toBe(1000);
    expect(people.map(summarise271Benefits).filter((s) => s.active === true)).toHaveLength(900);
  });
});

describe('read271 refuses', () => {
  const base = [...HEAD, ...ACTIVE.slice(0, 4)];
  const refused = (body: readonly string[], code: string, message: string, position?: number) => {
    let error: unknown;
    try {
      read271(file271(body));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EligibilityError);
    expect((error as EligibilityError).code).toBe(code);
    expect((error as EligibilityError).message).toContain(message);
    if (position !== undefined) expect((error as EligibilityError).position).toBe(position);
  };

  it('a date off the calendar, naming the element and segment', () => {
    const body = [...base, 'DTP*346*D8*20261332'];
    refused(
      body,
      'BAD_DATE',
      `DTP03: "20261332" is not a calendar date CCYYMMDD between 1900 and 2999 (segment ${positionIn(body, 'DTP*346*D8*20261332')})`,
    );
    refused([...base, 'DMG*D8*19610230*F'], 'BAD_DATE', 'DMG02: "19610230"');
    refused([...base, 'EB*1', 'DTP*346*RD8*20261231-20260101'], 'BAD_DATE', 'ends before it starts');
    refused([...base, 'EB*1', 'DTP*346*RD8*20260101'], 'BAD_DATE', 'is not a date range CCYYMMDD-CCYYMMDD');
    refused([...base, 'DTP*346*D6*202601'], 'BAD_VALUE', 'DTP02: "D6" is not D8 or RD8');
    refused([...base, 'DTP*346*D8*30000101'], 'BAD_DATE', 'DTP03: "30000101"');
  });

  it('an EB07 that is not an amount, negative, a fraction of a cent or absurd', () => {
    const body = [...base, 'EB*C*IND*30***23*12x'];
    refused(
      body,
      'BAD_AMOUNT',
      `EB07: "12x" is not an amount (segment ${positionIn(body, 'EB*C*IND*30***23*12x')})`,
      positionIn(body, 'EB*C*IND*30***23*12x'),
    );
    refused([...base, 'EB*C*IND*30***23*-5'], 'BAD_AMOUNT', 'EB07: "-5" is negative');
    refused([...base, 'EB*C*IND*30***23*1.005'], 'BAD_AMOUNT', 'EB07: "1.005" has a fraction of a cent');
    refused([...base, 'EB*C*IND*30***23*99999999999'], 'BAD_AMOUNT', 'the largest benefit amount accepted');
    refused([...base, 'EB*C*IND*30***23*1234567890123456789'], 'BAD_AMOUNT', 'is not an amount');
    refused([...base, 'EB*C*IND*30***23*.'], 'BAD_AMOUNT', 'is not an amount');
  });

  it('an EB08 percent outside 0..1, and other bad EB elements', () => {
    refused(
      [...base, 'EB*A*IND*30***23**1.5'],
      'BAD_VALUE',
      'EB08: "1.5" is more than 1; X12 sends a percent as a fraction',
    );
    refused([...base, 'EB*A*IND*30***23**20'], 'BAD_VALUE', 'EB08: "20" is more than 1');
    refused([...base, 'EB*A*IND*30***23**-.1'], 'BAD_VALUE', 'EB08: "-.1" is not a percent');
    refused([...base, 'EB*F*IND*30***23***VS*ten'], 'BAD_VALUE', 'EB10: "ten" is not a quantity');
    refused([...base, 'EB*1*IND*30********Q'], 'BAD_VALUE', 'EB11: "Q" is not Y, N, U');
    refused([...base, 'EB*1*IND*30*********X'], 'BAD_VALUE', 'EB12: "X" is not Y, N, U, W');
    refused([...base, 'EB*1*IND*30^ABC'], 'BAD_VALUE', 'EB03: "ABC" is not a service type code');
    refused([...base, 'EB**IND'], 'BAD_VALUE', 'EB01: "" is not an eligibility or benefit information code');
    refused([...base, 'AAA*M**72'], 'BAD_VALUE', 'AAA01: "M" is not Y or N');
  });

  it('a 271 without a subscriber loop or a rejection', () => {
    refused(HEAD, 'STRUCTURE', 'has no subscriber loop (HL 22) and no rejection (AAA)');
  });

  it('an EB before the NM1, and segments out of their loops', () => {
    refused(
      [...HEAD, 'HL*3*2*22*0', 'TRN*2*T1*9371234567', 'EB*1'],
      'STRUCTURE',
      "EB at segment 11 comes before the subscriber's NM1 (loop 2100C)",
    );
    refused([...HEAD, 'EB*1'], 'STRUCTURE', 'EB at segment 9 is outside a subscriber or dependent loop');
    refused([...base, 'MSG*HELLO'], 'STRUCTURE', 'MSG at segment 13 follows no EB');
    refused(
      [...base, 'EB*1', 'LS*2120', 'NM1*P3*1*X', 'EB*1'],
      'STRUCTURE',
      'LS at segment 14 has no LE before the EB',
    );
    refused([...base, 'EB*1', 'LE*2120'], 'STRUCTURE', 'LE at segment 14 closes no LS');
    refused([...base, 'NM1*IL*1*AGAIN'], 'STRUCTURE', 'NM1 at segment 13: loop 2100C already has its NM1');
    refused([...base, 'EB*1', 'NM1*P3*1*X'], 'STRUCTURE', 'belongs between LS*2120 and LE*2120');
    refused([...base, 'EB*1', 'DMG*D8*19610314'], 'STRUCTURE', 'DMG at segment 14 belongs to loop 2100C');
    refused(['HL*1**20*1', ...HEAD.slice(1)], 'STRUCTURE', 'does not start with BHT');
    refused([HEAD[0]!, 'NM1*PR*2*Aetna', ...HEAD.slice(1)], 'STRUCTURE', 'NM1 at segment 5 comes before the first HL');
    refused(
      [...HEAD, 'HL*3*2*22*0', 'TRN*2*T1*9371234567', 'HL*4*2*22*0'],
      'STRUCTURE',
      'The HL at segment 9 has no NM1: loop 2100C (NM1*IL) is missing',
    );
    refused(
      [...HEAD, 'HL*3*2*22*0', 'TRN*2*T1*9371234567', 'NM1*03*1*X'],
      'BAD_VALUE',
      'NM101: "03" is not an entity of loop 2100C (IL)',
    );
  });

  it('an HL whose parent does not exist or is not the level above', () => {
    refused([...HEAD, 'HL*3*9*22*0'], 'STRUCTURE', 'HL02: the parent "9" of HL 3 (loop 2000C) does not exist');
    refused(
      [...HEAD, 'HL*3*1*22*0'],
      'STRUCTURE',
      'HL02: HL 3 (loop 2000C) must be under a receiver, but HL 1 is a source',
    );
    refused([...HEAD, 'HL*2*1*22*0'], 'STRUCTURE', 'HL01: "2" is used twice (segments 7 and 9)');
    refused([...HEAD, 'HL*3*2*24*0'], 'BAD_VALUE', 'HL03: "24" is not a level of a 271');
    refused([...HEAD, 'HL*4*3*23*0'], 'STRUCTURE', 'HL02: the parent "3" of HL 4 (loop 2000D) does not exist');
  });

  it('a patient loop without its trace number', () => {
    refused(
      [...HEAD, 'HL*3*2*22*0', 'NM1*IL*1*LOPEZ*MARIA****MI*W1', 'EB*1'],
      'STRUCTURE',
      'Loop 2000C (HL 3, segment 9) has no TRN*2 trace number',
    );
    refused([...HEAD, 'HL*3*2*22*0', 'TRN*2**9371234567'], 'STRUCTURE', 'TRN02 (trace number) is blank');
    refused([...base, 'TRN*2*T*9371234567'], 'STRUCTURE', 'TRN at segment 13 follows the NM1');
  });

  it('a BHT that is not a response', () => {
    refused(
      ['BHT*0022*13*ELIG-41*20261124*0930', ...HEAD.slice(1), ...ACTIVE.slice(0, 4)],
      'BAD_VALUE',
      'BHT02: "13" is not 11 (response)',
    );
  });

  it('a 270, an 835, an 837 or a 999, naming what it is', () => {
    const notIt = (text: string, what: string) => {
      expect(() => read271(text)).toThrow(EligibilityError);
      expect(() => read271(text)).toThrow(what);
    };
    notIt(
      build270(batchOf([MARIA])),
      'it holds an eligibility inquiry (270); read271 reads the payer’s answer, the 271',
    );
    notIt(
      file271(['BPR*I*0*C*NON'], { st01: '835', gs01: 'HP', version: '005010X221A1' }),
      'a remittance, health care claim payment/advice (835)',
    );
    notIt(
      readFileSync(path.join(import.meta.dirname, 'golden', '837p-subscriber.x12'), 'utf8'),
      'a health care claim (837)',
    );
    notIt(
      file271(['AK1*HC*1*005010X222A1', 'AK9*A*1*1*1'], { st01: '999', gs01: 'FA', version: '005010X231A1' }),
      'an implementation acknowledgment (999)',
    );
  });

  it('a 271 of another implementation guide or functional group', () => {
    const body = [...base, 'EB*1'];
    const fails = (options: FileOptions, code: string, message: string) => {
      expect(() => read271(file271(body, options))).toThrow(message);
      expect(() => read271(file271(body, options))).toThrow(expect.objectContaining({ code }));
    };
    fails({ version: '004010X092A1' }, 'UNSUPPORTED_VERSION', 'GS08: "004010X092A1" is not 005010X279A1');
    fails({ st03: '005010X279' }, 'UNSUPPORTED_VERSION', 'ST03: "005010X279" is not 005010X279A1');
    fails({ gs01: 'HS' }, 'STRUCTURE', 'GS01: "HS" is not HB');
  });

  it("a broken interchange, with the X12 layer's own error", () => {
    const text = file271([...base, 'EB*1']).replace('IEA*1*000000777~\n', '');
    expect(() => read271(text)).toThrow(X12Error);
    expect(() => read271(text)).toThrow(expect.objectContaining({ code: 'MISSING_TRAILER' }));
  });
});

// ---------------------------------------------------------------------------------------------------------------

/**
 * A payer's answer to a 270, as a test double: the 270's own segments with BHT02 13 → 11, each TRN*1 echoed as
 * TRN*2, and each EQ answered by an EB*1 of that service type, in a 271 envelope.
 */
function answer270(text270: string): string {
  const [{ set }] = transactionSetsOf(parseX12(text270), '270') as [ReturnType<typeof transactionSetsOf>[number]];
  const body = set.segments.map((s) => {
    const elements = [...s.elements];
    if (s.id === 'BHT') elements[1] = '11';
    if (s.id === 'TRN') elements[0] = '2';
    if (s.id === 'EQ') return `EB*1*IND*${elements[0]}`;
    return [s.id, ...elements].join('*');
  });
  return file271(body);
}

describe('round trip: the trace numbers written by build270 come back from the 271', () => {
  const word = fc.stringMatching(/^[A-Z][a-z]{0,11}$/);
  const inquiry = fc.record({
    trace: fc.stringMatching(/^[A-Z0-9]{1,20}$/),
    last: word,
    first: word,
    memberId: fc.stringMatching(/^[A-Z0-9]{2,12}$/),
    dependent: fc.option(fc.record({ last: word, first: word }), { nil: null }),
    types: fc.uniqueArray(fc.constantFrom('30', '98', 'AL', 'MH', 'UC', '1'), { minLength: 1, maxLength: 4 }),
  });
  it('for random batches', () => {
    fc.assert(
      fc.property(fc.uniqueArray(inquiry, { minLength: 1, maxLength: 12, selector: (i) => i.trace }), (drawn) => {
        const inquiries: Inquiry270[] = drawn.map((d) => ({
          traceNumber: d.trace,
          subscriber: {
            name: { lastName: d.last, firstName: d.first },
            memberId: d.memberId,
            dob: '1970-05-05',
            sex: 'U',
          },
          dependent: d.dependent && {
            name: { lastName: d.dependent.last, firstName: d.dependent.first },
            dob: '2010-01-01',
            sex: null,
          },
          serviceDate: '2026-11-24',
          serviceTypeCodes: d.types,
        }));
        const people = read271(answer270(build270(batchOf(inquiries))), { originatorId: ORIGINATOR })[0]!.people;
        const patients = people.filter((p) => p.patient);
        expect(patients.map((p) => p.traceNumber)).toEqual(drawn.map((d) => d.trace));
        patients.forEach((p, i) => {
          const d = drawn[i]!;
          expect(p.firstName).toBe(d.dependent ? d.dependent.first : d.first);
          expect(p.level).toBe(d.dependent ? 'dependent' : 'subscriber');
          expect(p.subscriber?.memberId ?? p.memberId).toBe(d.memberId);
          expect(p.benefits.flatMap((b) => b.serviceTypeCodes)).toEqual(d.types);
          expect(summarise271Benefits(p).active).toBe(true);
        });
      }),
      { numRuns: 60 },
    );
  });
});
