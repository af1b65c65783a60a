/**
 * The demo clinic's clinical sense: which conditions patients of an age have, the visits those bring, which
 * specialties see them, what each visit is coded (ICD-10-CM) and billed (CPT/HCPCS) as, and which days
 * the practice is open. The seed draws every visit, encounter and claim through it, so a child is never
 * booked for an adult physical with Internal Medicine and an echocardiogram is the kind of service a
 * payer denies for a missing authorization. Labels are our own short wording.
 */
import type { PAYERS } from '@/features/claims/claims.schema';
import { minutesOf, timeOf } from '@/features/appointments/appointments.schema';
import { DEFAULT_PRACTICE_HOURS, WEEKDAYS, type PracticeHours } from '@/features/settings/practice.schema';
import type { ENCOUNTER_TYPES } from '@/features/worklist/worklist.schema';
import { addDays, type Random } from './random';

export type Specialty =
  'Family Medicine' | 'Internal Medicine' | 'Pediatrics' | 'Cardiology' | 'Endocrinology' | 'Pulmonology';
type Payer = (typeof PAYERS)[number];
type EncounterType = (typeof ENCOUNTER_TYPES)[number];

/** Pediatrics sees children only; the adult specialties adults only; Family Medicine everyone. */
const SPECIALTY_AGES: Record<Specialty, readonly [number, number]> = {
  'Family Medicine': [0, 120],
  'Internal Medicine': [18, 120],
  Pediatrics: [0, 17],
  Cardiology: [18, 120],
  Endocrinology: [18, 120],
  Pulmonology: [18, 120],
};

export function specialtySeesAge(specialty: string, age: number): boolean {
  const ages = SPECIALTY_AGES[specialty as Specialty] as readonly [number, number] | undefined;
  return ages !== undefined && age >= ages[0] && age <= ages[1];
}

export const CONDITION_KEYS = [
  'diabetes',
  'hypertension',
  'hyperlipidemia',
  'asthma',
  'copd',
  'hypothyroidism',
  'anxiety',
  'backPain',
  'ckd',
  'heartFailure',
  'sleepApnea',
  'allergicRhinitis',
] as const;
export type ConditionKey = (typeof CONDITION_KEYS)[number];

/** A long-term condition: its code, who has it how often, what it is treated with and a note a clinician wrote. */
interface Condition {
  diagnosis: string;
  /** Share of patients of an age with the condition. */
  prevalence: (age: number) => number;
  meds: readonly string[];
  note: string | null;
}

