/**
 * The claim scrubber: the checks a billing office runs on a professional claim (X12 837P 005010X222A1)
 * before it goes to the payer, so that what the payer would reject or deny (the CARC code named in each
 * message) is fixed first. Pure: everything it needs comes in the input, and it answers a list of edits.
 */
import { formatDollars } from '@/shared/api';
import { isValidEin, isValidMbi, isValidNpi } from '@/shared/billing-identifiers';
import { formatDate } from '@/shared/dates';
import { dayInZone } from '@/shared/practice-zone';
import { countOf } from '@/shared/plural';

export type ScrubSeverity = 'error' | 'warning';

/**
 * Every code the scrubber can give. They are stable (kept with each scrub), and listed so that what reads them
 * (the work queue's category of a hold) must name each one.
 */
export const SCRUB_CODES = [
  'AUTHORIZATION_MISSING',
  'BILLING_ZIP_PLUS_FOUR',
  'COVERAGE_ENDED',
  'COVERAGE_MISSING',
  'COVERAGE_NOT_STARTED',
  'DIAGNOSIS_DUPLICATE',
  'DIAGNOSIS_FORMAT',
  'DIAGNOSIS_ICD10_TOO_EARLY',
  'DIAGNOSIS_ICD9',
  'DIAGNOSIS_MISSING',
  'DIAGNOSIS_NOT_BILLABLE',
  'DIAGNOSIS_TOO_MANY',
  'DUPLICATE_SERVICE',
  'ELIGIBILITY_INACTIVE',
  'LINES_MISSING',
  'LINES_TOO_MANY',
  'LINE_CHARGE_INVALID',
  'MEDICARE_SECONDARY_TYPE_MISSING',
  'MEMBER_ID_MISSING',
  'MEMBER_ID_NOT_MBI',
  'MODIFIER_FORMAT',
  'MODIFIER_TOO_MANY',
  'NPI_BILLING_CHECK_DIGIT',
  'NPI_BILLING_FORMAT',
  'NPI_BILLING_MISSING',
  'NPI_RENDERING_CHECK_DIGIT',
  'NPI_RENDERING_FORMAT',
  'NPI_RENDERING_MISSING',
  'ORIGINAL_CLAIM_NUMBER_MISSING',
  'ORIGINAL_CLAIM_NUMBER_UNEXPECTED',
  'PATIENT_ADDRESS_INCOMPLETE',
  'PATIENT_DOB_INVALID',
  'PAYER_ID_MISSING',
  'PLACE_OF_SERVICE_FORMAT',
  'PLACE_OF_SERVICE_UNKNOWN',
  'POINTER_DUPLICATE',
  'POINTER_MISSING',
  'POINTER_OUT_OF_RANGE',
  'POINTER_TOO_MANY',
  'PRIOR_PAYER_UNREPORTABLE',
  'PROCEDURE_CODE_FORMAT',
  'SERVICE_DATE_BEFORE_BIRTH',
  'SERVICE_DATE_INVALID',
  'SERVICE_DATE_IN_FUTURE',
  'TAX_ID_INVALID',
  'TAX_ID_MISSING',
  'TIMELY_FILING_EXPIRED',
  'TIMELY_FILING_NEAR',
  'TOTAL_CHARGE_MISMATCH',
  'UNITS_INVALID',
] as const;
export type ScrubCode = (typeof SCRUB_CODES)[number];

