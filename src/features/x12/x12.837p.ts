/**
 * The ASC X12 837P (005010X222A1, health care claim: professional) of a batch of claims, as a pure function of
 * plain data: the claim submission feature (features/submission) reads and keeps that data, and this writes
 * the file through the X12 writer (x12.serialize.ts). The same input always gives the same bytes. Loop by loop:
 * docs/x12-837.md.
 */
import { X12_DEFAULT_DELIMITERS } from './x12.parse';
import { envelope, serializeSegments, x12Text, type X12SegmentInput } from './x12.serialize';
import { formatX12Amount, personNm1 } from './x12.values';

/**
 * ASC X12 005010X222A1 recommends at most 5,000 CLM segments in one transaction set (ST…SE): a larger batch is
 * written as several sets in the one functional group, each with its own ST control number.
 */
export const MAX_CLAIMS_PER_TRANSACTION_SET = 5_000;

/** The individual relationship codes (SBR02, PAT01) of the relationships a patient has to a policy's subscriber. */
export const X12_RELATIONSHIP_CODES = { self: '18', spouse: '01', child: '19', other: 'G8' } as const;
export type X12Relationship = keyof typeof X12_RELATIONSHIP_CODES;

/** DMG03, administrative gender: female, male, unknown. */
export type X12Sex = 'F' | 'M' | 'U';

/** ASC X12 005010X222A1: GS08, ST03. */
export const IMPLEMENTATION_837P = '005010X222A1';

export interface PersonName837 {
  lastName: string;
  firstName: string;
  middleName: string;
  suffix: string;
}

export interface Address837 {
  line1: string;
  city: string;
  /** 2-letter state code. */
  state: string;
  /** 5 or 9 digits. */
  zip: string;
}

/** The interchange and group: what the clearinghouse knows the practice by, and the control numbers. */
export interface Envelope837 {
  /** ISA13, 1–999999999. */
  interchangeControlNumber: number;
  /** GS06. */
  groupControlNumber: number;
  /** ST02 of each transaction set in order, 4–9 characters (one set per 5,000 claims). */
  setControlNumbers: readonly string[];
  /** CCYYMMDD: GS04, BHT04, and ISA09 as YYMMDD. */
  date: string;
  /** HHMM: ISA10, GS05, BHT05. */
  time: string;
  /** ISA15: T test, P production. */
  usage: 'T' | 'P';
  /** BHT03: the originator's reference of the batch, echoed by the 277CA. */
  reference: string;
  submitter: {
    /** 1000A NM103. */
    name: string;
    /** ISA06, GS02, 1000A NM109: the submitter id the clearinghouse assigned (or the EIN). */
    id: string;
    /** ISA05: 'ZZ' mutually defined, '30' federal tax id. */
    qualifier: string;
    /** 1000A PER02 and PER04 (digits). */
    contactName: string;
    contactPhone: string;
  };
  receiver: {
    /** 1000B NM103. */
    name: string;
    /** ISA08, GS03, 1000B NM109. */
    id: string;
    /** ISA07. */
    qualifier: string;
  };
}

/** Loop 2000A/2010AA: the practice as the billing provider. */
export interface BillingProvider837 {
  name: string;
  npi: string;
  /** 9 digits, REF*EI. */
  taxId: string;
  taxonomyCode: string;
  address: Address837;
}

/** Loop 2010BB (and 2330B): the payer. */
export interface Payer837 {
  name: string;
  /** NM109 with qualifier PI. */
  payerId: string;
  /** SBR09, never blank. */
  claimFilingIndicator: string;
}

export interface Line837 {
  procedureCode: string;
  modifiers: readonly string[];
  units: number;
  chargeCents: number;
  /** 1-based into the claim's diagnoses (SV107). */
  diagnosisPointers: readonly number[];
  /** YYYY-MM-DD. */
  serviceDate: string;
  /** REF*6R. */
  lineControlNumber: string;
  /**
   * The payer's number for the approved prior authorization covering this service, when it has one (REF*G1): on
   * the claim (loop 2300) for its first authorized line, and on each line whose number differs (loop 2400).
   */
  priorAuthorizationNumber: string | null;
}

/** One adjustment of a payer's adjudication: CAS group (CO, PR, OA, PI, CR), CARC and amount (signed). */
export interface Adjustment837 {
  groupCode: string;
  reasonCode: string;
  amountCents: number;
}

