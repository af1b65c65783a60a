/**
 * The demo clinic's insurance: each insured patient's policies with member ids in their payer's format,
 * children on a parent's policy, some Medicare patients with a supplemental plan paying second, and the
 * billing identities (NPI, taxonomy, EIN) of the practice and its providers.
 */
import type { PAYERS } from '@/features/claims/claims.schema';
import type { MedicareSecondaryType, SubscriberRelationship } from '@/features/coverage/coverage.schema';
import { makeNpi } from '@/shared/billing-identifiers';
import { ageOn, type PatientProfile } from './demo-clinical';
import { addDays, type Random } from './random';

type Payer = (typeof PAYERS)[number];

/** Letters a Medicare Beneficiary Identifier may hold (CMS leaves out S, L, O, I, B and Z). */
export const MBI_LETTERS = 'ACDEFGHJKMNPQRTUVWXY';
const DIGITS = '0123456789';

function digits(r: Random, n: number): string {
  return Array.from({ length: n }, () => r.pick([...DIGITS])).join('');
}

/** A Medicare Beneficiary Identifier: C A AN N A AN N A A N N (CMS MBI format). */
export function drawMbi(r: Random): string {
  const alpha = () => r.pick([...MBI_LETTERS]);
  const alnum = () => r.pick([...MBI_LETTERS, ...DIGITS]);
  return [
    r.pick([...'123456789']),
    alpha(),
    alnum(),
    digits(r, 1),
    alpha(),
    alnum(),
    digits(r, 1),
    alpha(),
    alpha(),
    digits(r, 2),
  ].join('');
}

/** A member id in the shape the payer issues (prefixes are the demo's own, not the payers' real ones). */
export function drawMemberId(r: Random, payer: Payer): string {
  switch (payer) {
    case 'Medicare':
      return drawMbi(r);
    case 'Medicaid':
      return digits(r, 9);
    case 'Blue Cross Blue Shield':
      return `${r.pick(['XOF', 'XOD', 'YRB'])}${digits(r, 9)}`;
    case 'Aetna':
      return `W${digits(r, 9)}`;
    case 'Cigna':
      return `U${digits(r, 8)}`;
    case 'Humana':
      return `H${digits(r, 8)}`;
    case 'Tricare':
      return digits(r, 11);
    default:
      return digits(r, 9);
  }
}

/** Government programmes have no group number; employer plans do. */
function drawGroupNumber(r: Random, payer: Payer): string | null {
  return payer === 'Medicare' || payer === 'Medicaid' || payer === 'Tricare' ? null : `GRP${digits(r, 6)}`;
}

export interface CoverageDraft {
  patientId: number;
  payer: Payer;
  priority: number;
  memberId: string;
  groupNumber: string | null;
  relationship: SubscriberRelationship;
  subscriberName: string | null;
  subscriberDob: string | null;
  effectiveOn: string;
  /** Why Medicare pays second (X12 SBR05), on a Medicare policy that is not the first. */
  medicareSecondaryType?: MedicareSecondaryType;
}

/**
 * A patient's policies: none for self-pay; otherwise their payer first (a child on a parent's policy, some
 * adults on a spouse's), in force from a January some years back (or birth), and for a fifth of the
 * Medicare patients a supplemental plan second.
 */
export function drawCoverages(
  r: Random,
  profile: PatientProfile,
  patient: { name: string },
  today: string,
  parentFirstNames: readonly string[],
): CoverageDraft[] {
  if (profile.payer === 'Self-Pay') return [];
  const age = ageOn(profile.dob, today);
  const lastName = patient.name.split(' ').slice(1).join(' ');
  const start = `${Number(today.slice(0, 4)) - r.int(2, 8)}-01-01`;
  const effectiveOn = start < profile.dob ? profile.dob : start;
  const government = profile.payer === 'Medicare' || profile.payer === 'Medicaid';
  let relationship: SubscriberRelationship = 'self';
  if (age < 18 && profile.payer !== 'Medicaid') relationship = 'child';
  else if (!government && age >= 18 && r.chance(0.15)) relationship = 'spouse';
  const holder =
    relationship === 'self'
      ? { subscriberName: null, subscriberDob: null }
      : {
          subscriberName: `${r.pick(parentFirstNames)} ${lastName}`,
          subscriberDob:
            relationship === 'child'
              ? addDays(profile.dob, -365 * r.int(24, 40))
              : addDays(profile.dob, r.int(-3 * 365, 3 * 365)),
        };
  const primary: CoverageDraft = {
    patientId: profile.id,
    payer: profile.payer,
    priority: 1,
    memberId: drawMemberId(r, profile.payer),
    groupNumber: drawGroupNumber(r, profile.payer),
    relationship,
    ...holder,
    effectiveOn,
  };
  if (profile.payer !== 'Medicare' || !r.chance(0.2)) return [primary];
  const supplemental = r.pick(['Aetna', 'Blue Cross Blue Shield', 'UnitedHealthcare'] as const);
  return [
    primary,
    {
      patientId: profile.id,
      payer: supplemental,
      priority: 2,
      memberId: drawMemberId(r, supplemental),
      groupNumber: drawGroupNumber(r, supplemental),
      relationship: 'self',
      subscriberName: null,
      subscriberDob: null,
      effectiveOn,
    },
  ];
}