/** Prevalences are rough US primary-care figures, enough for a demo to look like a real panel. */
export const CONDITIONS: Record<ConditionKey, Condition> = {
  diabetes: {
    diagnosis: 'E11.9 Type 2 diabetes without complications',
    prevalence: (age) => (age < 30 ? 0 : age < 45 ? 0.05 : age < 65 ? 0.15 : 0.25),
    meds: ['Metformin 500 mg twice daily', 'Insulin glargine 20 units nightly'],
    note: 'A1c trending down; continue current regimen and recheck in 3 months.',
  },
  hypertension: {
    diagnosis: 'I10 Essential hypertension',
    prevalence: (age) => (age < 25 ? 0 : age < 45 ? 0.1 : age < 65 ? 0.35 : 0.55),
    meds: ['Lisinopril 10 mg daily', 'Amlodipine 5 mg daily', 'Losartan 50 mg daily'],
    note: 'Blood pressure above goal at last two visits; home log requested.',
  },
  hyperlipidemia: {
    diagnosis: 'E78.5 Hyperlipidaemia',
    prevalence: (age) => (age < 30 ? 0 : age < 45 ? 0.1 : age < 65 ? 0.3 : 0.4),
    meds: ['Atorvastatin 20 mg nightly'],
    note: 'Lipids at goal; continue statin.',
  },
  asthma: {
    diagnosis: 'J45.909 Asthma, unspecified',
    prevalence: (age) => (age < 4 ? 0 : 0.08),
    meds: ['Albuterol inhaler as needed', 'Fluticasone nasal spray daily'],
    note: 'Mild persistent asthma, well controlled on current inhaler.',
  },
  copd: {
    diagnosis: 'J44.9 COPD, unspecified',
    prevalence: (age) => (age < 45 ? 0 : age < 65 ? 0.05 : 0.1),
    meds: ['Albuterol inhaler as needed'],
    note: 'Discussed smoking cessation; patient interested in nicotine replacement.',
  },
  hypothyroidism: {
    diagnosis: 'E03.9 Hypothyroidism, unspecified',
    prevalence: (age) => (age < 18 ? 0 : 0.06),
    meds: ['Levothyroxine 50 mcg daily'],
    note: null,
  },
  anxiety: {
    diagnosis: 'F41.1 Generalised anxiety disorder',
    prevalence: (age) => (age < 12 ? 0 : 0.1),
    meds: ['Sertraline 50 mg daily'],
    note: 'Anxiety symptoms improved; continue therapy referral.',
  },
  backPain: {
    diagnosis: 'M54.50 Low back pain, unspecified',
    prevalence: (age) => (age < 18 ? 0 : 0.1),
    meds: ['Gabapentin 300 mg nightly'],
    note: 'Chronic low back pain; physical therapy twice weekly.',
  },
  ckd: {
    diagnosis: 'N18.30 Chronic kidney disease, stage 3',
    prevalence: (age) => (age < 50 ? 0 : age < 65 ? 0.04 : 0.12),
    meds: [],
    note: null,
  },
  heartFailure: {
    diagnosis: 'I50.9 Heart failure, unspecified',
    prevalence: (age) => (age < 55 ? 0 : age < 65 ? 0.02 : 0.08),
    meds: ['Furosemide 20 mg daily', 'Metoprolol 25 mg twice daily'],
    note: null,
  },
  sleepApnea: {
    diagnosis: 'G47.33 Obstructive sleep apnoea',
    prevalence: (age) => (age < 30 ? 0 : 0.06),
    meds: [],
    note: 'Reports improved sleep after CPAP adjustment.',
  },
  allergicRhinitis: {
    diagnosis: 'J30.2 Seasonal allergic rhinitis',
    prevalence: (age) => (age < 3 ? 0 : 0.12),
    meds: ['Fluticasone nasal spray daily'],
    note: null,
  },
};

/** A procedure code to bill, or 'preventive': the preventive-medicine code for the patient's age and payer. */
type BilledAs = string;

/** A reason to be seen: who it fits, who sees it, how it is recorded and what it is billed as. */
export interface VisitKind {
  reason: string;
  complaint: string;
  /** The principal diagnosis; null: the condition the visit follows up. */
  diagnosis: string | null;
  specialties: readonly Specialty[];
  ages: readonly [number, number];
  /** Only patients with this condition (or, for 'any', with some long-term condition) have the visit. */
  follows: ConditionKey | 'any' | null;
  weight: number;
  encounterTypes: readonly EncounterType[];
  /** The visit itself (an evaluation and management or preventive code), by weight: the claim's line 1. */
  billedAs: readonly (readonly [BilledAs, number])[];
  /** Services done at the visit (labs, tests, vaccines), each with its chance: the claim's further lines. */
  addOns: readonly (readonly [string, number])[];
}