/** How the payer of an earlier policy adjudicated one of this claim's lines (loop 2430). */
export interface LineAdjudication837 {
  /** SVD02: what it paid on the line. */
  paidCents: number;
  /** SVD03 as that payer adjudicated it (its SVC, which may differ from the line billed). */
  procedureCode: string;
  modifiers: readonly string[];
  /** SVD05. */
  units: number;
  /** The line's CAS. */
  adjustments: readonly Adjustment837[];
}

/**
 * What the payer of an earlier policy decided on this claim, from its posted remittance (loops 2320 and 2430): a
 * secondary payer pays on what the primary left, and refuses a claim that does not say what that was. Balances as
 * its 835 did: the claim's charge less every adjustment (claim and lines) is the amount paid, and each line's
 * charge less its adjustments is the line's amount paid.
 */
export interface PriorAdjudication837 {
  /** 2320 AMT*D: what it paid on the claim. */
  paidCents: number;
  /** 2320 CAS: adjustments made to the claim as a whole. */
  adjustments: readonly Adjustment837[];
  /** DTP*573 (2430 on each adjudicated line, else 2330B): the date it adjudicated. YYYY-MM-DD. */
  adjudicatedOn: string;
  /** By this claim's lines, in order: the line's adjudication, or null for a line it adjudicated at claim level only. */
  lines: readonly (LineAdjudication837 | null)[];
}

/** A policy of the patient other than the one billed (loop 2320 with 2330A/2330B). */
export interface OtherCoverage837 {
  priority: number;
  /** Why Medicare pays after another payer (SBR05), on a Medicare policy that is not primary; null otherwise. */
  medicareSecondaryType: string | null;
  memberId: string;
  groupNumber: string | null;
  relationship: X12Relationship;
  /** The policy holder: the patient's own name when the relationship is self. */
  subscriber: PersonName837;
  payer: Payer837;
  /** Its payer's adjudication of this claim, when it came first and has answered (a secondary claim's primary). */
  adjudication: PriorAdjudication837 | null;
}

export interface Claim837 {
  /** CLM01, the patient control number: the 277CA echoes it (TRN02 of loop 2200D). */
  accountNumber: string;
  /** CLM05-3: 1 original, 7 replacement, 8 void. */
  frequencyCode: string;
  /** REF*F8 for a replacement or void. */
  originalClaimNumber: string | null;
  /** CLM05-1. */
  placeOfService: string;
  /** ICD-10-CM codes in order, written with or without the dot (the first is the principal one). */
  diagnoses: readonly string[];
  lines: readonly Line837[];
  patient: {
    name: PersonName837;
    /** YYYY-MM-DD. */
    dob: string;
    /** DMG03: F, M or U (unknown). */
    sex: X12Sex;
    address: Address837;
  };
  /** The policy billed (2000B/2010BA). */
  coverage: {
    /** 1 primary, 2 secondary, 3 tertiary: SBR01 P, S, T. */
    priority: number;
    /** Why Medicare pays after another payer (SBR05), on a Medicare policy that is not primary; null otherwise. */
    medicareSecondaryType: string | null;
    memberId: string;
    groupNumber: string | null;
    relationship: X12Relationship;
    /** The policy holder when not the patient (null for self). */
    subscriber: PersonName837 | null;
  };
  /**
   * Loop 2310A: the provider who referred the patient for the service, when one did (some payers pay a specialist
   * or a test only on a referral, and Medicare asks for the ordering or referring provider's NPI on some services).
   */
  referringProvider?: { name: PersonName837; npi: string } | null;
  /** Loop 2310B: written when its NPI differs from the billing provider's. */
  renderingProvider: { name: PersonName837; npi: string; taxonomyCode: string | null };
  /** The patient's other policies in force (loop 2320): other payers that may pay on the claim. */
  otherCoverages: readonly OtherCoverage837[];
}

export interface Batch837 {
  envelope: Envelope837;
  billingProvider: BillingProvider837;
  payer: Payer837;
  /** In file order; at most MAX_CLAIMS_PER_TRANSACTION_SET per set. */
  claims: readonly Claim837[];
}

const PAYER_RESPONSIBILITY: Readonly<Record<number, string>> = { 1: 'P', 2: 'S', 3: 'T' };

/** The claim filing indicator (SBR09) of Medicare Part B, the Medicare an 837P professional claim bills. */
export const MEDICARE_PART_B = 'MB';