export interface ScrubEdit {
  /** Stable machine code, e.g. 'NPI_BILLING_CHECK_DIGIT'. */
  code: ScrubCode;
  severity: ScrubSeverity;
  /**
   * The field the edit is about, as a path the claim form can highlight: 'billingProvider.npi', 'diagnoses[2]',
   * 'lines[0].modifiers', 'lines[1].diagnosisPointers', 'coverage.memberId', 'totalChargeCents', ...
   */
  field: string;
  /** One sentence for billing staff naming the field and the rule, e.g. "Line 2 modifier 'XYZ' must be 2 letters or digits". */
  message: string;
}
export interface ScrubLine {
  procedureCode: string;
  modifiers: string[];
  units: number;
  chargeCents: number;
  /** 1-based positions in claim.diagnoses. */
  diagnosisPointers: number[];
  serviceDate: string; // YYYY-MM-DD
}
export interface ScrubInput {
  /** The practice's current day, YYYY-MM-DD. */
  today: string;
  claim: {
    id: number;
    frequencyCode: '1' | '7' | '8';
    /** The payer's claim number of the claim being replaced or voided (required for 7 and 8). */
    originalClaimNumber: string | null;
    placeOfService: string; // 2 digits, e.g. '11' office
    /** ICD-10-CM codes in order, with or without the dot ('E11.9' or 'E119'). */
    diagnoses: string[];
    totalChargeCents: number;
    lines: ScrubLine[];
  };
  /**
   * The patient's birth date, and the home address a claim to a payer carries (loop 2010BA/2010CA N3/N4):
   * null parts are not on file.
   */
  patient: {
    dob: string;
    address: { line1: string | null; city: string | null; state: string | null; zip: string | null };
  };
  /** null when the claim has no coverage (a self-pay claim is not scrubbed for coverage: see payer.selfPay). */
  coverage: {
    memberId: string;
    effectiveOn: string;
    endOn: string | null;
    /** 1 primary, 2 secondary, 3 tertiary. */
    priority: number;
    /** Why Medicare pays second (X12 SBR05), on a Medicare policy that is not primary; null when not on file. */
    medicareSecondaryType: string | null;
  } | null;
  payer: {
    name: string;
    /** The clearinghouse's id of the payer (837P loop 2010BB NM109); null when the payers table has none. */
    payerId: string | null;
    timelyFilingDays: number;
    selfPay: boolean;
    medicare: boolean;
  };
  /** The practice as billing provider; `zip` as stored, digits only (Settings → Practice). */
  billingProvider: { npi: string | null; taxId: string | null; zip: string | null };
  renderingProvider: { name: string; npi: string | null };
  /** Other live (not voided) claims of the same patient: their lines, for the duplicate check. */
  otherClaims: { id: number; lines: { procedureCode: string; modifiers: string[]; serviceDate: string }[] }[];
  /**
   * For a claim billed after another payer's adjudication (a secondary claim): why that payer's decision cannot be
   * reported in its 837P (loops 2320 and 2430), or null when it can. Absent for any other claim.
   */
  priorPayer?: { problem: string | null } | null;
  /**
   * What the latest answered eligibility check (X12 271) of the claim's coverage said of the claim's service date:
   * inactive, rejected (notFound: the payer does not know the patient under the policy) or active; null or absent
   * when never checked, which is no edit.
   */
  eligibility?: {
    state: 'active' | 'inactive' | 'rejected' | 'unknown';
    /** When the payer answered, ISO. */
    checkedAt: string | null;
    detail: string | null;
    notFound: boolean;
  } | null;
  /** The patient's prior authorizations on file. */
  authorizations: {
    procedureCode: string;
    status: 'Pending' | 'Approved' | 'Denied';
    validFrom: string | null;
    validTo: string | null;
  }[];
}

/** ICD-10-CM replaced ICD-9-CM for services on and after this day (HIPAA code set rule). */
const ICD10_EFFECTIVE = '2015-10-01';

/**
 * ICD-10-CM codes that are not billable: codes the yearly update split into more specific ones (billable only
 * for services before `endedOn`), and category or subcategory headers that have children and were never
 * billable (`endedOn` is the ICD-10-CM start). `replacedBy` is the next level down of the ICD-10-CM tabular
 * list; for a header some of those have children of their own (E11.2 is listed here too). A short list of the
 * codes practices often send, not the code set.
 */
export const INVALID_ICD10_CODES: readonly { code: string; endedOn: string; replacedBy: string[] }[] = [
  { code: 'M54.5', endedOn: '2021-10-01', replacedBy: ['M54.50', 'M54.51', 'M54.59'] },
  { code: 'N18.3', endedOn: '2020-10-01', replacedBy: ['N18.30', 'N18.31', 'N18.32'] },
  { code: 'R51', endedOn: '2020-10-01', replacedBy: ['R51.0', 'R51.9'] },
  { code: 'E78.0', endedOn: '2018-10-01', replacedBy: ['E78.00', 'E78.01'] },
  {
    code: 'E11',
    endedOn: ICD10_EFFECTIVE,
    replacedBy: ['E11.0', 'E11.1', 'E11.2', 'E11.3', 'E11.4', 'E11.5', 'E11.6', 'E11.8', 'E11.9'],
  },
  { code: 'E11.2', endedOn: ICD10_EFFECTIVE, replacedBy: ['E11.21', 'E11.22', 'E11.29'] },
  { code: 'I50', endedOn: ICD10_EFFECTIVE, replacedBy: ['I50.1', 'I50.2', 'I50.3', 'I50.4', 'I50.8', 'I50.9'] },
  { code: 'I50.2', endedOn: ICD10_EFFECTIVE, replacedBy: ['I50.20', 'I50.21', 'I50.22', 'I50.23'] },
  { code: 'I50.3', endedOn: ICD10_EFFECTIVE, replacedBy: ['I50.30', 'I50.31', 'I50.32', 'I50.33'] },
  { code: 'I50.4', endedOn: ICD10_EFFECTIVE, replacedBy: ['I50.40', 'I50.41', 'I50.42', 'I50.43'] },
  { code: 'J45.90', endedOn: ICD10_EFFECTIVE, replacedBy: ['J45.901', 'J45.902', 'J45.909'] },
  { code: 'R10.1', endedOn: ICD10_EFFECTIVE, replacedBy: ['R10.10', 'R10.11', 'R10.12', 'R10.13'] },
  { code: 'Z00.0', endedOn: ICD10_EFFECTIVE, replacedBy: ['Z00.00', 'Z00.01'] },
];

