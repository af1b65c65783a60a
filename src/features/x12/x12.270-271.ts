/**
 * Eligibility in ASC X12 005010X279A1: the writer of the 270 (eligibility, coverage or benefit inquiry) and the
 * reader of the 271 (eligibility, coverage or benefit information) that answers it, as pure functions of plain
 * data: no database, no I/O (docs/x12-eligibility.md). The envelope and syntax are the x12 layer's (`envelope`,
 * `parseX12`); this module knows the 270/271's own loops: 2000A/2100A information source (the payer), 2000B/2100B
 * information receiver (the provider), 2000C/2100C subscriber with 2110C eligibility or benefit inquiry and
 * information, 2000D/2100D dependent with 2110D. Amounts are integer cents, dates ISO days.
 */
import {
  components,
  elementOf,
  parseX12,
  repetitions,
  transactionSetsOf,
  type X12Delimiters,
  type X12Segment,
} from './x12.parse';
import { envelope, x12Text, type X12SegmentInput } from './x12.serialize';
import { formatX12Date, NOT_A_CALENDAR_DATE, parseX12Amount, parseX12Date, personNm1 } from './x12.values';

/** ASC X12 005010X279A1: GS08 and ST03 of both the 270 and the 271. */
export const IMPLEMENTATION_270_271 = '005010X279A1';

/** GS01 of a group of 270s (HS) and of 271s (HB). */
export const FUNCTIONAL_ID_270 = 'HS';
export const FUNCTIONAL_ID_271 = 'HB';

/**
 * 005010X279A1 section 1.3.2 (batch use): a batch 270 should hold at most 99 patient requests, a patient being one
 * subscriber loop (2000C) when the subscriber is the patient or one dependent loop (2000D) when a dependent is. One
 * inquiry here is one patient, so a larger batch is written as several transaction sets of at most this many.
 */
export const MAX_INQUIRIES_PER_TRANSACTION_SET = 99;

/** Loop 2110C/2110D (the EQ loop) repeats at most 99 times per patient in 005010X279A1. */
export const MAX_SERVICE_TYPES_PER_INQUIRY = 99;

/** EQ01 when the caller names none: 30, health benefit plan coverage, the one every information source must answer. */
export const DEFAULT_SERVICE_TYPE_CODE = '30';

/**
 * The largest EB07 read: $1,000,000,000.00. A benefit amount is a copay, a deductible or a maximum, and payers write
 * "no maximum" as 999999999.99 at most; anything larger is a corrupt file, refused rather than shown to the front
 * desk. Kept in cents it is still a safe integer.
 */
export const MAX_BENEFIT_AMOUNT_CENTS = 100_000_000_000;

export type EligibilityErrorCode =
  /** Writing: a value the 270 cannot carry (missing member id, bad date, service type code…). */
  | 'BAD_INPUT'
  /** The file holds no 271 transaction set (the message names what it holds). */
  | 'NOT_271'
  /** GS08 or ST03 is not 005010X279A1. */
  | 'UNSUPPORTED_VERSION'
  /** A segment or loop the 271 needs is missing, or one stands where the guide does not allow it. */
  | 'STRUCTURE'
  /** EB07 is not an amount, has a fraction of a cent, is negative or larger than MAX_BENEFIT_AMOUNT_CENTS. */
  | 'BAD_AMOUNT'
  /** A date that is not CCYYMMDD (or CCYYMMDD-CCYYMMDD) of the calendar between 1900 and 2999. */
  | 'BAD_DATE'
  /** A code or number outside what its element allows (EB08 percent, EB10 quantity, EB11, EB12, AAA01, HL03…). */
  | 'BAD_VALUE';