/**
 * Whether a policy's SBR carries SBR05, the insurance type code: when its payer is Medicare and Medicare is not the
 * primary payer (SBR01 S or T), where the guide requires it; elsewhere it forbids it (005010X222A1, loops 2000B
 * and 2320).
 */
export function sendsInsuranceTypeCode(priority: number, claimFilingIndicator: string): boolean {
  return claimFilingIndicator === MEDICARE_PART_B && priority !== 1;
}

function insuranceTypeCode(
  policy: { priority: number; medicareSecondaryType: string | null },
  claimFilingIndicator: string,
): string {
  return sendsInsuranceTypeCode(policy.priority, claimFilingIndicator) ? (policy.medicareSecondaryType ?? '') : '';
}

/** A signed amount in cents as an X12 decimal: an adjustment that gives money back is negative. */
function signedAmount(cents: number): string {
  return cents < 0 ? `-${x12Amount(-cents)}` : x12Amount(cents);
}

/**
 * CAS segments for adjustments: one per group code, in the order the groups first appear, each with at most six
 * reason/amount pairs (CAS02–CAS19), as the guide allows; a group with more continues in another CAS.
 */
/**
 * Where an earlier payer's remaining patient liability (AMT*EAF) is reported: the guide (005010X222A1, and the
 * X12 interpretations of it) wants it on each line the payer adjudicated (loop 2430), and at claim level (2320) only
 * when the payer answered at claim level alone, never in both. A payer that put patient responsibility in its
 * claim-level adjustments cannot have that amount split onto lines, so the whole liability then goes in 2320.
 */
function liabilityOnLines(adjudication: PriorAdjudication837): boolean {
  return adjudication.lines.some((line) => line !== null) && patientResponsibilityCents(adjudication.adjustments) === 0;
}

/**
 * What an adjudication left the patient: its patient-responsibility adjustments (CAS group PR: deductible,
 * coinsurance, copay), reversals included, never below zero. The guide requires it when the payer has
 * adjudicated, even when it is zero.
 */
function patientResponsibilityCents(adjustments: readonly Adjustment837[]): number {
  const total = adjustments.reduce((sum, a) => (a.groupCode === 'PR' ? sum + a.amountCents : sum), 0);
  return Math.max(0, total);
}

function casSegments(adjustments: readonly Adjustment837[]): X12SegmentInput[] {
  const groups = new Map<string, Adjustment837[]>();
  for (const a of adjustments) {
    if (a.amountCents === 0) continue;
    const group = groups.get(a.groupCode);
    if (group) group.push(a);
    else groups.set(a.groupCode, [a]);
  }
  const segments: X12SegmentInput[] = [];
  for (const [groupCode, items] of groups) {
    for (let i = 0; i < items.length; i += 6) {
      const triplets = items.slice(i, i + 6).flatMap((a) => [a.reasonCode, signedAmount(a.amountCents), '']);
      // The last triplet's empty quantity is not written.
      segments.push({ id: 'CAS', elements: [groupCode, ...triplets.slice(0, -1)] });
    }
  }
  return segments;
}

/**
 * An amount in cents as an X12 decimal (R type): no trailing zeros after the point, no point for whole dollars,
 * no leading zero (15000 → '150', 15050 → '150.5', 15025 → '150.25', 5 → '.05', 0 → '0').
 */
export function x12Amount(cents: number): string {
  const amount = formatX12Amount(cents);
  if (!amount.ok) throw new Error(`an amount must be whole cents, not ${cents}`);
  return amount.value;
}

/** YYYY-MM-DD as CCYYMMDD (X12 date, format qualifier D8). */
export function x12Date(day: string): string {
  return day.replaceAll('-', '');
}

/** An ICD-10-CM code as X12 HI carries it: without the dot (E11.9 → E119). */
export function diagnosisCode(code: string): string {
  return code.replace('.', '').toUpperCase();
}

const HONORIFICS = new Set(['DR', 'DR.', 'MR', 'MR.', 'MRS', 'MRS.', 'MS', 'MS.']);
const SUFFIXES = new Set(['JR', 'JR.', 'SR', 'SR.', 'II', 'III', 'IV', 'V']);

/**
 * A person's name as stored (one text, 'Maria Lopez', 'Dr. Sarah Mitchell') split into the NM1 parts: a leading
 * title is dropped, a trailing Jr/Sr/II… becomes the suffix, the last word the last name, the first word the
 * first name and any words between the middle name.
 */