/**
 * Services the payers of the practice authorize before they are done (the ones the Authorizations screen
 * tracks); billed without an approval covering the day, the payer denies them with CARC CO-197.
 */
export const AUTHORIZATION_REQUIRED_CODES: readonly { code: string; service: string }[] = [
  { code: '72148', service: 'MRI lumbar spine' },
  { code: '74160', service: 'CT abdomen with contrast' },
  { code: '95810', service: 'Sleep study' },
  { code: '97161', service: 'Physical therapy evaluation' },
  { code: '93306', service: 'Echocardiogram' },
  { code: '93015', service: 'Cardiac stress test' },
  { code: '73721', service: 'MRI knee' },
  { code: 'A9276', service: 'Continuous glucose monitor' },
  { code: '45378', service: 'Colonoscopy' },
  { code: '95004', service: 'Allergy testing' },
];

/**
 * CMS place-of-service codes the practice bills from (the code set has more; another code is worth a look,
 * not a refusal).
 */
const PLACES_OF_SERVICE: ReadonlySet<string> = new Set([
  '02', // telehealth other than in the patient's home
  '10', // telehealth in the patient's home
  '11', // office
  '12', // home
  '19', // off-campus outpatient hospital
  '20', // urgent care facility
  '21', // inpatient hospital
  '22', // on-campus outpatient hospital
  '23', // emergency room
  '24', // ambulatory surgical center
  '31', // skilled nursing facility
  '32', // nursing facility
  '49', // independent clinic
  '50', // federally qualified health center
  '72', // rural health clinic
  '81', // independent laboratory
]);

// X12 837P 005010X222A1 limits: 12 diagnoses (HI), 50 service lines (loop 2400), 4 modifiers (SV101-3..6) and
// 4 diagnosis pointers (SV107) a line.
const MAX_DIAGNOSES = 12;
const MAX_LINES = 50;
const MAX_MODIFIERS = 4;
const MAX_POINTERS = 4;
/** Share of the payer's timely-filing limit after which the claim is flagged to go out first. */
const TIMELY_FILING_WARNING_SHARE = { numerator: 4, denominator: 5 };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const NPI_SHAPE = /^[12]\d{9}$/;
const POS_SHAPE = /^\d{2}$/;
/** A ZIP+4 as the practice's settings keep it: 9 digits, no dash. */
const ZIP_PLUS_FOUR_SHAPE = /^\d{9}$/;
/** CPT: 5 digits, or 4 digits and F (Category II), T (Category III) or U (Proprietary Laboratory Analyses). */
const CPT_SHAPE = /^\d{4}[0-9FTU]$/;
/** HCPCS Level II: a letter A-V and 4 digits. */
const HCPCS_SHAPE = /^[A-V]\d{4}$/;
const MODIFIER_SHAPE = /^[A-Z0-9]{2}$/;
/** ICD-10-CM: a letter, a digit, a letter or digit, then optionally a dot and up to 4 more (E11.9, S72.001A). */
const ICD10_SHAPE = /^[A-Z]\d[A-Z0-9](?:\.?[A-Z0-9]{1,4})?$/;
/**
 * ICD-9-CM shapes: 3 digits and up to 2 decimals (250.00, 4019), V codes (V70.0) and E codes E800-E999
 * (E880.9). ICD-10-CM chapter 20 codes starting with V always have 7 characters, so a short all-digit V code
 * is ICD-9. ICD-10-CM has E00-E89 too: a dotless E8xx (E8809 is ICD-10-CM E88.09) is read as ICD-10-CM, and
 * only the dotted ICD-9 form (E880.9) or E9xx is ICD-9.
 */
const ICD9_SHAPES: readonly RegExp[] = [
  /^\d{3}(?:\.?\d{1,2})?$/,
  /^V\d{2}(?:\.?\d{1,2})?$/,
  /^E(?:[89]\d{2}\.\d|9\d{2}\d?)$/,
];

const INVALID_BY_CODE: ReadonlyMap<string, (typeof INVALID_ICD10_CODES)[number]> = new Map(
  INVALID_ICD10_CODES.map((entry) => [withoutDot(entry.code), entry]),
);
const AUTHORIZATION_SERVICE: ReadonlyMap<string, string> = new Map(
  AUTHORIZATION_REQUIRED_CODES.map((entry) => [entry.code, entry.service]),
);

