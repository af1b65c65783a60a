import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeNpi } from '@/shared/billing-identifiers';
import {
  AUTHORIZATION_REQUIRED_CODES,
  INVALID_ICD10_CODES,
  isScrubClean,
  scrubClaim,
  type ScrubEdit,
  type ScrubInput,
  type ScrubLine,
} from './submission.scrubber';

const BILLING_NPI = makeNpi('123456789');
const RENDERING_NPI = makeNpi('198765432');
const MBI = '1EG4TE5MK73';

function line(overrides: Partial<ScrubLine> = {}): ScrubLine {
  return {
    procedureCode: '99214',
    modifiers: ['25'],
    units: 1,
    chargeCents: 12_500,
    diagnosisPointers: [1, 2],
    serviceDate: '2026-03-02',
    ...overrides,
  };
}

/**
 * A Medicare claim that passes every edit: an office visit and an authorized lumbar MRI on Mar 2, 2026, two
 * weeks before today, for a patient born in 1958 whose coverage began in 2023.
 */
function cleanInput(): ScrubInput {
  const lines = [line(), line({ procedureCode: '72148', modifiers: [], chargeCents: 85_000, diagnosisPointers: [1] })];
  return {
    today: '2026-03-16',
    claim: {
      id: 100,
      frequencyCode: '1',
      originalClaimNumber: null,
      placeOfService: '11',
      diagnoses: ['M54.50', 'E11.9'],
      totalChargeCents: 97_500,
      lines,
    },
    patient: {
      dob: '1958-07-14',
      address: { line1: '42 Elm Street', city: 'Springfield', state: 'IL', zip: '627041234' },
    },
    coverage: { memberId: MBI, effectiveOn: '2023-07-01', endOn: null, priority: 1, medicareSecondaryType: null },
    payer: { name: 'Medicare', payerId: '06102', timelyFilingDays: 365, selfPay: false, medicare: true },
    billingProvider: { npi: BILLING_NPI, taxId: '12-3456789', zip: '627011234' },
    renderingProvider: { name: 'Dr. Ana Ruiz', npi: RENDERING_NPI },
    otherClaims: [{ id: 90, lines: [{ procedureCode: '99214', modifiers: ['25'], serviceDate: '2026-02-02' }] }],
    authorizations: [{ procedureCode: '72148', status: 'Approved', validFrom: '2026-02-20', validTo: '2026-05-20' }],
  };
}

type Change = (input: ScrubInput) => void;

function scrubWith(change: Change): ScrubEdit[] {
  const input = cleanInput();
  change(input);
  return scrubClaim(input);
}

function firstLine(input: ScrubInput): ScrubLine {
  const first = input.claim.lines[0];
  if (!first) throw new Error('the clean claim has lines');
  return first;
}

/** Sets every line's service date (and keeps the claim total right). */
function serviceOn(input: ScrubInput, date: string): void {
  for (const each of input.claim.lines) each.serviceDate = date;
}

/** The same claim moved back in time: service on `date`, today a week later, coverage and approval around it. */
function billedOn(input: ScrubInput, date: string): void {
  serviceOn(input, date);
  input.today = addDays(date, 7);
  if (input.coverage) input.coverage.effectiveOn = '2010-01-01';
  input.authorizations = [{ procedureCode: '72148', status: 'Approved', validFrom: null, validTo: null }];
}

function setLines(input: ScrubInput, lines: ScrubLine[]): void {
  input.claim.lines = lines;
  input.claim.totalChargeCents = lines.reduce((sum, each) => sum + each.chargeCents, 0);
}

function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** 12 distinct billable ICD-10-CM codes. */
const TWELVE_CODES = [
  'M54.50',
  'E11.9',
  'I10',
  'E78.5',
  'Z00.00',
  'J45.909',
  'R51.9',
  'N18.30',
  'E66.01',
  'K21.9',
  'F41.1',
  'G47.33',
];

interface EditCase {
  code: string;
  severity: 'error' | 'warning';
  field: string;
  /** Changes that must raise the edit (each on its own clean claim). */
  fail: Record<string, Change>;
  /** Changes near the rule that must leave the claim without any edit. */
  pass: Record<string, Change>;
}