export function splitPersonName(full: string): PersonName837 {
  const words = x12Text(full).split(' ').filter(Boolean);
  if (words.length > 1 && HONORIFICS.has(words[0]!.toUpperCase())) words.shift();
  let suffix = '';
  if (words.length > 2 && SUFFIXES.has(words.at(-1)!.toUpperCase())) suffix = words.pop()!.replace(/\.$/, '');
  if (words.length === 0) return { lastName: '', firstName: '', middleName: '', suffix };
  if (words.length === 1) return { lastName: words[0]!, firstName: '', middleName: '', suffix };
  return {
    lastName: words.at(-1)!,
    firstName: words[0]!,
    middleName: words.slice(1, -1).join(' '),
    suffix,
  };
}

function organizationNm1(entity: string, name: string, idQualifier: string, id: string): X12SegmentInput {
  return { id: 'NM1', elements: [entity, '2', x12Text(name), '', '', '', '', idQualifier, id] };
}

function addressSegments(address: Address837): X12SegmentInput[] {
  return [
    { id: 'N3', elements: [x12Text(address.line1)] },
    { id: 'N4', elements: [x12Text(address.city), address.state, address.zip] },
  ];
}

/** Segments of one claim from its subscriber loop on (2000B…2400), numbering HL from `hl`. */
export function claimSegments(claim: Claim837, hl: number, billing: BillingProvider837, payer: Payer837) {
  const segments: X12SegmentInput[] = [];
  const self = claim.coverage.relationship === 'self';
  const subscriberHl = hl;
  // Loop 2000B: the subscriber, with a child HL when the patient is someone else on the policy.
  segments.push({ id: 'HL', elements: [String(subscriberHl), '1', '22', self ? '0' : '1'] });
  segments.push({
    id: 'SBR',
    elements: [
      PAYER_RESPONSIBILITY[claim.coverage.priority] ?? 'P',
      self ? X12_RELATIONSHIP_CODES.self : '',
      claim.coverage.groupNumber ?? '',
      '',
      insuranceTypeCode(claim.coverage, payer.claimFilingIndicator),
      '',
      '',
      '',
      payer.claimFilingIndicator,
    ],
  });
  // Loop 2010BA: the subscriber; address and demographics only when the subscriber is the patient.
  if (self) {
    segments.push(personNm1('IL', claim.patient.name, 'MI', claim.coverage.memberId));
    segments.push(...addressSegments(claim.patient.address));
    segments.push({ id: 'DMG', elements: ['D8', x12Date(claim.patient.dob), claim.patient.sex] });
  } else {
    segments.push(personNm1('IL', claim.coverage.subscriber ?? claim.patient.name, 'MI', claim.coverage.memberId));
  }
  // Loop 2010BB: the payer.
  segments.push(organizationNm1('PR', payer.name, 'PI', payer.payerId));
  // Loops 2000C/2010CA: the patient, when not the subscriber.
  if (!self) {
    segments.push({ id: 'HL', elements: [String(subscriberHl + 1), String(subscriberHl), '23', '0'] });
    segments.push({ id: 'PAT', elements: [X12_RELATIONSHIP_CODES[claim.coverage.relationship]] });
    segments.push(personNm1('QC', claim.patient.name));
    segments.push(...addressSegments(claim.patient.address));
    segments.push({ id: 'DMG', elements: ['D8', x12Date(claim.patient.dob), claim.patient.sex] });
  }
  // Loop 2300: the claim. CLM06 provider signature on file, CLM07 assigned, CLM08 benefits assigned, CLM09
  // release of information on file.
  const total = claim.lines.reduce((sum, line) => sum + line.chargeCents, 0);
  segments.push({
    id: 'CLM',
    elements: [
      claim.accountNumber,
      x12Amount(total),
      '',
      '',
      [claim.placeOfService, 'B', claim.frequencyCode],
      'Y',
      'A',
      'Y',
      'Y',
    ],
  });
  // The 2300 REFs in the guide's order: prior authorization (G1) before the payer's claim number (F8).
  const claimAuthorization = claim.lines.find((line) => line.priorAuthorizationNumber)?.priorAuthorizationNumber;
  if (claimAuthorization) segments.push({ id: 'REF', elements: ['G1', claimAuthorization] });
  if ((claim.frequencyCode === '7' || claim.frequencyCode === '8') && claim.originalClaimNumber) {
    segments.push({ id: 'REF', elements: ['F8', claim.originalClaimNumber] });
  }
  segments.push({
    id: 'HI',
    elements: claim.diagnoses.map((code, i) => [i === 0 ? 'ABK' : 'ABF', diagnosisCode(code)]),
  });
  // Loop 2310A: the referring provider (NM1*DN, a person), when the claim names one.
  if (claim.referringProvider) {
    segments.push(personNm1('DN', claim.referringProvider.name, 'XX', claim.referringProvider.npi));
  }
  // Loop 2310B: the rendering provider, when it is not the billing provider itself.
  if (claim.renderingProvider.npi !== billing.npi) {
    segments.push(personNm1('82', claim.renderingProvider.name, 'XX', claim.renderingProvider.npi));
    if (claim.renderingProvider.taxonomyCode) {
      segments.push({ id: 'PRV', elements: ['PE', 'PXC', claim.renderingProvider.taxonomyCode] });
    }
  }
  // Loops 2320/2330A/2330B: every other policy that may pay on the claim.
  for (const other of claim.otherCoverages) {
    segments.push({
      id: 'SBR',
      elements: [
        PAYER_RESPONSIBILITY[other.priority] ?? 'T',
        X12_RELATIONSHIP_CODES[other.relationship],
        other.groupNumber ?? '',
        '',
        insuranceTypeCode(other, other.payer.claimFilingIndicator),
        '',
        '',
        '',
        other.payer.claimFilingIndicator,
      ],
    });
    const adjudication = other.adjudication;
    if (adjudication) {
      // What this payer decided, in the guide's order: the claim's CAS, then AMT*D (payer paid amount), then AMT*EAF
      // (remaining patient liability) when it is not reported on the lines.
      segments.push(...casSegments(adjudication.adjustments));
      segments.push({ id: 'AMT', elements: ['D', x12Amount(adjudication.paidCents)] });
      if (!liabilityOnLines(adjudication)) {
        const liability = patientResponsibilityCents([
          ...adjudication.adjustments,
          ...adjudication.lines.flatMap((line) => line?.adjustments ?? []),
        ]);
        segments.push({ id: 'AMT', elements: ['EAF', x12Amount(liability)] });
      }
    }
    // OI03 benefits assigned, OI06 release of information on file.
    segments.push({ id: 'OI', elements: ['', '', 'Y', '', '', 'Y'] });
    segments.push(personNm1('IL', other.subscriber, 'MI', other.memberId));
    segments.push(organizationNm1('PR', other.payer.name, 'PI', other.payer.payerId));
    // The adjudication date goes on the lines (2430 DTP*573) when it has any; otherwise here (2330B).
    if (adjudication && adjudication.lines.every((line) => line === null)) {
      segments.push({ id: 'DTP', elements: ['573', 'D8', x12Date(adjudication.adjudicatedOn)] });
    }
  }
  // Loop 2400: the service lines.
  claim.lines.forEach((line, i) => {
    segments.push({ id: 'LX', elements: [String(i + 1)] });
    segments.push({
      id: 'SV1',
      elements: [
        ['HC', line.procedureCode, ...line.modifiers],
        x12Amount(line.chargeCents),
        'UN',
        String(line.units),
        '',
        '',
        line.diagnosisPointers.map(String),
      ],
    });
    segments.push({ id: 'DTP', elements: ['472', 'D8', x12Date(line.serviceDate)] });
    // A line's own authorization only where it is not the claim's (the guide: "when different").
    if (line.priorAuthorizationNumber && line.priorAuthorizationNumber !== claimAuthorization) {
      segments.push({ id: 'REF', elements: ['G1', line.priorAuthorizationNumber] });
    }
    segments.push({ id: 'REF', elements: ['6R', line.lineControlNumber] });
    // Loop 2430: each earlier payer's adjudication of this line.
    for (const other of claim.otherCoverages) {
      const adjudicated = other.adjudication?.lines[i];
      if (!other.adjudication || !adjudicated) continue;
      segments.push({
        id: 'SVD',
        elements: [
          other.payer.payerId,
          x12Amount(adjudicated.paidCents),
          ['HC', adjudicated.procedureCode, ...adjudicated.modifiers],
          '',
          String(adjudicated.units),
        ],
      });
      segments.push(...casSegments(adjudicated.adjustments));
      segments.push({ id: 'DTP', elements: ['573', 'D8', x12Date(other.adjudication.adjudicatedOn)] });
      if (liabilityOnLines(other.adjudication)) {
        const liability = patientResponsibilityCents(adjudicated.adjustments);
        segments.push({ id: 'AMT', elements: ['EAF', x12Amount(liability)] });
      }
    }
  });
  return { segments, nextHl: subscriberHl + (self ? 1 : 2) };
}