export class EligibilityError extends Error {
  override readonly name = 'EligibilityError';
  constructor(
    readonly code: EligibilityErrorCode,
    /** The segment at fault (1-based in the file, ISA being 1); 0 when writing or when there is none. */
    readonly position: number,
    message: string,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Code lists (005010X279A1). The meanings are written for the people who read them, not copied from the guide.
// ---------------------------------------------------------------------------------------------------------------

/** AAA03, reject reason codes used in the 271 (every level), in plain words. */
export const AAA_REASONS: Readonly<Record<string, string>> = {
  '04': 'Too many patients were asked about in one request; send fewer per request',
  '15': 'Information the payer needs is missing from the request',
  '33': 'The request has input errors',
  '35': 'The patient or service is out of the plan network',
  '41': 'The sender is not authorised to ask this payer about eligibility',
  '42': 'The payer cannot answer at the moment (its system is down or busy); try again later',
  '43': 'The provider identifier (NPI) is missing or not valid',
  '44': 'The provider name is missing or not valid',
  '45': 'The provider specialty is missing or not valid',
  '46': 'The provider phone number is missing or not valid',
  '47': 'The provider state is missing or not valid',
  '48': 'The referring provider identifier is missing or not valid',
  '49': 'The provider is not the patient’s primary care physician',
  '50': 'The provider is not allowed to make eligibility inquiries',
  '51': 'The payer has no record of this provider',
  '52': 'The dates of service are outside the provider’s enrollment with the plan',
  '53': 'The benefit asked about does not fit this type of provider',
  '54': 'The procedure code qualifier is not appropriate',
  '55': 'The procedure or service code is not appropriate',
  '56': 'The date is not appropriate',
  '57': 'The date of service is missing or not valid',
  '58': 'The date of birth is missing or not valid',
  '60': 'The date of birth is after the date of service',
  '61': 'The date of death is before the date of service',
  '62': 'The date of service is outside the period the payer answers for',
  '63': 'The date of service is in the future',
  '64': 'The patient’s identifier is missing or not valid',
  '65': 'The patient’s name is missing or not valid',
  '66': 'The patient’s sex is missing or not valid',
  '67': 'The payer cannot find the patient',
  '68': 'The patient’s identifier is on file more than once',
  '69': 'The service does not fit the patient’s age',
  '70': 'The service does not fit the patient’s sex',
  '71': 'The date of birth does not match the payer’s record of the patient',
  '72': 'The member id is missing or not valid',
  '73': 'The subscriber’s name is missing or not valid',
  '74': 'The subscriber’s sex is missing or not valid',
  '75': 'The payer cannot find the subscriber',
  '76': 'The member id is on file more than once',
  '77': 'The subscriber was found but the patient was not',
  '78': 'The subscriber is not in the group or plan named',
  '79': 'A party to the request (sender, receiver or payer) is not identified correctly',
  '80': 'No answer came from the payer; the inquiry was given up',
  '97': 'The provider address is missing or not valid',
  '98': 'The service is experimental',
  AA: 'The authorisation number was not found',
  AE: 'The primary care physician must authorise the service',
  AF: 'A diagnosis code is missing or not valid',
  AG: 'A procedure code is missing or not valid',
  AO: 'More information about the patient’s condition is needed',
  CI: 'The certification information does not match the patient',
  E8: 'The service needs medical review',
  IA: 'The authorisation number is not in a valid format',
  MA: 'An authorisation is missing',
  T4: 'The payer’s name or identifier is missing',
};

/** AAA04, follow-up action codes, in plain words. */
export const AAA_FOLLOW_UPS: Readonly<Record<string, string>> = {
  C: 'Correct the request and send it again',
  N: 'Do not send this request again',
  P: 'Send the original request again',
  R: 'The request may be sent again',
  S: 'Do not send again: the payer has asked a third party',
  W: 'Wait 30 days, then send again',
  X: 'Wait 10 days, then send again',
  Y: 'Do not send again: the payer will handle the request by hand',
};

/** EB01, the eligibility or benefit information code. */
export const EB_INFORMATION_CODES: Readonly<Record<string, string>> = {
  '1': 'Active coverage',
  '2': 'Active: full risk capitation',
  '3': 'Active: services capitated',
  '4': 'Active: services capitated to primary care physician',
  '5': 'Active: pending investigation',
  '6': 'Inactive',
  '7': 'Inactive: pending eligibility update',
  '8': 'Inactive: pending investigation',
  A: 'Co-insurance',
  B: 'Co-payment',
  C: 'Deductible',
  CB: 'Coverage basis',
  D: 'Benefit description',
  E: 'Exclusions',
  F: 'Limitations',
  G: 'Out of pocket (stop loss)',
  H: 'Unlimited',
  I: 'Non-covered',
  J: 'Cost containment',
  K: 'Reserve',
  L: 'Primary care provider',
  M: 'Pre-existing condition',
  MC: 'Managed care coordinator',
  N: 'Services restricted to the following provider',
  O: 'Not deemed a medical necessity',
  P: 'Benefit disclaimer',
  Q: 'Second surgical opinion required',
  R: 'Other or additional payer',
  S: 'Prior year(s) history',
  T: 'Card(s) reported lost or stolen',
  U: 'Contact the following entity for eligibility or benefit information',
  V: 'Cannot process',
  W: 'Other source of data',
  X: 'Health care facility',
  Y: 'Spend down',
};

/** EB01 codes that say the coverage is in force (1, and its capitated or pending variants 2–5). */
export const ACTIVE_CODES: ReadonlySet<string> = new Set(['1', '2', '3', '4', '5']);
/** EB01 codes that say it is not (6, and 7–8 pending an update or an investigation). */
export const INACTIVE_CODES: ReadonlySet<string> = new Set(['6', '7', '8']);

/** EB02, the coverage level code. */
export const COVERAGE_LEVELS: Readonly<Record<string, string>> = {
  CHD: 'Children only',
  DEP: 'Dependents only',
  ECH: 'Employee and children',
  EMP: 'Employee only',
  ESP: 'Employee and spouse',
  FAM: 'Family',
  IND: 'Individual',
  SPC: 'Spouse and children',
  SPO: 'Spouse only',
};

/** EB06, the time period qualifier. */
export const TIME_PERIODS: Readonly<Record<string, string>> = {
  '6': 'Hour',
  '7': 'Day',
  '13': '24 hours',
  '21': 'Years',
  '22': 'Service year',
  '23': 'Calendar year',
  '24': 'Year to date',
  '25': 'Contract',
  '26': 'Episode',
  '27': 'Visit',
  '28': 'Outlier',
  '29': 'Remaining',
  '30': 'Exceeded',
  '31': 'Not exceeded',
  '32': 'Lifetime',
  '33': 'Lifetime remaining',
  '34': 'Month',
  '35': 'Week',
  '36': 'Admission',
};

/** EB09, the quantity qualifier. */
export const QUANTITY_QUALIFIERS: Readonly<Record<string, string>> = {
  '8H': 'Minimum',
  '99': 'Quantity used',
  CA: 'Covered: actual',
  CE: 'Covered: estimated',
  D3: 'Number of co-insurance days',
  DB: 'Deductible blood units',
  DY: 'Days',
  HS: 'Hours',
  LA: 'Lifetime reserve: actual',
  LE: 'Lifetime reserve: estimated',
  M2: 'Maximum',
  MN: 'Month',
  P6: 'Number of services or procedures',
  QA: 'Quantity approved',
  S7: 'Age, high value',
  S8: 'Age, low value',
  VS: 'Visits',
  YY: 'Years',
};

/** DTP01 of loops 2100C/D and 2110C/D in the 271: the dates a front desk reads. */
export const DATE_QUALIFIERS: Readonly<Record<string, string>> = {
  '096': 'Discharge',
  '193': 'Period start',
  '194': 'Period end',
  '198': 'Completion',
  '290': 'Coordination of benefits',
  '291': 'Plan',
  '292': 'Benefit',
  '295': 'Primary care provider',
  '304': 'Latest visit or consultation',
  '307': 'Eligibility',
  '318': 'Added',
  '340': 'COBRA begin',
  '341': 'COBRA end',
  '342': 'Premium paid to date begin',
  '343': 'Premium paid to date end',
  '346': 'Plan begin',
  '347': 'Plan end',
  '348': 'Benefit begin',
  '349': 'Benefit end',
  '356': 'Eligibility begin',
  '357': 'Eligibility end',
  '382': 'Enrollment',
  '435': 'Admission',
  '442': 'Date of death',
  '458': 'Certification',
  '472': 'Service',
  '539': 'Policy effective',
  '540': 'Policy expiration',
  '636': 'Date of last update',
  '771': 'Status',
};

/**
 * EQ01/EB03, service type codes: the ones a clinic's front desk meets most. The list has some two hundred codes;
 * one not here is kept and shown as its code (`serviceTypeLabel` gives null).
 */
export const SERVICE_TYPES: Readonly<Record<string, string>> = {
  '1': 'Medical care',
  '2': 'Surgical',
  '3': 'Consultation',
  '4': 'Diagnostic X-ray',
  '5': 'Diagnostic lab',
  '7': 'Anesthesia',
  '12': 'Durable medical equipment purchase',
  '18': 'Durable medical equipment rental',
  '30': 'Health benefit plan coverage',
  '33': 'Chiropractic',
  '35': 'Dental care',
  '42': 'Home health care',
  '45': 'Hospice',
  '47': 'Hospital',
  '48': 'Hospital: inpatient',
  '50': 'Hospital: outpatient',
  '51': 'Hospital: emergency accident',
  '52': 'Hospital: emergency medical',
  '62': 'MRI/CAT scan',
  '73': 'Diagnostic medical',
  '76': 'Dialysis',
  '78': 'Chemotherapy',
  '80': 'Immunizations',
  '81': 'Routine physical',
  '86': 'Emergency services',
  '88': 'Pharmacy',
  '93': 'Podiatry',
  '96': 'Professional (physician)',
  '98': 'Professional (physician) visit: office',
  A4: 'Psychiatric',
  A6: 'Psychotherapy',
  AD: 'Occupational therapy',
  AE: 'Physical medicine',
  AF: 'Speech therapy',
  AL: 'Vision (optometry)',
  BY: 'Physician visit: office, sick',
  BZ: 'Physician visit: office, well',
  DM: 'Durable medical equipment',
  MH: 'Mental health',
  PT: 'Physical therapy',
  UC: 'Urgent care',
};

/** The name of a service type code, or null when it is not in SERVICE_TYPES. */
export function serviceTypeLabel(code: string): string | null {
  return SERVICE_TYPES[code] ?? null;
}

/** The plain-words meaning of an AAA03 reject reason code, naming the code when it is not in the list. */
export function rejectionReason(code: string): string {
  return AAA_REASONS[code] ?? `Reason code ${code} (not in the 005010X279A1 list)`;
}

// ---------------------------------------------------------------------------------------------------------------
// Shared checks
// ---------------------------------------------------------------------------------------------------------------

/**
 * An X12 date (data type DT, CCYYMMDD) as an ISO day, checked to be a day of the calendar between 1900 and 2999:
 * 20261332 or 20260230 is the payer's error, named by its element, not a date to show.
 */
function dateOf(value: string, where: string, position: number): string {
  const date = parseX12Date(value);
  // One message for both problems: a 271's dates are always CCYYMMDD, so either is "not a calendar date".
  if (!date.ok) {
    throw new EligibilityError(
      'BAD_DATE',
      position,
      `${where}: "${value}" ${NOT_A_CALENDAR_DATE} (segment ${position})`,
    );
  }
  return date.value;
}

// ---------------------------------------------------------------------------------------------------------------
// Writer: the 270
// ---------------------------------------------------------------------------------------------------------------

/** DMG03, administrative gender: female, male, unknown. */
export type X12Sex = 'F' | 'M' | 'U';

export interface PersonName270 {
  /** NM103, 1–60 characters. */
  lastName: string;
  /** NM104, 1–35 characters. */
  firstName: string;
  /** NM105, up to 25 characters. */
  middleName?: string;
  /** NM107, up to 10 characters (Jr, III). */
  suffix?: string;
}

/** The interchange and group, as the 837P's Envelope837: what the clearinghouse knows the practice by. */
export interface Envelope270 {
  /** ISA13, 1–999999999. */
  interchangeControlNumber: number;
  /** GS06. */
  groupControlNumber: number;
  /** ST02 of each transaction set in order, 4–9 characters (one set per MAX_INQUIRIES_PER_TRANSACTION_SET). */
  setControlNumbers: readonly string[];
  /** CCYYMMDD: GS04, BHT04, and ISA09 as YYMMDD. */
  date: string;
  /** HHMM: ISA10, GS05, BHT05. */
  time: string;
  /** ISA15: T test, P production. */
  usage: 'T' | 'P';
  /** BHT03, 1–50 characters: the submitter's reference of the request, echoed in the 271's BHT03. */
  reference: string;
  sender: {
    /** ISA06, GS02: the submitter id the clearinghouse assigned (or the EIN). */
    id: string;
    /** ISA05: 'ZZ' mutually defined, '30' federal tax id. */
    qualifier: string;
  };
  receiver: {
    /** ISA08, GS03. */
    id: string;
    /** ISA07. */
    qualifier: string;
  };
}

/** Loop 2100A: the payer asked (NM1*PR*2 … *PI). */
export interface InformationSource270 {
  /** NM103. */
  name: string;
  /** NM109 with qualifier PI, the payer id, 2–80 characters. */
  payerId: string;
}

/** Loop 2100B: the provider asking (NM1*1P … *XX), an organization or a person. */
export type InformationReceiver270 =
  { kind: 'organization'; name: string; npi: string } | { kind: 'person'; name: PersonName270; npi: string };

/** 2100D INS02 of the 270: the patient's relationship to the subscriber. */
export const DEPENDENT_RELATIONSHIP_CODES = { spouse: '01', child: '19', other: '34' } as const;
export type DependentRelationship270 = keyof typeof DEPENDENT_RELATIONSHIP_CODES;

/** Loop 2100C: the subscriber, the holder of the policy. */
export interface Subscriber270 {
  name: PersonName270;
  /** NM109 with qualifier MI, 2–80 characters. */
  memberId: string;
  /** YYYY-MM-DD (DMG02). Required when the subscriber is the patient; optional when a dependent is. */
  dob: string | null;
  /** DMG03; null leaves it out. */
  sex: X12Sex | null;
  /** REF*6P, the group number, when the card shows one. */
  groupNumber?: string | null;
}

/**
 * Loop 2100D: the patient when not the subscriber. In 005010X279A1 the dependent loop is for a patient the payer
 * finds through the subscriber's member id (NM1*03 carries no id of its own); a patient with a member id of their
 * own is a subscriber and is asked about as one.
 */
export interface Dependent270 {
  name: PersonName270;
  /** YYYY-MM-DD (DMG02): with the name, what identifies the dependent. */
  dob: string;
  sex: X12Sex | null;
  /** INS02; 005010X279A1 makes the dependent's INS optional, so null leaves it out. */
  relationship?: DependentRelationship270 | null;
}

/** DTP*291: one day (D8) or a range (RD8), YYYY-MM-DD. */
export type ServiceDate270 = string | { from: string; to: string };

export interface Inquiry270 {
  /** TRN02, 1–50 characters, unique in the batch: the 271 echoes it (TRN*2) so the answer finds its question. */
  traceNumber: string;
  subscriber: Subscriber270;
  /** The patient when not the subscriber (loop 2000D); null or absent when the subscriber is the patient. */
  dependent?: Dependent270 | null;
  /** DTP*291; null or absent asks about today, as the guide says the payer assumes. */
  serviceDate?: ServiceDate270 | null;
  /** EQ01 of each 2110 loop, 1–2 letters or digits; default [DEFAULT_SERVICE_TYPE_CODE]. */
  serviceTypeCodes?: readonly string[];
}

export interface Batch270 {
  envelope: Envelope270;
  /**
   * TRN03 of every inquiry, the originating company identifier: exactly 10 characters, by convention '1' and the
   * EIN or '9' and an id the submitter chose. The 271 echoes it with the trace number.
   */
  originatorId: string;
  source: InformationSource270;
  receiver: InformationReceiver270;
  /** In file order; one payer and one provider for all of them. */
  inquiries: readonly Inquiry270[];
}

export interface Build270Options {
  /** At most this many inquiries per transaction set, 1–99 (default 99; 1 for a real-time request). */
  inquiriesPerSet?: number;
}

function inputError(where: string, message: string): EligibilityError {
  return new EligibilityError('BAD_INPUT', 0, `${where}: ${message}`);
}

/** Characters no identifier may hold: the writer's delimiters (* ^ : ~) and control characters. */
function unsafeCharacter(value: string): string | null {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 32 || (code >= 127 && code < 160)) return 'a control character';
    if (char === '*' || char === '^' || char === ':' || char === '~') return `'${char}', an X12 delimiter`;
  }
  return null;
}

