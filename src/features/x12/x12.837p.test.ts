import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseX12, transactionSetsOf } from '@/features/x12/x12.parse';
import { claimsReadBack } from '@/testing/x12-837-read';
import {
  build837,
  firstUnwritableClaim,
  splitPersonName,
  x12Amount,
  type Batch837,
  type Claim837,
  type PersonName837,
  type PriorAdjudication837,
  MAX_CLAIMS_PER_TRANSACTION_SET,
} from './x12.837p';

/**
 * Golden files: each file under golden/ was written by hand from the structure of ASC X12 005010X222A1 (loops
 * 1000A/B, 2000A/2010AA, 2000B/2010BA/2010BB, 2000C/2010CA, 2300, 2310B, 2320/2330A/2330B, 2400) for the inputs
 * below, and the generator must give it byte for byte.
 */
const golden = (name: string) => readFileSync(path.join(import.meta.dirname, 'golden', name), 'utf8');

const person = (lastName: string, firstName: string): PersonName837 => ({
  lastName,
  firstName,
  middleName: '',
  suffix: '',
});

const HOME = { line1: '418 Maple Avenue', city: 'Springfield', state: 'IL', zip: '62701' };
const AETNA = { name: 'Aetna', payerId: '60054', claimFilingIndicator: 'CI' };
const BILLING_NPI = '1667788990';
const MITCHELL = { name: person('Mitchell', 'Sarah'), npi: '1679576722', taxonomyCode: '207Q00000X' };

function batchOf(claims: Claim837[], payer = AETNA): Batch837 {
  return {
    envelope: {
      interchangeControlNumber: 101,
      groupControlNumber: 201,
      setControlNumbers: ['0301'],
      date: '20261124',
      time: '1000',
      usage: 'T',
      reference: '41',
      submitter: {
        name: 'Riverside Family Practice LLC',
        id: '371234567',
        qualifier: '30',
        contactName: 'Billing Office',
        contactPhone: '2175550100',
      },
      receiver: { name: 'Prairie Clearinghouse', id: 'PRAIRIECH', qualifier: 'ZZ' },
    },
    billingProvider: {
      name: 'Riverside Family Practice LLC',
      npi: BILLING_NPI,
      taxId: '371234567',
      taxonomyCode: '193200000X',
      address: { line1: '1200 Main Street, Suite 200', city: 'Springfield', state: 'IL', zip: '627011234' },
    },
    payer,
    claims,
  };
}

const maria = { name: person('Lopez', 'Maria'), dob: '1961-03-14', sex: 'F' as const, address: HOME };
const mariaCoverage = {
  priority: 1,
  medicareSecondaryType: null,
  memberId: 'W123456789',
  groupNumber: 'GRP004512',
  relationship: 'self' as const,
  subscriber: null,
};

const SUBSCRIBER: Claim837 = {
  accountNumber: 'ACC-2026-0001',
  frequencyCode: '1',
  originalClaimNumber: null,
  placeOfService: '11',
  diagnoses: ['E11.9', 'I10'],
  lines: [
    {
      procedureCode: '99214',
      modifiers: ['25'],
      units: 1,
      chargeCents: 15000,
      diagnosisPointers: [1, 2],
      serviceDate: '2026-11-20',
      lineControlNumber: 'ACC-2026-0001-1',
      priorAuthorizationNumber: null,
    },
    {
      procedureCode: '83036',
      modifiers: [],
      units: 1,
      chargeCents: 4550,
      diagnosisPointers: [1],
      serviceDate: '2026-11-20',
      lineControlNumber: 'ACC-2026-0001-2',
      priorAuthorizationNumber: null,
    },
  ],
  patient: maria,
  coverage: mariaCoverage,
  renderingProvider: MITCHELL,
  otherCoverages: [],
};