/** The header of a transaction set: BHT, the submitter and receiver, and the billing provider (1000A…2010AA). */
function headerSegments(batch: Batch837, setIndex: number): X12SegmentInput[] {
  const { envelope: env, billingProvider: billing } = batch;
  const reference = batch.envelope.setControlNumbers.length > 1 ? `${env.reference}-${setIndex + 1}` : env.reference;
  return [
    // BHT: 0019 information source/subscriber/dependent structure, 00 original, CH chargeable.
    { id: 'BHT', elements: ['0019', '00', reference, env.date, env.time, 'CH'] },
    organizationNm1('41', env.submitter.name, '46', env.submitter.id),
    { id: 'PER', elements: ['IC', x12Text(env.submitter.contactName), 'TE', env.submitter.contactPhone] },
    organizationNm1('40', env.receiver.name, '46', env.receiver.id),
    { id: 'HL', elements: ['1', '', '20', '1'] },
    { id: 'PRV', elements: ['BI', 'PXC', billing.taxonomyCode] },
    organizationNm1('85', billing.name, 'XX', billing.npi),
    ...addressSegments(billing.address),
    { id: 'REF', elements: ['EI', billing.taxId] },
  ];
}

/** The claims of each transaction set: MAX_CLAIMS_PER_TRANSACTION_SET at most per set, in order. */
export function claimsPerSet<T>(claims: readonly T[], perSet = MAX_CLAIMS_PER_TRANSACTION_SET): T[][] {
  const sets: T[][] = [];
  for (let i = 0; i < claims.length; i += perSet) sets.push(claims.slice(i, i + perSet));
  return sets;
}