/** The edits of a claim: errors first, then warnings, each group in the order the checks run. */
export function scrubClaim(input: ScrubInput): ScrubEdit[] {
  const edits = new Edits();
  const dates = serviceDates(input);
  checkProviders(input, edits);
  checkDiagnoses(input, dates, edits);
  checkLines(input, edits);
  checkDates(input, dates, edits);
  checkFrequency(input, edits);
  checkPlaceOfService(input, edits);
  // A self-pay claim goes to the patient, not a payer: no coverage, filing limit or authorization applies.
  if (!input.payer.selfPay) {
    checkSubmissionIdentifiers(input, edits);
    checkCoverage(input, dates, edits);
    checkTimelyFiling(input, dates, edits);
    checkAuthorizations(input, dates, edits);
  }
  checkDuplicates(input, dates, edits);
  if (input.priorPayer?.problem) {
    // The next payer refuses a claim that does not say what the earlier one decided (X12 837P loops 2320/2430).
    edits.error('PRIOR_PAYER_UNREPORTABLE', 'primaryClaimId', `This claim cannot be sent: ${input.priorPayer.problem}`);
  }
  return edits.sorted();
}

/** True when no edit is an error: the claim can go out (warnings are for a person to look at). */
export function isScrubClean(edits: readonly ScrubEdit[]): boolean {
  return edits.every((edit) => edit.severity !== 'error');
}

class Edits {
  private readonly errors: ScrubEdit[] = [];
  private readonly warnings: ScrubEdit[] = [];
  error(code: ScrubCode, field: string, message: string): void {
    this.errors.push({ code, severity: 'error', field, message });
  }
  warning(code: ScrubCode, field: string, message: string): void {
    this.warnings.push({ code, severity: 'warning', field, message });
  }
  sorted(): ScrubEdit[] {
    return [...this.errors, ...this.warnings];
  }
}

/** Each line's service date when it is a real calendar date, else null (reported once, by checkDates). */
function serviceDates(input: ScrubInput): (string | null)[] {
  return input.claim.lines.map((line) => (isCalendarDate(line.serviceDate) ? line.serviceDate : null));
}

function checkProviders(input: ScrubInput, edits: Edits): void {
  checkNpi(input.billingProvider.npi, 'BILLING', 'billingProvider.npi', 'Billing provider', edits);
  const rendering = `Rendering provider ${input.renderingProvider.name}`;
  checkNpi(input.renderingProvider.npi, 'RENDERING', 'renderingProvider.npi', rendering, edits);
  const taxId = input.billingProvider.taxId ?? '';
  if (taxId.trim() === '') {
    edits.error(
      'TAX_ID_MISSING',
      'billingProvider.taxId',
      'Billing provider tax id is missing: the claim needs its EIN',
    );
  } else if (!isValidEin(taxId)) {
    edits.error(
      'TAX_ID_INVALID',
      'billingProvider.taxId',
      `Billing provider tax id '${taxId}' must be an EIN: 9 digits (NN-NNNNNNN) with a prefix the IRS assigns`,
    );
  }
}

/** CMS NPI standard: present, 10 digits starting 1 or 2, and the Luhn check digit right. */
function checkNpi(npi: string | null, role: 'BILLING' | 'RENDERING', field: string, who: string, edits: Edits): void {
  const value = npi ?? '';
  if (value.trim() === '') {
    edits.error(`NPI_${role}_MISSING`, field, `${who}'s NPI is missing`);
  } else if (!NPI_SHAPE.test(value)) {
    edits.error(`NPI_${role}_FORMAT`, field, `${who}'s NPI '${value}' must be 10 digits starting with 1 or 2`);
  } else if (!isValidNpi(value)) {
    edits.error(`NPI_${role}_CHECK_DIGIT`, field, `${who}'s NPI '${value}' has a wrong check digit: it is mistyped`);
  }
}