const DEPENDENT: Claim837 = {
  accountNumber: 'ACC-2026-0002',
  frequencyCode: '1',
  originalClaimNumber: null,
  placeOfService: '11',
  diagnoses: ['J06.9'],
  lines: [
    {
      procedureCode: '99213',
      modifiers: [],
      units: 1,
      chargeCents: 11000,
      diagnosisPointers: [1],
      serviceDate: '2026-11-21',
      lineControlNumber: 'ACC-2026-0002-1',
      priorAuthorizationNumber: null,
    },
  ],
  patient: { name: person('Lopez', 'Sofia'), dob: '2015-06-02', sex: 'F', address: HOME },
  coverage: {
    priority: 1,
    medicareSecondaryType: null,
    memberId: 'W987654321',
    groupNumber: 'GRP004512',
    relationship: 'child',
    subscriber: person('Lopez', 'Daniel'),
  },
  renderingProvider: { name: person('Carter', 'Emily'), npi: '1932154911', taxonomyCode: '208000000X' },
  otherCoverages: [],
};

const james = person('Okafor', 'James');
/** James's Medicare, billed first; the secondary claims report it (with its decision, once it has one). */
const MEDICARE_FIRST: Claim837['otherCoverages'][number] = {
  priority: 1,
  medicareSecondaryType: null,
  memberId: '1EG4TE5MK73',
  groupNumber: null,
  relationship: 'self',
  subscriber: james,
  payer: { name: 'Medicare', payerId: '06102', claimFilingIndicator: 'MB' },
  adjudication: null,
};

const SECONDARY: Claim837 = {
  accountNumber: 'ACC-2026-0003',
  frequencyCode: '1',
  originalClaimNumber: null,
  placeOfService: '11',
  diagnoses: ['M54.50', 'E78.5'],
  lines: [
    {
      procedureCode: '99213',
      modifiers: [],
      units: 1,
      chargeCents: 9025,
      diagnosisPointers: [1, 2],
      serviceDate: '2026-11-18',
      lineControlNumber: 'ACC-2026-0003-1',
      priorAuthorizationNumber: null,
    },
  ],
  patient: {
    name: james,
    dob: '1948-09-30',
    sex: 'M',
    address: { line1: '77 Cedar Lane', city: 'Springfield', state: 'IL', zip: '62704' },
  },
  coverage: {
    priority: 2,
    medicareSecondaryType: null,
    memberId: 'U55667788',
    groupNumber: 'GRP778899',
    relationship: 'self',
    subscriber: null,
  },
  renderingProvider: { name: person('Iyer', 'Rajesh'), npi: '1234567893', taxonomyCode: '207R00000X' },
  otherCoverages: [MEDICARE_FIRST],
};

/**
 * The secondary claim of a visit Medicare has paid: its 2320 carries Medicare's claim-level adjustment
 * (sequestration, CO-253) and what it paid (AMT*D), each line its 2430 (SVD, CAS, DTP*573). Balanced as the 835 was:
 * 210.00 − 1.60 − (50 + 20) − (30 + 10) = 98.40; line 1 150 − 50 − 20 = 80; line 2 60 − 30 − 10 = 20.
 */
const SECONDARY_AFTER_PRIMARY: Claim837 = {
  ...SECONDARY,
  accountNumber: 'ACC-2026-0007',
  diagnoses: ['I10', 'R07.89'],
  lines: [
    {
      procedureCode: '99214',
      modifiers: [],
      units: 1,
      chargeCents: 15000,
      diagnosisPointers: [1, 2],
      serviceDate: '2026-11-18',
      lineControlNumber: 'ACC-2026-0007-1',
      priorAuthorizationNumber: null,
    },
    {
      procedureCode: '93000',
      modifiers: [],
      units: 1,
      chargeCents: 6000,
      diagnosisPointers: [2],
      serviceDate: '2026-11-18',
      lineControlNumber: 'ACC-2026-0007-2',
      priorAuthorizationNumber: null,
    },
  ],
  otherCoverages: [
    {
      ...MEDICARE_FIRST,
      adjudication: {
        paidCents: 9840,
        adjustments: [{ groupCode: 'CO', reasonCode: '253', amountCents: 160 }],
        adjudicatedOn: '2026-11-20',
        lines: [
          {
            paidCents: 8000,
            procedureCode: '99214',
            modifiers: [],
            units: 1,
            adjustments: [
              { groupCode: 'CO', reasonCode: '45', amountCents: 5000 },
              { groupCode: 'PR', reasonCode: '2', amountCents: 2000 },
            ],
          },
          {
            paidCents: 2000,
            procedureCode: '93000',
            modifiers: [],
            units: 1,
            adjustments: [
              { groupCode: 'CO', reasonCode: '45', amountCents: 3000 },
              { groupCode: 'PR', reasonCode: '1', amountCents: 1000 },
            ],
          },
        ],
      },
    },
  ],
};