/** Employer group health plans: a patient of 65 or more on one is still working (or a spouse is). */
const EMPLOYER_PLANS: ReadonlySet<Payer> = new Set(['Aetna', 'Blue Cross Blue Shield', 'Cigna', 'UnitedHealthcare']);

/**
 * Medicare behind an employer's plan: a patient of 65 or more whose own first policy is an employer group health
 * plan has Medicare too, which pays second while they work (Medicare Secondary Payer, X12 SBR05 12, working aged).
 * Null for everyone else. Its own random stream (the member id), so that adding it changed no other patient's draws.
 */
export function drawMedicareSecondary(
  r: Random,
  primary: CoverageDraft | undefined,
  profile: PatientProfile,
  today: string,
): CoverageDraft | null {
  if (!primary || primary.relationship !== 'self' || !EMPLOYER_PLANS.has(primary.payer)) return null;
  if (ageOn(profile.dob, today) < 65) return null;
  // Medicare begins on the first day of the month of the 65th birthday.
  const turned65 = `${Number(profile.dob.slice(0, 4)) + 65}-${profile.dob.slice(5, 7)}-01`;
  return {
    patientId: profile.id,
    payer: 'Medicare',
    priority: 2,
    memberId: drawMbi(r),
    groupNumber: null,
    relationship: 'self',
    subscriberName: null,
    subscriberDob: null,
    effectiveOn: turned65 > primary.effectiveOn ? turned65 : primary.effectiveOn,
    medicareSecondaryType: '12',
  };
}

/** Health Care Provider Taxonomy codes (NUCC) of the demo clinic's specialties. */
export const TAXONOMY_BY_SPECIALTY: Readonly<Record<string, string>> = {
  'Family Medicine': '207Q00000X',
  'Internal Medicine': '207R00000X',
  Pediatrics: '208000000X',
  Cardiology: '207RC0000X',
  Endocrinology: '207RE0101X',
  Pulmonology: '207RP1001X',
};

/** The n-th demo provider's NPI: valid (CMS check digit), made up. */
export function demoProviderNpi(n: number): string {
  return makeNpi(`1${String(234560 + n * 7919).padStart(8, '0')}`);
}

/** The demo practice as the billing provider of its claims (a multi-specialty group). */
export const DEMO_BILLING_IDENTITY = {
  billingName: 'Riverside Family Practice LLC',
  billingNpi: makeNpi('166778899'),
  taxId: '371234567',
  taxonomyCode: '193200000X',
  billingAddressLine1: '1200 Main Street, Suite 200',
  billingCity: 'Springfield',
  billingState: 'IL',
  billingZip: '627011234',
};

/**
 * The clearinghouse the demo practice sends its 837P files to (made up): test files (ISA15 T) under the
 * submitter id it assigned.
 */
export const DEMO_CLEARINGHOUSE = {
  ediSubmitterId: 'RFP0042',
  ediReceiverName: 'Prairie Clearinghouse',
  ediReceiverId: 'PRAIRIECH',
  ediUsage: 'T',
};

/** Street names of the demo town, for patients' addresses. */
export const STREETS = [
  'Oak Street',
  'Maple Avenue',
  'Cedar Lane',
  'Lincoln Avenue',
  'Washington Street',
  'Lakeview Drive',
  'Elm Street',
  'Park Place',
  'Sangamon Avenue',
  'Walnut Street',
] as const;

/** ZIP codes of Springfield, IL. */
export const ZIPS = ['62701', '62702', '62703', '62704', '62711', '62712'] as const;
