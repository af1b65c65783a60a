/** Reference lists for the demo clinic: real CARC, CPT and ICD-10 codes and payers; labels are our own short wording. */
import { DENIAL_DESCRIPTIONS, type PAYERS } from '@/features/claims/claims.schema';
import { procedureDescription } from '@/features/claims/claims.procedures';

export const FIRST_NAMES = [
  'James',
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Sophia',
  'Mateo',
  'Isabella',
  'Lucas',
  'Mia',
  'Ethan',
  'Amelia',
  'Aiden',
  'Harper',
  'Wei',
  'Mei',
  'Hiroshi',
  'Yuki',
  'Arjun',
  'Priya',
  'Rahul',
  'Ananya',
  'Omar',
  'Fatima',
  'Yusuf',
  'Aisha',
  'Kwame',
  'Amara',
  'Chinedu',
  'Zara',
  'Diego',
  'Camila',
  'Santiago',
  'Valentina',
  'Jose',
  'Lucia',
  'Thomas',
  'Grace',
  'Daniel',
  'Chloe',
  'Samuel',
  'Ella',
  'David',
  'Nora',
  'Michael',
  'Hannah',
  'Robert',
  'Linda',
  'Patricia',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Margaret',
  'Charles',
  'Dorothy',
  'Min-jun',
  'Seo-yeon',
  'Nikolai',
  'Anya',
  'Tariq',
  'Leila',
  'Kai',
  'Malia',
  'Dmitri',
  'Ingrid',
  'Rosa',
] as const;

/** The first names above that the demo records as female (administrative sex F); the others M. */
export const FEMALE_FIRST_NAMES: ReadonlySet<string> = new Set([
  'Olivia',
  'Emma',
  'Ava',
  'Sophia',
  'Isabella',
  'Mia',
  'Amelia',
  'Harper',
  'Mei',
  'Yuki',
  'Priya',
  'Ananya',
  'Fatima',
  'Aisha',
  'Amara',
  'Zara',
  'Camila',
  'Valentina',
  'Lucia',
  'Grace',
  'Chloe',
  'Ella',
  'Nora',
  'Hannah',
  'Linda',
  'Patricia',
  'Barbara',
  'Susan',
  'Margaret',
  'Dorothy',
  'Seo-yeon',
  'Anya',
  'Leila',
  'Malia',
  'Ingrid',
  'Rosa',
]);

export const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Nguyen',
  'Chen',
  'Wang',
  'Kim',
  'Park',
  'Patel',
  'Shah',
  'Singh',
  'Khan',
  'Ali',
  'Okafor',
  'Mensah',
  'Adeyemi',
  'Tanaka',
  'Sato',
  'Ivanov',
  'Novak',
  'Kowalski',
  'Haddad',
  'Nakamura',
  'Cohen',
  'Murphy',
  "O'Brien",
  'Kelly',
  'Rossi',
  'Bianchi',
  'Silva',
  'Santos',
  'Costa',
  'Fischer',
  'Schmidt',
  'Larsen',
] as const;

export const PROVIDERS = [
  { name: 'Dr. Sarah Mitchell', specialty: 'Family Medicine' },
  { name: 'Dr. Rajesh Iyer', specialty: 'Internal Medicine' },
  { name: 'Dr. Emily Carter', specialty: 'Pediatrics' },
  { name: 'Dr. Marcus Bennett', specialty: 'Cardiology' },
  { name: 'Dr. Ana Gutierrez', specialty: 'Family Medicine' },
  { name: 'Dr. Kenji Watanabe', specialty: 'Endocrinology' },
  { name: 'Dr. Olivia Grant', specialty: 'Internal Medicine' },
  { name: 'Dr. Samuel Okoye', specialty: 'Pulmonology' },
] as const;

export const ALLERGIES = [
  'Penicillin',
  'Sulfa drugs',
  'Latex',
  'Peanuts',
  'Shellfish',
  'Codeine',
  'Aspirin',
  'Ibuprofen',
  'Amoxicillin',
  'Bee stings',
  'Eggs',
  'Iodine contrast',
] as const;

/**
 * CPT/HCPCS codes the demo practice bills with typical charges in cents, and how common each is among the
 * scale seed's generated claims (the demo clinic bills what each visit calls for: demo-clinical.ts).
 */