/** A replacement billed by the practice's own NPI as rendering provider: no loop 2310B. */
const REPLACEMENT: Claim837 = {
  accountNumber: 'ACC-2026-0004',
  frequencyCode: '7',
  originalClaimNumber: 'AET2026110400123',
  placeOfService: '11',
  diagnoses: ['E11.9'],
  lines: [
    {
      procedureCode: '99214',
      modifiers: [],
      units: 1,
      chargeCents: 15000,
      diagnosisPointers: [1],
      serviceDate: '2026-11-04',
      lineControlNumber: 'ACC-2026-0004-1',
      priorAuthorizationNumber: null,
    },
  ],
  patient: maria,
  coverage: mariaCoverage,
  renderingProvider: { name: person('Riverside', ''), npi: BILLING_NPI, taxonomyCode: '193200000X' },
  otherCoverages: [],
};

const VOID: Claim837 = {
  accountNumber: 'ACC-2026-0005',
  frequencyCode: '8',
  originalClaimNumber: 'AET2026110400456',
  placeOfService: '10',
  diagnoses: ['E11.9', 'Z79.01'],
  lines: [
    {
      procedureCode: '99214',
      modifiers: ['25', '59', 'GT', '95'],
      units: 2,
      chargeCents: 30000,
      diagnosisPointers: [1, 2],
      serviceDate: '2026-11-05',
      lineControlNumber: 'ACC-2026-0005-1',
      priorAuthorizationNumber: null,
    },
    {
      procedureCode: '36415',
      modifiers: [],
      units: 1,
      chargeCents: 5,
      diagnosisPointers: [2],
      serviceDate: '2026-11-05',
      lineControlNumber: 'ACC-2026-0005-2',
      priorAuthorizationNumber: null,
    },
  ],
  patient: maria,
  coverage: mariaCoverage,
  renderingProvider: MITCHELL,
  otherCoverages: [],
};

/**
 * A replacement of a claim whose lumbar MRI and knee MRI were each authorized (two numbers) and whose visit needed
 * none: the first authorized line's number on the claim (2300 REF*G1, before REF*F8), the knee MRI's own on its line.
 */
const AUTHORIZED: Claim837 = {
  ...REPLACEMENT,
  accountNumber: 'ACC-2026-0006',
  diagnoses: ['M54.50', 'M25.561'],
  lines: [
    {
      procedureCode: '99213',
      modifiers: [],
      units: 1,
      chargeCents: 11000,
      diagnosisPointers: [1, 2],
      serviceDate: '2026-11-06',
      lineControlNumber: 'ACC-2026-0006-1',
      priorAuthorizationNumber: null,
    },
    {
      procedureCode: '72148',
      modifiers: [],
      units: 1,
      chargeCents: 120000,
      diagnosisPointers: [1],
      serviceDate: '2026-11-06',
      lineControlNumber: 'ACC-2026-0006-2',
      priorAuthorizationNumber: 'PA7730012',
    },
    {
      procedureCode: '73721',
      modifiers: ['RT'],
      units: 1,
      chargeCents: 95000,
      diagnosisPointers: [2],
      serviceDate: '2026-11-06',
      lineControlNumber: 'ACC-2026-0006-3',
      priorAuthorizationNumber: 'PA7730458',
    },
  ],
};

const UNITED = { name: 'UnitedHealthcare', payerId: '87726', claimFilingIndicator: 'CI' };

