/**
 * The claim status request and response of ASC X12 005010X212 as pure functions: `build276` writes the 276 that
 * asks a payer where a list of claims stands, and `read277` reads the payer's 277 answer into plain data, amounts
 * in integer cents. The 277 here is not the 277CA claim acknowledgment (005010X214, x12.277ca.ts): both are ST01
 * 277, but the 277CA answers an 837 at the front end before adjudication, while this one answers a 276 at any time
 * and can report a claim paid, denied or pended. No database, no I/O. Loop by loop: docs/x12-claim-status.md.
 */
import {
  components,
  elementOf,
  parseX12,
  transactionSetsOf,
  X12_DEFAULT_DELIMITERS,
  type X12Delimiters,
  type X12Document,
  type X12Segment,
} from './x12.parse';
import { envelope, x12Text, type X12SegmentInput, type X12WriteOptions } from './x12.serialize';
import {
  formatX12Amount,
  formatX12Date,
  parseX12Amount,
  parseX12Date,
  personNm1 as personNm1Segment,
} from './x12.values';

/** ASC X12 005010X212: GS08 and ST03 of both the 276 and the 277 claim status response. */
export const CLAIM_STATUS_IMPLEMENTATION = '005010X212';

/** ASC X12 005010X214, the 277CA claim acknowledgment: also ST01 277, and refused by read277. */
export const CLAIM_ACKNOWLEDGMENT_IMPLEMENTATION = '005010X214';

/**
 * The largest amount read or written: $10,000,000.00, as the 835 reader. Amounts are kept in 32-bit integer cents
 * (at most $21,474,836.47) and a claim's amounts are added together, so a larger one is the payer's error.
 */
export const MAX_STATUS_AMOUNT_CENTS = 1_000_000_000;

/* ---------------------------------------------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------------------------------------------- */

export type ClaimStatusErrorCode =
  /** build276: a value that cannot be written (blank, too long, not a date, not whole cents); position 0. */
  | 'BAD_INPUT'
  /** The file holds no 277 transaction set; the message says what it holds instead. */
  | 'NOT_277'
  /** The 277 is a 277CA claim acknowledgment (005010X214), not a claim status response. */
  | 'CLAIM_ACKNOWLEDGMENT'
  /** GS08 or ST03 is another guide or version than 005010X212. */
  | 'UNSUPPORTED_VERSION'
  /** The 277 answers no claim: no loop 2200D or 2200E at all. */
  | 'NO_CLAIM_STATUS'
  /** A subscriber or dependent level without its TRN, or a TRN without its trace number (TRN02). */
  | 'MISSING_TRN'
  /** The hierarchy or loop order breaks the guide: an HL parent that does not exist, an STC before any TRN, … */
  | 'STRUCTURE'
  /** An amount that is not a decimal amount, has a fraction of a cent, or is above $10,000,000.00. */
  | 'BAD_AMOUNT'
  /** A date that is not CCYYMMDD (or CCYYMMDD-CCYYMMDD) of the calendar between 1900 and 2999. */
  | 'BAD_DATE'
  /** A code or value outside what the guide allows (a blank status code, TRN01 other than 2, …). */
  | 'BAD_VALUE';

export class ClaimStatusError extends Error {
  override readonly name = 'ClaimStatusError';
  constructor(
    readonly code: ClaimStatusErrorCode,
    /** The segment at fault (1-based in the file, ISA being 1); 0 for the writer's input and for a whole file. */
    readonly position: number,
    message: string,
  ) {
    super(message);
  }
}

/* ---------------------------------------------------------------------------------------------------------------
 * Code lists
 * ------------------------------------------------------------------------------------------------------------- */

/**
 * What a billing app does with a status, from its category (STC01-1): the category says where the claim is
 * (acknowledged, pending, finalized, …), the status code (STC01-2) only why.
 */
export type ClaimStatusOutcome =
  /** A0, A1, A2, A5: received, forwarded or accepted into adjudication; nothing decided yet. */
  | 'acknowledged'
  /** A3, A6, A7, A8: rejected before adjudication; the claim must be corrected and sent again. */
  | 'rejected'
  /** A4, D0: the payer finds no such claim (never received, or the request did not match it). */
  | 'not_found'
  /** P0–P5: in adjudication, not decided. */
  | 'pending'
  /** R0–R17, RQ: the payer asks for more information before it decides. */
  | 'request_info'
  /** F0, F3N: adjudication complete, without saying paid or denied (the 835 says). */
  | 'finalized'
  /** F1: paid. */
  | 'finalized_paid'
  /** F2: denied. */
  | 'finalized_denied'
  /** F3: adjudication changed after it was finalized (an adjustment; a new 835 follows). */
  | 'finalized_revised'
  /** F3F: complete and forwarded to the next payer (a crossover to the secondary). */
  | 'finalized_forwarded'
  /** F4: adjudicated and no payment is coming (all to deductible or patient responsibility, say). */
  | 'finalized_no_payment'
  /** E0–E4: the payer could not answer the request (its data, its system, the trading partner agreement). */
  | 'error'
  /** A category not in the list below (the DR data reporting codes, a retired or newer code). */
  | 'unknown';

export interface ClaimStatusCategory {
  /** In our words. */
  readonly meaning: string;
  readonly outcome: ClaimStatusOutcome;
  /** A person must act: correct and resend, send information, appeal, or find out why the payer cannot answer. */
  readonly needsAction: boolean;
}

const category = (meaning: string, outcome: ClaimStatusOutcome, needsAction: boolean): ClaimStatusCategory => ({
  meaning,
  outcome,
  needsAction,
});

/**
 * The health care claim status category codes (code source 507, STC01-1, STC10-1 and STC11-1), in our words. The
 * DR01–DR08 codes (encounter data reporting) are left out: a claim status response to a clinic never carries them,
 * and they read as `unknown`.
 */
export const CLAIM_STATUS_CATEGORIES: Readonly<Record<string, ClaimStatusCategory>> = Object.freeze({
  A0: category('Acknowledged: forwarded to another entity', 'acknowledged', false),
  A1: category('Acknowledged: received, not yet accepted for adjudication', 'acknowledged', false),
  A2: category('Acknowledged: accepted into adjudication', 'acknowledged', false),
  A3: category('Rejected: returned as unprocessable, never entered into adjudication', 'rejected', true),
  A4: category('Not found: the payer cannot find the claim', 'not_found', true),
  A5: category('Acknowledged: split into several claims on acceptance', 'acknowledged', false),
  A6: category('Rejected for missing information', 'rejected', true),
  A7: category('Rejected for invalid information', 'rejected', true),
  A8: category('Rejected: a field is in error relative to another', 'rejected', true),
  P0: category('Pending: adjudication not complete', 'pending', false),
  P1: category('Pending: in process', 'pending', false),
  P2: category('Pending: payer review (medical review, repricing, a third-party administrator)', 'pending', false),
  // The payer waits on information it has already asked the provider for: nothing moves until the clinic sends it.
  P3: category('Pending: waiting for information requested from the provider', 'pending', true),
  P4: category('Pending: waiting for information requested from the patient', 'pending', false),
  P5: category('Pending: payer administrative or system hold', 'pending', false),
  F0: category('Finalized: adjudication complete', 'finalized', false),
  F1: category('Finalized: paid', 'finalized_paid', false),
  F2: category('Finalized: denied', 'finalized_denied', true),
  F3: category('Finalized: adjudication revised', 'finalized_revised', false),
  F3F: category('Finalized: any payment made, forwarded to the next payer', 'finalized_forwarded', false),
  F3N: category('Finalized: any payment made, not forwarded to another payer', 'finalized', false),
  F4: category('Finalized: adjudication complete, no payment forthcoming', 'finalized_no_payment', false),
  R0: category('Request for information: general', 'request_info', true),
  R1: category('Request for information about an entity (subscriber, patient, provider)', 'request_info', true),
  R3: category('Request for information normally sent on a claim or line', 'request_info', true),
  R4: category('Request for supporting documentation', 'request_info', true),
  R5: category('Request for more specific detail: what was sent is not enough', 'request_info', true),
  R6: category('Request for information: regulatory requirements', 'request_info', true),
  R7: category(
    'Request for information: confirm the care is consistent with the policy coverage',
    'request_info',
    true,
  ),
  R8: category('Request for information: confirm the care fits a coverage exception', 'request_info', true),
  R9: category('Request for information: determination of medical necessity', 'request_info', true),
  R10: category('Request for information: to support a grievance or appeal', 'request_info', true),
  R11: category('Request for information: pre-payment review', 'request_info', true),
  R12: category('Request for information: justify the use of a procedure code', 'request_info', true),
  R13: category('Request for information: the documents sent are not readable', 'request_info', true),
  R14: category('Request for information: the documents sent are not what was asked for', 'request_info', true),
  R15: category("Request for information: workers' compensation coverage", 'request_info', true),
  R16: category('Request for information: eligibility determination', 'request_info', true),
  R17: category('Request for information: replaces an earlier request', 'request_info', true),
  // Retired in 2008; an old payer system may still send it.
  RQ: category('General question to answer yes or no (retired code)', 'request_info', true),
  E0: category('No answer possible: error in the status request', 'error', true),
  E1: category('No answer possible: payer system status', 'error', true),
  E2: category('No answer possible: the information holder is not responding; ask again later', 'error', true),
  E3: category('Correction required: fields in error relative to each other', 'error', true),
  E4: category('Trading partner agreement requirement not met: correct the data', 'error', true),
  D0: category('Not found: no claim matches the search criteria of the request', 'not_found', true),
});