const CASES: EditCase[] = [
  {
    code: 'NPI_BILLING_MISSING',
    severity: 'error',
    field: 'billingProvider.npi',
    fail: { null: (i) => (i.billingProvider.npi = null), blank: (i) => (i.billingProvider.npi = ' ') },
    pass: { 'an organization NPI': (i) => (i.billingProvider.npi = makeNpi('298765432')) },
  },
  {
    code: 'NPI_BILLING_FORMAT',
    severity: 'error',
    field: 'billingProvider.npi',
    fail: {
      '9 digits': (i) => (i.billingProvider.npi = '123456789'),
      '11 digits': (i) => (i.billingProvider.npi = '12345678931'),
      'starting with 3': (i) => (i.billingProvider.npi = '3234567893'),
      letters: (i) => (i.billingProvider.npi = '12345678A3'),
      'a space': (i) => (i.billingProvider.npi = ' 1234567893'),
    },
    pass: { '1234567893': (i) => (i.billingProvider.npi = '1234567893') },
  },
  {
    code: 'NPI_BILLING_CHECK_DIGIT',
    severity: 'error',
    field: 'billingProvider.npi',
    fail: { '1234567890': (i) => (i.billingProvider.npi = '1234567890') },
    pass: { '1234567893': (i) => (i.billingProvider.npi = '1234567893') },
  },
  {
    code: 'NPI_RENDERING_MISSING',
    severity: 'error',
    field: 'renderingProvider.npi',
    fail: { null: (i) => (i.renderingProvider.npi = null), empty: (i) => (i.renderingProvider.npi = '') },
    pass: { 'another NPI': (i) => (i.renderingProvider.npi = makeNpi('111111111')) },
  },
  {
    code: 'NPI_RENDERING_FORMAT',
    severity: 'error',
    field: 'renderingProvider.npi',
    fail: { 'starting with 0': (i) => (i.renderingProvider.npi = '0234567893') },
    pass: { 'starting with 2': (i) => (i.renderingProvider.npi = makeNpi('200000000')) },
  },
  {
    code: 'NPI_RENDERING_CHECK_DIGIT',
    severity: 'error',
    field: 'renderingProvider.npi',
    fail: { 'a transposed pair': (i) => (i.renderingProvider.npi = '1243567893') },
    pass: { valid: (i) => (i.renderingProvider.npi = '1234567893') },
  },
  {
    code: 'TAX_ID_MISSING',
    severity: 'error',
    field: 'billingProvider.taxId',
    fail: { null: (i) => (i.billingProvider.taxId = null), empty: (i) => (i.billingProvider.taxId = '') },
    pass: { 'digits only': (i) => (i.billingProvider.taxId = '123456789') },
  },
  {
    code: 'PAYER_ID_MISSING',
    severity: 'error',
    field: 'payer.payerId',
    fail: { null: (i) => (i.payer.payerId = null), blank: (i) => (i.payer.payerId = '  ') },
    pass: {
      'letters and digits': (i) => (i.payer.payerId = 'ILMCD'),
      // A self-pay claim goes to the patient: no payer routes it.
      'a self-pay claim': (i) => {
        i.payer = { name: 'Self-Pay', payerId: null, timelyFilingDays: 365, selfPay: true, medicare: false };
        i.coverage = null;
      },
    },
  },
  {
    code: 'BILLING_ZIP_PLUS_FOUR',
    severity: 'error',
    field: 'billingProvider.zip',
    fail: {
      null: (i) => (i.billingProvider.zip = null),
      empty: (i) => (i.billingProvider.zip = ''),
      '5 digits': (i) => (i.billingProvider.zip = '62701'),
      'with its dash': (i) => (i.billingProvider.zip = '62701-1234'),
      '10 digits': (i) => (i.billingProvider.zip = '6270112345'),
      letters: (i) => (i.billingProvider.zip = 'A27011234'),
    },
    pass: {
      'another ZIP+4': (i) => (i.billingProvider.zip = '100010001'),
      'a self-pay claim with a 5-digit ZIP': (i) => {
        i.payer = { name: 'Self-Pay', payerId: null, timelyFilingDays: 365, selfPay: true, medicare: false };
        i.coverage = null;
        i.billingProvider.zip = '62701';
      },
    },
  },
  {
    code: 'PATIENT_ADDRESS_INCOMPLETE',
    severity: 'error',
    field: 'patient.address',
    fail: {
      'no address at all': (i) => (i.patient.address = { line1: null, city: null, state: null, zip: null }),
      'no street': (i) => (i.patient.address.line1 = null),
      'a blank city': (i) => (i.patient.address.city = '  '),
      'no state': (i) => (i.patient.address.state = null),
      'an empty ZIP': (i) => (i.patient.address.zip = ''),
    },
    pass: {
      'a 5-digit ZIP (ZIP+4 is only required of the billing provider)': (i) => (i.patient.address.zip = '62704'),
      'a self-pay claim without an address': (i) => {
        i.payer = { name: 'Self-Pay', payerId: null, timelyFilingDays: 365, selfPay: true, medicare: false };
        i.coverage = null;
        i.patient.address = { line1: null, city: null, state: null, zip: null };
      },
    },
  },
  {
    code: 'TAX_ID_INVALID',
    severity: 'error',
    field: 'billingProvider.taxId',
    fail: {
      'an unassigned prefix': (i) => (i.billingProvider.taxId = '07-1234567'),
      '8 digits': (i) => (i.billingProvider.taxId = '12-345678'),
      'an SSN shape': (i) => (i.billingProvider.taxId = '123-45-6789'),
    },
    pass: { 'prefix 10': (i) => (i.billingProvider.taxId = '10-1234567') },
  },
  {
    code: 'DIAGNOSIS_MISSING',
    severity: 'error',
    field: 'diagnoses',
    fail: { none: (i) => (i.claim.diagnoses = []) },
    pass: {
      one: (i) => {
        i.claim.diagnoses = ['M54.50'];
        firstLine(i).diagnosisPointers = [1];
      },
    },
  },
  {
    code: 'DIAGNOSIS_TOO_MANY',
    severity: 'error',
    field: 'diagnoses',
    fail: { '13': (i) => (i.claim.diagnoses = [...TWELVE_CODES, 'R05.9']) },
    pass: { '12': (i) => (i.claim.diagnoses = [...TWELVE_CODES]) },
  },
  {
    code: 'DIAGNOSIS_ICD9',
    severity: 'error',
    field: 'diagnoses[1]',
    fail: {
      '250.00': (i) => (i.claim.diagnoses[1] = '250.00'),
      '4019': (i) => (i.claim.diagnoses[1] = '4019'),
      'V70.0': (i) => (i.claim.diagnoses[1] = 'V70.0'),
      'E880.9': (i) => (i.claim.diagnoses[1] = 'E880.9'),
      E9171: (i) => (i.claim.diagnoses[1] = 'E9171'),
    },
    pass: {
      'E119 (ICD-10-CM without the dot)': (i) => (i.claim.diagnoses[1] = 'E119'),
      'E8809 (ICD-10-CM E88.09 without the dot)': (i) => (i.claim.diagnoses[1] = 'E8809'),
      'V43.52XA (an ICD-10-CM V code)': (i) => (i.claim.diagnoses[1] = 'V43.52XA'),
    },
  },
  {
    code: 'DIAGNOSIS_FORMAT',
    severity: 'error',
    field: 'diagnoses[1]',
    fail: {
      'lower case': (i) => (i.claim.diagnoses[1] = 'e11.9'),
      'a trailing dot': (i) => (i.claim.diagnoses[1] = 'E11.'),
      'a digit first': (i) => (i.claim.diagnoses[1] = '1E1.9'),
      'a letter second': (i) => (i.claim.diagnoses[1] = 'EE1.9'),
      'too long': (i) => (i.claim.diagnoses[1] = 'S72.001AB'),
      blank: (i) => (i.claim.diagnoses[1] = ''),
    },
    pass: {
      'S72.001A': (i) => (i.claim.diagnoses[1] = 'S72.001A'),
      'J45.909': (i) => (i.claim.diagnoses[1] = 'J45.909'),
      'Z00.00': (i) => (i.claim.diagnoses[1] = 'Z00.00'),
    },
  },
  {
    code: 'DIAGNOSIS_ICD10_TOO_EARLY',
    severity: 'error',
    field: 'diagnoses[1]',
    fail: { 'a service on 2015-09-30': (i) => billedOn(i, '2015-09-30') },
    pass: {
      'a service on 2015-10-01, when ICD-10-CM took effect': (i) => {
        billedOn(i, '2015-10-01');
        i.claim.diagnoses = ['M54.5', 'E11.9'];
      },
    },
  },
  {
    code: 'DIAGNOSIS_NOT_BILLABLE',
    severity: 'error',
    field: 'diagnoses[0]',
    fail: {
      'M54.5 on 2021-10-01': (i) => {
        billedOn(i, '2021-10-01');
        i.claim.diagnoses[0] = 'M54.5';
      },
      'M545 on 2021-10-01': (i) => {
        billedOn(i, '2021-10-01');
        i.claim.diagnoses[0] = 'M545';
      },
      'N18.3 on 2020-10-01': (i) => {
        billedOn(i, '2020-10-01');
        i.claim.diagnoses[0] = 'N18.3';
      },
      'the category E11': (i) => (i.claim.diagnoses[0] = 'E11'),
      'the category I50': (i) => (i.claim.diagnoses[0] = 'I50'),
      'J45.90 without its 6th character': (i) => (i.claim.diagnoses[0] = 'J45.90'),
      'M54.5 today, pointed at by the later line only': (i) => {
        i.claim.diagnoses[0] = 'M54.5';
        billedOn(i, '2021-09-30');
        setLines(i, [line({ serviceDate: '2021-09-30', diagnosisPointers: [2] }), line({ diagnosisPointers: [1] })]);
        i.claim.lines[1]!.serviceDate = '2021-10-01';
        i.today = '2021-10-05';
      },
    },
    pass: {
      'M54.5 on 2021-09-30': (i) => {
        billedOn(i, '2021-09-30');
        i.claim.diagnoses[0] = 'M54.5';
      },
      'N18.3 on 2020-09-30': (i) => {
        billedOn(i, '2020-09-30');
        i.claim.diagnoses[0] = 'N18.3';
      },
      'M54.5 pointed at only by a line before 2021-10-01': (i) => {
        billedOn(i, '2021-09-30');
        i.claim.diagnoses[0] = 'M54.5';
        setLines(i, [line({ serviceDate: '2021-09-30', diagnosisPointers: [1] }), line({ diagnosisPointers: [2] })]);
        i.claim.lines[1]!.serviceDate = '2021-10-01';
        i.today = '2021-10-05';
      },
      'E11.65': (i) => (i.claim.diagnoses[0] = 'E11.65'),
      'J45.909': (i) => (i.claim.diagnoses[0] = 'J45.909'),
    },
  },
  {
    code: 'DIAGNOSIS_DUPLICATE',
    severity: 'warning',
    field: 'diagnoses[1]',
    fail: {
      'the same code': (i) => (i.claim.diagnoses = ['E11.9', 'E11.9']),
      'the same code without the dot': (i) => (i.claim.diagnoses = ['E11.9', 'E119']),
    },
    pass: { 'two codes': (i) => (i.claim.diagnoses = ['E11.9', 'E11.65']) },
  },
  {
    code: 'LINES_MISSING',
    severity: 'error',
    field: 'lines',
    fail: { none: (i) => setLines(i, []) },
    pass: { one: (i) => setLines(i, [line()]) },
  },
  {
    code: 'LINES_TOO_MANY',
    severity: 'error',
    field: 'lines',
    fail: {
      '51': (i) =>
        setLines(
          i,
          Array.from({ length: 51 }, () => line()),
        ),
    },
    pass: {
      '50': (i) =>
        setLines(
          i,
          Array.from({ length: 50 }, () => line()),
        ),
    },
  },
  {
    code: 'PROCEDURE_CODE_FORMAT',
    severity: 'error',
    field: 'lines[0].procedureCode',
    fail: {
      '4 digits': (i) => (firstLine(i).procedureCode = '9921'),
      '6 characters': (i) => (firstLine(i).procedureCode = '99214A'),
      'a HCPCS letter past V': (i) => (firstLine(i).procedureCode = 'W1234'),
      'a CPT suffix other than F, T or U': (i) => (firstLine(i).procedureCode = '0001X'),
      'lower case': (i) => (firstLine(i).procedureCode = 'g0439'),
    },
    pass: {
      'CPT Category II': (i) => (firstLine(i).procedureCode = '3044F'),
      'CPT Category III': (i) => (firstLine(i).procedureCode = '0042T'),
      'CPT PLA': (i) => (firstLine(i).procedureCode = '0001U'),
      HCPCS: (i) => (firstLine(i).procedureCode = 'G0439'),
    },
  },
  {
    code: 'MODIFIER_TOO_MANY',
    severity: 'error',
    field: 'lines[0].modifiers',
    fail: { '5': (i) => (firstLine(i).modifiers = ['25', '59', 'LT', 'RT', 'XU']) },
    pass: { '4': (i) => (firstLine(i).modifiers = ['25', '59', 'LT', 'RT']) },
  },
  {
    code: 'MODIFIER_FORMAT',
    severity: 'error',
    field: 'lines[0].modifiers',
    fail: {
      '3 letters': (i) => (firstLine(i).modifiers = ['XYZ']),
      '1 digit': (i) => (firstLine(i).modifiers = ['2']),
      'lower case': (i) => (firstLine(i).modifiers = ['lt']),
      'a sign': (i) => (firstLine(i).modifiers = ['-5']),
    },
    pass: { 'letters and digits': (i) => (firstLine(i).modifiers = ['XU', '59', 'Q6']) },
  },
  {
    code: 'UNITS_INVALID',
    severity: 'error',
    field: 'lines[0].units',
    fail: {
      '0': (i) => (firstLine(i).units = 0),
      '-1': (i) => (firstLine(i).units = -1),
      '1.5': (i) => (firstLine(i).units = 1.5),
      NaN: (i) => (firstLine(i).units = Number.NaN),
    },
    pass: { '3': (i) => (firstLine(i).units = 3) },
  },
  {
    code: 'LINE_CHARGE_INVALID',
    severity: 'error',
    field: 'lines[0].chargeCents',
    fail: {
      '0': (i) => setLines(i, [line({ chargeCents: 0 })]),
      negative: (i) => setLines(i, [line({ chargeCents: -100 })]),
      'a fraction of a cent': (i) => setLines(i, [line({ chargeCents: 10.5 })]),
    },
    pass: { '1 cent': (i) => setLines(i, [line({ chargeCents: 1 })]) },
  },
  {
    code: 'POINTER_MISSING',
    severity: 'error',
    field: 'lines[0].diagnosisPointers',
    fail: { none: (i) => (firstLine(i).diagnosisPointers = []) },
    pass: { one: (i) => (firstLine(i).diagnosisPointers = [2]) },
  },
  {
    code: 'POINTER_TOO_MANY',
    severity: 'error',
    field: 'lines[0].diagnosisPointers',
    fail: {
      '5 pointers': (i) => {
        i.claim.diagnoses = TWELVE_CODES.slice(0, 5);
        firstLine(i).diagnosisPointers = [1, 2, 3, 4, 5];
      },
    },
    pass: {
      '4 pointers': (i) => {
        i.claim.diagnoses = TWELVE_CODES.slice(0, 5);
        firstLine(i).diagnosisPointers = [5, 4, 3, 2];
      },
    },
  },
  {
    code: 'POINTER_OUT_OF_RANGE',
    severity: 'error',
    field: 'lines[0].diagnosisPointers',
    fail: {
      '0': (i) => (firstLine(i).diagnosisPointers = [0]),
      'past the last diagnosis': (i) => (firstLine(i).diagnosisPointers = [1, 3]),
      negative: (i) => (firstLine(i).diagnosisPointers = [-1]),
      'a fraction': (i) => (firstLine(i).diagnosisPointers = [1.5]),
    },
    pass: { 'the last diagnosis': (i) => (firstLine(i).diagnosisPointers = [2]) },
  },
  {
    code: 'POINTER_DUPLICATE',
    severity: 'error',
    field: 'lines[0].diagnosisPointers',
    fail: { 'the same pointer twice': (i) => (firstLine(i).diagnosisPointers = [1, 1]) },
    pass: { 'both pointers, either order': (i) => (firstLine(i).diagnosisPointers = [2, 1]) },
  },
  {
    code: 'TOTAL_CHARGE_MISMATCH',
    severity: 'error',
    field: 'totalChargeCents',
    fail: {
      'a cent over': (i) => (i.claim.totalChargeCents += 1),
      'a line changed': (i) => (firstLine(i).chargeCents = 13_000),
    },
    pass: {
      'a line changed with the total': (i) => {
        firstLine(i).chargeCents = 13_000;
        i.claim.totalChargeCents = 98_000;
      },
    },
  },
  {
    code: 'SERVICE_DATE_INVALID',
    severity: 'error',
    field: 'lines[0].serviceDate',
    fail: {
      'not on the calendar': (i) => (firstLine(i).serviceDate = '2026-02-30'),
      'US form': (i) => (firstLine(i).serviceDate = '03/02/2026'),
      empty: (i) => (firstLine(i).serviceDate = ''),
    },
    pass: { 'Feb 28': (i) => (firstLine(i).serviceDate = '2026-02-28') },
  },
  {
    code: 'PATIENT_DOB_INVALID',
    severity: 'error',
    field: 'patient.dob',
    fail: { 'month 13': (i) => (i.patient.dob = '1958-13-01') },
    pass: { 'Feb 29 of a leap year': (i) => (i.patient.dob = '1960-02-29') },
  },
  {
    code: 'SERVICE_DATE_BEFORE_BIRTH',
    severity: 'error',
    field: 'lines[0].serviceDate',
    fail: { 'born the day after': (i) => (i.patient.dob = '2026-03-03') },
    pass: { 'born that day': (i) => (i.patient.dob = '2026-03-02') },
  },
  {
    code: 'SERVICE_DATE_IN_FUTURE',
    severity: 'error',
    field: 'lines[0].serviceDate',
    fail: { tomorrow: (i) => (firstLine(i).serviceDate = '2026-03-17') },
    pass: { today: (i) => (firstLine(i).serviceDate = '2026-03-16') },
  },
  {
    code: 'ORIGINAL_CLAIM_NUMBER_MISSING',
    severity: 'error',
    field: 'originalClaimNumber',
    fail: {
      'a replacement without it': (i) => (i.claim.frequencyCode = '7'),
      'a void with a blank one': (i) => {
        i.claim.frequencyCode = '8';
        i.claim.originalClaimNumber = '  ';
      },
    },
    pass: {
      'a replacement with it': (i) => {
        i.claim.frequencyCode = '7';
        i.claim.originalClaimNumber = '2026061000123';
      },
      'a void with it': (i) => {
        i.claim.frequencyCode = '8';
        i.claim.originalClaimNumber = '2026061000123';
      },
    },
  },
  {
    code: 'PRIOR_PAYER_UNREPORTABLE',
    severity: 'error',
    field: 'primaryClaimId',
    fail: {
      'lines that no longer add up against the earlier decision': (i) =>
        (i.priorPayer = { problem: "its lines differ from ACC-2026-0001's, which Medicare adjudicated" }),
      'an earlier decision since reversed': (i) =>
        (i.priorPayer = { problem: 'Medicare has no posted adjudication of ACC-2026-0001 to report' }),
    },
    pass: {
      'a secondary claim whose earlier decision adds up': (i) => (i.priorPayer = { problem: null }),
      'a claim billed first': (i) => (i.priorPayer = null),
    },
  },
  {
    code: 'ORIGINAL_CLAIM_NUMBER_UNEXPECTED',
    severity: 'warning',
    field: 'originalClaimNumber',
    fail: { 'an original claim with one': (i) => (i.claim.originalClaimNumber = '2026061000123') },
    pass: { 'an original claim with an empty one': (i) => (i.claim.originalClaimNumber = '') },
  },
  {
    code: 'PLACE_OF_SERVICE_FORMAT',
    severity: 'error',
    field: 'placeOfService',
    fail: {
      '1 digit': (i) => (i.claim.placeOfService = '1'),
      '3 digits': (i) => (i.claim.placeOfService = '011'),
      letters: (i) => (i.claim.placeOfService = 'OF'),
    },
    pass: { telehealth: (i) => (i.claim.placeOfService = '02') },
  },
  {
    code: 'PLACE_OF_SERVICE_UNKNOWN',
    severity: 'warning',
    field: 'placeOfService',
    fail: { 'an unassigned code': (i) => (i.claim.placeOfService = '45') },
    pass: {
      'telehealth at home': (i) => (i.claim.placeOfService = '10'),
      'outpatient hospital': (i) => (i.claim.placeOfService = '22'),
      'independent lab': (i) => (i.claim.placeOfService = '81'),
    },
  },
  {
    code: 'COVERAGE_MISSING',
    severity: 'error',
    field: 'coverage',
    fail: { none: (i) => (i.coverage = null) },
    pass: {
      'none on a self-pay claim': (i) => {
        i.coverage = null;
        i.payer = { name: 'Self-Pay', payerId: null, timelyFilingDays: 365, selfPay: true, medicare: false };
      },
    },
  },
  {
    code: 'MEMBER_ID_MISSING',
    severity: 'error',
    field: 'coverage.memberId',
    fail: { empty: (i) => (i.coverage!.memberId = ''), blank: (i) => (i.coverage!.memberId = '   ') },
    pass: {
      'a commercial member id': (i) => {
        i.payer = { name: 'Aetna', payerId: '60054', timelyFilingDays: 120, selfPay: false, medicare: false };
        i.coverage!.memberId = 'W123456789';
      },
    },
  },
  {
    code: 'MEMBER_ID_NOT_MBI',
    severity: 'error',
    field: 'coverage.memberId',
    fail: {
      'an old HICN': (i) => (i.coverage!.memberId = '123456789A'),
      'an MBI with dashes': (i) => (i.coverage!.memberId = '1EG4-TE5-MK73'),
      'an MBI in lower case': (i) => (i.coverage!.memberId = '1eg4te5mk73'),
    },
    pass: { 'another MBI': (i) => (i.coverage!.memberId = '9AA0AA0AA00') },
  },
  {
    code: 'MEDICARE_SECONDARY_TYPE_MISSING',
    severity: 'error',
    field: 'coverage.medicareSecondaryType',
    fail: {
      'Medicare billed second without the reason': (i) => (i.coverage!.priority = 2),
      'Medicare billed third without the reason': (i) => (i.coverage!.priority = 3),
    },
    pass: {
      'Medicare billed second, working aged (12)': (i) => {
        i.coverage!.priority = 2;
        i.coverage!.medicareSecondaryType = '12';
      },
      'Medicare billed first': (i) => (i.coverage!.priority = 1),
      'another payer billed second': (i) => {
        i.coverage!.priority = 2;
        i.payer.medicare = false;
        i.payer.name = 'Aetna';
        i.coverage!.memberId = 'W123456789';
      },
    },
  },
  {
    code: 'COVERAGE_NOT_STARTED',
    severity: 'error',
    field: 'lines[0].serviceDate',
    fail: { 'starting the day after': (i) => (i.coverage!.effectiveOn = '2026-03-03') },
    pass: { 'starting that day': (i) => (i.coverage!.effectiveOn = '2026-03-02') },
  },
  {
    code: 'COVERAGE_ENDED',
    severity: 'error',
    field: 'lines[0].serviceDate',
    fail: { 'ending the day before': (i) => (i.coverage!.endOn = '2026-03-01') },
    pass: { 'ending that day': (i) => (i.coverage!.endOn = '2026-03-02') },
  },
  {
    code: 'ELIGIBILITY_INACTIVE',
    severity: 'error',
    field: 'coverage',
    fail: {
      'answered inactive for the day': (i) =>
        (i.eligibility = {
          state: 'inactive',
          checkedAt: '2026-03-01T14:00:00.000Z',
          detail: 'The payer says the policy is not active',
          notFound: false,
        }),
      'rejected: the payer cannot find the subscriber': (i) =>
        (i.eligibility = {
          state: 'rejected',
          checkedAt: '2026-03-01T14:00:00.000Z',
          detail: 'The payer cannot find the subscriber',
          notFound: true,
        }),
    },
    pass: {
      'never checked': (i) => (i.eligibility = null),
      'checked, unknown': (i) => (i.eligibility = { state: 'unknown', checkedAt: null, detail: null, notFound: false }),
      'answered active': (i) =>
        (i.eligibility = { state: 'active', checkedAt: '2026-03-01T14:00:00.000Z', detail: null, notFound: false }),
      // The payer's system was down: that says nothing of the policy.
      'rejected for another reason': (i) =>
        (i.eligibility = {
          state: 'rejected',
          checkedAt: '2026-03-01T14:00:00.000Z',
          detail: 'The payer cannot answer at the moment',
          notFound: false,
        }),
      'inactive, but a self-pay claim': (i) => {
        i.payer = { name: 'Self-Pay', payerId: null, timelyFilingDays: 365, selfPay: true, medicare: false };
        i.coverage = null;
        i.eligibility = { state: 'inactive', checkedAt: null, detail: null, notFound: false };
      },
    },
  },
  {
    code: 'TIMELY_FILING_EXPIRED',
    severity: 'error',
    field: 'lines[0].serviceDate',
    fail: {
      'a day past 90 days': (i) => {
        i.payer.timelyFilingDays = 90;
        i.today = addDays('2026-03-02', 91);
      },
      'past 365 days': (i) => (i.today = '2027-03-16'),
    },
    pass: {
      'a self-pay claim years later': (i) => {
        i.payer = { name: 'Self-Pay', payerId: null, timelyFilingDays: 365, selfPay: true, medicare: false };
        i.today = '2030-03-16';
      },
      // A correction of a claim the payer has: the limit on first filing is not its own.
      'a replacement of a claim the payer has, past 365 days': (i) => {
        i.today = '2027-03-16';
        i.claim.frequencyCode = '7';
        i.claim.originalClaimNumber = '1026061000123';
      },
    },
  },
  {
    code: 'TIMELY_FILING_NEAR',
    severity: 'warning',
    field: 'lines[0].serviceDate',
    fail: {
      'exactly 80% of 90 days': (i) => {
        i.payer.timelyFilingDays = 90;
        i.today = addDays('2026-03-02', 72);
      },
      'the last day of 90': (i) => {
        i.payer.timelyFilingDays = 90;
        i.today = addDays('2026-03-02', 90);
      },
      '292 of 365 days': (i) => (i.today = addDays('2026-03-02', 292)),
    },
    pass: {
      'a day short of 80% of 90 days': (i) => {
        i.payer.timelyFilingDays = 90;
        i.today = addDays('2026-03-02', 71);
      },
      '291 of 365 days': (i) => (i.today = addDays('2026-03-02', 291)),
    },
  },
  {
    code: 'DUPLICATE_SERVICE',
    severity: 'warning',
    field: 'lines[0].procedureCode',
    fail: {
      'the same service on another claim': (i) =>
        i.otherClaims.push({
          id: 91,
          lines: [{ procedureCode: '99214', modifiers: ['25'], serviceDate: '2026-03-02' }],
        }),
      'the same modifiers in another order': (i) => {
        firstLine(i).modifiers = ['25', '59'];
        i.otherClaims.push({
          id: 91,
          lines: [{ procedureCode: '99214', modifiers: ['59', '25'], serviceDate: '2026-03-02' }],
        });
      },
    },
    pass: {
      'a repeat service marked 76': (i) =>
        i.otherClaims.push({
          id: 91,
          lines: [{ procedureCode: '99214', modifiers: ['76'], serviceDate: '2026-03-02' }],
        }),
      'the same service another day': (i) =>
        i.otherClaims.push({
          id: 91,
          lines: [{ procedureCode: '99214', modifiers: ['25'], serviceDate: '2026-03-03' }],
        }),
      'the claim itself in the list': (i) =>
        i.otherClaims.push({
          id: 100,
          lines: [{ procedureCode: '99214', modifiers: ['25'], serviceDate: '2026-03-02' }],
        }),
    },
  },
  {
    code: 'AUTHORIZATION_MISSING',
    severity: 'error',
    field: 'lines[1].procedureCode',
    fail: {
      none: (i) => (i.authorizations = []),
      'only a pending one': (i) => (i.authorizations[0]!.status = 'Pending'),
      'only a denied one': (i) => (i.authorizations[0]!.status = 'Denied'),
      'one for another service': (i) => (i.authorizations[0]!.procedureCode = '73721'),
      'one expired the day before': (i) => (i.authorizations[0]!.validTo = '2026-03-01'),
      'one starting the day after': (i) => (i.authorizations[0]!.validFrom = '2026-03-03'),
    },
    pass: {
      'one ending that day': (i) => (i.authorizations[0]!.validTo = '2026-03-02'),
      'one starting that day': (i) => (i.authorizations[0]!.validFrom = '2026-03-02'),
      'one without bounds': (i) => (i.authorizations[0] = { ...i.authorizations[0]!, validFrom: null, validTo: null }),
      'an expired one beside an approved one': (i) =>
        i.authorizations.unshift({
          procedureCode: '72148',
          status: 'Approved',
          validFrom: '2025-01-01',
          validTo: '2025-02-01',
        }),
      'none on a self-pay claim': (i) => {
        i.authorizations = [];
        i.payer = { name: 'Self-Pay', payerId: null, timelyFilingDays: 365, selfPay: true, medicare: false };
      },
    },
  },
];