function checkDiagnoses(input: ScrubInput, dates: readonly (string | null)[], edits: Edits): void {
  const { diagnoses } = input.claim;
  if (diagnoses.length === 0) {
    edits.error('DIAGNOSIS_MISSING', 'diagnoses', 'The claim needs at least 1 diagnosis');
  } else if (diagnoses.length > MAX_DIAGNOSES) {
    edits.error(
      'DIAGNOSIS_TOO_MANY',
      'diagnoses',
      `The claim has ${diagnoses.length} diagnoses: a professional claim holds at most ${MAX_DIAGNOSES}`,
    );
  }
  const firstIndex = new Map<string, number>();
  diagnoses.forEach((code, i) => {
    const field = `diagnoses[${i}]`;
    const label = `Diagnosis ${i + 1} '${code}'`;
    const key = withoutDot(code);
    const first = firstIndex.get(key);
    if (first === undefined) firstIndex.set(key, i);
    else edits.warning('DIAGNOSIS_DUPLICATE', field, `${label} repeats diagnosis ${first + 1}: list each code once`);

    if (ICD9_SHAPES.some((shape) => shape.test(code))) {
      edits.error('DIAGNOSIS_ICD9', field, `${label} is an ICD-9-CM code: claims take ICD-10-CM codes`);
      return;
    }
    if (!ICD10_SHAPE.test(code)) {
      edits.error(
        'DIAGNOSIS_FORMAT',
        field,
        `${label} must be an ICD-10-CM code: a capital letter, a digit, a letter or digit, then up to 4 more (E11.9)`,
      );
      return;
    }
    const span = datesPointingAt(input, dates, i + 1);
    if (span === null) return;
    if (span.first < ICD10_EFFECTIVE) {
      edits.error(
        'DIAGNOSIS_ICD10_TOO_EARLY',
        field,
        `${label} is ICD-10-CM, which took effect on ${formatDate(ICD10_EFFECTIVE)}: ` +
          `the service on ${formatDate(span.first)} is coded in ICD-9-CM`,
      );
      return;
    }
    const invalid = INVALID_BY_CODE.get(key);
    if (invalid && span.last >= invalid.endedOn) {
      const why =
        invalid.endedOn === ICD10_EFFECTIVE
          ? 'is an ICD-10-CM category, not billable'
          : `is not billable for services from ${formatDate(invalid.endedOn)} (ICD-10-CM update)`;
      edits.error(
        'DIAGNOSIS_NOT_BILLABLE',
        field,
        `${label} ${why}: use a more specific code (${invalid.replacedBy.join(', ')})`,
      );
    }
  });
}

/**
 * The first and last service dates of the lines that point at a diagnosis (of every line when none does,
 * since the code still goes on the claim); null when there is no readable date.
 */
function datesPointingAt(
  input: ScrubInput,
  dates: readonly (string | null)[],
  pointer: number,
): { first: string; last: string } | null {
  const pointing = dates.filter((_date, i) => input.claim.lines[i]?.diagnosisPointers.includes(pointer));
  return spanOf(pointing) ?? spanOf(dates);
}

function spanOf(dates: readonly (string | null)[]): { first: string; last: string } | null {
  let first: string | null = null;
  let last: string | null = null;
  for (const date of dates) {
    if (date === null) continue;
    if (first === null || date < first) first = date;
    if (last === null || date > last) last = date;
  }
  return first === null || last === null ? null : { first, last };
}

function checkLines(input: ScrubInput, edits: Edits): void {
  const { lines, diagnoses } = input.claim;
  if (lines.length === 0) edits.error('LINES_MISSING', 'lines', 'The claim needs at least 1 service line');
  else if (lines.length > MAX_LINES) {
    edits.error(
      'LINES_TOO_MANY',
      'lines',
      `The claim has ${lines.length} lines: split it, at most ${MAX_LINES} a claim`,
    );
  }
  lines.forEach((line, i) => {
    const n = i + 1;
    const at = `lines[${i}]`;
    if (!CPT_SHAPE.test(line.procedureCode) && !HCPCS_SHAPE.test(line.procedureCode)) {
      edits.error(
        'PROCEDURE_CODE_FORMAT',
        `${at}.procedureCode`,
        `Line ${n} procedure code '${line.procedureCode}' must be a CPT code (5 digits, or 4 digits and F, T or U) ` +
          'or a HCPCS code (a letter A-V and 4 digits)',
      );
    }
    if (line.modifiers.length > MAX_MODIFIERS) {
      edits.error(
        'MODIFIER_TOO_MANY',
        `${at}.modifiers`,
        `Line ${n} has ${line.modifiers.length} modifiers: at most ${MAX_MODIFIERS} a line`,
      );
    }
    for (const modifier of line.modifiers) {
      if (!MODIFIER_SHAPE.test(modifier)) {
        edits.error(
          'MODIFIER_FORMAT',
          `${at}.modifiers`,
          `Line ${n} modifier '${modifier}' must be 2 capital letters or digits`,
        );
      }
    }
    if (!Number.isInteger(line.units) || line.units < 1) {
      edits.error('UNITS_INVALID', `${at}.units`, `Line ${n} units (${line.units}) must be a whole number from 1 up`);
    }
    if (!Number.isSafeInteger(line.chargeCents) || line.chargeCents <= 0) {
      edits.error(
        'LINE_CHARGE_INVALID',
        `${at}.chargeCents`,
        `Line ${n} charge must be more than $0.00, in whole cents`,
      );
    }
    checkPointers(line.diagnosisPointers, n, `${at}.diagnosisPointers`, diagnoses.length, edits);
  });
  const sum = lines.reduce((total, line) => total + line.chargeCents, 0);
  if (sum !== input.claim.totalChargeCents) {
    edits.error(
      'TOTAL_CHARGE_MISMATCH',
      'totalChargeCents',
      `Total charge ${formatDollars(input.claim.totalChargeCents)} must equal the sum of the line charges, ${formatDollars(sum)}`,
    );
  }
}