/**
 * The health care claim status codes (code source 508, STC01-2) a clinic commonly meets, in our words. Many codes
 * need an entity (STC01-3) to say whose information it is ("entity's NPI" with 82: the rendering provider's). Codes
 * retired from the list, or not known here, read with `meaning: null`; their text says "status code N".
 */
export const CLAIM_STATUS_CODES: Readonly<Record<string, string>> = Object.freeze({
  '0': 'no further status can be given electronically',
  '1': 'details are on the remittance advice',
  '2': 'details are in a letter',
  '3': 'adjudicated, awaiting the payment cycle',
  '6': 'balance due from the subscriber',
  '12': 'one or more of the procedure codes sent were combined',
  '15': 'one or more of the procedure codes sent were changed',
  '16': 'forwarded to the entity',
  '17': 'forwarded by a third party to the entity',
  '18': 'the entity received the claim but returned an invalid status',
  '19': 'the entity acknowledges receipt of the claim',
  '20': 'accepted for processing',
  '21': 'missing or invalid information (another status code says which)',
  '23': 'returned to the entity',
  '24': 'the entity is not approved as an electronic submitter',
  '25': 'the entity is not approved',
  '26': 'the entity was not found',
  '27': 'the policy was canceled',
  '29': 'the subscriber and the policy or contract number do not match',
  '30': 'the subscriber and the subscriber id do not match',
  '31': 'the subscriber and the policyholder name do not match',
  '32': 'no match for the subscriber and the policy or contract number',
  '33': 'no match for the subscriber and the subscriber id',
  '34': 'no match for the subscriber and the policyholder name',
  '35': 'the claim was not found',
  '37': 'a predetermination is on file, awaiting completion of the services',
  '38': 'awaiting the next periodic adjudication cycle',
  '39': 'pregnancy charges deferred until the delivery',
  '40': 'waiting for final approval',
  '41': 'special handling required at the payer',
  '42': 'awaiting related charges',
  '44': 'charges pending a provider audit',
  '45': 'awaiting benefit determination',
  '46': 'internal review or audit',
  '47': 'internal review or audit, partial payment made',
  '49': 'pending provider accreditation review',
  '50': 'waiting for internal provider verification',
  '51': 'investigating an occupational illness or accident',
  '52': 'investigating whether other insurance covers the claim',
  '53': 'being researched for an insured id or group policy number error',
  '54': 'duplicate of a claim or line already processed',
  '55': 'assigned to an approver or analyst',
  '56': 'awaiting eligibility determination',
  '57': 'pending: COBRA information requested',
  '59': 'information was requested by a non-electronic method (another status code says what)',
  '60': 'information was requested electronically (another status code says what)',
  '61': 'eligibility for extended benefits',
  '64': 'repricing information',
  '65': 'the claim or line has been paid',
  '66': 'the payment reflects usual and customary charges',
  '72': 'the claim contains a split payment',
  '73': 'paid to the entity: no assignment of benefits on file',
  '78': 'duplicate of a claim or line already awaiting processing',
  '81': 'the contract or plan does not cover pre-existing conditions',
  '83': 'no coverage for newborns',
  '84': 'the service was not authorized',
  '85': 'the entity is not the primary payer',
  '86': "the diagnosis does not match the patient's gender",
  '88': 'the entity is not eligible for benefits on the dates of service',
  '89': 'the entity is not eligible for dental benefits on the dates of service',
  '90': 'the entity is not eligible for medical benefits on the dates of service',
  '91': 'the entity is not eligible or not approved for the dates of service',
  '92': 'the entity does not meet the dependent or student qualification',
  '93': 'the entity is not the selected primary care provider',
  '94': 'the entity was not referred by the selected primary care provider',
  '95': 'the additional information requested was not received',
  '96': 'no agreement with the entity',
  '97': "the patient's eligibility was not found with the entity",
  '98': 'charges applied to the deductible',
  '99': 'pre-treatment review',
  '100': 'pre-certification penalty taken',
  '101': 'processed as an adjustment to a previous claim',
  '102': "the newborn's charges were processed on the mother's claim",
  '103': 'combined with other claims',
  '104': 'processed according to the plan provisions (between the plan and the patient)',
  '105': 'the claim or line is capitated',
  '106': "this amount is not the entity's responsibility",
  '107': 'processed according to the contract provisions (between the plan and the provider)',
  '109': 'the entity is not eligible',
  '110': 'the claim needs pricing information',
  '111': "at the policyholder's request these claims cannot be submitted electronically",
  '114': 'the claim or service should be processed by the entity',
  '116': 'the claim was submitted to the wrong payer',
  '117': 'the claim needs the signature-on-file indicator',
  '121': "the service line number is above the payer's maximum",
  '123': 'additional information was requested from the entity',
  '124': "the entity's name, address, phone and id number",
  '125': "the entity's name",
  '126': "the entity's address",
  '127': "the entity's communication number",
  '128': "the entity's tax id",
  '129': "the entity's Blue Cross provider id",
  '130': "the entity's Blue Shield provider id",
  '131': "the entity's Medicare provider id",
  '132': "the entity's Medicaid provider id",
  '133': "the entity's UPIN",
  '134': "the entity's TRICARE provider id",
  '135': "the entity's commercial provider id",
  '136': "the entity's health industry id number",
  '137': "the entity's plan network id",
  '138': "the entity's site id",
  '139': "the entity's HMO provider id",
  '140': "the entity's PPO id",
  '141': "the entity's ASO id",
  '142': "the entity's license or certification number",
  '143': "the entity's state license number",
  '144': "the entity's specialty license number",
  '145': "the entity's specialty or taxonomy code",
  '146': "the entity's anesthesia license number",
  '147': "the entity's qualification degree or designation (RN, PhD, MD…)",
  '148': "the entity's social security number",
  '149': "the entity's employer id",
  '150': "the entity's DEA number",
  '152': 'the pharmacy processor number',
  '153': "the entity's id number",
  '154': 'the relationship of the surgeon and the assistant surgeon',
  '155': "the entity's relationship to the patient",
  '156': "the patient's relationship to the subscriber",
  '157': "the entity's gender",
  '158': "the entity's date of birth",
  '159': "the entity's date of death",
  '160': "the entity's marital status",
  '161': "the entity's employment status",
  '162': "the entity's health insurance claim number (HICN)",
  '163': "the entity's policy or group number",
  '164': "the entity's contract or member number",
  '165': "the entity's employer name, address and phone",
  '166': "the entity's employer name",
  '167': "the entity's employer address",
  '168': "the entity's employer phone number",
  '170': "the entity's employee id",
  '171': 'other insurance coverage information (health, liability, auto…)',
  '172': 'the other employer name, address and phone',
  '173':
    "the entity's name, address, phone, gender, date of birth, marital and employment status and relationship to the subscriber",
  '174': "the entity's student status",
  '175': "the entity's school name",
  '176': "the entity's school address",
  '177': "the transplant recipient's name, date of birth, gender and relationship to the insured",
  '178': 'the submitted charges',
  '179': 'the outside lab charges',
  '180': "the hospital's semi-private room rate",
  '181': "the hospital's room rate",
  '182': "the amount allowed or paid by the entity's coverage",
  '183': 'the amount the entity has paid',
  '184': 'the purchase price of the rented durable medical equipment',
  '185': 'the rental price of the durable medical equipment',
  '186': 'the purchase and rental price of the durable medical equipment',
  '187': 'the dates of service',
  '188': 'the statement from and through dates',
  '189': 'the facility admission date',
  '190': 'the facility discharge date',
  '191': 'the date of the last menstrual period',
  '192': 'the date of the first service for the current series, symptom or illness',
  '193': 'the date of the first consultation or evaluation',
  '194': 'the confinement dates',
  '195': 'the unable-to-work or disability dates',
  '196': 'the return-to-work dates',
  '197': 'the effective coverage dates',
  '198': 'the Medicare effective date',
  '199': 'the date of conception and the expected date of delivery',
  '200': 'the date the equipment was returned',
  '201': 'the date the earlier dental appliance was placed',
  '202': 'the date of the earlier dental replacement and the reason for replacing it',
  '203': 'the date the dental appliance was placed',
  '204': 'the date the dental canals were opened and the date the service was completed',
  '205': 'the dates root canal therapy was done before',
  '206': 'the latest date of curettage, root planing or periodontal surgery',
  '207': 'the dental impression and seating date',
  '208': 'the latest date a pacemaker was implanted',
  '209': 'the latest pacemaker battery change date',
  '210': 'the date of the last x-ray',
  '211': 'the dates of dialysis training given to the patient',
  '212': 'the date of the last routine dialysis',
  '213': 'the date of the first routine dialysis',
  '214': 'the original date of the prescription, orders or referral',
  '215': 'the date of the tooth extraction or evolution',
  '216': 'drug information',
  '217': 'the drug name, strength and dosage form',
  '218': 'the NDC number',
  '219': 'the prescription number',
  '222': 'the drug dispensing units and average wholesale price (AWP)',
  '223': 'the route of drug or myelogram administration',
  '224': 'the anatomical location of the joint injection',
  '225': 'the anatomical location',
  '226': 'the joint injection site',
  '227': 'hospital information',
  '228': 'the type of bill of a UB claim',
  '229': 'the hospital admission source',
  '230': 'the hospital admission hour',
  '231': 'the hospital admission type',
  '232': 'the admitting diagnosis',
  '233': 'the hospital discharge hour',
  '234': 'the patient discharge status',
  '235': 'the units of blood furnished',
  '236': 'the units of blood replaced',
  '237': 'the units of deductible blood',
  '238': 'a separate claim for the mother and baby charges',
  '239': 'dental information',
  '240': 'the tooth surfaces involved',
  '241': 'the list of all missing teeth (upper and lower)',
  '242': 'the tooth numbers, surfaces or quadrants involved',
  '243': 'the months of dental treatment remaining',
  '244': 'the tooth number or letter',
  '245': 'the dental quadrant or arch',
  '246': 'the orthodontic service, appliance and monthly fees and the length of service',
  '247': 'line information',
  '249': 'the place of service',
  '250': 'the type of service',
  '251': 'the total anesthesia minutes',
  '252': "the entity's prior authorization or certification number",
  '254': 'the principal diagnosis code',
  '255': 'the diagnosis code',
  '256': 'the DRG codes',
  '257': 'the ADSM-III-R code of the services',
  '258': 'the days or units of the procedure or revenue code',
  '259': 'the frequency of service',
  '260': 'the length of medical necessity, with its start date',
  '261': 'the obesity measurements',
  '262': 'the type of surgery or service the anesthesia was given for',
  '263': 'the length of time of the services',
  '264': 'the liters per minute and hours per day of respiratory support',
  '265': 'the number of lesions excised',
  '266': 'the ambulance point of origin and destination',
  '267': 'the number of miles the patient was transported',
  '268': 'where the durable medical equipment is used',
  '269': 'the length or size of the laceration or tumor',
  '270': 'the subluxation location',
  '271': 'the number of spine segments',
  '272': 'the oxygen contents of the oxygen system rental',
  '273': 'the weight',
  '274': 'the height',
  '275': 'the claim',
  '276': 'the UB-04/HCFA-1450/1500 claim form',
  '277': 'a paper claim',
  '279': 'the claim or service must be itemized',
  '281': 'the related confinement claim',
  '282': 'a copy of the prescription',
  '283': 'Medicare entitlement information, to determine the primary coverage',
  '284': 'a copy of the Medicare ID card',
  '286': "the other payer's explanation of benefits or payment information",
  '287': 'the medical necessity of the service',
  '288': 'the hospital late charges',
  '290': 'pre-existing condition information',
  '291': 'the reason for the termination of pregnancy',
  '292': 'the purpose of the family conference or therapy',
  '293': 'the reason for the physical therapy',
  '294': 'supporting documentation (another status code says which)',
  '295': "the attending physician's report",
  '296': "the nurse's notes",
  '297': 'the medical notes or report',
  '298': 'the operative report',
  '299': 'the emergency room notes or report',
  '300': 'the lab or test report, notes or results',
  '400': 'the claim is out of balance',
  '401': 'the source of payment is not valid',
  '454': 'the procedure code of the services',
  '455': 'the revenue code of the services',
  '464': 'the payer-assigned claim control number',
  '476': 'missing or invalid units of service',
  '477': 'the diagnosis code pointer is missing or invalid',
  '481': 'the claim or submission format is invalid',
  '484': 'the business application is not available right now',
  '487': 'the claim was not found: it should have been sent to or through the entity',
  '488': 'the diagnosis codes of the services',
  '496': 'the submitter is not approved to send electronic claims for this entity',
  '562': "the entity's National Provider Identifier (NPI)",
  '584': 'the line item control number',
  '684': 'rejected for a syntax error: see the 999 implementation acknowledgment',
  '685': 'could not finish adjudication in real time, continues in batch: do not resubmit',
  '686': 'adjudication complete and the whole claim has been voided',
  '717': 'the claim has been split for processing',
  '718': 'not submitted within the timely filing limit',
  '732': 'the information sent is inconsistent with the billing guidelines (another status code says which)',
  '735': 'included in the allowance for another service or claim',
  '736': 'a related or qualifying service or claim has not been received or adjudicated',
  '779': 'the same or a similar service was billed within a set time frame',
});