export const VISIT_KINDS: readonly VisitKind[] = [
  {
    reason: 'Annual physical',
    complaint: 'Annual check-up',
    diagnosis: 'Z00.00 General adult examination',
    specialties: ['Family Medicine', 'Internal Medicine'],
    ages: [18, 120],
    follows: null,
    weight: 10,
    encounterTypes: ['Annual Wellness'],
    billedAs: [['preventive', 1]],
    addOns: [
      ['80053', 0.35],
      ['80061', 0.35],
      ['85025', 0.25],
      ['36415', 0.45],
    ],
  },
  {
    reason: 'Well-child visit',
    complaint: 'Well-child check',
    diagnosis: 'Z00.129 Routine child health examination',
    specialties: ['Pediatrics', 'Family Medicine'],
    ages: [0, 17],
    follows: null,
    weight: 30,
    encounterTypes: ['Annual Wellness'],
    billedAs: [['preventive', 1]],
    addOns: [
      ['90471', 0.3],
      ['90686', 0.2],
      ['96127', 0.2],
    ],
  },
  {
    reason: 'Diabetes follow-up',
    complaint: 'Elevated blood sugar readings',
    diagnosis: null,
    specialties: ['Family Medicine', 'Internal Medicine', 'Endocrinology'],
    ages: [18, 120],
    follows: 'diabetes',
    weight: 40,
    encounterTypes: ['Office Visit', 'Telehealth'],
    billedAs: [
      ['99213', 45],
      ['99214', 55],
    ],
    addOns: [
      ['83036', 0.6],
      ['36415', 0.5],
      ['80053', 0.2],
    ],
  },
  {
    reason: 'Hypertension check',
    complaint: 'Headaches and high home BP',
    diagnosis: null,
    specialties: ['Family Medicine', 'Internal Medicine', 'Cardiology'],
    ages: [18, 120],
    follows: 'hypertension',
    weight: 30,
    encounterTypes: ['Office Visit'],
    billedAs: [
      ['99213', 60],
      ['99214', 40],
    ],
    addOns: [
      ['93000', 0.15],
      ['80053', 0.15],
      ['36415', 0.15],
    ],
  },
  {
    reason: 'Cholesterol follow-up',
    complaint: 'Lipid results follow-up',
    diagnosis: null,
    specialties: ['Family Medicine', 'Internal Medicine', 'Cardiology'],
    ages: [18, 120],
    follows: 'hyperlipidemia',
    weight: 20,
    encounterTypes: ['Office Visit', 'Telehealth'],
    billedAs: [
      ['99213', 70],
      ['99214', 30],
    ],
    addOns: [
      ['80061', 0.5],
      ['36415', 0.45],
    ],
  },
  {
    reason: 'Asthma follow-up',
    complaint: 'Persistent cough',
    diagnosis: null,
    specialties: ['Family Medicine', 'Pediatrics', 'Pulmonology'],
    ages: [4, 120],
    follows: 'asthma',
    weight: 30,
    encounterTypes: ['Office Visit'],
    billedAs: [
      ['99213', 65],
      ['99214', 35],
    ],
    addOns: [['94010', 0.2]],
  },
  {
    reason: 'COPD follow-up',
    complaint: 'Shortness of breath on exertion',
    diagnosis: null,
    specialties: ['Internal Medicine', 'Pulmonology'],
    ages: [45, 120],
    follows: 'copd',
    weight: 30,
    encounterTypes: ['Office Visit'],
    billedAs: [
      ['99213', 45],
      ['99214', 55],
    ],
    addOns: [['94010', 0.3]],
  },
  {
    reason: 'Thyroid follow-up',
    complaint: 'Fatigue',
    diagnosis: null,
    specialties: ['Family Medicine', 'Internal Medicine', 'Endocrinology'],
    ages: [18, 120],
    follows: 'hypothyroidism',
    weight: 25,
    encounterTypes: ['Office Visit', 'Telehealth'],
    billedAs: [
      ['99213', 80],
      ['99214', 20],
    ],
    addOns: [
      ['84443', 0.5],
      ['36415', 0.45],
    ],
  },
  {
    reason: 'Anxiety follow-up',
    complaint: 'Worry and trouble sleeping',
    diagnosis: null,
    specialties: ['Family Medicine', 'Internal Medicine', 'Pediatrics'],
    ages: [12, 120],
    follows: 'anxiety',
    weight: 25,
    encounterTypes: ['Office Visit', 'Telehealth'],
    billedAs: [
      ['99213', 60],
      ['99214', 40],
    ],
    addOns: [['96127', 0.4]],
  },
  {
    reason: 'Back pain',
    complaint: 'Lower back pain',
    diagnosis: null,
    specialties: ['Family Medicine', 'Internal Medicine'],
    ages: [18, 120],
    follows: 'backPain',
    weight: 25,
    encounterTypes: ['Office Visit'],
    billedAs: [
      ['99213', 60],
      ['99214', 30],
      ['99212', 10],
    ],
    addOns: [],
  },
  {
    reason: 'Kidney function check',
    complaint: 'Abnormal kidney labs',
    diagnosis: null,
    specialties: ['Internal Medicine', 'Endocrinology'],
    ages: [18, 120],
    follows: 'ckd',
    weight: 30,
    encounterTypes: ['Office Visit'],
    billedAs: [
      ['99213', 50],
      ['99214', 50],
    ],
    addOns: [
      ['80053', 0.6],
      ['36415', 0.55],
    ],
  },
  {
    reason: 'Heart failure follow-up',
    complaint: 'Swelling in ankles',
    diagnosis: null,
    specialties: ['Cardiology', 'Internal Medicine'],
    ages: [18, 120],
    follows: 'heartFailure',
    weight: 40,
    encounterTypes: ['Office Visit'],
    billedAs: [
      ['99214', 75],
      ['99215', 25],
    ],
    addOns: [
      ['93306', 0.35],
      ['93000', 0.3],
      ['80053', 0.3],
    ],
  },
  {
    reason: 'Sleep study consult',
    complaint: 'Snoring and daytime sleepiness',
    diagnosis: null,
    specialties: ['Pulmonology'],
    ages: [18, 120],
    follows: 'sleepApnea',
    weight: 35,
    encounterTypes: ['New Patient', 'Office Visit'],
    billedAs: [
      ['99204', 50],
      ['99214', 50],
    ],
    addOns: [['95810', 0.55]],
  },
  {
    reason: 'Allergy evaluation',
    complaint: 'Sneezing and itchy eyes',
    diagnosis: null,
    specialties: ['Family Medicine', 'Pediatrics'],
    ages: [3, 120],
    follows: 'allergicRhinitis',
    weight: 15,
    encounterTypes: ['Office Visit'],
    billedAs: [['99213', 100]],
    addOns: [['95004', 0.5]],
  },
  {
    reason: 'Medication review',
    complaint: 'Medication refill',
    diagnosis: null,
    specialties: ['Family Medicine', 'Internal Medicine'],
    ages: [18, 120],
    follows: 'any',
    weight: 20,
    encounterTypes: ['Office Visit', 'Telehealth'],
    billedAs: [
      ['99212', 30],
      ['99213', 70],
    ],
    addOns: [],
  },
  {
    reason: 'Lab results review',
    complaint: 'Lab results review',
    diagnosis: null,
    specialties: ['Family Medicine', 'Internal Medicine', 'Endocrinology'],
    ages: [18, 120],
    follows: 'any',
    weight: 15,
    encounterTypes: ['Office Visit', 'Telehealth'],
    billedAs: [['99213', 100]],
    addOns: [
      ['80053', 0.2],
      ['85025', 0.2],
      ['36415', 0.3],
    ],
  },
  {
    reason: 'Flu symptoms',
    complaint: 'Fever and body aches',
    diagnosis: 'J11.1 Influenza with respiratory symptoms',
    specialties: ['Family Medicine', 'Internal Medicine', 'Pediatrics'],
    ages: [0, 120],
    follows: null,
    weight: 6,
    encounterTypes: ['Urgent Visit', 'Office Visit'],
    billedAs: [
      ['99213', 60],
      ['99212', 25],
      ['99214', 15],
    ],
    addOns: [['87804', 0.4]],
  },
  {
    reason: 'Sore throat',
    complaint: 'Sore throat',
    diagnosis: 'J02.9 Acute pharyngitis, unspecified',
    specialties: ['Family Medicine', 'Pediatrics'],
    ages: [2, 120],
    follows: null,
    weight: 5,
    encounterTypes: ['Urgent Visit', 'Office Visit'],
    billedAs: [
      ['99213', 75],
      ['99212', 25],
    ],
    addOns: [['87880', 0.6]],
  },
  {
    reason: 'Ear pain',
    complaint: 'Ear pain',
    diagnosis: 'H66.90 Otitis media, unspecified',
    specialties: ['Pediatrics', 'Family Medicine'],
    ages: [0, 12],
    follows: null,
    weight: 10,
    encounterTypes: ['Urgent Visit', 'Office Visit'],
    billedAs: [
      ['99213', 80],
      ['99212', 20],
    ],
    addOns: [],
  },
  {
    reason: 'Skin rash',
    complaint: 'Itchy rash',
    diagnosis: 'L30.9 Dermatitis, unspecified',
    specialties: ['Family Medicine', 'Pediatrics'],
    ages: [0, 120],
    follows: null,
    weight: 4,
    encounterTypes: ['Office Visit'],
    billedAs: [
      ['99212', 40],
      ['99213', 60],
    ],
    addOns: [],
  },
  {
    reason: 'Pre-operative evaluation',
    complaint: 'Pre-operative clearance',
    diagnosis: 'Z01.818 Pre-procedural examination',
    specialties: ['Family Medicine', 'Internal Medicine', 'Cardiology'],
    ages: [40, 120],
    follows: null,
    weight: 3,
    encounterTypes: ['Office Visit'],
    billedAs: [['99214', 100]],
    addOns: [
      ['93000', 0.6],
      ['85025', 0.4],
      ['36415', 0.4],
    ],
  },
  {
    reason: 'Chest pain follow-up',
    complaint: 'Chest tightness',
    diagnosis: 'R07.9 Chest pain, unspecified',
    specialties: ['Cardiology', 'Internal Medicine'],
    ages: [35, 120],
    follows: null,
    weight: 6,
    encounterTypes: ['Office Visit', 'New Patient'],
    billedAs: [
      ['99214', 80],
      ['99215', 20],
    ],
    addOns: [
      ['93000', 0.6],
      ['93015', 0.4],
    ],
  },
  {
    reason: 'New patient visit',
    complaint: 'Establishing care',
    diagnosis: 'Z00.00 General adult examination',
    specialties: ['Family Medicine', 'Internal Medicine'],
    ages: [18, 120],
    follows: null,
    weight: 3,
    encounterTypes: ['New Patient'],
    billedAs: [
      ['99203', 60],
      ['99204', 40],
    ],
    addOns: [
      ['80053', 0.2],
      ['36415', 0.2],
    ],
  },
];