/** X12 837P SV107: 1 to 4 pointers, each the position of a diagnosis on the claim, none twice. */
function checkPointers(pointers: readonly number[], n: number, field: string, diagnoses: number, edits: Edits): void {
  if (pointers.length === 0) {
    edits.error('POINTER_MISSING', field, `Line ${n} must point at 1 to ${MAX_POINTERS} diagnoses`);
  } else if (pointers.length > MAX_POINTERS) {
    edits.error(
      'POINTER_TOO_MANY',
      field,
      `Line ${n} points at ${pointers.length} diagnoses: at most ${MAX_POINTERS} a line`,
    );
  }
  const seen = new Set<number>();
  for (const pointer of pointers) {
    if (!Number.isInteger(pointer) || pointer < 1 || pointer > diagnoses) {
      const range = diagnoses === 0 ? 'but the claim has no diagnoses' : `must be from 1 to ${diagnoses}`;
      edits.error('POINTER_OUT_OF_RANGE', field, `Line ${n} diagnosis pointer ${pointer} ${range}`);
    } else if (seen.has(pointer)) {
      edits.error('POINTER_DUPLICATE', field, `Line ${n} points at diagnosis ${pointer} twice`);
    }
    seen.add(pointer);
  }
}

function checkDates(input: ScrubInput, dates: readonly (string | null)[], edits: Edits): void {
  const { dob } = input.patient;
  const dobValid = isCalendarDate(dob);
  if (!dobValid) edits.error('PATIENT_DOB_INVALID', 'patient.dob', `Patient date of birth '${dob}' is not a real date`);
  input.claim.lines.forEach((line, i) => {
    const field = `lines[${i}].serviceDate`;
    const date = dates[i] ?? null;
    if (date === null) {
      edits.error('SERVICE_DATE_INVALID', field, `Line ${i + 1} service date '${line.serviceDate}' is not a real date`);
      return;
    }
    if (dobValid && date < dob) {
      edits.error(
        'SERVICE_DATE_BEFORE_BIRTH',
        field,
        `Line ${i + 1} service date ${formatDate(date)} is before the patient's birth (${formatDate(dob)})`,
      );
    }
    if (date > input.today) {
      edits.error(
        'SERVICE_DATE_IN_FUTURE',
        field,
        `Line ${i + 1} service date ${formatDate(date)} is in the future: bill a service once it is done`,
      );
    }
  });
}

/** X12 837P CLM05-3: a replacement (7) or a void (8) names the payer's claim number it replaces (REF*F8). */
function checkFrequency(input: ScrubInput, edits: Edits): void {
  const { frequencyCode, originalClaimNumber } = input.claim;
  const original = originalClaimNumber?.trim() ?? '';
  if (frequencyCode !== '1' && original === '') {
    const kind = frequencyCode === '7' ? 'A replacement claim' : 'A void';
    edits.error(
      'ORIGINAL_CLAIM_NUMBER_MISSING',
      'originalClaimNumber',
      `${kind} (frequency ${frequencyCode}) needs the payer's claim number of the original claim`,
    );
  } else if (frequencyCode === '1' && original !== '') {
    edits.warning(
      'ORIGINAL_CLAIM_NUMBER_UNEXPECTED',
      'originalClaimNumber',
      `An original claim (frequency 1) has an original claim number '${original}': ` +
        'use frequency 7 to replace that claim, or clear the number',
    );
  }
}

function checkPlaceOfService(input: ScrubInput, edits: Edits): void {
  const pos = input.claim.placeOfService;
  if (!POS_SHAPE.test(pos)) {
    edits.error('PLACE_OF_SERVICE_FORMAT', 'placeOfService', `Place of service '${pos}' must be a 2-digit CMS code`);
  } else if (!PLACES_OF_SERVICE.has(pos)) {
    edits.warning(
      'PLACE_OF_SERVICE_UNKNOWN',
      'placeOfService',
      `Place of service '${pos}' is not one the practice bills from (11 office, 02/10 telehealth): check it`,
    );
  }
}

/** The address parts a claim to a payer cannot go without, named as the patient's billing details name them. */
const PATIENT_ADDRESS_PARTS = [
  ['line1', 'street'],
  ['city', 'city'],
  ['state', 'state'],
  ['zip', 'ZIP code'],
] as const;

/**
 * What the clearinghouse needs to route and accept an electronic claim (X12 837P 005010X222A1): the payer's
 * id (loop 2010BB NM109), the patient's whole address (loops 2010BA/2010CA N3/N4) and the billing provider's
 * 9-digit ZIP+4 (loop 2010AA N403). Without them the claim could be Ready yet refused when its batch is made;
 * the payer id and ZIP+4 are settings an administrator fixes once, the address is entered per patient.
 */