/** How many transaction sets a batch of `claimCount` claims is written as. */
export function setCountFor(claimCount: number): number {
  return Math.max(1, Math.ceil(claimCount / MAX_CLAIMS_PER_TRANSACTION_SET));
}

/**
 * The whole 837P file: ISA, GS, one ST…SE per (at most) 5,000 claims, GE, IEA, one segment per line. Throws an
 * X12Error when a value cannot be written (a delimiter in an id): the caller names the claim (`firstUnwritableClaim`).
 * `claimsPerSet` lowers the 5,000 for tests.
 */
export function build837(batch: Batch837, options: { claimsPerSet?: number } = {}): string {
  const { envelope: env } = batch;
  const groups = claimsPerSet(batch.claims, options.claimsPerSet);
  if (groups.length !== env.setControlNumbers.length) {
    throw new Error(
      `${groups.length} transaction sets need as many ST control numbers, not ${env.setControlNumbers.length}`,
    );
  }
  const sets = groups.map((claims, setIndex) => {
    const segments = headerSegments(batch, setIndex);
    let hl = 2;
    for (const claim of claims) {
      const written = claimSegments(claim, hl, batch.billingProvider, batch.payer);
      for (const segment of written.segments) segments.push(segment);
      hl = written.nextHl;
    }
    return {
      id: '837',
      controlNumber: env.setControlNumbers[setIndex]!,
      implementation: IMPLEMENTATION_837P,
      segments,
    };
  });
  return envelope({
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
      functionalId: 'HC',
      senderId: env.submitter.id,
      receiverId: env.receiver.id,
      date: env.date,
      time: env.time,
      controlNumber: env.groupControlNumber,
      version: IMPLEMENTATION_837P,
    },
    sets,
  });
}

/**
 * The first claim whose segments the X12 writer refuses, with the writer's reason: what a batch that cannot be
 * written reports, so the claim can be fixed. Null when every claim can be written.
 */
export function firstUnwritableClaim(batch: Batch837): { accountNumber: string; problem: string } | null {
  for (const claim of batch.claims) {
    try {
      serializeSegments(claimSegments(claim, 2, batch.billingProvider, batch.payer).segments, X12_DEFAULT_DELIMITERS);
    } catch (error) {
      return { accountNumber: claim.accountNumber, problem: error instanceof Error ? error.message : String(error) };
    }
  }
  return null;
}