/** An identifier is checked, never cleaned: a changed member id would ask about someone else. */
function identifier(where: string, element: string, value: string, min: number, max: number): string {
  if (value.trim() === '') throw inputError(where, `${element} is blank`);
  if (value.length < min || value.length > max) {
    throw inputError(where, `${element} "${value}" must be ${min}–${max} characters`);
  }
  const unsafe = unsafeCharacter(value);
  if (unsafe) throw inputError(where, `${element} "${value}" holds ${unsafe}`);
  return value;
}

/** Free text (a name) through x12Text, then checked for length. */
function freeText(where: string, element: string, value: string, max: number, required: boolean): string {
  const clean = x12Text(value);
  if (required && clean === '') throw inputError(where, `${element} is blank`);
  if (clean.length > max) throw inputError(where, `${element} "${clean}" is longer than ${max} characters`);
  return clean;
}

/** YYYY-MM-DD as CCYYMMDD, checked to be a day of the calendar between 1900 and 2999. */
function inputDay(where: string, element: string, value: string): string {
  const day = formatX12Date(value);
  if (!day.ok) throw inputError(where, `${element} "${value}" ${day.problem}`);
  return day.value;
}

/** The NPI check digit: Luhn over the 10 digits prefixed by 80840, as CMS defines it. */
function isNpi(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const digits = `80840${value}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits.charAt(digits.length - 1 - i));
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function personName(where: string, role: string, name: PersonName270) {
  return {
    lastName: freeText(where, `NM103 (${role} last name)`, name.lastName, 60, true),
    firstName: freeText(where, `NM104 (${role} first name)`, name.firstName, 35, true),
    middleName: freeText(where, `NM105 (${role} middle name)`, name.middleName ?? '', 25, false),
    suffix: freeText(where, `NM107 (${role} suffix)`, name.suffix ?? '', 10, false),
  };
}

function dmg(where: string, role: string, dob: string | null, sex: X12Sex | null): X12SegmentInput | null {
  if (sex !== null && sex !== 'F' && sex !== 'M' && sex !== 'U') {
    throw inputError(where, `DMG03 (${role} sex) "${String(sex)}" must be F, M or U`);
  }
  if (dob === null && sex === null) return null;
  const day = dob === null ? '' : inputDay(where, `DMG02 (${role} date of birth)`, dob);
  return { id: 'DMG', elements: [day === '' ? '' : 'D8', day, sex ?? ''] };
}

/** Checks what `envelope` does not: a real day and time, and BHT03. Returns the file's date, CCYYMMDD. */
function checkedEnvelope(env: Envelope270): string {
  const where = 'Envelope';
  if (!parseX12Date(env.date).ok) {
    throw inputError(where, `date "${env.date}" (GS04, BHT04) is not a calendar date CCYYMMDD`);
  }
  const time = /^(\d{2})(\d{2})$/.exec(env.time);
  if (!time || Number(time[1]) > 23 || Number(time[2]) > 59) {
    throw inputError(where, `time "${env.time}" (GS05, BHT05) is not a time HHMM`);
  }
  identifier(where, 'BHT03 (reference)', env.reference, 1, 50);
  return env.date;
}

/** DTP*291 of an inquiry, checked: a range must not end before it starts. */
function serviceDateSegment(where: string, date: ServiceDate270): { segment: X12SegmentInput; first: string } {
  if (typeof date === 'string') {
    const day = inputDay(where, 'DTP03 (service date)', date);
    return { segment: { id: 'DTP', elements: ['291', 'D8', day] }, first: day };
  }
  const from = inputDay(where, 'DTP03 (service date from)', date.from);
  const to = inputDay(where, 'DTP03 (service date to)', date.to);
  if (to < from) throw inputError(where, `DTP03 service dates ${date.from} to ${date.to} end before they start`);
  return { segment: { id: 'DTP', elements: ['291', 'RD8', `${from}-${to}`] }, first: from };
}

function serviceTypes(where: string, codes: readonly string[] | undefined): string[] {
  const list = codes ?? [DEFAULT_SERVICE_TYPE_CODE];
  if (list.length === 0) throw inputError(where, 'EQ01: no service type code (leave it out to ask about 30)');
  if (list.length > MAX_SERVICE_TYPES_PER_INQUIRY) {
    throw inputError(
      where,
      `EQ01: ${list.length} service type codes, more than the ${MAX_SERVICE_TYPES_PER_INQUIRY} EQ loops allowed`,
    );
  }
  const seen = new Set<string>();
  for (const code of list) {
    if (!/^[A-Z0-9]{1,2}$/.test(code)) {
      throw inputError(where, `EQ01 "${code}" is not a service type code (1–2 uppercase letters or digits)`);
    }
    if (seen.has(code)) throw inputError(where, `EQ01 "${code}" is listed twice`);
    seen.add(code);
  }
  return [...list];
}

/** Segments of one inquiry from its subscriber loop on (2000C…2110C, or 2000C/2100C then 2000D…2110D). */
function inquirySegments(
  inquiry: Inquiry270,
  index: number,
  hl: number,
  originatorId: string,
  fileDate: string,
): { segments: X12SegmentInput[]; nextHl: number } {
  const trace = identifier(`Inquiry ${index + 1}`, 'TRN02 (trace number)', inquiry.traceNumber, 1, 50);
  const where = `Inquiry ${index + 1} (trace "${trace}")`;
  const { subscriber } = inquiry;
  const dependent = inquiry.dependent ?? null;
  const subscriberName = personName(where, 'subscriber', subscriber.name);
  const memberId = identifier(where, 'NM109 (subscriber member id)', subscriber.memberId, 2, 80);
  const group =
    subscriber.groupNumber == null || subscriber.groupNumber === ''
      ? null
      : identifier(where, 'REF02 (group number)', subscriber.groupNumber, 1, 50);
  const date = inquiry.serviceDate == null ? null : serviceDateSegment(where, inquiry.serviceDate);
  const eqs = serviceTypes(where, inquiry.serviceTypeCodes).map((code) => ({ id: 'EQ', elements: [code] }));
  // The patient's date of birth cannot follow the date asked about, nor the file: the payer would answer AAA*60.
  const latest = date?.first ?? fileDate;
  const checkBirth = (role: string, dob: string | null) => {
    if (dob === null) return;
    const day = inputDay(where, `DMG02 (${role} date of birth)`, dob);
    if (day > latest) throw inputError(where, `DMG02 ${role} date of birth ${dob} is after the date asked about`);
  };
  if (!dependent && subscriber.dob === null) {
    throw inputError(where, 'DMG02 (subscriber date of birth) is missing; the subscriber is the patient');
  }
  checkBirth('subscriber', subscriber.dob);
  const trn: X12SegmentInput = { id: 'TRN', elements: ['1', trace, originatorId] };

  const segments: X12SegmentInput[] = [];
  // Loop 2000C: the subscriber, with a child HL when the patient is a dependent. The trace number goes on the
  // patient's own loop (2000C or 2000D), where the 271 echoes it.
  segments.push({ id: 'HL', elements: [String(hl), '2', '22', dependent ? '1' : '0'] });
  if (!dependent) segments.push(trn);
  // Loop 2100C in the guide's order: NM1, REF, DMG, DTP; then the 2110C EQ loops.
  segments.push(personNm1('IL', subscriberName, 'MI', memberId));
  if (group) segments.push({ id: 'REF', elements: ['6P', group] });
  const subscriberDmg = dmg(where, 'subscriber', subscriber.dob, subscriber.sex);
  if (subscriberDmg) segments.push(subscriberDmg);
  if (!dependent) {
    if (date) segments.push(date.segment);
    segments.push(...eqs);
    return { segments, nextHl: hl + 1 };
  }
  // Loops 2000D/2100D/2110D: the dependent, identified by name and date of birth under the subscriber's member id.
  const dependentName = personName(where, 'dependent', dependent.name);
  if (typeof dependent.dob !== 'string') throw inputError(where, 'DMG02 (dependent date of birth) is missing');
  checkBirth('dependent', dependent.dob);
  segments.push({ id: 'HL', elements: [String(hl + 1), String(hl), '23', '0'] });
  segments.push(trn);
  segments.push(personNm1('03', dependentName));
  const dependentDmg = dmg(where, 'dependent', dependent.dob, dependent.sex);
  if (dependentDmg) segments.push(dependentDmg);
  const relationship = dependent.relationship ?? null;
  if (relationship !== null) {
    const code = DEPENDENT_RELATIONSHIP_CODES[relationship] as string | undefined;
    if (!code) throw inputError(where, `INS02 relationship "${String(relationship)}" must be spouse, child or other`);
    segments.push({ id: 'INS', elements: ['N', code] });
  }
  if (date) segments.push(date.segment);
  segments.push(...eqs);
  return { segments, nextHl: hl + 2 };
}

/** BHT and loops 2000A/2100A and 2000B/2100B of one transaction set. */
function headerSegments(batch: Batch270, reference: string): X12SegmentInput[] {
  const { source, receiver, envelope: env } = batch;
  const payerName = freeText('Information source', 'NM103 (payer name)', source.name, 60, true);
  const payerId = identifier('Information source', 'NM109 (payer id)', source.payerId, 2, 80);
  if (!isNpi(receiver.npi)) {
    throw inputError(
      'Information receiver',
      `NM109 (NPI) "${receiver.npi}" is not a 10-digit NPI with a valid check digit`,
    );
  }
  const receiverNm1: X12SegmentInput =
    receiver.kind === 'organization'
      ? {
          id: 'NM1',
          elements: [
            '1P',
            '2',
            freeText('Information receiver', 'NM103 (provider name)', receiver.name, 60, true),
            '',
            '',
            '',
            '',
            'XX',
            receiver.npi,
          ],
        }
      : personNm1('1P', personName('Information receiver', 'provider', receiver.name), 'XX', receiver.npi);
  return [
    // BHT: 0022 information source, receiver, subscriber, dependent; 13 request.
    { id: 'BHT', elements: ['0022', '13', reference, env.date, env.time] },
    { id: 'HL', elements: ['1', '', '20', '1'] },
    { id: 'NM1', elements: ['PR', '2', payerName, '', '', '', '', 'PI', payerId] },
    { id: 'HL', elements: ['2', '1', '21', '1'] },
    receiverNm1,
  ];
}

/**
 * The whole 270 file: ISA, GS (HS, 005010X279A1), one ST…SE per (at most) 99 inquiries, GE, IEA, one segment per
 * line. Each set carries the one payer (2000A) and provider (2000B), then each inquiry's subscriber (2000C) and
 * dependent (2000D). Throws EligibilityError BAD_INPUT naming the inquiry and the element for a value the 270
 * cannot carry; the envelope's own fields are checked by `envelope` (X12Error ENVELOPE_FIELD).
 */
export function build270(batch: Batch270, options: Build270Options = {}): string {
  const perSet = options.inquiriesPerSet ?? MAX_INQUIRIES_PER_TRANSACTION_SET;
  if (!Number.isInteger(perSet) || perSet < 1 || perSet > MAX_INQUIRIES_PER_TRANSACTION_SET) {
    throw inputError(
      'Options',
      `inquiriesPerSet ${perSet} must be a whole number from 1 to ${MAX_INQUIRIES_PER_TRANSACTION_SET}`,
    );
  }
  const env = batch.envelope;
  const fileDate = checkedEnvelope(env);
  if (batch.inquiries.length === 0) throw inputError('Batch', 'there is no inquiry to send');
  const originatorId = batch.originatorId;
  if (!/^[A-Za-z0-9]{10}$/.test(originatorId)) {
    throw inputError('Batch', `TRN03 (originator id) "${originatorId}" must be exactly 10 letters or digits`);
  }
  const traces = new Map<string, number>();
  batch.inquiries.forEach((inquiry, i) => {
    const earlier = traces.get(inquiry.traceNumber);
    if (earlier !== undefined) {
      throw inputError(
        `Inquiry ${i + 1}`,
        `TRN02 trace number "${inquiry.traceNumber}" is inquiry ${earlier + 1}'s too; the 271 could not be matched`,
      );
    }
    traces.set(inquiry.traceNumber, i);
  });
  const setCount = Math.ceil(batch.inquiries.length / perSet);
  if (env.setControlNumbers.length !== setCount) {
    throw inputError(
      'Envelope',
      `the inquiries make ${setCount} transaction set(s), which need as many ST control numbers, not ${env.setControlNumbers.length}`,
    );
  }
  const sets = env.setControlNumbers.map((controlNumber, setIndex) => {
    const reference = setCount > 1 ? `${env.reference}-${setIndex + 1}` : env.reference;
    if (reference.length > 50) throw inputError('Envelope', `BHT03 "${reference}" is longer than 50 characters`);
    const segments = headerSegments(batch, reference);
    let hl = 3;
    const first = setIndex * perSet;
    batch.inquiries.slice(first, first + perSet).forEach((inquiry, i) => {
      const written = inquirySegments(inquiry, first + i, hl, originatorId, fileDate);
      for (const segment of written.segments) segments.push(segment);
      hl = written.nextHl;
    });
    return { id: '270', controlNumber, implementation: IMPLEMENTATION_270_271, segments };
  });
  return envelope({
    isa: {
      senderQualifier: env.sender.qualifier,
      senderId: env.sender.id,
      receiverQualifier: env.receiver.qualifier,
      receiverId: env.receiver.id,
      date: env.date.slice(2),
      time: env.time,
      controlNumber: env.interchangeControlNumber,
      ackRequested: '0',
      usage: env.usage,
    },
    gs: {
      functionalId: FUNCTIONAL_ID_270,
      senderId: env.sender.id,
      receiverId: env.receiver.id,
      date: env.date,
      time: env.time,
      controlNumber: env.groupControlNumber,
      version: IMPLEMENTATION_270_271,
    },
    sets,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Reader: the 271
// ---------------------------------------------------------------------------------------------------------------

/** The loops an AAA (request validation) may stand in, in a 271. */
export type RejectionLoop271 = '2000A' | '2100A' | '2100B' | '2100C' | '2110C' | '2100D' | '2110D';

export interface Rejection271 {
  loop: RejectionLoop271;
  position: number;
  /** AAA01: Y the request was valid but could not be answered, N it was not valid. */
  validRequest: boolean;
  /** AAA03. */
  reasonCode: string;
  /** AAA03 in plain words. */
  reason: string;
  /** AAA04, null when absent. */
  followUpCode: string | null;
  /** AAA04 in plain words, null when absent. */
  followUp: string | null;
}

export interface Date271 {
  /** DTP01, e.g. '346' plan begin. */
  qualifier: string;
  /** DATE_QUALIFIERS[DTP01], null when not in the list. */
  label: string | null;
  /** YYYY-MM-DD; for a single day (D8) `from` and `to` are the same. */
  from: string;
  to: string;
  /** DTP02 was RD8 (a range). */
  range: boolean;
  position: number;
}

export interface Reference271 {
  /** REF01, e.g. '6P' group number, '18' plan number, '1L' group or policy number. */
  qualifier: string;
  /** REF02. */
  value: string;
  /** REF03, the payer's description (a plan or group name), '' when absent. */
  description: string;
}

export interface Trace271 {
  /** TRN01: '2' a trace number of the 270 echoed back, '1' one the payer or clearinghouse added. */
  type: string;
  /** TRN02. */
  traceNumber: string;
  /** TRN03, the originating company identifier. */
  originatorId: string;
  /** TRN04, '' when absent. */
  supplementalId: string;
  position: number;
}

/** An NM1 as the payer wrote it: a person (NM102 1) has first and last names, an organization only a name. */
export interface Name271 {
  /** NM101, the entity identifier code: PR payer, 1P provider, IL subscriber, 03 dependent, … */
  entityCode: string;
  /** NM103: the last name, or the organization's name. */
  lastName: string;
  firstName: string;
  middleName: string;
  suffix: string;
  /** NM108, e.g. PI payer id, XX NPI, MI member id; '' when absent. */
  idQualifier: string;
  /** NM109, '' when absent. */
  id: string;
}

/** Loop 2000A/2100A: the information source (the payer). */
export interface InformationSource271 extends Name271 {
  /** HL01. */
  hl: string;
  /** The HL segment. */
  position: number;
  rejections: Rejection271[];
}

/** Loop 2000B/2100B: the information receiver (the provider who asked). */
export interface InformationReceiver271 extends Name271 {
  hl: string;
  position: number;
  rejections: Rejection271[];
}

/** An entity named in loop 2120C/2120D (LS…LE) of a benefit: a primary care provider, another payer, whom to call. */
export interface RelatedEntity271 extends Name271 {
  position: number;
}

/** One EB (loop 2110C/2110D) with what follows it: its dates, references, messages and related entities. */
export interface Benefit271 {
  loop: '2110C' | '2110D';
  position: number;
  /** EB01. */
  informationCode: string;
  /** EB_INFORMATION_CODES[EB01]; null for a code not in the 005010X279A1 list, which is kept, not refused. */
  informationLabel: string | null;
  /** EB02, null when absent. */
  coverageLevel: string | null;
  /** EB03 (a repeating element), [] when absent. */
  serviceTypeCodes: string[];
  /** EB04, the insurance type code (HM HMO, PR PPO, MB Medicare part B…), null when absent. */
  insuranceType: string | null;
  /** EB05, the plan coverage description, null when absent. */
  planCoverageDescription: string | null;
  /** EB06, null when absent. */
  timePeriod: string | null;
  /** TIME_PERIODS[EB06], null when absent or not in the list. */
  timePeriodLabel: string | null;
  /** EB07 in cents, null when absent. */
  amountCents: number | null;
  /** EB08 as X12 sends it, a decimal from 0 to 1 (.2 is 20%), null when absent. */
  percent: number | null;
  /** EB09, null when absent. */
  quantityQualifier: string | null;
  /** EB10, null when absent. */
  quantity: number | null;
  /** EB11: Y an authorization or certification is required, N not, U unknown; null when absent. */
  authorizationRequired: 'Y' | 'N' | 'U' | null;
  /** EB12: Y in plan network, N out of network, U unknown, W not applicable (both); null when absent. */
  inPlanNetwork: 'Y' | 'N' | 'U' | 'W' | null;
  /** EB13, the procedure the benefit is about, null when absent. */
  procedure: { qualifier: string; code: string; modifiers: string[] } | null;
  /** DTP of loop 2110. */
  dates: Date271[];
  /** REF of loop 2110. */
  references: Reference271[];
  /** MSG01 of each MSG that follows the EB, in order. */
  messages: string[];
  /** NM1 of loop 2120 (between LS*2120 and LE*2120). */
  relatedEntities: RelatedEntity271[];
  /** III of loop 2115 (III01 qualifier, III02 code: a place of service, a nature of injury). */
  additionalInformation: { qualifier: string; code: string; position: number }[];
  /** HSD: how often the benefit may be used (HSD01 qualifier, HSD02 quantity, HSD05 period, HSD06 count). */
  deliveries: {
    quantityQualifier: string;
    quantity: string;
    timePeriod: string;
    periodCount: string;
    position: number;
  }[];
}

/** A subscriber (loop 2000C) or a dependent (2000D) as the payer answered for them. */
export interface Person271 extends Name271 {
  level: 'subscriber' | 'dependent';
  /** HL01. */
  hl: string;
  /** The HL segment. */
  position: number;
  /**
   * Whether this loop is the patient asked about: a dependent always, a subscriber when no dependent loop is under
   * it. The patient's loop carries the trace number.
   */
  patient: boolean;
  /**
   * The trace number of the 270 echoed back (TRN*2): the one whose originator is `originatorId` when read271 is told
   * it, else the first TRN*2. Null only for a subscriber loop that is not the patient and has none.
   */
  traceNumber: string | null;
  /** Every TRN of the loop, the payer's own TRN*1 included. */
  traces: Trace271[];
  /** NM109 when NM108 is MI, else null: the member id as the payer has it. */
  memberId: string | null;
  /** REF of loop 2100C/2100D. */
  references: Reference271[];
  /** DMG02, YYYY-MM-DD, null when absent. */
  dob: string | null;
  /** DMG03, null when absent. */
  sex: string | null;
  /** INS02, the individual relationship code (18 self, 01 spouse, 19 child, …), null when absent. */
  relationship: string | null;
  /** DTP of loop 2100C/2100D: the plan-level dates (346 plan begin, 356 eligibility begin, 291 plan…). */
  dates: Date271[];
  /** AAA of loops 2100C/2100D and 2110C/2110D, in order. */
  rejections: Rejection271[];
  benefits: Benefit271[];
  /** For a dependent, the subscriber loop above it (whose member id finds the dependent); null for a subscriber. */
  subscriber: {
    hl: string;
    lastName: string;
    firstName: string;
    memberId: string | null;
    rejections: Rejection271[];
  } | null;
  source: InformationSource271;
  receiver: InformationReceiver271;
}

/** One 271 transaction set. */
export interface Eligibility271 {
  /** ST02. */
  controlNumber: string;
  /** The ST segment's position in the file. */
  position: number;
  /** BHT03: the reference of the 270 answered, as the payer echoes it. */
  reference: string;
  /** BHT04, YYYY-MM-DD. */
  date: string;
  /** BHT05 as written (HHMM, HHMMSS…). */
  time: string;
  sources: InformationSource271[];
  receivers: InformationReceiver271[];
  /** Every subscriber and dependent loop, in file order. */
  people: Person271[];
}

export interface Read271Options {
  /**
   * The TRN03 the 270 was sent with (Batch270.originatorId): the patient's trace number is then the TRN*2 with that
   * originator, and a patient loop without one is refused, since it cannot be told which inquiry it answers.
   */
  originatorId?: string;
}

/** What each ST01 is, for refusing a file that is not a 271 by naming what it is. */
const TRANSACTION_NAMES: Readonly<Record<string, string>> = {
  '270': 'an eligibility inquiry (270); read271 reads the payer’s answer, the 271',
  '276': 'a claim status inquiry (276)',
  '277': 'a claim status response or claim acknowledgment (277)',
  '278': 'a services review (278)',
  '820': 'a premium payment (820)',
  '834': 'a benefit enrollment (834)',
  '835': 'a remittance, health care claim payment/advice (835)',
  '837': 'a health care claim (837)',
  '999': 'an implementation acknowledgment (999)',
};

function structure(position: number, message: string): EligibilityError {
  return new EligibilityError('STRUCTURE', position, message);
}

function badValue(position: number, message: string): EligibilityError {
  return new EligibilityError('BAD_VALUE', position, message);
}

/**
 * EB07, a decimal amount (X12 data type R, at most 18 characters) as integer cents, read exactly as text, never
 * through a float. Refused: a value that is not a number, a fraction of a cent, a negative amount (no benefit is
 * negative) and one above MAX_BENEFIT_AMOUNT_CENTS.
 */
function benefitCents(value: string, where: string, position: number): number {
  const amount = parseX12Amount(value, {
    maxCents: MAX_BENEFIT_AMOUNT_CENTS,
    sign: 'refused',
    maxLength: 18,
    limitName: 'benefit amount',
    overlong: 'limit',
  });
  if (!amount.ok) {
    throw new EligibilityError('BAD_AMOUNT', position, `${where}: "${value}" ${amount.problem} (segment ${position})`);
  }
  return amount.value;
}

/** EB08: a decimal from 0 to 1 (X12 sends a percent as a fraction: .2 is 20%). */
function percentOf(value: string, position: number): number {
  if (value.length > 10 || !/^(\d+\.?\d*|\.\d+)$/.test(value)) {
    throw badValue(position, `EB08: "${value}" is not a percent (a decimal from 0 to 1) (segment ${position})`);
  }
  const percent = Number(value);
  if (percent > 1) {
    throw badValue(
      position,
      `EB08: "${value}" is more than 1; X12 sends a percent as a fraction (.2 is 20%) (segment ${position})`,
    );
  }
  return percent;
}

/** EB10: a non-negative decimal (R, at most 15 characters). */
function quantityOf(value: string, position: number): number {
  if (value.length > 15 || !/^(\d+\.?\d*|\.\d+)$/.test(value)) {
    throw badValue(position, `EB10: "${value}" is not a quantity (segment ${position})`);
  }
  return Number(value);
}

/** DTP02/DTP03: D8 one day or RD8 a range, each day of the calendar. */
function dtpOf(segment: X12Segment): Date271 {
  const position = segment.position;
  const qualifier = elementOf(segment, 1);
  const format = elementOf(segment, 2);
  const value = elementOf(segment, 3);
  if (!/^\d{3}$/.test(qualifier)) {
    throw badValue(position, `DTP01: "${qualifier}" is not a date/time qualifier (segment ${position})`);
  }
  if (format === 'D8') {
    const day = dateOf(value, 'DTP03', position);
    return { qualifier, label: DATE_QUALIFIERS[qualifier] ?? null, from: day, to: day, range: false, position };
  }
  if (format === 'RD8') {
    const [start = '', end = '', ...rest] = value.split('-');
    if (rest.length > 0 || end === '') {
      throw new EligibilityError(
        'BAD_DATE',
        position,
        `DTP03: "${value}" is not a date range CCYYMMDD-CCYYMMDD (segment ${position})`,
      );
    }
    const from = dateOf(start, 'DTP03', position);
    const to = dateOf(end, 'DTP03', position);
    if (to < from) {
      throw new EligibilityError(
        'BAD_DATE',
        position,
        `DTP03: the range "${value}" ends before it starts (segment ${position})`,
      );
    }
    return { qualifier, label: DATE_QUALIFIERS[qualifier] ?? null, from, to, range: true, position };
  }
  throw badValue(position, `DTP02: "${format}" is not D8 or RD8, the date formats of a 271 (segment ${position})`);
}

function rejectionOf(segment: X12Segment, loop: RejectionLoop271): Rejection271 {
  const position = segment.position;
  const valid = elementOf(segment, 1);
  const reasonCode = elementOf(segment, 3);
  const followUpCode = elementOf(segment, 4);
  if (valid !== 'Y' && valid !== 'N') {
    throw badValue(position, `AAA01: "${valid}" is not Y or N (segment ${position})`);
  }
  if (!/^[A-Z0-9]{2}$/.test(reasonCode)) {
    throw badValue(position, `AAA03: "${reasonCode}" is not a reject reason code (segment ${position})`);
  }
  if (followUpCode !== '' && !/^[A-Z]$/.test(followUpCode)) {
    throw badValue(position, `AAA04: "${followUpCode}" is not a follow-up action code (segment ${position})`);
  }
  return {
    loop,
    position,
    validRequest: valid === 'Y',
    reasonCode,
    reason: rejectionReason(reasonCode),
    followUpCode: followUpCode === '' ? null : followUpCode,
    followUp:
      followUpCode === '' ? null : (AAA_FOLLOW_UPS[followUpCode] ?? `Follow-up code ${followUpCode} (not in the list)`),
  };
}

function nameOf(segment: X12Segment): Name271 {
  const e = (n: number) => elementOf(segment, n);
  return {
    entityCode: e(1),
    lastName: e(3),
    firstName: e(4),
    middleName: e(5),
    suffix: e(7),
    idQualifier: e(8),
    id: e(9),
  };
}

function emptyName(entityCode: string): Name271 {
  return { entityCode, lastName: '', firstName: '', middleName: '', suffix: '', idQualifier: '', id: '' };
}

function flag<T extends string>(value: string, allowed: readonly T[], where: string, position: number): T | null {
  if (value === '') return null;
  if (!(allowed as readonly string[]).includes(value)) {
    throw badValue(position, `${where}: "${value}" is not ${allowed.join(', ')} (segment ${position})`);
  }
  return value as T;
}

/** EB11 (authorization or certification required) and EB12 (in plan network): Y, N, U unknown, W not applicable. */
const AUTHORIZATION_FLAGS = ['Y', 'N', 'U'] as const;
const NETWORK_FLAGS = ['Y', 'N', 'U', 'W'] as const;

function benefitOf(segment: X12Segment, loop: '2110C' | '2110D', delimiters: X12Delimiters): Benefit271 {
  const position = segment.position;
  const e = (n: number) => elementOf(segment, n);
  const code = e(1);
  if (!/^[A-Z0-9]{1,2}$/.test(code)) {
    throw badValue(position, `EB01: "${code}" is not an eligibility or benefit information code (segment ${position})`);
  }
  const serviceTypeCodes = e(3) === '' ? [] : repetitions(e(3), delimiters);
  for (const type of serviceTypeCodes) {
    if (!/^[A-Z0-9]{1,2}$/.test(type)) {
      throw badValue(position, `EB03: "${type}" is not a service type code (segment ${position})`);
    }
  }
  const [qualifier = '', procedureCode = '', ...modifiers] = e(13) === '' ? [] : components(e(13), delimiters);
  return {
    loop,
    position,
    informationCode: code,
    informationLabel: EB_INFORMATION_CODES[code] ?? null,
    coverageLevel: e(2) || null,
    serviceTypeCodes,
    insuranceType: e(4) || null,
    planCoverageDescription: e(5) || null,
    timePeriod: e(6) || null,
    timePeriodLabel: TIME_PERIODS[e(6)] ?? null,
    amountCents: e(7) === '' ? null : benefitCents(e(7), 'EB07', position),
    percent: e(8) === '' ? null : percentOf(e(8), position),
    quantityQualifier: e(9) || null,
    quantity: e(10) === '' ? null : quantityOf(e(10), position),
    authorizationRequired: flag(e(11), AUTHORIZATION_FLAGS, 'EB11', position),
    inPlanNetwork: flag(e(12), NETWORK_FLAGS, 'EB12', position),
    procedure:
      e(13) === ''
        ? null
        : { qualifier, code: procedureCode, modifiers: modifiers.slice(0, 4).filter((m) => m !== '') },
    dates: [],
    references: [],
    messages: [],
    relatedEntities: [],
    additionalInformation: [],
    deliveries: [],
  };
}

/** What the reader keeps of each HL while it reads a set. */
type Loop =
  | { kind: 'source'; named: boolean; value: InformationSource271 }
  | { kind: 'receiver'; named: boolean; value: InformationReceiver271; source: InformationSource271 }
  | { kind: 'subscriber' | 'dependent'; named: boolean; value: Person271; dependents: number };

/** HL03: the level codes of 005010X279A1 and the level each one's parent (HL02) must be. */
const LEVELS: Readonly<Record<string, { kind: Loop['kind']; parent: Loop['kind'] | null; loop: string }>> = {
  '20': { kind: 'source', parent: null, loop: '2000A' },
  '21': { kind: 'receiver', parent: 'source', loop: '2000B' },
  '22': { kind: 'subscriber', parent: 'receiver', loop: '2000C' },
  '23': { kind: 'dependent', parent: 'subscriber', loop: '2000D' },
};

/** NM101 codes 005010X279A1 allows in 2100A (information source) and 2100B (information receiver). */
const SOURCE_ENTITIES = new Set(['2B', '36', 'GP', 'P5', 'PR']);
const RECEIVER_ENTITIES = new Set(['1P', '2B', '36', '80', 'FA', 'GP', 'P5', 'PR']);
/** 2100C is always the insured (IL), 2100D the dependent (03). */
const SUBSCRIBER_ENTITIES = new Set(['IL']);
const DEPENDENT_ENTITIES = new Set(['03']);

/**
 * Reads every 271 of a file, in file order, and checks them (docs/x12-eligibility.md): GS01 HB, GS08 and ST03
 * 005010X279A1, the HL tree (each parent exists and is the level above), one NM1 per loop before anything that
 * belongs to it, the patient loops' trace numbers, and every date, amount, percent and flag. Throws X12Error
 * (envelope, syntax, from parseX12) or EligibilityError (the 271's own rules).
 */
export function read271(text: string, options: Read271Options = {}): Eligibility271[] {
  const document = parseX12(text);
  const sets = transactionSetsOf(document, '271');
  if (sets.length === 0) {
    const held = new Set<string>();
    for (const interchange of document.interchanges) {
      for (const group of interchange.groups) for (const set of group.transactionSets) held.add(set.id);
    }
    // An own entry only: ST01 'constructor' must not print Object.prototype's.
    const what = [...held].map((id) =>
      Object.hasOwn(TRANSACTION_NAMES, id) ? TRANSACTION_NAMES[id] : `a ${id} transaction set`,
    );
    throw new EligibilityError(
      'NOT_271',
      0,
      `The file holds no 271 (eligibility response) transaction set: it holds ${what.length > 0 ? what.join(' and ') : 'no transaction set at all'}.`,
    );
  }
  return sets.map(({ group, set, interchange }) => {
    if (group.functionalId !== FUNCTIONAL_ID_271) {
      throw structure(
        group.gs.position,
        `GS01: "${group.functionalId}" is not ${FUNCTIONAL_ID_271}, the functional group of 271 eligibility responses (segment ${group.gs.position})`,
      );
    }
    if (group.version !== IMPLEMENTATION_270_271) {
      throw new EligibilityError(
        'UNSUPPORTED_VERSION',
        group.gs.position,
        `GS08: "${group.version}" is not ${IMPLEMENTATION_270_271}; only 271s of ASC X12 ${IMPLEMENTATION_270_271} are read (segment ${group.gs.position})`,
      );
    }
    if (set.implementation !== IMPLEMENTATION_270_271) {
      throw new EligibilityError(
        'UNSUPPORTED_VERSION',
        set.st.position,
        `ST03: "${set.implementation}" is not ${IMPLEMENTATION_270_271}; only 271s of ASC X12 ${IMPLEMENTATION_270_271} are read (segment ${set.st.position})`,
      );
    }
    return readSet(set.segments, interchange.delimiters, set.controlNumber, set.st.position, options);
  });
}

function readSet(
  segments: readonly X12Segment[],
  delimiters: X12Delimiters,
  controlNumber: string,
  stAt: number,
  options: Read271Options,
): Eligibility271 {
  const bht = segments[0];
  if (!bht || bht.id !== 'BHT') {
    throw structure(stAt, `The 271 at segment ${stAt} does not start with BHT (beginning of hierarchical transaction)`);
  }
  if (elementOf(bht, 1) !== '0022') {
    throw badValue(bht.position, `BHT01: "${elementOf(bht, 1)}" is not 0022 (segment ${bht.position})`);
  }
  if (elementOf(bht, 2) !== '11') {
    throw badValue(
      bht.position,
      `BHT02: "${elementOf(bht, 2)}" is not 11 (response); a 271 answers a 270 (segment ${bht.position})`,
    );
  }
  const result: Eligibility271 = {
    controlNumber,
    position: stAt,
    reference: elementOf(bht, 3),
    date: dateOf(elementOf(bht, 4), 'BHT04', bht.position),
    time: elementOf(bht, 5),
    sources: [],
    receivers: [],
    people: [],
  };
  const loops = new Map<string, Loop>();
  let current: Loop | null = null;
  let benefit: Benefit271 | null = null;
  /** The LS opening the current 2120 loop, null outside one. */
  let ls: X12Segment | null = null;

  const personLoop = (s: X12Segment): Extract<Loop, { kind: 'subscriber' | 'dependent' }> => {
    if (current && (current.kind === 'subscriber' || current.kind === 'dependent')) return current;
    throw structure(
      s.position,
      `${s.id} at segment ${s.position} is outside a subscriber or dependent loop (2000C/2000D)`,
    );
  };
  const needBenefit = (s: X12Segment): Benefit271 => {
    if (benefit) return benefit;
    throw structure(s.position, `${s.id} at segment ${s.position} follows no EB (eligibility or benefit information)`);
  };
  const letter = (loop: Loop) => (loop.kind === 'subscriber' ? 'C' : 'D');

  for (let i = 1; i < segments.length; i++) {
    const s = segments[i]!;
    const e = (n: number) => elementOf(s, n);
    if (s.id === 'HL') {
      if (ls)
        throw structure(ls.position, `LS at segment ${ls.position} has no LE before the HL at segment ${s.position}`);
      current = openLoop(s, loops, result);
      benefit = null;
      continue;
    }
    if (!current) {
      throw structure(s.position, `${s.id} at segment ${s.position} comes before the first HL (loop 2000A)`);
    }
    switch (s.id) {
      case 'NM1': {
        if (ls) {
          needBenefit(s).relatedEntities.push({ ...nameOf(s), position: s.position });
          break;
        }
        const loopName =
          current.kind === 'source' ? '2100A' : current.kind === 'receiver' ? '2100B' : `2100${letter(current)}`;
        if (current.named) {
          throw structure(
            s.position,
            `NM1 at segment ${s.position}: loop ${loopName} already has its NM1` +
              (benefit ? '; an entity named after an EB belongs between LS*2120 and LE*2120' : ''),
          );
        }
        const name = nameOf(s);
        const allowed =
          current.kind === 'source'
            ? SOURCE_ENTITIES
            : current.kind === 'receiver'
              ? RECEIVER_ENTITIES
              : current.kind === 'subscriber'
                ? SUBSCRIBER_ENTITIES
                : DEPENDENT_ENTITIES;
        if (!allowed.has(name.entityCode)) {
          throw badValue(
            s.position,
            `NM101: "${name.entityCode}" is not an entity of loop ${loopName} (${[...allowed].join(', ')}) (segment ${s.position})`,
          );
        }
        Object.assign(current.value, name);
        if (current.kind === 'subscriber' || current.kind === 'dependent') {
          current.value.memberId = name.idQualifier === 'MI' && name.id !== '' ? name.id : null;
        }
        current.named = true;
        break;
      }
      case 'TRN': {
        const loop = personLoop(s);
        if (loop.named) {
          throw structure(
            s.position,
            `TRN at segment ${s.position} follows the NM1; it belongs to loop 2000${letter(loop)}, before it`,
          );
        }
        const type = e(1);
        if (type !== '1' && type !== '2')
          throw badValue(s.position, `TRN01: "${type}" is not 1 or 2 (segment ${s.position})`);
        if (e(2) === '') throw structure(s.position, `TRN02 (trace number) is blank (segment ${s.position})`);
        if (e(3) === '') throw structure(s.position, `TRN03 (originator id) is blank (segment ${s.position})`);
        loop.value.traces.push({
          type,
          traceNumber: e(2),
          originatorId: e(3),
          supplementalId: e(4),
          position: s.position,
        });
        break;
      }
      case 'AAA': {
        if (current.kind === 'source') {
          current.value.rejections.push(rejectionOf(s, current.named ? '2100A' : '2000A'));
          break;
        }
        if (!current.named) {
          throw structure(s.position, `AAA at segment ${s.position} comes before the loop's NM1`);
        }
        if (current.kind === 'receiver') {
          current.value.rejections.push(rejectionOf(s, '2100B'));
          break;
        }
        const l = letter(current);
        current.value.rejections.push(rejectionOf(s, benefit ? (`2110${l}` as const) : (`2100${l}` as const)));
        break;
      }
      case 'REF': {
        if (ls || current.kind === 'source' || current.kind === 'receiver') break;
        if (!current.named) throw structure(s.position, `REF at segment ${s.position} comes before the loop's NM1`);
        (benefit ?? current.value).references.push({ qualifier: e(1), value: e(2), description: e(3) });
        break;
      }
      case 'DTP': {
        const loop = personLoop(s);
        if (!loop.named) throw structure(s.position, `DTP at segment ${s.position} comes before the loop's NM1`);
        (benefit ?? loop.value).dates.push(dtpOf(s));
        break;
      }
      case 'DMG': {
        const loop = personLoop(s);
        if (!loop.named || benefit) {
          throw structure(
            s.position,
            `DMG at segment ${s.position} belongs to loop 2100${letter(loop)}, after its NM1 and before any EB`,
          );
        }
        if (e(2) !== '') {
          if (e(1) !== 'D8') throw badValue(s.position, `DMG01: "${e(1)}" is not D8 (segment ${s.position})`);
          loop.value.dob = dateOf(e(2), 'DMG02', s.position);
        }
        loop.value.sex = e(3) || null;
        break;
      }
      case 'INS': {
        const loop = personLoop(s);
        if (!loop.named || benefit) {
          throw structure(
            s.position,
            `INS at segment ${s.position} belongs to loop 2100${letter(loop)}, after its NM1 and before any EB`,
          );
        }
        loop.value.relationship = e(2) || null;
        break;
      }
      case 'EB': {
        const loop = personLoop(s);
        if (!loop.named) {
          throw structure(
            s.position,
            `EB at segment ${s.position} comes before the ${loop.kind}'s NM1 (loop 2100${letter(loop)})`,
          );
        }
        if (ls)
          throw structure(ls.position, `LS at segment ${ls.position} has no LE before the EB at segment ${s.position}`);
        benefit = benefitOf(s, `2110${letter(loop)}`, delimiters);
        loop.value.benefits.push(benefit);
        break;
      }
      case 'MSG':
        needBenefit(s).messages.push(e(1));
        break;
      case 'III':
        needBenefit(s).additionalInformation.push({ qualifier: e(1), code: e(2), position: s.position });
        break;
      case 'HSD':
        needBenefit(s).deliveries.push({
          quantityQualifier: e(1),
          quantity: e(2),
          timePeriod: e(5),
          periodCount: e(6),
          position: s.position,
        });
        break;
      case 'LS':
        needBenefit(s);
        if (ls)
          throw structure(
            s.position,
            `LS at segment ${s.position} opens a loop inside the LS at segment ${ls.position}`,
          );
        ls = s;
        break;
      case 'LE':
        if (!ls) throw structure(s.position, `LE at segment ${s.position} closes no LS`);
        ls = null;
        break;
      default:
        // N3, N4, PER, PRV, HI, MPI and the like: addresses and contacts a front desk does not need from here.
        break;
    }
  }
  if (ls) throw structure(ls.position, `LS at segment ${ls.position} has no LE`);
  finishSet(result, loops, stAt, options);
  return result;
}

/** A new HL: its id unique, its parent an earlier HL of the level above. */
function openLoop(s: X12Segment, loops: Map<string, Loop>, result: Eligibility271): Loop {
  const id = elementOf(s, 1);
  const parentId = elementOf(s, 2);
  const code = elementOf(s, 3);
  if (!/^[A-Za-z0-9]{1,12}$/.test(id))
    throw badValue(s.position, `HL01: "${id}" is not a hierarchical id (segment ${s.position})`);
  const earlier = loops.get(id);
  if (earlier) {
    throw structure(s.position, `HL01: "${id}" is used twice (segments ${earlier.value.position} and ${s.position})`);
  }
  const level = LEVELS[code];
  if (!level) {
    throw badValue(s.position, `HL03: "${code}" is not a level of a 271 (20, 21, 22, 23) (segment ${s.position})`);
  }
  let parent: Loop | null = null;
  if (level.parent === null) {
    if (parentId !== '')
      throw structure(
        s.position,
        `HL02: the information source (HL 20) has a parent "${parentId}" (segment ${s.position})`,
      );
  } else {
    parent = loops.get(parentId) ?? null;
    if (!parent) {
      throw structure(
        s.position,
        `HL02: the parent "${parentId}" of HL ${id} (loop ${level.loop}) does not exist: no earlier HL has that HL01 (segment ${s.position})`,
      );
    }
    if (parent.kind !== level.parent) {
      throw structure(
        s.position,
        `HL02: HL ${id} (loop ${level.loop}) must be under a ${level.parent}, but HL ${parentId} is a ${parent.kind} (segment ${s.position})`,
      );
    }
  }
  let loop: Loop;
  if (level.kind === 'source') {
    const value: InformationSource271 = { ...emptyName(''), hl: id, position: s.position, rejections: [] };
    result.sources.push(value);
    loop = { kind: 'source', named: false, value };
  } else if (parent?.kind === 'source') {
    const value: InformationReceiver271 = { ...emptyName(''), hl: id, position: s.position, rejections: [] };
    result.receivers.push(value);
    loop = { kind: 'receiver', named: false, value, source: parent.value };
  } else if (parent?.kind === 'receiver' || parent?.kind === 'subscriber') {
    const receiver = parent.kind === 'receiver' ? parent.value : parent.value.receiver;
    const source = parent.kind === 'receiver' ? parent.source : parent.value.source;
    const value: Person271 = {
      ...emptyName(''),
      level: level.kind === 'subscriber' ? 'subscriber' : 'dependent',
      hl: id,
      position: s.position,
      patient: level.kind === 'dependent',
      traceNumber: null,
      traces: [],
      memberId: null,
      references: [],
      dob: null,
      sex: null,
      relationship: null,
      dates: [],
      rejections: [],
      benefits: [],
      subscriber: null,
      source,
      receiver,
    };
    if (parent.kind === 'subscriber') {
      parent.dependents++;
      const sub = parent.value;
      value.subscriber = {
        hl: sub.hl,
        lastName: sub.lastName,
        firstName: sub.firstName,
        memberId: sub.memberId,
        rejections: sub.rejections,
      };
    }
    result.people.push(value);
    loop = { kind: level.kind === 'subscriber' ? 'subscriber' : 'dependent', named: false, value, dependents: 0 };
  } else {
    // Unreachable: LEVELS ties each level to its parent's kind.
    throw structure(s.position, `HL ${id} has no parent of the right level (segment ${s.position})`);
  }
  loops.set(id, loop);
  return loop;
}

function finishSet(result: Eligibility271, loops: Map<string, Loop>, stAt: number, options: Read271Options): void {
  if (result.sources.length === 0)
    throw structure(stAt, `The 271 at segment ${stAt} has no information source loop (HL 20)`);
  for (const loop of loops.values()) {
    if (!loop.named) {
      const what =
        loop.kind === 'source'
          ? '2100A (NM1*PR…)'
          : loop.kind === 'receiver'
            ? '2100B'
            : loop.kind === 'subscriber'
              ? '2100C (NM1*IL)'
              : '2100D (NM1*03)';
      throw structure(
        loop.value.position,
        `The HL at segment ${loop.value.position} has no NM1: loop ${what} is missing`,
      );
    }
    if (loop.kind === 'subscriber' || loop.kind === 'dependent') {
      const person = loop.value;
      if (loop.kind === 'subscriber') person.patient = loop.dependents === 0;
      person.traceNumber = traceOf(person, options);
    }
  }
  const rejectedAbove =
    result.sources.some((s) => s.rejections.length > 0) || result.receivers.some((r) => r.rejections.length > 0);
  if (!result.people.some((p) => p.level === 'subscriber') && !rejectedAbove) {
    throw structure(
      stAt,
      `The 271 at segment ${stAt} has no subscriber loop (HL 22) and no rejection (AAA) of the request at the payer or provider level`,
    );
  }
}

/** The patient's trace number: the TRN*2 of our originator (when known), else the first TRN*2. */
function traceOf(person: Person271, options: Read271Options): string | null {
  const echoed = person.traces.filter((t) => t.type === '2');
  const loop = person.level === 'subscriber' ? '2000C' : '2000D';
  if (options.originatorId !== undefined) {
    const ours = echoed.find((t) => t.originatorId === options.originatorId);
    if (ours) return ours.traceNumber;
    // A subscriber loop above the patient's need not carry our trace: it is the dependent's loop that answers.
    if (!person.patient) return null;
    const found = echoed.length === 0 ? 'none' : echoed.map((t) => `"${t.originatorId}"`).join(', ');
    throw structure(
      person.position,
      `Loop ${loop} (HL ${person.hl}, segment ${person.position}) has no TRN*2 from originator "${options.originatorId}" (found ${found}): the answer cannot be matched to its inquiry`,
    );
  }
  const first = echoed[0];
  if (first) return first.traceNumber;
  if (!person.patient) return null;
  throw structure(
    person.position,
    `Loop ${loop} (HL ${person.hl}, segment ${person.position}) has no TRN*2 trace number: the answer cannot be matched to its inquiry`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The front desk's summary
// ---------------------------------------------------------------------------------------------------------------

/** A copay (EB*B) or coinsurance (EB*A) of one service type, coverage level and network. */
export interface CostShare271 {
  serviceTypeCodes: string[];
  coverageLevel: string | null;
  inPlanNetwork: 'Y' | 'N' | 'U' | 'W' | null;
  timePeriod: string | null;
  messages: string[];
  /** The EB segment. */
  position: number;
}

/**
 * A deductible (EB*C) or out-of-pocket maximum (EB*G) of one coverage level, network and set of service types:
 * the total for its period (EB06 23 calendar year, 22 service year, 25 contract…), what remains (EB06 29) and what
 * was met so far (EB06 24 year to date). A lifetime amount (EB06 32) and its remainder (33) are kept apart.
 */
export interface Accumulator271 {
  coverageLevel: string | null;
  inPlanNetwork: 'Y' | 'N' | 'U' | 'W' | null;
  serviceTypeCodes: string[];
  lifetime: boolean;
  totalCents: number | null;
  /** EB06 of the total, null when the payer gave none. */
  totalPeriod: string | null;
  remainingCents: number | null;
  metCents: number | null;
  messages: string[];
  /** The EB segments read into it. */
  positions: number[];
}

export interface BenefitSummary271 {
  /**
   * True when an EB01 of active coverage (1, or its variants 2–5) is given, false when only inactive ones (6, 7, 8)
   * are; null when the request was rejected above the benefits (AAA of 2000A/2100A, 2100B, 2100C, 2100D) or the
   * payer said neither.
   */
  active: boolean | null;
  /** The AAA that reject this person's request, every level from the payer down (2110 ones included). */
  rejections: Rejection271[];
  /** EB05 of the first active EB that has one, else of the first EB that has one. */
  planName: string | null;
  /** EB04 of the first active EB that has one. */
  insuranceType: string | null;
  /** REF*6P (group number) or else REF*1L (group or policy number) of loop 2100C/D. */
  groupNumber: string | null;
  /** 346 plan begin or 356 eligibility begin, or the start of a 291/307 range (loop 2100, else the active EB). */
  coverageBegin: string | null;
  /** 347 plan end or 357 eligibility end, or the end of a 291/307 range. */
  coverageEnd: string | null;
  copays: (CostShare271 & { amountCents: number })[];
  coinsurance: (CostShare271 & { percent: number })[];
  deductibles: Accumulator271[];
  outOfPocket: Accumulator271[];
}

/** The loops whose AAA rejects the whole request of a person rather than one benefit. */
const REQUEST_LEVEL: ReadonlySet<RejectionLoop271> = new Set(['2000A', '2100A', '2100B', '2100C', '2100D']);

function coverageDates(dates: readonly Date271[]): { begin: string | null; end: string | null } {
  const find = (codes: readonly string[]) => dates.find((d) => codes.includes(d.qualifier));
  const range = dates.find((d) => d.range && (d.qualifier === '291' || d.qualifier === '307'));
  return {
    begin: find(['346', '356'])?.from ?? range?.from ?? null,
    end: find(['347', '357'])?.to ?? range?.to ?? null,
  };
}

function accumulate(benefits: readonly Benefit271[], code: 'C' | 'G'): Accumulator271[] {
  const byKey = new Map<string, Accumulator271>();
  for (const b of benefits) {
    if (b.informationCode !== code || b.amountCents === null) continue;
    const lifetime = b.timePeriod === '32' || b.timePeriod === '33';
    const types = [...b.serviceTypeCodes].sort();
    const key = [b.coverageLevel ?? '', b.inPlanNetwork ?? '', types.join('^'), lifetime ? 'L' : ''].join('|');
    let entry = byKey.get(key);
    if (!entry) {
      entry = {
        coverageLevel: b.coverageLevel,
        inPlanNetwork: b.inPlanNetwork,
        serviceTypeCodes: types,
        lifetime,
        totalCents: null,
        totalPeriod: null,
        remainingCents: null,
        metCents: null,
        messages: [],
        positions: [],
      };
      byKey.set(key, entry);
    }
    // The first amount of each kind wins: a payer that repeats one (per plan year and per contract) lists the
    // one that applies first.
    if (b.timePeriod === '29' || b.timePeriod === '33') entry.remainingCents ??= b.amountCents;
    else if (b.timePeriod === '24') entry.metCents ??= b.amountCents;
    else if (entry.totalCents === null) {
      entry.totalCents = b.amountCents;
      entry.totalPeriod = b.timePeriod;
    }
    entry.messages.push(...b.messages);
    entry.positions.push(b.position);
  }
  return [...byKey.values()];
}

/**
 * What a front desk reads of one person's 271 answer: active or not, the plan, copays, coinsurance, deductibles
 * and out-of-pocket maxima by coverage level and network. Derived only from `person` (read271's output), which
 * keeps every EB as sent for whoever needs more.
 */
export function summarise271Benefits(person: Person271): BenefitSummary271 {
  const rejections = [
    ...person.source.rejections,
    ...person.receiver.rejections,
    ...(person.subscriber?.rejections ?? []),
    ...person.rejections,
  ];
  const rejected = rejections.some((r) => REQUEST_LEVEL.has(r.loop));
  const { benefits } = person;
  const activeBenefits = benefits.filter((b) => ACTIVE_CODES.has(b.informationCode));
  const active = rejected
    ? null
    : activeBenefits.length > 0
      ? true
      : benefits.some((b) => INACTIVE_CODES.has(b.informationCode))
        ? false
        : null;
  const planName =
    activeBenefits.find((b) => b.planCoverageDescription)?.planCoverageDescription ??
    benefits.find((b) => b.planCoverageDescription)?.planCoverageDescription ??
    null;
  const own = coverageDates(person.dates);
  const fromBenefit = coverageDates(activeBenefits.flatMap((b) => b.dates));
  const share = (b: Benefit271): CostShare271 => ({
    serviceTypeCodes: b.serviceTypeCodes,
    coverageLevel: b.coverageLevel,
    inPlanNetwork: b.inPlanNetwork,
    timePeriod: b.timePeriod,
    messages: b.messages,
    position: b.position,
  });
  const reference = (qualifier: string) => person.references.find((r) => r.qualifier === qualifier)?.value;
  return {
    active,
    rejections,
    planName,
    insuranceType: activeBenefits.find((b) => b.insuranceType)?.insuranceType ?? null,
    groupNumber: reference('6P') ?? reference('1L') ?? null,
    coverageBegin: own.begin ?? fromBenefit.begin,
    coverageEnd: own.end ?? fromBenefit.end,
    copays: benefits.flatMap((b) =>
      b.informationCode === 'B' && b.amountCents !== null ? [{ ...share(b), amountCents: b.amountCents }] : [],
    ),
    coinsurance: benefits.flatMap((b) =>
      b.informationCode === 'A' && b.percent !== null ? [{ ...share(b), percent: b.percent }] : [],
    ),
    deductibles: accumulate(benefits, 'C'),
    outOfPocket: accumulate(benefits, 'G'),
  };
}