describe('the 837P of a batch, against hand-written golden files', () => {
  it.each([
    ['the patient is the subscriber (2010BA with address and DMG)', '837p-subscriber.x12', batchOf([SUBSCRIBER])],
    ['the patient is a dependent (2000C/2010CA, PAT01 19)', '837p-dependent.x12', batchOf([DEPENDENT])],
    ['secondary coverage (SBR01 S, 2320 for the primary)', '837p-secondary.x12', batchOf([SECONDARY], UNITED)],
    [
      'secondary after the primary paid (2320 CAS and AMT*D, 2430 SVD, CAS and DTP*573 on each line)',
      '837p-secondary-after-primary.x12',
      batchOf([SECONDARY_AFTER_PRIMARY], UNITED),
    ],
    ['a replacement (CLM05-3 7 with REF*F8), no 2310B', '837p-replacement.x12', batchOf([REPLACEMENT])],
    ['a void (CLM05-3 8 with REF*F8), four modifiers', '837p-void.x12', batchOf([VOID])],
    [
      'prior authorizations (2300 REF*G1 before REF*F8; 2400 REF*G1 only where it differs)',
      '837p-prior-authorization.x12',
      batchOf([AUTHORIZED]),
    ],
  ])('%s', (_name, file, batch) => {
    const expected = golden(file);
    // The golden file is itself a well-formed interchange.
    expect(() => parseX12(expected)).not.toThrow();
    expect(build837(batch)).toBe(expected);
  });

  it('is the same bytes for the same input', () => {
    const batch = batchOf([SUBSCRIBER, DEPENDENT, VOID]);
    expect(build837(batch)).toBe(build837(structuredClone(batch)));
  });
});

describe('SBR05, why Medicare pays second (insurance type code)', () => {
  const MEDICARE = MEDICARE_FIRST.payer;
  /** James's employer plan pays first (a working-aged Medicare beneficiary); Medicare second. */
  const EMPLOYER_FIRST: Claim837['otherCoverages'][number] = {
    ...MEDICARE_FIRST,
    memberId: 'U55667788',
    groupNumber: 'GRP778899',
    payer: UNITED,
  };
  const MEDICARE_SECOND = {
    priority: 2,
    medicareSecondaryType: '12',
    memberId: '1EG4TE5MK73',
    groupNumber: null,
    relationship: 'self' as const,
    subscriber: null,
  };
  const sbrOf = (batch: Batch837) =>
    parseX12(build837(batch))
      .segments.filter((s) => s.id === 'SBR')
      .map((s) => ['SBR', ...s.elements].join('*'));

  it('is sent in 2000B when the claim bills Medicare as secondary payer, and not for the plan that paid first', () => {
    const claim: Claim837 = { ...SECONDARY, coverage: MEDICARE_SECOND, otherCoverages: [EMPLOYER_FIRST] };
    expect(sbrOf(batchOf([claim], MEDICARE))).toEqual(['SBR*S*18***12****MB', 'SBR*P*18*GRP778899******CI']);
  });

  it('is sent in 2320 when a claim to another payer reports Medicare as secondary payer', () => {
    // A supplemental plan billed third: the employer plan and Medicare (second, disabled under 65) are reported.
    const claim: Claim837 = {
      ...SECONDARY,
      coverage: { ...SECONDARY.coverage, priority: 3 },
      otherCoverages: [EMPLOYER_FIRST, { ...MEDICARE_FIRST, priority: 2, medicareSecondaryType: '43' }],
    };
    expect(sbrOf(batchOf([claim], AETNA))).toEqual([
      'SBR*T*18*GRP778899******CI',
      'SBR*P*18*GRP778899******CI',
      'SBR*S*18***43****MB',
    ]);
  });

  it('is never sent for Medicare as primary payer or for another payer, whatever the policy holds', () => {
    const primary: Claim837 = { ...SUBSCRIBER, coverage: { ...mariaCoverage, medicareSecondaryType: '12' } };
    const other: Claim837 = { ...SECONDARY, coverage: { ...SECONDARY.coverage, medicareSecondaryType: '12' } };
    expect(sbrOf(batchOf([primary], MEDICARE))).toEqual(['SBR*P*18*GRP004512******MB']);
    expect(sbrOf(batchOf([other], UNITED))[0]).toBe('SBR*S*18*GRP778899******CI');
  });
});