describe('scrubClaim', () => {
  it('finds nothing on a clean claim', () => {
    const edits = scrubClaim(cleanInput());
    expect(edits).toEqual([]);
    expect(isScrubClean(edits)).toBe(true);
  });

  it('has a distinct code for every case', () => {
    expect(new Set(CASES.map((c) => c.code)).size).toBe(CASES.length);
  });

  describe.each(CASES)('$code', ({ code, severity, field, fail, pass }) => {
    it.each(Object.entries(fail))(`is raised for %s`, (_label, change) => {
      const edits = scrubWith(change);
      expect(edits).toContainEqual({ code, severity, field, message: expect.any(String) as string });
      expect(edits.find((edit) => edit.code === code)?.message.length).toBeGreaterThan(10);
      // A warning case changes nothing an error is about; an error case makes the claim unsendable.
      expect(isScrubClean(edits)).toBe(severity === 'warning');
    });
    it.each(Object.entries(pass))(`is not raised for %s`, (_label, change) => {
      expect(scrubWith(change)).toEqual([]);
    });
  });

  it('names the field and the rule in its messages', () => {
    const edits = scrubWith((i) => {
      i.claim.lines[1]!.modifiers = ['XYZ'];
      i.claim.diagnoses[0] = 'M54.5';
      i.authorizations = [];
    });
    expect(edits.map((edit) => edit.message)).toEqual([
      "Diagnosis 1 'M54.5' is not billable for services from Oct 1, 2021 (ICD-10-CM update): " +
        'use a more specific code (M54.50, M54.51, M54.59)',
      "Line 2 modifier 'XYZ' must be 2 capital letters or digits",
      'Line 2 MRI lumbar spine (72148) on Mar 2, 2026 needs an approved prior authorization covering that day: ' +
        'without one the payer denies it (CARC CO-197)',
    ]);
  });

  it("names the missing parts of the patient's address and where to enter them", () => {
    const [one] = scrubWith((i) => (i.patient.address.zip = null));
    expect(one?.message).toBe(
      "The patient's address is missing its ZIP code: a claim to Medicare needs the whole address " +
        "(Patients → the patient's Billing details)",
    );
    const [all] = scrubWith((i) => (i.patient.address = { line1: null, city: '', state: null, zip: null }));
    expect(all?.message).toContain('is missing its street, city, state and ZIP code:');
  });

  it('says how many days are left of the payer’s filing limit', () => {
    const [edit] = scrubWith((i) => {
      i.payer = { name: 'Aetna', payerId: '60054', timelyFilingDays: 90, selfPay: false, medicare: false };
      i.coverage!.memberId = 'W123456789';
      i.today = addDays('2026-03-02', 80);
    });
    expect(edit?.message).toBe(
      "Only 10 days left of Aetna's 90-day timely filing limit for the service on Mar 2, 2026: send it first",
    );
    const [last] = scrubWith((i) => {
      i.payer.timelyFilingDays = 90;
      i.today = addDays('2026-03-02', 90);
    });
    expect(last?.message).toBe(
      "Today is the last day of Medicare's 90-day timely filing limit for the service on Mar 2, 2026: send it first",
    );
  });

  it('counts the filing limit from the earliest line', () => {
    const edits = scrubWith((i) => {
      i.claim.lines[1]!.serviceDate = '2025-03-01';
      i.authorizations[0]!.validFrom = null;
    });
    expect(edits).toContainEqual(
      expect.objectContaining({ code: 'TIMELY_FILING_EXPIRED', field: 'lines[1].serviceDate' }),
    );
  });

  it('names the other claims of a duplicate', () => {
    const edits = scrubWith((i) => {
      const twin = { procedureCode: '99214', modifiers: ['25'], serviceDate: '2026-03-02' };
      i.otherClaims.push({ id: 91, lines: [twin, twin] }, { id: 95, lines: [twin] });
    });
    expect(edits).toHaveLength(1);
    expect(edits[0]?.message).toContain('claim 91, 95');
    expect(edits[0]?.message).toContain('OA-18');
  });

  it('lists errors before warnings, in the same order every time', () => {
    const broken: Change = (i) => {
      i.claim.diagnoses = ['E11.9', 'E119', 'M54.5'];
      i.claim.placeOfService = '45';
      i.claim.originalClaimNumber = 'X1';
      i.billingProvider.npi = '1234567890';
      firstLine(i).modifiers = ['lt'];
      i.otherClaims.push({ id: 91, lines: [{ procedureCode: '72148', modifiers: [], serviceDate: '2026-03-02' }] });
    };
    const edits = scrubWith(broken);
    expect(edits.map((edit) => edit.code)).toEqual([
      'NPI_BILLING_CHECK_DIGIT',
      'DIAGNOSIS_NOT_BILLABLE',
      'MODIFIER_FORMAT',
      'DIAGNOSIS_DUPLICATE',
      'ORIGINAL_CLAIM_NUMBER_UNEXPECTED',
      'PLACE_OF_SERVICE_UNKNOWN',
      'DUPLICATE_SERVICE',
    ]);
    expect(scrubWith(broken)).toEqual(edits);
    expect(isScrubClean(edits)).toBe(false);
  });

  it('does not fault a diagnosis for a date it cannot read', () => {
    const edits = scrubWith((i) => {
      for (const each of i.claim.lines) each.serviceDate = 'soon';
    });
    expect(edits.map((edit) => edit.code)).toEqual(['SERVICE_DATE_INVALID', 'SERVICE_DATE_INVALID']);
  });
});

