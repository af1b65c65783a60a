/**
 * Reading an ASC X12 835 health care claim payment/advice (005010X221A1) into plain data, in integer cents,
 * and checking that it balances before anything is posted (docs/remittances.md). Pure: no database, no I/O.
 * The envelope and syntax are checked by the x12 layer (`parseX12`); this module reads the 835's own loops:
 * the header (BPR, TRN, DTM*405, N1*PR/PE), the claim payment loop 2100 (CLP, CAS, NM1, MOA, REF, DTM) with
 * its service payment loop 2110 (SVC, DTM*472, CAS, REF*6R, AMT, LQ), and the provider adjustments (PLB).
 */
import { components, elementOf, parseX12, transactionSetsOf, type X12Delimiters, type X12Segment } from './x12.parse';
import { dollars as dollarsText, parseX12Amount, parseX12Date } from './x12.values';

/** The implementation guide this reader follows (GS08 and ST03). */
export const ERA_IMPLEMENTATION = '005010X221A1';

/** What a file holds instead of an 835, for the refusal: staff upload the wrong file more often than a bad one. */
const TRANSACTION_NAMES: Readonly<Record<string, string>> = {
  '270': 'an eligibility inquiry (270)',
  '271': 'an eligibility response (271)',
  '276': 'a claim status request (276)',
  '277': 'a claim status response or acknowledgment (277)',
  '837': 'a health care claim (837)',
  '999': 'an implementation acknowledgment (999)',
};

/** Claim adjustment group codes (CAS01): contractual, payer initiated, other, patient responsibility. */
export const CAS_GROUPS = ['CO', 'PI', 'OA', 'PR', 'CR'] as const;
export type CasGroup = (typeof CAS_GROUPS)[number];

export type EraErrorCode =
  /** The file holds no 835 transaction set. */
  | 'NOT_835'
  /** GS08 or ST03 is not 005010X221A1. */
  | 'UNSUPPORTED_VERSION'
  /** A segment the 835 needs is missing, or one stands where the guide does not allow it. */
  | 'STRUCTURE'
  /** An amount that is not a decimal number, or has a fraction of a cent. */
  | 'BAD_AMOUNT'
  /** A code outside its list (a CAS group, a date). */
  | 'BAD_VALUE';

export class EraError extends Error {
  override readonly name = 'EraError';
  constructor(
    readonly code: EraErrorCode,
    /** The segment at fault (1-based in the file), 0 when none. */
    readonly position: number,
    message: string,
  ) {
    super(message);
  }
}

export interface EraAdjustment {
  group: CasGroup;
  /** The CARC (claim adjustment reason code), e.g. '45', '1', 'A1'. */
  reason: string;
  amountCents: number;
  position: number;
}

export interface EraLine {
  position: number;
  /** SVC01-1: HC (CPT/HCPCS), and others. */
  qualifier: string;
  procedureCode: string;
  modifiers: string[];
  /** SVC06, when the payer adjudicated another code than the one billed: what was submitted. */
  submitted: { procedureCode: string; modifiers: string[] } | null;
  chargeCents: number;
  paidCents: number;
  units: number | null;
  serviceDate: string | null;
  /** REF*6R: the line control number sent in the 837P. */
  lineControlNumber: string | null;
  allowedCents: number | null;
  adjustments: EraAdjustment[];
  remarkCodes: string[];
}

export interface EraClaim {
  position: number;
  /** CLP01: the patient control number (CLM01 of the claim sent). */
  patientControlNumber: string;
  /** CLP02: 1/2/3 processed as primary/secondary/tertiary, 4 denied, 19/20/21 forwarded, 22 reversal, … */
  statusCode: string;
  chargeCents: number;
  paidCents: number;
  /** CLP05, as the payer states it (the PR adjustments are what is posted). */
  patientResponsibilityCents: number;
  /** CLP07: the payer's claim control number. */
  payerClaimNumber: string;
  patientName: string;
  statementFrom: string | null;
  adjustments: EraAdjustment[];
  lines: EraLine[];
  remarkCodes: string[];
}