/** Every diagnosis the demo clinic codes, as 'code label'. */
export const DIAGNOSES: readonly string[] = [
  ...new Set([
    ...Object.values(CONDITIONS).map((c) => c.diagnosis),
    ...VISIT_KINDS.flatMap((k) => (k.diagnosis ? [k.diagnosis] : [])),
  ]),
];

/**
 * Preventive-medicine visits are coded by the patient's age (CPT 99391–99397, established patient);
 * Medicare pays its own annual wellness visit (HCPCS G0439) instead of 99397.
 */
export function preventiveCode(age: number, payer: Payer): string {
  if (age >= 65 && payer === 'Medicare') return 'G0439';
  if (age < 1) return '99391';
  if (age <= 4) return '99392';
  if (age <= 11) return '99393';
  if (age <= 17) return '99394';
  if (age <= 39) return '99395';
  if (age <= 64) return '99396';
  return '99397';
}

/** The age band each preventive code is for (inclusive), G0439 aside. */
export const PREVENTIVE_AGES: Readonly<Record<string, readonly [number, number]>> = {
  '99391': [0, 0],
  '99392': [1, 4],
  '99393': [5, 11],
  '99394': [12, 17],
  '99395': [18, 39],
  '99396': [40, 64],
  '99397': [65, 120],
  G0439: [65, 120],
};