export const PROCEDURES: readonly { code: string; label: string; cents: number; weight: number }[] = (
  [
    { code: '99213', cents: 14_900, weight: 30 },
    { code: '99214', cents: 21_400, weight: 20 },
    { code: '99215', cents: 28_000, weight: 4 },
    { code: '99212', cents: 9_000, weight: 5 },
    { code: '99203', cents: 16_500, weight: 5 },
    { code: '99204', cents: 25_000, weight: 3 },
    { code: '99391', cents: 20_500, weight: 0 },
    { code: '99392', cents: 21_500, weight: 0 },
    { code: '99393', cents: 21_500, weight: 0 },
    { code: '99394', cents: 23_500, weight: 0 },
    { code: '99395', cents: 23_500, weight: 0 },
    { code: '99396', cents: 24_600, weight: 6 },
    { code: '99397', cents: 26_000, weight: 0 },
    { code: 'G0439', cents: 17_500, weight: 4 },
    { code: '80053', cents: 11_600, weight: 5 },
    { code: '80061', cents: 8_600, weight: 4 },
    { code: '85025', cents: 6_000, weight: 4 },
    { code: '83036', cents: 5_700, weight: 3 },
    { code: '84443', cents: 6_500, weight: 0 },
    { code: '93000', cents: 6_500, weight: 3 },
    { code: '36415', cents: 1_700, weight: 2 },
    { code: '90471', cents: 4_700, weight: 2 },
    { code: '90686', cents: 4_000, weight: 2 },
    { code: '87880', cents: 3_500, weight: 1 },
    { code: '87804', cents: 4_200, weight: 0 },
    { code: '96127', cents: 2_500, weight: 1 },
    { code: '94010', cents: 9_500, weight: 0 },
    { code: '93306', cents: 62_000, weight: 1 },
    { code: '93015', cents: 32_000, weight: 1 },
    { code: '95810', cents: 98_000, weight: 0 },
    { code: '95004', cents: 24_000, weight: 0 },
  ] as const
).map((p) => ({ ...p, label: procedureDescription(p.code) ?? p.code }));

/** The typical charge of a procedure code the practice bills, in cents. */
export function chargeOf(code: string): number {
  const procedure = PROCEDURES.find((p) => p.code === code);
  if (!procedure) throw new Error(`${code} has no charge in PROCEDURES`);
  return procedure.cents;
}

type Payer = (typeof PAYERS)[number];
/** Payer mix of a family practice and each payer's first-pass denial rate (3–16%; about 5.7% overall). */
export const PAYER_MIX: readonly { payer: Payer; weight: number; denialRate: number }[] = [
  { payer: 'Medicare', weight: 24, denialRate: 0.04 },
  { payer: 'Blue Cross Blue Shield', weight: 18, denialRate: 0.045 },
  { payer: 'UnitedHealthcare', weight: 14, denialRate: 0.07 },
  { payer: 'Aetna', weight: 11, denialRate: 0.05 },
  { payer: 'Medicaid', weight: 10, denialRate: 0.1 },
  { payer: 'Cigna', weight: 8, denialRate: 0.06 },
  { payer: 'Humana', weight: 7, denialRate: 0.07 },
  { payer: 'Kaiser Permanente', weight: 4, denialRate: 0.03 },
  { payer: 'Tricare', weight: 2, denialRate: 0.16 },
  { payer: 'Self-Pay', weight: 2, denialRate: 0 },
];

/** CARC denial codes with how often each appears and its usual remark code. */
const DENIAL_MIX: readonly { code: string; remark: string | null; weight: number }[] = [
  { code: 'CO-197', remark: 'M62', weight: 16 },
  { code: 'CO-16', remark: 'M51', weight: 18 },
  { code: 'CO-50', remark: 'M127', weight: 10 },
  { code: 'CO-97', remark: 'M15', weight: 11 },
  { code: 'CO-29', remark: null, weight: 5 },
  { code: 'OA-18', remark: 'M86', weight: 7 },
  { code: 'CO-4', remark: null, weight: 6 },
  { code: 'CO-11', remark: null, weight: 6 },
  { code: 'CO-15', remark: null, weight: 4 },
  { code: 'CO-22', remark: null, weight: 5 },
  { code: 'CO-27', remark: null, weight: 4 },
  { code: 'CO-96', remark: null, weight: 3 },
  { code: 'CO-109', remark: null, weight: 3 },
  { code: 'CO-204', remark: null, weight: 2 },
];