describe('code lists', () => {
  it('keeps M54.5 and N18.3 with their successors, and never lists a billable code', () => {
    const byCode = new Map(INVALID_ICD10_CODES.map((entry) => [entry.code, entry]));
    expect(byCode.get('M54.5')).toEqual({
      code: 'M54.5',
      endedOn: '2021-10-01',
      replacedBy: ['M54.50', 'M54.51', 'M54.59'],
    });
    expect(byCode.get('N18.3')).toEqual({
      code: 'N18.3',
      endedOn: '2020-10-01',
      replacedBy: ['N18.30', 'N18.31', 'N18.32'],
    });
    expect(byCode.has('E11.9')).toBe(false);
    for (const entry of INVALID_ICD10_CODES) {
      expect(entry.replacedBy.length).toBeGreaterThan(1);
      expect(entry.replacedBy.every((code) => code.startsWith(entry.code))).toBe(true);
    }
  });

  it('asks for an authorization for every service the Authorizations screen tracks', () => {
    expect(AUTHORIZATION_REQUIRED_CODES.map((entry) => entry.code).sort()).toEqual(
      ['45378', '72148', '73721', '74160', '93015', '93306', '95004', '95810', '97161', 'A9276'].sort(),
    );
  });
});

// Valid claims generated within the rules: the scrubber must find no error in any of them.
const VALID_DIAGNOSES = TWELVE_CODES.concat(['S72.001A', 'E11.65', 'R05.9', 'Z23', 'M54.59', 'I50.22']);
const PROCEDURES = ['99213', '99214', '99396', 'G0439', '80053', '85025', '93000', '3044F', '0042T', '87804'].concat(
  AUTHORIZATION_REQUIRED_CODES.map((entry) => entry.code),
);
const MODIFIERS = ['25', '59', 'LT', 'RT', 'XU', '76', 'GT', '95'];
const MBI_LETTERS = 'ACDEFGHJKMNPQRTUVWXY';
const digit = fc.constantFrom(...'0123456789');
const mbiLetter = fc.constantFrom(...MBI_LETTERS);
const mbiEither = fc.constantFrom(...MBI_LETTERS, ...'0123456789');
const mbi = fc
  .tuple(
    fc.constantFrom(...'123456789'),
    mbiLetter,
    mbiEither,
    digit,
    mbiLetter,
    mbiEither,
    digit,
    mbiLetter,
    mbiLetter,
    digit,
    digit,
  )
  .map((chars) => chars.join(''));