/** Whole years from a date of birth to a day (YYYY-MM-DD strings). */
export function ageOn(dob: string, day: string): number {
  const years = Number(day.slice(0, 4)) - Number(dob.slice(0, 4));
  return day.slice(5) < dob.slice(5) ? years - 1 : years;
}

/** A patient as the seed sees them: age, long-term conditions and insurer. */
export interface PatientProfile {
  id: number;
  dob: string;
  conditions: readonly ConditionKey[];
  payer: Payer;
}

/** A patient's conditions by the prevalences above. */
export function drawConditions(r: Random, age: number): ConditionKey[] {
  return CONDITION_KEYS.filter((key) => r.chance(CONDITIONS[key].prevalence(age)));
}

/** What a patient with these conditions takes: one medicine per condition, none twice. */
export function medicationsFor(r: Random, conditions: readonly ConditionKey[]): string[] {
  return [...new Set(conditions.flatMap((key) => (CONDITIONS[key].meds.length ? [r.pick(CONDITIONS[key].meds)] : [])))];
}

/** A clinician's note on one of the patient's conditions, or '' when none has one. */
export function noteFor(r: Random, conditions: readonly ConditionKey[]): string {
  const notes = conditions.flatMap((key) => {
    const note = CONDITIONS[key].note;
    return note ? [note] : [];
  });
  return notes.length ? r.pick(notes) : '';
}