describe('the remaining patient liability an earlier payer left (AMT*EAF)', () => {
  const primary = SECONDARY_AFTER_PRIMARY.otherCoverages[0]!;
  const adjudication = primary.adjudication!;
  /** Each AMT segment with the loop it sits in: 2320 before the first LX, else the line's number. */
  const amountsOf = (claim: Claim837) => {
    let loop = '2320';
    const found: string[] = [];
    for (const s of parseX12(build837(batchOf([claim], UNITED))).segments) {
      if (s.id === 'LX') loop = `line ${s.elements[0]}`;
      if (s.id === 'AMT') found.push(`${loop}: AMT*${s.elements.join('*')}`);
    }
    return found;
  };
  const adjudicatedAs = (changes: Partial<PriorAdjudication837>): Claim837 => ({
    ...SECONDARY_AFTER_PRIMARY,
    otherCoverages: [{ ...primary, adjudication: { ...adjudication, ...changes } }],
  });

  it('is on each line the payer adjudicated, not at claim level, when it answered line by line', () => {
    expect(amountsOf(SECONDARY_AFTER_PRIMARY)).toEqual([
      '2320: AMT*D*98.4',
      'line 1: AMT*EAF*20',
      'line 2: AMT*EAF*10',
    ]);
  });

  it('is at claim level, the sum of its patient responsibility, when the payer answered at claim level only', () => {
    const claim = adjudicatedAs({
      adjustments: [
        { groupCode: 'CO', reasonCode: '45', amountCents: 8000 },
        { groupCode: 'PR', reasonCode: '1', amountCents: 2500 },
        { groupCode: 'PR', reasonCode: '2', amountCents: 1660 },
      ],
      paidCents: 8840,
      lines: [null, null],
    });
    expect(amountsOf(claim)).toEqual(['2320: AMT*D*88.4', '2320: AMT*EAF*41.6']);
  });

  it('is wholly at claim level, lines included, when the payer put patient responsibility on the claim', () => {
    // A copay taken at claim level cannot be split onto lines: reported once, never in both loops.
    const claim = adjudicatedAs({
      adjustments: [{ groupCode: 'PR', reasonCode: '3', amountCents: 2500 }],
      paidCents: 7500,
    });
    expect(amountsOf(claim)).toEqual(['2320: AMT*D*75', '2320: AMT*EAF*55']);
  });

  it('is written as zero when the payer left the patient nothing, and nets a reversed deductible', () => {
    const nothingLeft = adjudicatedAs({
      adjustments: [
        { groupCode: 'CO', reasonCode: '45', amountCents: 5000 },
        { groupCode: 'PR', reasonCode: '1', amountCents: 1000 },
        { groupCode: 'PR', reasonCode: '1', amountCents: -1000 },
      ],
      paidCents: 16000,
      lines: [null, null],
    });
    expect(amountsOf(nothingLeft)).toEqual(['2320: AMT*D*160', '2320: AMT*EAF*0']);
  });

  it('is not written for a payer that has not answered, or on a primary claim', () => {
    expect(amountsOf({ ...SECONDARY_AFTER_PRIMARY, otherCoverages: [{ ...primary, adjudication: null }] })).toEqual([]);
    expect(amountsOf(SECONDARY)).toEqual([]);
  });
});

describe('x12Amount (X12 decimal, R type)', () => {
  it('writes cents without trailing zeros or a leading zero', () => {
    expect([15000, 15050, 15025, 5, 50, 0, 100, 123456789].map(x12Amount)).toEqual([
      '150',
      '150.5',
      '150.25',
      '.05',
      '.5',
      '0',
      '1',
      '1234567.89',
    ]);
  });

  it('refuses what is not whole cents', () => {
    expect(() => x12Amount(1.5)).toThrow();
    expect(() => x12Amount(-1)).toThrow();
  });
});