function checkSubmissionIdentifiers(input: ScrubInput, edits: Edits): void {
  if ((input.payer.payerId ?? '').trim() === '') {
    edits.error(
      'PAYER_ID_MISSING',
      'payer.payerId',
      `${input.payer.name} has no electronic payer id, which routes the claim to it: add it in Settings → Payers`,
    );
  }
  // X12 837P: the subscriber's (2010BA) or patient's (2010CA) N3 and N4 are required; an 837P without them
  // is refused by the clearinghouse, so the claim is held here rather than made Ready.
  const { address } = input.patient;
  const missing = PATIENT_ADDRESS_PARTS.filter(([part]) => (address[part] ?? '').trim() === '').map(([, name]) => name);
  if (missing.length > 0) {
    const parts = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
    edits.error(
      'PATIENT_ADDRESS_INCOMPLETE',
      'patient.address',
      `The patient's address is missing its ${parts}: a claim to ${input.payer.name} needs the whole address ` +
        "(Patients → the patient's Billing details)",
    );
  }
  const zip = input.billingProvider.zip ?? '';
  if (!ZIP_PLUS_FOUR_SHAPE.test(zip)) {
    edits.error(
      'BILLING_ZIP_PLUS_FOUR',
      'billingProvider.zip',
      zip.trim() === ''
        ? "Billing provider's ZIP code is missing: the claim needs the 9-digit ZIP+4 (Settings → Practice)"
        : `Billing provider's ZIP code '${zip}' must be the 9-digit ZIP+4 (Settings → Practice)`,
    );
  }
}

function checkCoverage(input: ScrubInput, dates: readonly (string | null)[], edits: Edits): void {
  const { coverage, payer } = input;
  if (coverage === null) {
    edits.error('COVERAGE_MISSING', 'coverage', `The claim to ${payer.name} needs the patient's coverage`);
    return;
  }
  const memberId = coverage.memberId.trim();
  if (memberId === '') {
    edits.error('MEMBER_ID_MISSING', 'coverage.memberId', `The ${payer.name} member id is missing`);
  } else if (payer.medicare && !isValidMbi(memberId)) {
    // CMS has taken only the MBI since 2020; the old SSN-based HICN is rejected.
    edits.error(
      'MEMBER_ID_NOT_MBI',
      'coverage.memberId',
      `Medicare member id '${memberId}' must be an MBI: 11 capital letters and digits without dashes (1EG4TE5MK73)`,
    );
  }
  if (payer.medicare && coverage.priority !== 1 && coverage.medicareSecondaryType === null) {
    // The 837P's SBR05 (insurance type code): Medicare refuses a claim as secondary payer without it.
    edits.error(
      'MEDICARE_SECONDARY_TYPE_MISSING',
      'coverage.medicareSecondaryType',
      "Medicare is billed as a payer that is not primary: the patient's Medicare coverage must say why Medicare " +
        'pays second (the plan or insurance that pays first), or Medicare refuses the claim',
    );
  }
  checkEligibility(input, edits);
  dates.forEach((date, i) => {
    if (date === null) return;
    const field = `lines[${i}].serviceDate`;
    if (date < coverage.effectiveOn) {
      edits.error(
        'COVERAGE_NOT_STARTED',
        field,
        `Line ${i + 1} service date ${formatDate(date)} is before the coverage starts (${formatDate(coverage.effectiveOn)})`,
      );
    } else if (coverage.endOn !== null && date > coverage.endOn) {
      edits.error(
        'COVERAGE_ENDED',
        field,
        `Line ${i + 1} service date ${formatDate(date)} is after the coverage ended (${formatDate(coverage.endOn)}): ` +
          'the payer would deny it (CARC CO-27)',
      );
    }
  });
}

/**
 * The payer said, answering a 270 for the claim's service date, that the policy was not in force or that it does not
 * know the patient under it: the claim would be denied (CARC CO-27, or CO-31 patient not identified as insured).
 * Never checked, or a rejection that says nothing of the policy (the payer's system down), is no edit.
 */
function checkEligibility(input: ScrubInput, edits: Edits): void {
  const e = input.eligibility;
  if (!e) return;
  // The day the payer answered, in the practice's time zone (an evening answer is still that evening's day).
  const when = e.checkedAt ? ` on ${formatDate(dayInZone(new Date(e.checkedAt)))}` : '';
  if (e.state === 'inactive') {
    edits.error(
      'ELIGIBILITY_INACTIVE',
      'coverage',
      `The payer answered the eligibility check${when} that the policy was not active on the day of service` +
        `${e.detail ? ` (${e.detail})` : ''}: the payer would deny the claim (CARC CO-27); check the patient's insurance`,
    );
  } else if (e.state === 'rejected' && e.notFound) {
    edits.error(
      'ELIGIBILITY_INACTIVE',
      'coverage',
      `The payer could not find the patient under this policy when eligibility was checked${when}` +
        `${e.detail ? ` (${e.detail})` : ''}: correct the member id, name or birth date and check again`,
    );
  }
}