export interface EraProviderAdjustment {
  position: number;
  /** PLB01. */
  providerId: string;
  /** PLB02, YYYY-MM-DD. */
  fiscalPeriod: string | null;
  /** PLB03-1: WO overpayment recovery, FB forwarding balance, L6 interest, 72 authorized return, … */
  reason: string;
  /** PLB03-2. */
  reference: string;
  /** As written: positive reduces the payment, negative adds to it (interest). */
  amountCents: number;
}

export interface Era {
  /** ST02. */
  controlNumber: string;
  /** Where its ST is in the file (1-based segment position): a file may hold several 835s. */
  position: number;
  /** BPR01: I remittance with payment, H notification only, … */
  handling: string;
  paymentCents: number;
  /** BPR03: C credit, D debit. */
  creditDebit: string;
  /** BPR04: ACH, CHK, BOP, FWT, NON. */
  method: string;
  /** BPR16, YYYY-MM-DD. */
  paymentDate: string | null;
  /** TRN02: the check or EFT trace number. */
  traceNumber: string;
  /** TRN03: the payer's identifier (1 + its tax id, usually). */
  originatorId: string;
  productionDate: string | null;
  payerName: string;
  /** REF*2U or N1*PR's N104, when given. */
  payerIdentifier: string;
  payeeName: string;
  payeeNpi: string;
  claims: EraClaim[];
  providerAdjustments: EraProviderAdjustment[];
}

/**
 * The largest amount of one claim, line, adjustment or provider adjustment: $10,000,000.00. Those amounts are
 * kept in 32-bit integer cents (at most $21,474,836.47), and a claim's own amounts are added together, so a
 * larger one is refused as the payer's error here rather than by the database. BPR02, the whole payment of
 * every claim of the file, is kept in 64-bit cents and may have up to 15 digits.
 */
export const MAX_CLAIM_AMOUNT_CENTS = 1_000_000_000;

/**
 * A decimal amount (X12 data type R: optional sign, digits, optional point) as integer cents, exactly: the
 * digits are read as text, never through a float. A fraction of a cent is refused unless its digits are 0,
 * and so is an amount above `maxCents`.
 */
export function centsOf(
  value: string,
  where: string,
  position: number,
  maxCents: number = MAX_CLAIM_AMOUNT_CENTS,
): number {
  const amount = parseX12Amount(value, { maxCents });
  if (!amount.ok) {
    throw new EraError('BAD_AMOUNT', position, `${where}: "${value}" ${amount.problem} (segment ${position})`);
  }
  return amount.value;
}

/** Cents as the dollars an error message or a CSV shows: -1234 → "-12.34". */
export function dollars(cents: number): string {
  return dollarsText(cents);
}

/**
 * An X12 date (data type DT, CCYYMMDD) as an ISO day, checked to be a day of the calendar: 20002316 (month 23)
 * or 20260230 is the payer's error, named by its element, not a value for the database to refuse.
 */
export function dateOf(value: string, where: string, position: number): string | null {
  if (value === '') return null;
  const date = parseX12Date(value);
  if (!date.ok) {
    throw new EraError('BAD_VALUE', position, `${where}: "${value}" ${date.problem} (segment ${position})`);
  }
  return date.value;
}