const npi = fc.stringMatching(/^[12]\d{8}$/).map(makeNpi);
const ein = fc
  .tuple(fc.constantFrom('10', '12', '20', '45', '84', '95'), fc.stringMatching(/^\d{7}$/))
  .map(([prefix, rest]) => `${prefix}-${rest}`);

const validInput: fc.Arbitrary<ScrubInput> = fc
  .record({
    todayOffset: fc.integer({ min: 0, max: 3000 }),
    limit: fc.constantFrom(90, 120, 180, 365),
    diagnoses: fc.uniqueArray(fc.constantFrom(...VALID_DIAGNOSES), { minLength: 1, maxLength: 12 }),
    medicare: fc.boolean(),
    selfPay: fc.boolean(),
    lineCount: fc.integer({ min: 1, max: 4 }),
  })
  .chain(({ todayOffset, limit, diagnoses, medicare, selfPay, lineCount }) => {
    const today = addDays('2022-01-01', todayOffset);
    // Younger than 80% of the filing limit, so not even the warning is due.
    const maxAge = Math.floor((limit * 4 - 1) / 5);
    const pointers = fc.shuffledSubarray(
      diagnoses.map((_code, i) => i + 1),
      { minLength: 1, maxLength: Math.min(4, diagnoses.length) },
    );
    const scrubLine = fc.record({
      procedureCode: fc.constantFrom(...PROCEDURES),
      modifiers: fc.uniqueArray(fc.constantFrom(...MODIFIERS), { maxLength: 4 }),
      units: fc.integer({ min: 1, max: 99 }),
      chargeCents: fc.integer({ min: 1, max: 5_000_000 }),
      diagnosisPointers: pointers,
      serviceDate: fc.integer({ min: 0, max: maxAge }).map((age) => addDays(today, -age)),
    });
    return fc
      .record({
        lines: fc.array(scrubLine, { minLength: lineCount, maxLength: lineCount }),
        ageAtEarliest: fc.integer({ min: 0, max: 36_000 }),
        memberId: medicare ? mbi : fc.stringMatching(/^[A-Z0-9]{5,15}$/),
        hasEnd: fc.boolean(),
        priority: fc.integer({ min: 1, max: 3 }),
        billingNpi: npi,
        renderingNpi: npi,
        taxId: ein,
        payerId: fc.stringMatching(/^[A-Z0-9]{5}$/),
        billingZip: fc.stringMatching(/^\d{9}$/),
        patientZip: fc.oneof(fc.stringMatching(/^\d{5}$/), fc.stringMatching(/^\d{9}$/)),
        placeOfService: fc.constantFrom('02', '10', '11', '12', '22', '81'),
        frequencyCode: fc.constantFrom('1', '7', '8'),
        openAuthorization: fc.boolean(),
        others: fc.array(
          fc.record({
            id: fc.integer({ min: 1, max: 99 }),
            lines: fc.array(
              fc.record({
                procedureCode: fc.constantFrom(...PROCEDURES),
                modifiers: fc.uniqueArray(fc.constantFrom(...MODIFIERS), { maxLength: 2 }),
                serviceDate: fc.integer({ min: 0, max: 400 }).map((age) => addDays(today, -age)),
              }),
              { maxLength: 4 },
            ),
          }),
          { maxLength: 3 },
        ),
      })
      .map((drawn): ScrubInput => {
        const dates = drawn.lines.map((each) => each.serviceDate).sort();
        const earliest = dates[0] ?? today;
        const latest = dates[dates.length - 1] ?? today;
        const authorized = [...new Set(drawn.lines.map((each) => each.procedureCode))];
        return {
          today,
          claim: {
            id: 1_000,
            frequencyCode: drawn.frequencyCode,
            originalClaimNumber: drawn.frequencyCode === '1' ? null : '2026061000123',
            placeOfService: drawn.placeOfService,
            diagnoses,
            totalChargeCents: drawn.lines.reduce((sum, each) => sum + each.chargeCents, 0),
            lines: drawn.lines,
          },
          patient: {
            dob: addDays(earliest, -drawn.ageAtEarliest),
            address: { line1: '42 Elm Street', city: 'Springfield', state: 'IL', zip: drawn.patientZip },
          },
          coverage: selfPay
            ? null
            : {
                memberId: drawn.memberId,
                effectiveOn: earliest,
                endOn: drawn.hasEnd ? latest : null,
                priority: drawn.priority,
                // Medicare billed as a payer that is not primary says why it pays second (SBR05).
                medicareSecondaryType: medicare && drawn.priority !== 1 ? '12' : null,
              },
          payer: {
            name: selfPay ? 'Self-Pay' : medicare ? 'Medicare' : 'Aetna',
            payerId: selfPay ? null : drawn.payerId,
            timelyFilingDays: limit,
            selfPay,
            medicare: medicare && !selfPay,
          },
          billingProvider: { npi: drawn.billingNpi, taxId: drawn.taxId, zip: drawn.billingZip },
          renderingProvider: { name: 'Dr. Test', npi: drawn.renderingNpi },
          otherClaims: drawn.others,
          authorizations: authorized.map((procedureCode) => ({
            procedureCode,
            status: 'Approved' as const,
            validFrom: drawn.openAuthorization ? null : earliest,
            validTo: drawn.openAuthorization ? null : latest,
          })),
        };
      });
  });

describe('scrubClaim on generated claims', () => {
  it('finds no error on any claim made within the rules', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        const errors = scrubClaim(input).filter((edit) => edit.severity === 'error');
        expect(errors).toEqual([]);
      }),
    );
  });
});

describe('ELIGIBILITY_INACTIVE message', () => {
  it('says in plain words when the payer answered and what it said', () => {
    const i = cleanInput();
    i.eligibility = {
      state: 'inactive',
      checkedAt: '2026-03-01T14:00:00.000Z',
      detail: 'The plan ended on Feb 28, 2026, before the day of service',
      notFound: false,
    };
    expect(scrubClaim(i).find((e) => e.code === 'ELIGIBILITY_INACTIVE')?.message).toBe(
      'The payer answered the eligibility check on Mar 1, 2026 that the policy was not active on the day of service ' +
        "(The plan ended on Feb 28, 2026, before the day of service): the payer would deny the claim (CARC CO-27); check the patient's insurance",
    );
  });
});