describe('splitPersonName', () => {
  it('drops a title, keeps a suffix and a middle name', () => {
    expect(splitPersonName('Dr. Sarah Mitchell')).toEqual(person('Mitchell', 'Sarah'));
    expect(splitPersonName('Maria de la Cruz')).toEqual({
      lastName: 'Cruz',
      firstName: 'Maria',
      middleName: 'de la',
      suffix: '',
    });
    expect(splitPersonName('James Earl Carter Jr.')).toEqual({
      lastName: 'Carter',
      firstName: 'James',
      middleName: 'Earl',
      suffix: 'Jr',
    });
    expect(splitPersonName('Cher')).toEqual(person('Cher', ''));
    // Delimiters in a stored name never reach the file.
    expect(splitPersonName('Ana*Ruiz~')).toEqual(person('Ruiz', 'Ana'));
  });
});

function expectedOf(claim: Claim837) {
  return {
    accountNumber: claim.accountNumber,
    totalCents: claim.lines.reduce((sum, l) => sum + l.chargeCents, 0),
    frequencyCode: claim.frequencyCode,
    placeOfService: claim.placeOfService,
    originalClaimNumber: claim.frequencyCode === '1' ? null : claim.originalClaimNumber,
    diagnoses: claim.diagnoses.map((d) => d.replace('.', '')),
    memberId: claim.coverage.memberId,
    patient: `${claim.patient.name.firstName} ${claim.patient.name.lastName}`,
    lines: claim.lines.map((l) => ({
      procedureCode: l.procedureCode,
      modifiers: [...l.modifiers],
      chargeCents: l.chargeCents,
      units: l.units,
      diagnosisPointers: [...l.diagnosisPointers],
      serviceDate: l.serviceDate.replaceAll('-', ''),
      lineControlNumber: l.lineControlNumber,
    })),
  };
}

describe('an 837 read back', () => {
  it('gives the claims it was written from: ids, lines, codes, charges, diagnoses', () => {
    const claims = [SUBSCRIBER, DEPENDENT, SECONDARY, REPLACEMENT, VOID];
    const text = build837(batchOf(claims));
    expect(claimsReadBack(text)).toEqual(claims.map(expectedOf));
  });

  it('splits a batch past 5,000 claims into transaction sets, each numbered and counted', () => {
    // Three claims per set here, so the test stays small; the default is 5,000.
    const perSet = 3;
    const count = perSet + 2;
    const claims = Array.from({ length: count }, (_, i) => ({
      ...(i % 2 === 0 ? SUBSCRIBER : DEPENDENT),
      accountNumber: `ACC-${i + 1}`,
    }));
    const batch = batchOf(claims);
    const text = build837(
      { ...batch, envelope: { ...batch.envelope, setControlNumbers: ['0301', '0302'] } },
      { claimsPerSet: perSet },
    );
    const sets = transactionSetsOf(parseX12(text), '837');
    expect(sets.map((s) => s.set.controlNumber)).toEqual(['0301', '0302']);
    expect(sets.map((s) => s.set.segments.filter((x) => x.id === 'CLM').length)).toEqual([perSet, 2]);
    // Each set has its own billing provider HL and numbers its HLs from 1.
    expect(sets[1]!.set.segments.filter((x) => x.id === 'HL').map((x) => x.elements[0])).toEqual(['1', '2', '3', '4']);
    expect(claimsReadBack(text).map((c) => c.accountNumber)).toEqual(claims.map((c) => c.accountNumber));
    expect(() => build837(batch, { claimsPerSet: perSet })).toThrow(/2 transaction sets need as many ST control/);
    expect(MAX_CLAIMS_PER_TRANSACTION_SET).toBe(5000);
  });
});

describe('firstUnwritableClaim', () => {
  it('names the claim holding a value the writer refuses', () => {
    const bad = { ...DEPENDENT, coverage: { ...DEPENDENT.coverage, memberId: 'W98*765' } };
    expect(firstUnwritableClaim(batchOf([SUBSCRIBER, bad]))).toEqual({
      accountNumber: 'ACC-2026-0002',
      problem: expect.stringContaining("NM109 'W98*765' holds the element separator") as string,
    });
    expect(firstUnwritableClaim(batchOf([SUBSCRIBER]))).toBeNull();
  });
});