/**
 * A patient's insurer by age: Medicare (or a Medicare Advantage plan such as Humana's) from 65, Medicaid
 * and commercial plans for children and working-age adults, a few self-pay.
 */
export function drawPayer(r: Random, age: number): Payer {
  if (age >= 65) {
    return r.weighted([
      ['Medicare', 74],
      ['Humana', 14],
      ['Blue Cross Blue Shield', 4],
      ['Aetna', 3],
      ['UnitedHealthcare', 3],
      ['Tricare', 2],
    ] as const);
  }
  return r.weighted([
    ['Blue Cross Blue Shield', 22],
    ['UnitedHealthcare', 18],
    ['Aetna', 13],
    ['Medicaid', age < 18 ? 30 : 12],
    ['Cigna', 10],
    ['Kaiser Permanente', 5],
    ['Humana', 4],
    ['Tricare', 3],
    ['Medicare', age >= 18 ? 2 : 0],
    ['Self-Pay', 3],
  ] as const);
}

/** How much more often than a healthy adult a patient is seen: older and chronically ill patients come more. */
export function visitFrequency(profile: PatientProfile, today: string): number {
  const age = ageOn(profile.dob, today);
  return (age >= 65 ? 2 : age >= 45 ? 1.5 : 1) + profile.conditions.length * 0.5;
}

/** The visit kinds that fit a patient of this age with these conditions. */
export function visitKindsFor(profile: PatientProfile, age: number): VisitKind[] {
  return VISIT_KINDS.filter(
    (kind) =>
      age >= kind.ages[0] &&
      age <= kind.ages[1] &&
      (kind.follows === null ||
        (kind.follows === 'any' ? profile.conditions.length > 0 : profile.conditions.includes(kind.follows))),
  );
}

export interface ProviderOfSpecialty {
  id: number;
  specialty: string;
}

/** One visit as the seed books, records and bills it. */
export interface DrawnVisit {
  kind: VisitKind;
  providerId: number;
  /** Principal diagnosis first, then the patient's other long-term conditions the visit also addressed. */
  diagnoses: string[];
}

/**
 * A visit for this patient on this day: a kind that fits them (the one with `reason`, when given), and a
 * provider whose specialty sees it and patients of their age.
 */
export function drawVisit(
  r: Random,
  profile: PatientProfile,
  day: string,
  providers: readonly ProviderOfSpecialty[],
  reason?: string,
): DrawnVisit {
  const age = ageOn(profile.dob, day);
  const kinds = visitKindsFor(profile, age).filter((kind) => reason === undefined || kind.reason === reason);
  const candidates = kinds.flatMap((kind) => {
    const seenBy = providers.filter(
      (p) => (kind.specialties as readonly string[]).includes(p.specialty) && specialtySeesAge(p.specialty, age),
    );
    return seenBy.length ? [{ kind, seenBy }] : [];
  });
  if (!candidates.length) throw new Error(`no ${reason ?? 'visit'} fits patient ${profile.id} aged ${age}`);
  const { kind, seenBy } = r.weighted(candidates.map((c) => [c, c.kind.weight] as const));
  const followed = kind.follows === 'any' ? r.pick(profile.conditions) : kind.follows === null ? null : kind.follows;
  const principal = kind.diagnosis ?? (followed ? CONDITIONS[followed].diagnosis : 'Z00.00 General adult examination');
  // A follow-up also reviews the patient's other long-term conditions (coded after the principal one).
  const others =
    kind.follows === null
      ? []
      : profile.conditions
          .filter((key) => key !== followed)
          .map((key) => CONDITIONS[key].diagnosis)
          .slice(0, r.int(0, 2));
  return { kind, providerId: r.pick(seenBy).id, diagnoses: [principal, ...others] };
}