/** The entity identifier codes (STC01-3) a claim status names most, in our words. */
export const ENTITY_IDENTIFIER_CODES: Readonly<Record<string, string>> = Object.freeze({
  PR: 'payer',
  '41': 'submitter',
  '40': 'receiver',
  '1P': 'provider',
  '85': 'billing provider',
  '87': 'pay-to provider',
  '82': 'rendering provider',
  DK: 'ordering provider',
  DN: 'referring provider',
  '71': 'attending physician',
  '72': 'operating physician',
  '77': 'service location',
  FA: 'facility',
  IL: 'subscriber',
  QC: 'patient',
  '03': 'dependent',
  GB: 'other insured',
  AY: 'clearinghouse',
  PRP: 'primary payer',
  SEP: 'secondary payer',
  TTP: 'tertiary payer',
});

/** An own entry of a code table: a code such as 'constructor' must not find Object.prototype's. */
function lookup<T>(table: Readonly<Record<string, T>>, code: string): T | undefined {
  return Object.hasOwn(table, code) ? table[code] : undefined;
}

/* ---------------------------------------------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------------------------------------------- */

/**
 * An X12 date (data type DT, CCYYMMDD) as an ISO day, checked against the calendar: 20260230 is the payer's error,
 * named by its element, not a value for the database to refuse. '' is null.
 */
function dateOf(value: string, element: string, position: number): string | null {
  if (value === '') return null;
  const date = parseX12Date(value);
  if (!date.ok) {
    throw new ClaimStatusError('BAD_DATE', position, `${element}: "${value}" ${date.problem} (segment ${position})`);
  }
  return date.value;
}

/**
 * A decimal amount (X12 data type R) as integer cents, read as text and never through a float. A fraction of a
 * cent is refused unless its digits are 0, and so is an amount above $10,000,000.00. A sign is taken only where a
 * negative amount means something (a payment taken back); '' is null.
 */
function centsOf(value: string, element: string, position: number, signed: boolean): number | null {
  if (value === '') return null;
  const amount = parseX12Amount(value, {
    maxCents: MAX_STATUS_AMOUNT_CENTS,
    sign: signed ? 'allowed' : 'unsigned',
    overlong: 'limit',
  });
  if (!amount.ok) {
    throw new ClaimStatusError(
      'BAD_AMOUNT',
      position,
      `${element}: "${value}" ${amount.problem} (segment ${position})`,
    );
  }
  return amount.value;
}