/** The mix with each code's description: the one wording of it the whole app uses. */
export const DENIALS = DENIAL_MIX.map((denial) => {
  const description = DENIAL_DESCRIPTIONS[denial.code];
  if (!description) throw new Error(`${denial.code} has no description in DENIAL_DESCRIPTIONS`);
  return { ...denial, description };
});
export type Denial = (typeof DENIALS)[number];

/** Denials that say a prior authorization was absent (CO-197) or its number missing or invalid (CO-15). */
export const AUTHORIZATION_DENIAL_CODES: ReadonlySet<string> = new Set(['CO-197', 'CO-15']);

/** How much more often payers deny a service that needs an authorization than an office visit. */
export const AUTHORIZATION_DENIAL_FACTOR = 4;

/**
 * The denials a claim for these procedures can meet: authorization denials only where the payer wants an
 * authorization for one of them (AUTHORIZATION_SERVICES), and there the most common ones.
 */
export function denialsFor(procedureCodes: readonly string[]): readonly Denial[] {
  if (!procedureCodes.some(needsAuthorization)) {
    return DENIALS.filter((d) => !AUTHORIZATION_DENIAL_CODES.has(d.code));
  }
  return DENIALS.map((d) => (AUTHORIZATION_DENIAL_CODES.has(d.code) ? { ...d, weight: d.weight * 8 } : d));
}

export const AUTHORIZATION_SERVICES = [
  { service: 'MRI lumbar spine', code: '72148' },
  { service: 'CT abdomen with contrast', code: '74160' },
  { service: 'Sleep study', code: '95810' },
  { service: 'Physical therapy evaluation', code: '97161' },
  { service: 'Echocardiogram', code: '93306' },
  { service: 'Cardiac stress test', code: '93015' },
  { service: 'MRI knee', code: '73721' },
  { service: 'Continuous glucose monitor', code: 'A9276' },
  { service: 'Colonoscopy', code: '45378' },
  { service: 'Allergy testing', code: '95004' },
] as const;

/** Whether payers want a prior authorization before this service (the services the Authorizations screen tracks). */
export function needsAuthorization(procedureCode: string): boolean {
  return AUTHORIZATION_SERVICES.some((s) => s.code === procedureCode);
}

export const COMPLIANCE_GAPS = [
  {
    title: 'Annual HIPAA risk analysis not yet updated for the new billing workflow',
    safeguard: 'Administrative',
    severity: 'High',
    days: 14,
    owner: 'Privacy Officer',
    status: 'In Progress',
  },
  {
    title: 'Workforce security training: 3 staff overdue',
    safeguard: 'Administrative',
    severity: 'Medium',
    days: 21,
    owner: 'Practice Manager',
    status: 'Open',
  },
  {
    title: 'Business associate agreement missing for the statement print vendor',
    safeguard: 'Administrative',
    severity: 'High',
    days: 7,
    owner: 'Compliance Lead',
    status: 'Open',
  },
  {
    title: 'Server room door badge log not reviewed monthly',
    safeguard: 'Physical',
    severity: 'Low',
    days: 30,
    owner: 'Facilities',
    status: 'Open',
  },
  {
    title: 'Workstations in exam rooms lack privacy screens',
    safeguard: 'Physical',
    severity: 'Medium',
    days: 45,
    owner: 'Facilities',
    status: 'In Progress',
  },
  {
    title: 'Encryption at rest not verified on backup drives',
    safeguard: 'Technical',
    severity: 'High',
    days: 10,
    owner: 'IT Lead',
    status: 'Open',
  },
  {
    title: 'Automatic logoff set to 30 minutes on front-desk PCs (policy: 15)',
    safeguard: 'Technical',
    severity: 'Medium',
    days: -5,
    owner: 'IT Lead',
    status: 'Closed',
  },
  {
    title: 'Audit log review cadence not documented',
    safeguard: 'Technical',
    severity: 'Low',
    days: 60,
    owner: 'Compliance Lead',
    status: 'Open',
  },
] as const;