/** CAS: up to six reason/amount/quantity triplets after the group code. */
function adjustmentsOf(segment: X12Segment): EraAdjustment[] {
  const group = elementOf(segment, 1);
  if (!(CAS_GROUPS as readonly string[]).includes(group)) {
    throw new EraError(
      'BAD_VALUE',
      segment.position,
      `CAS01: "${group}" is not a claim adjustment group code (CO, PI, OA, PR, CR) (segment ${segment.position})`,
    );
  }
  const out: EraAdjustment[] = [];
  for (let i = 0; i < 6; i++) {
    const reason = elementOf(segment, 2 + i * 3);
    const amount = elementOf(segment, 3 + i * 3);
    if (reason === '' && amount === '') continue;
    if (reason === '' || amount === '') {
      throw new EraError(
        'STRUCTURE',
        segment.position,
        `CAS${String(2 + i * 3).padStart(2, '0')}: a reason code needs its amount (segment ${segment.position})`,
      );
    }
    if (!/^[A-Z0-9]{1,4}$/.test(reason)) {
      throw new EraError(
        'BAD_VALUE',
        segment.position,
        `CAS${String(2 + i * 3).padStart(2, '0')}: "${reason}" is not a claim adjustment reason code (segment ${segment.position})`,
      );
    }
    out.push({
      group: group as CasGroup,
      reason,
      amountCents: centsOf(amount, `CAS${String(3 + i * 3).padStart(2, '0')}`, segment.position),
      position: segment.position,
    });
  }
  return out;
}

function procedureOf(value: string, delimiters: X12Delimiters) {
  const [qualifier = '', code = '', ...modifiers] = components(value, delimiters);
  return { qualifier, procedureCode: code, modifiers: modifiers.slice(0, 4).filter((m) => m !== '') };
}

/**
 * Reads every 835 of a file, in file order: a clearinghouse may deliver several payments (one ST each, each its
 * own BPR and TRN) in one interchange. Throws X12Error (envelope, syntax) or EraError (the 835's own rules).
 */
export function readEras(text: string): Era[] {
  const document = parseX12(text);
  const sets = transactionSetsOf(document, '835');
  if (sets.length === 0) {
    const held = new Set<string>();
    for (const interchange of document.interchanges) {
      for (const group of interchange.groups) for (const set of group.transactionSets) held.add(set.id);
    }
    const what = [...held].map((id) =>
      Object.hasOwn(TRANSACTION_NAMES, id) ? TRANSACTION_NAMES[id] : `a ${id} transaction set`,
    );
    throw new EraError(
      'NOT_835',
      0,
      `The file holds no 835 (remittance) transaction set: it holds ${what.length > 0 ? what.join(' and ') : 'no transaction set at all'}.`,
    );
  }
  return sets.map(({ group, set, interchange }) => {
    if (group.version !== ERA_IMPLEMENTATION) {
      throw new EraError(
        'UNSUPPORTED_VERSION',
        group.gs.position,
        `GS08: "${group.version}" is not ${ERA_IMPLEMENTATION}; only 835s of ASC X12 ${ERA_IMPLEMENTATION} are read`,
      );
    }
    if (set.implementation !== '' && set.implementation !== ERA_IMPLEMENTATION) {
      throw new EraError(
        'UNSUPPORTED_VERSION',
        set.st.position,
        `ST03: "${set.implementation}" is not ${ERA_IMPLEMENTATION}; only 835s of ASC X12 ${ERA_IMPLEMENTATION} are read`,
      );
    }
    return readSet(set.segments, interchange.delimiters, set.controlNumber, set.st.position);
  });
}