/* ---------------------------------------------------------------------------------------------------------------
 * Writing the 276
 * ------------------------------------------------------------------------------------------------------------- */

/** A person's name in NM1 parts, as the 837P writer takes it (PersonName837). */
export interface PersonName276 {
  lastName: string;
  firstName: string;
  middleName: string;
  suffix: string;
}

/** DMG03, administrative gender: female, male, unknown. */
export type Sex276 = 'F' | 'M' | 'U';

/**
 * The interchange and group, named as the 837P's Envelope837: the same clearinghouse ids and control number
 * sequences serve both. A 276 is one transaction set, so it has one ST control number.
 */
export interface Envelope276 {
  /** ISA13, 1–999999999. */
  interchangeControlNumber: number;
  /** GS06. */
  groupControlNumber: number;
  /** ST02, 4–9 characters. */
  setControlNumber: string;
  /** CCYYMMDD: GS04, BHT04, and ISA09 as YYMMDD. */
  date: string;
  /** HHMM: ISA10, GS05, BHT05. */
  time: string;
  /** ISA15: T test, P production. */
  usage: 'T' | 'P';
  /** BHT03: the originator's reference of the request, 1–50 characters (the 277 echoes it in its own BHT03). */
  reference: string;
  submitter: {
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

/** Loop 2100A: the payer, the information source the 276 asks. */
export interface Payer276 {
  /** NM103. */
  name: string;
  /** NM109 with qualifier PI: the payer's electronic id. */
  payerId: string;
}

/** Loop 2100B: the information receiver, the clinic as the submitter of the request. */
export interface InformationReceiver276 {
  /** NM103, an organization (NM102 2). */
  name: string;
  /** NM109: the submitter id the clearinghouse or payer assigned. */
  id: string;
  /** NM108: 46 electronic transmitter id (default), FI federal tax id, XX NPI. */
  idQualifier?: '46' | 'FI' | 'XX';
}

/** Loop 2100C: the service provider whose claims are asked about (the billing provider of the 837P). */
export interface ServiceProvider276 {
  /** NM103, an organization (NM102 2). */
  name: string;
  /** NM109 with qualifier XX: 10 digits. */
  npi: string;
}

/** Loops 2000D/2100D: the subscriber of the policy billed. */
export interface Subscriber276 {
  name: PersonName276;
  /** NM109 with qualifier MI. */
  memberId: string;
  /** YYYY-MM-DD: DMG, required when the subscriber is the patient (no dependent), and not written otherwise. */
  dob: string | null;
  sex: Sex276 | null;
}

/** Loops 2000E/2100E: the patient, when not the subscriber. */
export interface Dependent276 {
  name: PersonName276;
  /** YYYY-MM-DD. */
  dob: string;
  sex: Sex276;
}

/** One claim asked about (loop 2200D, or 2200E under a dependent). */
export interface ClaimInquiry276 {
  /** TRN02, 1–50 characters: the 277 echoes it (its TRN02), which is how an answer is matched to its claim. */
  traceNumber: string;
  subscriber: Subscriber276;
  /** The patient when not the subscriber; null when the subscriber is the patient. */
  dependent: Dependent276 | null;
  /** REF*EJ: the patient control number, CLM01 of the claim sent. */
  accountNumber: string;
  /** REF*1K: the payer's claim control number, when its 277CA or 835 gave one. */
  payerClaimNumber: string | null;
  /** AMT*T3: the claim's total charge, CLM02. */
  chargeCents: number;
  /** DTP*472: the first day of service, YYYY-MM-DD. */
  serviceFrom: string;
  /** The last day of service; null (or serviceFrom) for a one-day claim. */
  serviceTo: string | null;
}

export interface ClaimStatusRequest276 {
  envelope: Envelope276;
  payer: Payer276;
  informationReceiver: InformationReceiver276;
  serviceProvider: ServiceProvider276;
  /** In file order; at least one. */
  claims: readonly ClaimInquiry276[];
}

export interface Build276Options extends X12WriteOptions {
  /** Default X12_DEFAULT_DELIMITERS: * ^ : ~. */
  delimiters?: X12Delimiters;
}

function inputError(element: string, problem: string, where: string): ClaimStatusError {
  return new ClaimStatusError('BAD_INPUT', 0, `${element}: ${problem} (${where})`);
}

/** An identifier as it must be sent: not blank, not longer than its element. It is not altered. */
function identifier(element: string, value: string, what: string, max: number, where: string): string {
  if (value.trim() === '') throw inputError(element, `${what} is blank`, where);
  if (value.length > max) throw inputError(element, `${what} "${value}" is longer than ${max} characters`, where);
  return value;
}

/** Free text (a name) cleaned of delimiters and control characters; refused when blank once cleaned. */
function cleanText(element: string, value: string, what: string, max: number, where: string, d: X12Delimiters): string {
  const cleaned = x12Text(value, d);
  if (cleaned === '') throw inputError(element, `${what} is blank`, where);
  if (cleaned.length > max) throw inputError(element, `${what} "${cleaned}" is longer than ${max} characters`, where);
  return cleaned;
}

/** YYYY-MM-DD as CCYYMMDD, checked to be a day of the calendar. */
function x12Day(element: string, value: string, what: string, where: string): string {
  const day = formatX12Date(value);
  if (!day.ok) throw inputError(element, `${what} "${value}" ${day.problem}`, where);
  return day.value;
}

/**
 * Cents as an X12 decimal (R type) as the 837P writes it: no trailing zeros after the point, no point for whole
 * dollars (19550 → '195.5', 11000 → '110', 5 → '.05', 0 → '0').
 */
function amountText(element: string, cents: number, where: string): string {
  const amount = formatX12Amount(cents, { maxCents: MAX_STATUS_AMOUNT_CENTS });
  if (!amount.ok) throw inputError(element, amount.problem, where);
  return amount.value;
}

const SEXES: ReadonlySet<string> = new Set(['F', 'M', 'U']);

function sexOf(element: string, value: string | null, where: string): string {
  if (value === null || !SEXES.has(value)) {
    throw inputError(element, `the gender must be F, M or U, not ${value === null ? 'null' : `"${value}"`}`, where);
  }
  return value;
}

/** NM1 of a person: the last name is required, the other parts are cleaned free text. */
function personNm1(
  entity: string,
  name: PersonName276,
  where: string,
  d: X12Delimiters,
  idQualifier = '',
  id = '',
): X12SegmentInput {
  const parts = {
    lastName: cleanText('NM103', name.lastName, 'the last name', 60, where, d),
    firstName: x12Text(name.firstName, d),
    middleName: x12Text(name.middleName, d),
    suffix: x12Text(name.suffix, d),
  };
  return personNm1Segment(entity, parts, idQualifier, id);
}

function organizationNm1(entity: string, name: string, idQualifier: string, id: string): X12SegmentInput {
  return { id: 'NM1', elements: [entity, '2', name, '', '', '', '', idQualifier, id] };
}

/** Loop 2200D/2200E: the claim asked about, in the guide's order (TRN, REF*1K, REF*EJ, AMT*T3, DTP*472). */
function inquirySegments(claim: ClaimInquiry276, where: string): X12SegmentInput[] {
  const segments: X12SegmentInput[] = [
    // TRN01 1: current transaction trace number, ours; the 277 echoes TRN02 with TRN01 2.
    { id: 'TRN', elements: ['1', identifier('TRN02', claim.traceNumber, 'the trace number', 50, where)] },
  ];
  if (claim.payerClaimNumber !== null && claim.payerClaimNumber !== '') {
    segments.push({
      id: 'REF',
      elements: ['1K', identifier('REF02', claim.payerClaimNumber, 'the payer claim control number', 50, where)],
    });
  }
  segments.push({
    id: 'REF',
    elements: ['EJ', identifier('REF02', claim.accountNumber, 'the patient account number', 50, where)],
  });
  segments.push({ id: 'AMT', elements: ['T3', amountText('AMT02', claim.chargeCents, where)] });
  const from = x12Day('DTP03', claim.serviceFrom, 'the first day of service', where);
  const to = x12Day('DTP03', claim.serviceTo ?? claim.serviceFrom, 'the last day of service', where);
  if (to < from) {
    throw inputError('DTP03', `the service ends ${claim.serviceTo} before it starts ${claim.serviceFrom}`, where);
  }
  // RD8 even for one day (from = through): 005010X212 loop 2200D gives the claim service date as a range.
  segments.push({ id: 'DTP', elements: ['472', 'RD8', `${from}-${to}`] });
  return segments;
}

/**
 * The whole 276 file: ISA, GS (HR), one ST…SE (005010X212) asking about every claim, GE, IEA, one segment per line
 * unless `newline: false`. The hierarchy is the guide's: the payer (2000A, HL 20), the clinic as information
 * receiver (2000B, HL 21), its service provider (2000C, HL 19), then each claim under its own subscriber level
 * (2000D, HL 22) and, when the patient is a dependent, a dependent level (2000E, HL 23). The same input always gives
 * the same bytes.
 *
 * Throws ClaimStatusError (BAD_INPUT) for a value that cannot be written, naming the element and the claim, and
 * X12Error (BAD_VALUE, ENVELOPE_FIELD) when an id holds a delimiter or an envelope field does not fit.
 */
export function build276(input: ClaimStatusRequest276, options: Build276Options = {}): string {
  const d = options.delimiters ?? X12_DEFAULT_DELIMITERS;
  const env = input.envelope;
  if (input.claims.length === 0) throw inputError('TRN', 'a 276 needs at least one claim to ask about', 'loop 2200D');
  if (!parseX12Date(env.date).ok) {
    throw inputError('BHT04', `the date "${env.date}" is not a calendar date CCYYMMDD`, 'envelope');
  }
  if (!/^([01]\d|2[0-3])[0-5]\d$/.test(env.time)) {
    throw inputError('BHT05', `the time "${env.time}" is not HHMM`, 'envelope');
  }
  const receiverQualifier = input.informationReceiver.idQualifier ?? '46';
  if (!/^\d{10}$/.test(input.serviceProvider.npi)) {
    throw inputError('NM109', `the NPI "${input.serviceProvider.npi}" is not 10 digits`, 'loop 2100C');
  }
  const segments: X12SegmentInput[] = [
    // BHT01 0010: information source, receiver, provider, subscriber, dependent; BHT02 13: request.
    {
      id: 'BHT',
      elements: ['0010', '13', identifier('BHT03', env.reference, 'the reference', 50, 'envelope'), env.date, env.time],
    },
    { id: 'HL', elements: ['1', '', '20', '1'] },
    organizationNm1(
      'PR',
      cleanText('NM103', input.payer.name, 'the payer name', 60, 'loop 2100A', d),
      'PI',
      identifier('NM109', input.payer.payerId, 'the payer id', 80, 'loop 2100A'),
    ),
    { id: 'HL', elements: ['2', '1', '21', '1'] },
    organizationNm1(
      '41',
      cleanText('NM103', input.informationReceiver.name, 'the information receiver name', 60, 'loop 2100B', d),
      receiverQualifier,
      identifier('NM109', input.informationReceiver.id, 'the information receiver id', 80, 'loop 2100B'),
    ),
    { id: 'HL', elements: ['3', '2', '19', '1'] },
    organizationNm1(
      '1P',
      cleanText('NM103', input.serviceProvider.name, 'the service provider name', 60, 'loop 2100C', d),
      'XX',
      input.serviceProvider.npi,
    ),
  ];
  let hl = 4;
  input.claims.forEach((claim, i) => {
    const where = `claim ${i + 1}, trace ${claim.traceNumber === '' ? '(blank)' : claim.traceNumber}`;
    const subscriberHl = hl++;
    const { subscriber, dependent } = claim;
    // HL04: 1 when a dependent level follows, 0 when the subscriber is the patient.
    segments.push({ id: 'HL', elements: [String(subscriberHl), '3', '22', dependent ? '1' : '0'] });
    // 2000D DMG: the subscriber's demographics, only when the subscriber is the patient.
    if (!dependent) {
      if (subscriber.dob === null) throw inputError('DMG02', "the subscriber's date of birth is missing", where);
      segments.push({
        id: 'DMG',
        elements: [
          'D8',
          x12Day('DMG02', subscriber.dob, "the subscriber's date of birth", where),
          sexOf('DMG03', subscriber.sex, where),
        ],
      });
    }
    segments.push(
      personNm1(
        'IL',
        subscriber.name,
        where,
        d,
        'MI',
        identifier('NM109', subscriber.memberId, 'the member id', 80, where),
      ),
    );
    if (dependent) {
      segments.push({ id: 'HL', elements: [String(hl++), String(subscriberHl), '23'] });
      segments.push({
        id: 'DMG',
        elements: [
          'D8',
          x12Day('DMG02', dependent.dob, "the patient's date of birth", where),
          sexOf('DMG03', dependent.sex, where),
        ],
      });
      segments.push(personNm1('QC', dependent.name, where, d));
    }
    segments.push(...inquirySegments(claim, where));
  });
  return envelope(
    {
      delimiters: d,
      isa: {
        senderQualifier: env.submitter.qualifier,
        senderId: env.submitter.id,
        receiverQualifier: env.receiver.qualifier,
        receiverId: env.receiver.id,
        date: env.date.slice(2),
        time: env.time,
        controlNumber: env.interchangeControlNumber,
        ackRequested: '0',
        usage: env.usage,
      },
      gs: {
        // HR: health care claim status request.
        functionalId: 'HR',
        senderId: env.submitter.id,
        receiverId: env.receiver.id,
        date: env.date,
        time: env.time,
        controlNumber: env.groupControlNumber,
        version: CLAIM_STATUS_IMPLEMENTATION,
      },
      sets: [
        {
          id: '276',
          controlNumber: env.setControlNumber,
          implementation: CLAIM_STATUS_IMPLEMENTATION,
          segments,
        },
      ],
    },
    options,
  );
}

/* ---------------------------------------------------------------------------------------------------------------
 * Reading the 277
 * ------------------------------------------------------------------------------------------------------------- */

/** One status composite (C043: STC01, STC10 or STC11): category, status code, entity. */
export interface StatusCode277 {
  /** As written, e.g. 'F1:65:PR'. */
  raw: string;
  /** C043-01, e.g. 'F1'. */
  category: string;
  categoryMeaning: string | null;
  outcome: ClaimStatusOutcome;
  needsAction: boolean;
  /** C043-02, e.g. '65'. */
  code: string;
  codeMeaning: string | null;
  /** C043-03, e.g. 'PR'; null when not sent. */
  entity: string | null;
  entityMeaning: string | null;
  /** C043-04, the code list qualifier (an NCPDP reject code list, say); null when not sent. */
  codeListQualifier: string | null;
  /** In words: 'F1:65:PR Finalized: paid — the claim or line has been paid (payer)'. */
  message: string;
}

/** One STC segment: a status of the claim (loop 2200D/2200E) or of a service line (2220D/2220E). */
export interface ClaimStatus277 {
  /** The STC's segment position. */
  position: number;
  /** STC01, then STC10 and STC11 when sent: the same status may name up to three reasons. */
  codes: StatusCode277[];
  /** STC02: the day the status took effect. */
  effectiveDate: string | null;
  /** STC03: action code, as sent. */
  actionCode: string | null;
  /** STC04: the total claim charge (the line charge at line level), when sent. */
  chargeCents: number | null;
  /** STC05: the claim payment amount, when sent (negative when the payer takes money back). */
  paidCents: number | null;
  /** STC06: the adjudication or finalized date. */
  adjudicatedOn: string | null;
  /** STC07: payment method code (ACH, BOP, CHK, FWT, NON), as sent. */
  paymentMethod: string | null;
  /** STC08: the check issue or EFT effective date. */
  checkIssuedOn: string | null;
  /** STC09: the check or EFT trace number (the 835's TRN02). */
  checkNumber: string | null;
  /** STC12: free text, when the payer sent any. */
  freeText: string | null;
  /** STC01's. */
  outcome: ClaimStatusOutcome;
  /** Whether any of STC01, STC10, STC11 needs a person. */
  needsAction: boolean;
  /** Each code's message, '; ' between, then STC12's text after ' — '. */
  message: string;
}

/** An NM1 of the hierarchy (loops 2100A–2100E). */
export interface Party277 {
  /** NM103: a last name or an organization's name. */
  name: string;
  /** NM104; null for an organization or when not sent. */
  firstName: string | null;
  /** NM108, e.g. PI, 46, XX, MI; null when not sent. */
  idQualifier: string | null;
  /** NM109; null when not sent. */
  id: string | null;
  position: number;
}

/** A service line status (loop 2220D/2220E). */
export interface ServiceLineStatus277 {
  /** The SVC's segment position. */
  position: number;
  /** SVC01-1: HC (CPT/HCPCS), NU (revenue code), … */
  qualifier: string;
  /** SVC01-2. */
  procedureCode: string;
  /** SVC01-3…6, those sent. */
  modifiers: string[];
  /** SVC02: the line's charge. */
  chargeCents: number;
  /** SVC03: what the payer paid on the line, when sent. */
  paidCents: number | null;
  /** SVC04: the revenue code, when sent. */
  revenueCode: string | null;
  /** SVC07: the units of service, when sent. */
  units: number | null;
  /** REF*FJ: the line item control number sent (REF*6R of the 837P line). */
  lineControlNumber: string | null;
  /** DTP*472. */
  serviceFrom: string | null;
  serviceTo: string | null;
  statuses: ClaimStatus277[];
  /** The status in force: the latest STC02, the first written on a tie. */
  current: ClaimStatus277;
  outcome: ClaimStatusOutcome;
  needsAction: boolean;
}

/** The payer's answer about one claim (loop 2200D, or 2200E under a dependent). */
export interface ClaimStatusAnswer277 {
  /** The TRN's segment position. */
  position: number;
  /** ST02 of the transaction set it came in. */
  transactionSet: string;
  /** TRN02: the trace number of the 276 (our TRN02), echoed; several answers may share one. */
  traceNumber: string;
  /** 2200D under the subscriber, or 2200E under a dependent. */
  level: 'subscriber' | 'dependent';
  /** 2100A NM1*PR (or the clearinghouse that answers for it). */
  payer: Party277 | null;
  /** 2100B NM1*41. */
  informationReceiver: Party277 | null;
  /** 2100C NM1*1P. */
  provider: Party277 | null;
  /** 2100D NM1*IL. */
  subscriber: Party277 | null;
  /** 2100E NM1*QC for a dependent; the subscriber otherwise. */
  patient: Party277 | null;
  /** REF*1K: the payer's claim control number. */
  payerClaimNumber: string | null;
  /** REF*EJ: the patient account number, our CLM01. */
  accountNumber: string | null;
  /** REF*BLT: an institutional claim's type of bill. */
  billType: string | null;
  /** DTP*472: the claim's service dates. */
  serviceFrom: string | null;
  serviceTo: string | null;
  /** Every claim level STC, in file order. */
  statuses: ClaimStatus277[];
  /** The status in force: the latest STC02, the first written on a tie (payers write the current one first). */
  current: ClaimStatus277;
  /** The current status's. */
  outcome: ClaimStatusOutcome;
  /** The current status needs a person, or the current status of one of its service lines does. */
  needsAction: boolean;
  /** The current status in words. */
  message: string;
  lines: ServiceLineStatus277[];
}

export interface TransactionSet277 {
  /** ST02. */
  controlNumber: string;
  /** The ST's segment position. */
  position: number;
  /** BHT03: the payer's reference of the response. */
  reference: string;
  /** BHT04. */
  createdOn: string | null;
  claimCount: number;
}

export interface ClaimStatusFile277 {
  /** ISA06 and ISA13 of the first interchange: with the file's kind, what makes it the same file twice. */
  interchange: { senderId: string; controlNumber: string };
  transactionSets: TransactionSet277[];
  /** Every claim answered, in file order. */
  claims: ClaimStatusAnswer277[];
}

/** ST01 codes a file fed to read277 by mistake may hold, for the message that refuses it. */
const TRANSACTION_NAMES: Readonly<Record<string, string>> = {
  '270': 'an eligibility inquiry (270)',
  '271': 'an eligibility response (271)',
  '275': 'a patient information attachment (275)',
  '276': 'a claim status request (276)',
  '278': 'a services review or prior authorization (278)',
  '820': 'a premium payment (820)',
  '834': 'a benefit enrollment (834)',
  '835': 'a remittance advice (835, health care claim payment/advice)',
  '837': 'a claim (837)',
  '997': 'a functional acknowledgment (997)',
  '999': 'an implementation acknowledgment (999)',
};

function notA277(document: X12Document): ClaimStatusError {
  const ids = new Set<string>();
  for (const interchange of document.interchanges) {
    for (const group of interchange.groups) for (const set of group.transactionSets) ids.add(set.id);
  }
  const held = [...ids].map((id) => lookup(TRANSACTION_NAMES, id) ?? `transaction set ${id}`);
  return new ClaimStatusError(
    'NOT_277',
    0,
    `The file holds no 277 claim status response: ${held.length > 0 ? `it holds ${held.join(', ')}` : 'it holds no transaction set'}`,
  );
}

function checkVersion(element: string, value: string, position: number): void {
  if (value.startsWith(CLAIM_ACKNOWLEDGMENT_IMPLEMENTATION)) {
    throw new ClaimStatusError(
      'CLAIM_ACKNOWLEDGMENT',
      position,
      `${element}: "${value}" is a 277CA claim acknowledgment (${CLAIM_ACKNOWLEDGMENT_IMPLEMENTATION}), not a claim ` +
        `status response (${CLAIM_STATUS_IMPLEMENTATION}); read it as an acknowledgement (segment ${position})`,
    );
  }
  if (value !== CLAIM_STATUS_IMPLEMENTATION) {
    throw new ClaimStatusError(
      'UNSUPPORTED_VERSION',
      position,
      `${element}: "${value}" is not ${CLAIM_STATUS_IMPLEMENTATION}; only 277 claim status responses of ASC X12 ` +
        `${CLAIM_STATUS_IMPLEMENTATION} are read (segment ${position})`,
    );
  }
}

/** The hierarchical levels of 005010X212 (HL03), each with the level its parent must be (HL02). */
const LEVELS: Readonly<Record<string, { name: string; loop: string; parent: string | null }>> = {
  '20': { name: 'information source', loop: '2000A', parent: null },
  '21': { name: 'information receiver', loop: '2000B', parent: '20' },
  '19': { name: 'service provider', loop: '2000C', parent: '21' },
  '22': { name: 'subscriber', loop: '2000D', parent: '19' },
  '23': { name: 'dependent', loop: '2000E', parent: '22' },
};

/** The NM101 each level's 2100 loop names. */
const LEVEL_ENTITY: Readonly<Record<string, string>> = { '20': 'PR', '21': '41', '19': '1P', '22': 'IL', '23': 'QC' };

/** 'an information receiver', 'a subscriber'. */
function article(name: string): string {
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}

interface HlNode {
  id: string;
  level: string;
  parent: HlNode | null;
  position: number;
  children: number;
  claims: number;
  party: Party277 | null;
}

function ancestor(node: HlNode | null, level: string): HlNode | null {
  let at = node;
  while (at && at.level !== level) at = at.parent;
  return at;
}

function statusCodeOf(value: string, d: X12Delimiters, element: string, position: number): StatusCode277 {
  const [cat = '', code = '', entity = '', qualifier = ''] = components(value, d);
  if (cat === '') {
    throw new ClaimStatusError(
      'BAD_VALUE',
      position,
      `${element}-1: the claim status category code is blank (segment ${position})`,
    );
  }
  if (code === '') {
    throw new ClaimStatusError(
      'BAD_VALUE',
      position,
      `${element}-2: the claim status code is blank (segment ${position})`,
    );
  }
  const known = lookup(CLAIM_STATUS_CATEGORIES, cat);
  const codeMeaning = lookup(CLAIM_STATUS_CODES, code) ?? null;
  const entityMeaning = entity === '' ? null : (lookup(ENTITY_IDENTIFIER_CODES, entity) ?? null);
  const entityText = entity === '' ? '' : ` (${entityMeaning ?? `entity ${entity}`})`;
  return {
    raw: value,
    category: cat,
    categoryMeaning: known?.meaning ?? null,
    outcome: known?.outcome ?? 'unknown',
    // A category this reader cannot interpret is left to a person rather than taken as good news.
    needsAction: known?.needsAction ?? true,
    code,
    codeMeaning,
    entity: entity === '' ? null : entity,
    entityMeaning,
    codeListQualifier: qualifier === '' ? null : qualifier,
    message: `${value} ${known?.meaning ?? `status category ${cat}`} — ${codeMeaning ?? `status code ${code}`}${entityText}`,
  };
}

function claimStatusOf(stc: X12Segment, d: X12Delimiters): ClaimStatus277 {
  const at = stc.position;
  const e = (n: number) => elementOf(stc, n);
  const codes = [statusCodeOf(e(1), d, 'STC01', at)];
  if (e(10) !== '') codes.push(statusCodeOf(e(10), d, 'STC10', at));
  if (e(11) !== '') codes.push(statusCodeOf(e(11), d, 'STC11', at));
  const freeText = e(12).trim() === '' ? null : e(12).trim();
  const first = codes[0]!;
  return {
    position: at,
    codes,
    effectiveDate: dateOf(e(2), 'STC02', at),
    actionCode: e(3) === '' ? null : e(3),
    chargeCents: centsOf(e(4), 'STC04', at, false),
    paidCents: centsOf(e(5), 'STC05', at, true),
    adjudicatedOn: dateOf(e(6), 'STC06', at),
    paymentMethod: e(7) === '' ? null : e(7),
    checkIssuedOn: dateOf(e(8), 'STC08', at),
    checkNumber: e(9) === '' ? null : e(9),
    freeText,
    outcome: first.outcome,
    needsAction: codes.some((c) => c.needsAction),
    message: codes.map((c) => c.message).join('; ') + (freeText ? ` — ${freeText}` : ''),
  };
}

/** The status in force among several: the latest STC02; on a tie (or none dated) the first written. */
function currentOf(statuses: readonly ClaimStatus277[]): ClaimStatus277 {
  let best = statuses[0]!;
  for (const status of statuses) if ((status.effectiveDate ?? '') > (best.effectiveDate ?? '')) best = status;
  return best;
}

/** DTP*472: D8 one day or RD8 a range, checked against the calendar and in order. */
function serviceDatesOf(dtp: X12Segment): { from: string; to: string } {
  const at = dtp.position;
  const format = elementOf(dtp, 2);
  const value = elementOf(dtp, 3);
  if (format === 'D8') {
    const day = dateOf(value, 'DTP03', at);
    if (day === null) throw new ClaimStatusError('BAD_DATE', at, `DTP03: the date of service is blank (segment ${at})`);
    return { from: day, to: day };
  }
  if (format === 'RD8') {
    const [fromText = '', toText = '', ...rest] = value.split('-');
    if (rest.length > 0 || fromText === '' || toText === '') {
      throw new ClaimStatusError(
        'BAD_DATE',
        at,
        `DTP03: "${value}" is not a range of dates CCYYMMDD-CCYYMMDD (segment ${at})`,
      );
    }
    const from = dateOf(fromText, 'DTP03', at)!;
    const to = dateOf(toText, 'DTP03', at)!;
    if (to < from) {
      throw new ClaimStatusError('BAD_DATE', at, `DTP03: "${value}" ends before it starts (segment ${at})`);
    }
    return { from, to };
  }
  throw new ClaimStatusError(
    'BAD_VALUE',
    at,
    `DTP02: "${format}" is not D8 or RD8, the formats of a date of service (segment ${at})`,
  );
}

interface LineDraft {
  svc: X12Segment;
  qualifier: string;
  procedureCode: string;
  modifiers: string[];
  chargeCents: number;
  paidCents: number | null;
  revenueCode: string | null;
  units: number | null;
  lineControlNumber: string | null;
  serviceFrom: string | null;
  serviceTo: string | null;
  statuses: ClaimStatus277[];
}

interface ClaimDraft {
  trn: X12Segment;
  node: HlNode;
  payerClaimNumber: string | null;
  accountNumber: string | null;
  billType: string | null;
  serviceFrom: string | null;
  serviceTo: string | null;
  statuses: ClaimStatus277[];
  lines: ServiceLineStatus277[];
}

function lineOf(svc: X12Segment, d: X12Delimiters): LineDraft {
  const at = svc.position;
  const [qualifier = '', procedureCode = '', ...modifiers] = components(elementOf(svc, 1), d);
  if (qualifier === '' || procedureCode === '') {
    throw new ClaimStatusError(
      'BAD_VALUE',
      at,
      `SVC01: "${elementOf(svc, 1)}" names no product or service (qualifier:code) (segment ${at})`,
    );
  }
  const charge = centsOf(elementOf(svc, 2), 'SVC02', at, false);
  if (charge === null) throw new ClaimStatusError('BAD_AMOUNT', at, `SVC02: "" is not an amount (segment ${at})`);
  const unitsText = elementOf(svc, 7);
  if (unitsText !== '' && !/^\d+(\.\d+)?$/.test(unitsText)) {
    throw new ClaimStatusError('BAD_VALUE', at, `SVC07: "${unitsText}" is not a number of units (segment ${at})`);
  }
  return {
    svc,
    qualifier,
    procedureCode,
    modifiers: modifiers.slice(0, 4).filter((m) => m !== ''),
    chargeCents: charge,
    paidCents: centsOf(elementOf(svc, 3), 'SVC03', at, true),
    revenueCode: elementOf(svc, 4) === '' ? null : elementOf(svc, 4),
    units: unitsText === '' ? null : Number(unitsText),
    lineControlNumber: null,
    serviceFrom: null,
    serviceTo: null,
    statuses: [],
  };
}

/**
 * The claims of one 277 (005010X212) transaction set, in one pass: the hierarchy (HL) is checked as it comes, each
 * TRN opens a claim (2200D/2200E), each SVC a service line (2220D/2220E), and a claim or line closes at the next
 * TRN, SVC, HL or the end of the set. Lookups go through maps, so a 277 of any size reads in linear time.
 */
function readSet(
  segments: readonly X12Segment[],
  d: X12Delimiters,
  controlNumber: string,
): { claims: ClaimStatusAnswer277[]; reference: string; createdOn: string | null } {
  const claims: ClaimStatusAnswer277[] = [];
  const nodes = new Map<string, HlNode>();
  let node: HlNode | null = null;
  let claim: ClaimDraft | null = null;
  let line: LineDraft | null = null;
  let reference = '';
  let createdOn: string | null = null;

  const closeLine = () => {
    if (!line || !claim) return;
    if (line.statuses.length === 0) {
      throw new ClaimStatusError(
        'STRUCTURE',
        line.svc.position,
        `The service line at segment ${line.svc.position} has no STC: loop 2220D/2220E needs the line's status`,
      );
    }
    const current = currentOf(line.statuses);
    const { svc, ...rest } = line;
    claim.lines.push({
      position: svc.position,
      ...rest,
      current,
      outcome: current.outcome,
      needsAction: current.needsAction,
    });
    line = null;
  };
  const closeClaim = () => {
    closeLine();
    if (!claim) return;
    const { trn, node: at } = claim;
    if (claim.statuses.length === 0) {
      throw new ClaimStatusError(
        'STRUCTURE',
        trn.position,
        `The claim with trace number "${elementOf(trn, 2)}" (TRN at segment ${trn.position}) has no STC: loop ` +
          `2200${at.level === '22' ? 'D' : 'E'} needs at least one claim level status`,
      );
    }
    const current = currentOf(claim.statuses);
    const subscriber = ancestor(at, '22')?.party ?? null;
    claims.push({
      position: trn.position,
      transactionSet: controlNumber,
      traceNumber: elementOf(trn, 2),
      level: at.level === '22' ? 'subscriber' : 'dependent',
      payer: ancestor(at, '20')?.party ?? null,
      informationReceiver: ancestor(at, '21')?.party ?? null,
      provider: ancestor(at, '19')?.party ?? null,
      subscriber,
      patient: at.level === '23' ? at.party : subscriber,
      payerClaimNumber: claim.payerClaimNumber,
      accountNumber: claim.accountNumber,
      billType: claim.billType,
      serviceFrom: claim.serviceFrom,
      serviceTo: claim.serviceTo,
      statuses: claim.statuses,
      current,
      outcome: current.outcome,
      needsAction: current.needsAction || claim.lines.some((l) => l.needsAction),
      message: current.message,
      lines: claim.lines,
    });
    claim = null;
  };

  for (const s of segments) {
    const at = s.position;
    const e = (n: number) => elementOf(s, n);
    switch (s.id) {
      case 'BHT':
        reference = e(3);
        createdOn = dateOf(e(4), 'BHT04', at);
        break;
      case 'HL': {
        closeClaim();
        const id = e(1);
        const level = e(3);
        const spec = lookup(LEVELS, level);
        if (id === '') throw new ClaimStatusError('STRUCTURE', at, `HL01: the level's id is blank (segment ${at})`);
        if (nodes.has(id)) {
          throw new ClaimStatusError('STRUCTURE', at, `HL01: "${id}" is used by an earlier HL (segment ${at})`);
        }
        if (!spec) {
          throw new ClaimStatusError(
            'STRUCTURE',
            at,
            `HL03: "${level}" is not a level of a ${CLAIM_STATUS_IMPLEMENTATION} 277 (20, 21, 19, 22, 23) (segment ${at})`,
          );
        }
        let parent: HlNode | null = null;
        if (spec.parent === null) {
          if (e(2) !== '') {
            throw new ClaimStatusError(
              'STRUCTURE',
              at,
              `HL02: the information source level (HL ${id}, loop 2000A) has no parent, but names "${e(2)}" (segment ${at})`,
            );
          }
        } else {
          parent = nodes.get(e(2)) ?? null;
          if (!parent) {
            throw new ClaimStatusError(
              'STRUCTURE',
              at,
              `HL02: the parent "${e(2)}" of HL ${id} (${spec.name} level, loop ${spec.loop}) is no earlier HL (segment ${at})`,
            );
          }
          if (parent.level !== spec.parent) {
            const expected = LEVELS[spec.parent]!;
            const found = LEVELS[parent.level]!;
            throw new ClaimStatusError(
              'STRUCTURE',
              at,
              `HL02: HL ${id} is ${article(spec.name)} level (${level}), whose parent must be ` +
                `${article(expected.name)} level (${spec.parent}), but HL ${parent.id} is ${article(found.name)} ` +
                `level (${parent.level}) (segment ${at})`,
            );
          }
          parent.children++;
        }
        node = { id, level, parent, position: at, children: 0, claims: 0, party: null };
        nodes.set(id, node);
        break;
      }
      case 'NM1':
        // The level's own name (loops 2100A–2100E) comes before its claims; an NM1 elsewhere is not one of them.
        if (node && !claim && node.party === null && e(1) === LEVEL_ENTITY[node.level]) {
          node.party = {
            name: e(3),
            firstName: e(4) === '' ? null : e(4),
            idQualifier: e(8) === '' ? null : e(8),
            id: e(9) === '' ? null : e(9),
            position: at,
          };
        }
        break;
      case 'TRN': {
        if (!node || (node.level !== '22' && node.level !== '23')) {
          throw new ClaimStatusError(
            'STRUCTURE',
            at,
            `TRN at segment ${at} is outside a subscriber or dependent level: in ${CLAIM_STATUS_IMPLEMENTATION} a ` +
              'claim status (loop 2200D or 2200E) follows HL 22 or HL 23',
          );
        }
        closeClaim();
        if (e(1) !== '2') {
          throw new ClaimStatusError(
            'BAD_VALUE',
            at,
            `TRN01: "${e(1)}" is not 2 (referenced transaction trace number): a 277 echoes the 276's trace (segment ${at})`,
          );
        }
        if (e(2) === '') {
          throw new ClaimStatusError('MISSING_TRN', at, `TRN02: the trace number is blank (segment ${at})`);
        }
        claim = {
          trn: s,
          node,
          payerClaimNumber: null,
          accountNumber: null,
          billType: null,
          serviceFrom: null,
          serviceTo: null,
          statuses: [],
          lines: [],
        };
        node.claims++;
        break;
      }
      case 'STC': {
        if (!claim) {
          throw new ClaimStatusError(
            'STRUCTURE',
            at,
            `STC at segment ${at} comes before a TRN: in ${CLAIM_STATUS_IMPLEMENTATION} every status belongs to a ` +
              'claim (loop 2200D or 2200E), which starts with its TRN',
          );
        }
        const target: { statuses: ClaimStatus277[] } = line ?? claim;
        target.statuses.push(claimStatusOf(s, d));
        break;
      }
      case 'SVC':
        if (!claim) {
          throw new ClaimStatusError(
            'STRUCTURE',
            at,
            `SVC at segment ${at} comes before a TRN: a service line (loop 2220D or 2220E) belongs to a claim`,
          );
        }
        closeLine();
        line = lineOf(s, d);
        break;
      case 'REF': {
        const value = e(2) === '' ? null : e(2);
        if (line) {
          if (e(1) === 'FJ') line.lineControlNumber = value;
        } else if (claim) {
          if (e(1) === '1K') claim.payerClaimNumber = value;
          else if (e(1) === 'EJ') claim.accountNumber = value;
          else if (e(1) === 'BLT') claim.billType = value;
        }
        break;
      }
      case 'DTP':
        if (e(1) === '472' && (line ?? claim)) {
          const { from, to } = serviceDatesOf(s);
          const target: { serviceFrom: string | null; serviceTo: string | null } = (line ?? claim)!;
          target.serviceFrom = from;
          target.serviceTo = to;
        }
        break;
      default:
        // PER (2100A contact), DMG, AMT, QTY and the rest carry nothing a billing app acts on.
        break;
    }
  }
  closeClaim();
  // A subscriber level with no claims of its own must lead to a dependent's; a dependent level must hold claims.
  for (const at of nodes.values()) {
    if ((at.level === '22' || at.level === '23') && at.claims === 0 && at.children === 0) {
      const spec = LEVELS[at.level]!;
      throw new ClaimStatusError(
        'MISSING_TRN',
        at.position,
        `HL ${at.id} (${spec.name} level, segment ${at.position}) has no TRN: its claim statuses (loop ` +
          `2200${at.level === '22' ? 'D' : 'E'}) each start with TRN*2 and the trace number of the 276`,
      );
    }
  }
  return { claims, reference, createdOn };
}

/**
 * Reads every 277 claim status response (005010X212) of a file into plain data: each claim answered, with its
 * trace number, its statuses (meanings and outcome), amounts in cents and its service lines. The file is refused
 * whole on the first fault: X12Error for its syntax and envelopes (x12.parse.ts), ClaimStatusError for the rest,
 * naming the segment and element: a file that is not a 277 (an 835, 837, 999 or 271: the message says which), a
 * 277CA claim acknowledgment (005010X214), another version, no claim status, a broken hierarchy, a missing TRN, a
 * date off the calendar, an amount that is not one or is above $10,000,000.00.
 */
export function read277(text: string): ClaimStatusFile277 {
  const document = parseX12(text);
  const found = transactionSetsOf(document, '277');
  if (found.length === 0) throw notA277(document);
  const claims: ClaimStatusAnswer277[] = [];
  const transactionSets: TransactionSet277[] = [];
  for (const { interchange, group, set } of found) {
    checkVersion('GS08', group.version, group.gs.position);
    if (set.implementation !== '') checkVersion('ST03', set.implementation, set.st.position);
    const read = readSet(set.segments, interchange.delimiters, set.controlNumber);
    if (read.claims.length === 0) {
      throw new ClaimStatusError(
        'NO_CLAIM_STATUS',
        set.st.position,
        `The 277 ${set.controlNumber} (ST at segment ${set.st.position}) answers no claim: it has no claim status ` +
          'loop (2200D or 2200E, a TRN under HL 22 or 23)',
      );
    }
    transactionSets.push({
      controlNumber: set.controlNumber,
      position: set.st.position,
      reference: read.reference,
      createdOn: read.createdOn,
      claimCount: read.claims.length,
    });
    for (const claim of read.claims) claims.push(claim);
  }
  const [first] = document.interchanges;
  return {
    interchange: { senderId: first?.senderId ?? '', controlNumber: first?.controlNumber ?? '' },
    transactionSets,
    claims,
  };
}

/**
 * The answers by trace number (TRN02), each list in file order: how a 277 is matched back to the claims of its
 * 276. A payer may answer one inquiry with several claims (the request matched more than one), so a trace number
 * may have several answers; a trace number not in the map was not answered.
 */
export function claimsByTraceNumber(claims: readonly ClaimStatusAnswer277[]): Map<string, ClaimStatusAnswer277[]> {
  const byTrace = new Map<string, ClaimStatusAnswer277[]>();
  for (const claim of claims) {
    const list = byTrace.get(claim.traceNumber);
    if (list) list.push(claim);
    else byTrace.set(claim.traceNumber, [claim]);
  }
  return byTrace;
}