/** Days from the earliest service to today against the payer's limit (past it the payer denies: CARC CO-29). */
function checkTimelyFiling(input: ScrubInput, dates: readonly (string | null)[], edits: Edits): void {
  const limit = input.payer.timelyFilingDays;
  const today = dayNumber(input.today);
  // A replacement or void corrects a claim the payer already has, filed in time or refused then: the limit on first
  // filing does not apply to it (payers set their own window for corrections).
  if (limit <= 0 || today === null || input.claim.frequencyCode !== '1') return;
  let index = -1;
  for (let i = 0; i < dates.length; i++) {
    const candidate = dates[i] ?? null;
    if (candidate !== null && (index === -1 || candidate < (dates[index] ?? ''))) index = i;
  }
  const date = dates[index] ?? null;
  if (date === null) return;
  const age = today - (dayNumber(date) ?? today);
  const field = `lines[${index}].serviceDate`;
  const service = `the service on ${formatDate(date)}`;
  if (age > limit) {
    edits.error(
      'TIMELY_FILING_EXPIRED',
      field,
      `${countOf(age, 'day')} after ${service}, the claim is past ${input.payer.name}'s ${limit}-day ` +
        'timely filing limit (CARC CO-29)',
    );
  } else if (age * TIMELY_FILING_WARNING_SHARE.denominator >= limit * TIMELY_FILING_WARNING_SHARE.numerator) {
    const left = age === limit ? 'Today is the last day' : `Only ${countOf(limit - age, 'day')} left`;
    edits.warning(
      'TIMELY_FILING_NEAR',
      field,
      `${left} of ${input.payer.name}'s ${limit}-day timely filing limit for ${service}: send it first`,
    );
  }
}

/** A service that needs prior authorization, without an approval covering its day, is denied CARC CO-197. */
function checkAuthorizations(input: ScrubInput, dates: readonly (string | null)[], edits: Edits): void {
  input.claim.lines.forEach((line, i) => {
    const service = AUTHORIZATION_SERVICE.get(line.procedureCode);
    const date = dates[i] ?? null;
    if (service === undefined || date === null) return;
    const covered = input.authorizations.some(
      (auth) =>
        auth.procedureCode === line.procedureCode &&
        auth.status === 'Approved' &&
        (auth.validFrom === null || auth.validFrom <= date) &&
        (auth.validTo === null || date <= auth.validTo),
    );
    if (!covered) {
      edits.error(
        'AUTHORIZATION_MISSING',
        `lines[${i}].procedureCode`,
        `Line ${i + 1} ${service} (${line.procedureCode}) on ${formatDate(date)} needs an approved prior ` +
          'authorization covering that day: without one the payer denies it (CARC CO-197)',
      );
    }
  });
}

/**
 * The same service (date, procedure code and modifiers as a set) on another live claim of the patient: a real
 * duplicate is denied (CARC OA-18); a repeat service the same day needs modifier 76/77 or 59 to say so.
 */
function checkDuplicates(input: ScrubInput, dates: readonly (string | null)[], edits: Edits): void {
  const billed = new Map<string, number[]>();
  for (const other of input.otherClaims) {
    if (other.id === input.claim.id) continue;
    for (const line of other.lines) {
      const key = serviceKey(line.serviceDate, line.procedureCode, line.modifiers);
      const ids = billed.get(key);
      if (ids === undefined) billed.set(key, [other.id]);
      else if (!ids.includes(other.id)) ids.push(other.id);
    }
  }
  if (billed.size === 0) return;
  input.claim.lines.forEach((line, i) => {
    const date = dates[i] ?? null;
    if (date === null) return;
    const ids = billed.get(serviceKey(date, line.procedureCode, line.modifiers));
    if (ids === undefined) return;
    edits.warning(
      'DUPLICATE_SERVICE',
      `lines[${i}].procedureCode`,
      `Line ${i + 1} ${line.procedureCode} on ${formatDate(date)} is also billed on claim ${ids.join(', ')}: ` +
        'a duplicate is denied (CARC OA-18); mark a repeat service with modifier 76, 77 or 59',
    );
  });
}

function serviceKey(date: string, procedureCode: string, modifiers: readonly string[]): string {
  const set = [...new Set(modifiers)].sort().join(',');
  return `${date}|${procedureCode}|${set}`;
}

/** ICD-10-CM codes are the same with or without the dot after the category (E11.9 and E119). */
function withoutDot(code: string): string {
  return code.replace('.', '');
}

function isCalendarDate(value: string): boolean {
  return dayNumber(value) !== null;
}

/** Days since 1970-01-01 of a YYYY-MM-DD calendar date; null for anything else (2026-02-30, '03/02/2026'). */
function dayNumber(value: string): number | null {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const time = Date.UTC(year, month - 1, day);
  const check = new Date(time);
  if (year < 1 || check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return null;
  }
  return time / 86_400_000;
}