function readSet(segments: readonly X12Segment[], delimiters: X12Delimiters, controlNumber: string, stAt: number) {
  const era: Era = {
    controlNumber,
    position: stAt,
    handling: '',
    paymentCents: 0,
    creditDebit: '',
    method: '',
    paymentDate: null,
    traceNumber: '',
    originatorId: '',
    productionDate: null,
    payerName: '',
    payerIdentifier: '',
    payeeName: '',
    payeeNpi: '',
    claims: [],
    providerAdjustments: [],
  };
  let sawBpr = false;
  let party: 'PR' | 'PE' | null = null;
  let claim: EraClaim | null = null;
  let line: EraLine | null = null;
  let pastClaims = false;
  for (const s of segments) {
    const e = (n: number) => elementOf(s, n);
    switch (s.id) {
      case 'BPR':
        era.handling = e(1);
        era.paymentCents = centsOf(e(2), 'BPR02', s.position, Number.MAX_SAFE_INTEGER);
        era.creditDebit = e(3);
        era.method = e(4);
        // BPR03 D: the payer takes money back (the amount is written unsigned).
        if (era.creditDebit === 'D') era.paymentCents = -era.paymentCents;
        era.paymentDate = dateOf(e(16), 'BPR16', s.position);
        sawBpr = true;
        break;
      case 'TRN':
        era.traceNumber = e(2);
        era.originatorId = e(3);
        break;
      case 'N1':
        party = e(1) === 'PR' ? 'PR' : e(1) === 'PE' ? 'PE' : null;
        if (party === 'PR') {
          era.payerName = e(2);
          if (e(4) !== '') era.payerIdentifier = e(4);
        } else if (party === 'PE') {
          era.payeeName = e(2);
          if (e(3) === 'XX') era.payeeNpi = e(4);
        }
        break;
      case 'CLP': {
        if (pastClaims) throw new EraError('STRUCTURE', s.position, `CLP after PLB (segment ${s.position})`);
        line = null;
        claim = {
          position: s.position,
          patientControlNumber: e(1),
          statusCode: e(2),
          chargeCents: centsOf(e(3), 'CLP03', s.position),
          paidCents: centsOf(e(4), 'CLP04', s.position),
          patientResponsibilityCents: e(5) === '' ? 0 : centsOf(e(5), 'CLP05', s.position),
          payerClaimNumber: e(7),
          patientName: '',
          statementFrom: null,
          adjustments: [],
          lines: [],
          remarkCodes: [],
        };
        if (claim.patientControlNumber === '' || claim.statusCode === '') {
          throw new EraError('STRUCTURE', s.position, `CLP01 and CLP02 are required (segment ${s.position})`);
        }
        era.claims.push(claim);
        break;
      }
      case 'SVC': {
        if (!claim) throw new EraError('STRUCTURE', s.position, `SVC outside a claim (segment ${s.position})`);
        const billed = procedureOf(e(1), delimiters);
        const submitted = e(6) === '' ? null : procedureOf(e(6), delimiters);
        line = {
          position: s.position,
          qualifier: billed.qualifier,
          procedureCode: billed.procedureCode,
          modifiers: billed.modifiers,
          submitted: submitted && { procedureCode: submitted.procedureCode, modifiers: submitted.modifiers },
          chargeCents: centsOf(e(2), 'SVC02', s.position),
          paidCents: centsOf(e(3), 'SVC03', s.position),
          units: e(5) === '' ? null : Number(e(5)),
          serviceDate: null,
          lineControlNumber: null,
          allowedCents: null,
          adjustments: [],
          remarkCodes: [],
        };
        claim.lines.push(line);
        break;
      }
      case 'CAS': {
        if (!claim) throw new EraError('STRUCTURE', s.position, `CAS outside a claim (segment ${s.position})`);
        (line ?? claim).adjustments.push(...adjustmentsOf(s));
        break;
      }
      case 'NM1':
        if (claim && !line && e(1) === 'QC') claim.patientName = [e(3), e(4)].filter(Boolean).join(', ');
        break;
      case 'DTM':
        if (!claim && e(1) === '405') era.productionDate = dateOf(e(2), 'DTM02', s.position);
        else if (line && (e(1) === '472' || e(1) === '150')) line.serviceDate = dateOf(e(2), 'DTM02', s.position);
        else if (claim && !line && e(1) === '232') claim.statementFrom = dateOf(e(2), 'DTM02', s.position);
        break;
      case 'REF':
        if (!claim && party === 'PR' && e(1) === '2U') era.payerIdentifier = e(2);
        else if (line && e(1) === '6R') line.lineControlNumber = e(2);
        break;
      case 'AMT':
        if (line && e(1) === 'B6') line.allowedCents = centsOf(e(2), 'AMT02', s.position);
        break;
      case 'LQ':
        if (line && e(1) === 'HE') line.remarkCodes.push(e(2));
        break;
      case 'MOA':
      case 'MIA':
        if (claim && !line) {
          // MOA03–07 and MIA05, 20–24 are RARC remark codes.
          const at = s.id === 'MOA' ? [3, 4, 5, 6, 7] : [5, 20, 21, 22, 23, 24];
          for (const n of at) if (e(n) !== '') claim.remarkCodes.push(e(n));
        }
        break;
      case 'PLB': {
        pastClaims = true;
        claim = null;
        line = null;
        for (let i = 0; i < 6; i++) {
          const code = elementOf(s, 3 + i * 2);
          const amount = elementOf(s, 4 + i * 2);
          if (code === '' && amount === '') continue;
          const [reason = '', reference = ''] = components(code, delimiters);
          if (reason === '' || amount === '') {
            throw new EraError(
              'STRUCTURE',
              s.position,
              `PLB: an adjustment needs a reason and an amount (segment ${s.position})`,
            );
          }
          era.providerAdjustments.push({
            position: s.position,
            providerId: e(1),
            fiscalPeriod: dateOf(e(2), 'PLB02', s.position),
            reason,
            reference,
            amountCents: centsOf(amount, `PLB${String(4 + i * 2).padStart(2, '0')}`, s.position),
          });
        }
        break;
      }
      case 'LX':
        line = null;
        break;
      default:
        break;
    }
  }
  if (!sawBpr) throw new EraError('STRUCTURE', stAt, `The 835 has no BPR (financial information) segment.`);
  if (era.traceNumber === '')
    throw new EraError('STRUCTURE', stAt, 'The 835 has no TRN02 (check or EFT trace number).');
  if (era.payerName === '') throw new EraError('STRUCTURE', stAt, 'The 835 names no payer (N1*PR).');
  return era;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * Why a claim does not balance, or null (ASC X12 005010X221A1 balancing): each service line's charge less its
 * adjustments is its payment (SVC02 − ΣCAS = SVC03), the claim's charge less every adjustment of the claim and
 * its lines is its payment (CLP03 − ΣCAS = CLP04), and the lines' payments add up to the claim's (ΣSVC03 = CLP04).
 */
export function claimImbalance(claim: EraClaim): string | null {
  for (const line of claim.lines) {
    const adjusted = sum(line.adjustments.map((a) => a.amountCents));
    if (line.chargeCents - adjusted !== line.paidCents) {
      return (
        `service line ${line.procedureCode} (segment ${line.position}): charge ${dollars(line.chargeCents)} − ` +
        `adjustments ${dollars(adjusted)} = ${dollars(line.chargeCents - adjusted)}, but paid ${dollars(line.paidCents)}`
      );
    }
  }
  const adjusted =
    sum(claim.adjustments.map((a) => a.amountCents)) +
    sum(claim.lines.flatMap((l) => l.adjustments.map((a) => a.amountCents)));
  if (claim.chargeCents - adjusted !== claim.paidCents) {
    return (
      `charge ${dollars(claim.chargeCents)} − adjustments ${dollars(adjusted)} = ` +
      `${dollars(claim.chargeCents - adjusted)}, but paid ${dollars(claim.paidCents)}`
    );
  }
  const linesPaid = sum(claim.lines.map((l) => l.paidCents));
  if (claim.lines.length > 0 && linesPaid !== claim.paidCents) {
    return `the service lines paid ${dollars(linesPaid)}, but the claim paid ${dollars(claim.paidCents)}`;
  }
  return null;
}

/**
 * Why the file does not balance, or null: the payment is the claims' payments less the provider adjustments
 * (BPR02 = ΣCLP04 − ΣPLB amounts; a PLB amount is positive when it reduces the payment).
 */
export function fileImbalance(era: Era): string | null {
  const claimsPaid = sum(era.claims.map((c) => c.paidCents));
  const plb = sum(era.providerAdjustments.map((p) => p.amountCents));
  if (era.paymentCents === claimsPaid - plb) return null;
  return (
    `BPR02 payment ${dollars(era.paymentCents)} ≠ claims paid (ΣCLP04) ${dollars(claimsPaid)} − ` +
    `provider adjustments (ΣPLB) ${dollars(plb)} = ${dollars(claimsPaid - plb)}`
  );
}