/** The procedures a visit of this kind is billed as (1–4 lines, the visit first), for a patient of this age and payer. */
export function billedProcedures(r: Random, kind: VisitKind, age: number, payer: Payer): string[] {
  const billed = r.weighted(kind.billedAs);
  const visit = billed === 'preventive' ? preventiveCode(age, payer) : billed;
  const done = kind.addOns.filter(([, chance]) => r.chance(chance)).map(([code]) => code);
  return [visit, ...done].slice(0, 4);
}

/**
 * Days the demo practice is closed though they fall on a working day: the US federal holidays a clinic
 * usually closes for (New Year's Day, Memorial Day, Independence Day, Labor Day, Thanksgiving, Christmas).
 */
export function isPracticeHoliday(day: string): boolean {
  const month = Number(day.slice(5, 7));
  const date = Number(day.slice(8, 10));
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  const nth = Math.ceil(date / 7);
  const lastOfMonth = new Date(Date.UTC(Number(day.slice(0, 4)), month, 0)).getUTCDate() - date < 7;
  return (
    (month === 1 && date === 1) ||
    (month === 5 && weekday === 1 && lastOfMonth) ||
    (month === 7 && date === 4) ||
    (month === 9 && weekday === 1 && nth === 1) ||
    (month === 11 && weekday === 4 && nth === 4) ||
    (month === 12 && date === 25)
  );
}

/** Whether the practice sees patients on a day: one of its working days (Settings → Practice) and no holiday. */
export function isPracticeOpen(day: string, hours: PracticeHours = DEFAULT_PRACTICE_HOURS): boolean {
  const weekday = WEEKDAYS[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7];
  return weekday !== undefined && hours.workingDays.includes(weekday) && !isPracticeHoliday(day);
}

/** The nearest open day at or before (step -1) or after (step 1) a day. */
export function nearestOpenDay(day: string, step: 1 | -1, hours: PracticeHours = DEFAULT_PRACTICE_HOURS): string {
  let open = day;
  for (let i = 0; i < 14 && !isPracticeOpen(open, hours); i += 1) open = addDays(open, step);
  return open;
}

/**
 * The start times of a provider's day: from opening, one visit plus the buffer apart, the last ending by
 * closing (as the booking form offers them on an empty day).
 */
export function visitStarts(hours: PracticeHours = DEFAULT_PRACTICE_HOURS): string[] {
  const starts: string[] = [];
  for (
    let start = minutesOf(hours.workdayStart);
    start + hours.appointmentMinutes <= minutesOf(hours.workdayEnd);
    start += hours.appointmentMinutes + hours.bufferMinutes
  ) {
    starts.push(timeOf(start));
  }
  return starts;
}

/** Who a prior authorization is asked for: the service must suit the patient's age and conditions. */
const AUTHORIZATION_FITS: Readonly<Record<string, (age: number, conditions: readonly ConditionKey[]) => boolean>> = {
  '72148': (age, c) => c.includes('backPain'),
  '74160': (age) => age >= 18,
  '95810': (age, c) => c.includes('sleepApnea'),
  '97161': (age, c) => c.includes('backPain') || age >= 18,
  '93306': (age, c) => c.includes('heartFailure') || (age >= 40 && c.includes('hypertension')),
  '93015': (age) => age >= 35,
  '73721': (age) => age >= 12,
  A9276: (age, c) => c.includes('diabetes'),
  '45378': (age) => age >= 45,
  '95004': (age, c) => c.includes('allergicRhinitis') || c.includes('asthma'),
};

/** Whether a prior authorization for this procedure code makes sense for the patient on that day. */
export function authorizationFits(procedureCode: string, profile: PatientProfile, day: string): boolean {
  const fits = AUTHORIZATION_FITS[procedureCode];
  return fits !== undefined && fits(ageOn(profile.dob, day), profile.conditions);
}

/** The lists the scale seed draws from at random (it generates in SQL, without patient profiles). */
export const APPOINTMENT_REASONS: readonly string[] = VISIT_KINDS.map((k) => k.reason);
export const MEDICATIONS: readonly string[] = [...new Set(Object.values(CONDITIONS).flatMap((c) => c.meds))];
export const CLINICAL_NOTES: readonly string[] = Object.values(CONDITIONS).flatMap((c) => (c.note ? [c.note] : []));
