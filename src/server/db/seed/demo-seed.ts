import { count, inArray, sql } from 'drizzle-orm';
import { DEMO_ACCOUNTS } from '@/features/auth/auth.demo-accounts';
import { hashPassword } from '@/features/auth/server/auth.passwords';
import { users } from '@/features/auth/server/auth.table';
import { appointments } from '@/features/appointments/server/appointments.table';
import { recordMany, type AuditInput } from '@/features/audit/server/audit.queries';
import { authorizations } from '@/features/authorizations/server/authorizations.table';
import { complianceGaps } from '@/features/compliance/server/compliance.table';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import { practiceSettings, userSettings } from '@/features/settings/server/settings.table';
import { encounters } from '@/features/worklist/server/worklist.table';
import { DEFAULT_PRACTICE_HOURS, type PracticeHours } from '@/features/settings/practice.schema';
import { minutesOf } from '@/features/appointments/appointments.schema';
import type { Db, Tx } from '../types';
import {
  ALLERGIES,
  AUTHORIZATION_SERVICES,
  COMPLIANCE_GAPS,
  FEMALE_FIRST_NAMES,
  FIRST_NAMES,
  LAST_NAMES,
  PROVIDERS,
} from './demo-data';
import {
  DEMO_BILLING_IDENTITY,
  DEMO_CLEARINGHOUSE,
  demoProviderNpi,
  drawCoverages,
  drawMedicareSecondary,
  STREETS,
  TAXONOMY_BY_SPECIALTY,
  ZIPS,
} from './demo-coverage';
import { coverages } from '@/features/coverage/server/coverage.table';
import {
  authorizationFits,
  drawConditions,
  drawPayer,
  drawVisit,
  isPracticeOpen,
  medicationsFor,
  nearestOpenDay,
  noteFor,
  visitFrequency,
  visitStarts,
  type PatientProfile,
} from './demo-clinical';
import { seedClaimsAndFinances, type CompletedVisit } from './demo-claims';
import { seedComplianceProgramme } from './compliance-data';
import { seedDemoEligibility } from './demo-eligibility';
import { insertRows } from './insert-rows';
import { addDays, daysBetween, Random } from './random';

export const DEFAULT_SEED = 20_261_122;
/** The stream of the Medicare policies behind an employer's plan (drawMedicareSecondary). */
const MEDICARE_SECONDARY_STREAM = 0x5eed_3d12;
const PATIENT_COUNT = 200;
/** Patients with no visit booked in the scheduling window: their follow-ups fall overdue. */
const LAPSED_PATIENTS = 50;

export type SeedSummary = Record<string, number>;

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return (row?.n ?? 0) === 0;
}

/**
 * Deletes all clinic data but the audit trail, which is append-only and must outlive a reset (docs/audit.md), and
 * the X12 control numbers, which are never used twice (docs/x12-837.md).
 */
export async function clearClinicData(tx: Tx): Promise<void> {
  const tables = [
    // The mailbox's log names batches and acknowledgements emptied here, and its settings name a user.
    'mailbox_files',
    'clearinghouse_mailbox',
    'claim_batch_claims',
    'claim_batches',
    'claim_acknowledgements',
    ...CLAIM_STATUS_TABLES,
    ...REMITTANCE_TABLES,
    'work_assignment_rules',
    'claim_appeals',
    'claim_scrubs',
    'claim_lines',
    'payments',
    'claims',
    ...ELIGIBILITY_TABLES,
    'coverages',
    'appointments',
    'authorizations',
    'encounters',
    'sessions',
    'sign_in_challenges',
    'sign_in_lockouts',
    'mfa_recovery_codes',
    'user_settings',
    'users',
    'patients',
    'providers',
    'practice_settings',
    'compliance_gaps',
    'operating_expenses',
    'billing_staff_hours',
    'guest_lookup_failures',
  ];
  await tx.execute(sql.raw(`truncate table ${tables.join(', ')}`));
  await restartIdentities(tx, tables);
}

/**
 * Restarts the id sequences of tables emptied in this transaction. The app's database role owns no sequence,
 * so not TRUNCATE … RESTART IDENTITY but the owner's restart_identity_of (migration 0024), which, unlike
 * setval, rolls back with the transaction.
 */
async function restartIdentities(tx: Tx, tables: readonly string[]): Promise<void> {
  await tx.execute(
    sql.raw(`select restart_identity_of(t::regclass) from unnest(array[${tables.map((t) => `'${t}'`).join(', ')}]) t`),
  );
}

/** Eligibility checks and their 270 and 271 files: records of the coverages they ask about, emptied with them. */
const ELIGIBILITY_TABLES = ['eligibility_checks', 'eligibility_responses', 'eligibility_inquiries'] as const;

/**
 * Remittances, their postings and the work queue: clinic records that refer to claims, emptied with them (the
 * ledger refuses UPDATE and DELETE, not TRUNCATE). The auto-assignment rules are settings and stay on a re-seed.
 */
const REMITTANCE_TABLES = [
  'provider_adjustments',
  'remittance_ledger',
  'remittance_claims',
  'remittances',
  'work_item_notes',
  'work_items',
] as const;

/** Claim status requests and answers (docs/x12-claim-status.md): they name claims and patients, emptied with them. */
const CLAIM_STATUS_TABLES = ['claim_status_inquiries', 'claim_status_responses', 'claim_status_requests'] as const;

/**
 * The clinic's records that a re-seed replaces and a global reset clears, children before parents. The
 * providers and payers stay (admins maintain them in Settings): without a provider no appointment could be
 * booked and no claim imported after a reset.
 */
export const CLINIC_RECORD_TABLES = [
  'claim_batch_claims',
  'claim_batches',
  'claim_acknowledgements',
  'claim_appeals',
  'claim_scrubs',
  'claim_lines',
  'payments',
  'claims',
  'coverages',
  'appointments',
  'authorizations',
  'encounters',
  'operating_expenses',
  'billing_staff_hours',
  'patients',
] as const;

/**
 * Deletes the clinic's records inside the caller's transaction and returns how many rows each table held.
 * Users, sessions, settings, providers, payers, compliance lists and the audit trail stay. Patient accounts must be detached
 * from their records first (users.patient_id points at patients). Identities restart, so a re-seed gives
 * the same ids as the first seed.
 */
export async function deleteClinicRecords(tx: Tx): Promise<Record<(typeof CLINIC_RECORD_TABLES)[number], number>> {
  const counted = await tx.execute<Record<string, string>>(
    sql.raw(`select ${CLINIC_RECORD_TABLES.map((t) => `(select count(*) from ${t}) as ${t}`).join(', ')}`),
  );
  const row = counted.rows[0] ?? {};
  // Nothing outside this list references these tables but users.patient_id, hence TRUNCATE for all but
  // patients, which is deleted (users keep a foreign key to it).
  // One statement: the remittance tables refer to claims and their lines, the batches to claims.
  await tx.execute(
    sql.raw(`truncate table ${REMITTANCE_TABLES.join(', ')}, ${CLAIM_STATUS_TABLES.join(', ')},
    claim_batch_claims, claim_batches, claim_acknowledgements, claim_appeals, claim_scrubs, claim_lines, payments,
    claims, ${ELIGIBILITY_TABLES.join(', ')}, coverages, appointments, authorizations, encounters,
    operating_expenses, billing_staff_hours`),
  );
  await restartIdentities(tx, [...REMITTANCE_TABLES, ...CLAIM_STATUS_TABLES, ...ELIGIBILITY_TABLES]);
  await tx.execute(sql`delete from patients`);
  await restartIdentities(tx, CLINIC_RECORD_TABLES);
  return Object.fromEntries(CLINIC_RECORD_TABLES.map((t) => [t, Number(row[t] ?? 0)])) as Record<
    (typeof CLINIC_RECORD_TABLES)[number],
    number
  >;
}

function phone(r: Random): string {
  return `(555) ${r.int(200, 989)}-${String(r.int(0, 9999)).padStart(4, '0')}`;
}

/** Who the seeded records name as having acted (authorization decisions, appeals); null when nobody fits. */
export interface ClinicStaff {
  nurseManagerId: number | null;
  billingAdminId: number | null;
}

export interface SeededClinic {
  /** Rows written per table. */
  summary: SeedSummary;
  patientIds: number[];
  claimIds: number[];
  appointmentCount: number;
}

/** The seed's own patient account, linked to the demo record (Maria Lopez) by every seed. */
export const DEMO_PATIENT_ACCOUNT_EMAIL = DEMO_ACCOUNTS.find((a) => a.role === 'patient')?.email ?? '';

/**
 * The demo clinic's records (providers, patients, appointments, claims, payments, appeals, expenses, staff
 * hours, authorizations, encounters) inside the caller's transaction. Users, settings, compliance lists and
 * the audit trail are not touched: `linkAccounts` is called once the patients exist (the demo patient
 * account belongs to the first, Maria Lopez) and names the staff the records refer to.
 */
export async function seedClinicData(
  tx: Tx,
  options: {
    today: string;
    /** The clinic's clock time (HH:mm, practice time zone): today's visits before it have happened. */
    time: string;
    seed?: number;
    random?: Random;
    /** The practice's hours (Settings → Practice): visits fall on its working days, in its slots. */
    hours?: PracticeHours;
    linkAccounts: (demoPatientId: number) => Promise<ClinicStaff>;
  },
): Promise<SeededClinic> {
  const r = options.random ?? new Random(options.seed ?? DEFAULT_SEED);
  const { today, time: now } = options;
  const hours = options.hours ?? DEFAULT_PRACTICE_HOURS;
  // The demo providers are added where missing and active again where an admin deactivated them (a re-seed
  // books them); providers an admin added stay, with no seeded records.
  await tx
    .insert(providers)
    .values(
      PROVIDERS.map((p, i) => ({
        ...p,
        npi: demoProviderNpi(i + 1),
        taxonomyCode: TAXONOMY_BY_SPECIALTY[p.specialty] ?? null,
      })),
    )
    .onConflictDoUpdate({
      target: providers.name,
      set: {
        specialty: sql`excluded.specialty`,
        active: true,
        npi: sql`coalesce(${providers.npi}, excluded.npi)`,
        taxonomyCode: sql`coalesce(${providers.taxonomyCode}, excluded.taxonomy_code)`,
      },
    });
  // The clearinghouse's payer ids of the payers that have none yet (state plans: those of Illinois).
  await tx.execute(sql`update payers set payer_id = x.payer_id
    from (values ('Medicare', '06102'), ('Medicaid', 'ILMCD'), ('Blue Cross Blue Shield', '00621'),
                 ('Kaiser Permanente', '94134'), ('Tricare', '99726')) as x(name, payer_id)
    where payers.name = x.name and payers.payer_id is null
      and not exists (select 1 from payers p where p.payer_id = x.payer_id)`);
  const providerRows = await tx
    .select({ id: providers.id, name: providers.name, specialty: providers.specialty })
    .from(providers)
    .where(
      inArray(
        providers.name,
        PROVIDERS.map((p) => p.name),
      ),
    );
  const providerByName = new Map(providerRows.map((p) => [p.name, p]));
  const clinicians = PROVIDERS.flatMap((p) => {
    const row = providerByName.get(p.name);
    return row ? [{ id: row.id, specialty: row.specialty }] : [];
  });
  const providerIds = clinicians.map((p) => p.id);

  // Patients, each with the long-term conditions usual at their age, the medicines for them and an
  // insurer. The first is the demo patient account's own record.
  const patientValues: (typeof patients.$inferInsert)[] = [];
  const drafts: Omit<PatientProfile, 'id'>[] = [];
  const usedNames = new Set<string>(['Maria Lopez']);
  patientValues.push({
    name: 'Maria Lopez',
    mrn: 'MRN-100001',
    dob: '1979-03-14',
    phone: '(555) 214-7788',
    email: 'patient@healthcare.demo',
    sex: 'F',
    addressLine1: '418 Maple Avenue',
    city: 'Springfield',
    state: 'IL',
    zip: '62704',
    allergies: ['Penicillin'],
    meds: ['Metformin 500 mg twice daily', 'Lisinopril 10 mg daily'],
    notes: 'Type 2 diabetes, well controlled. Prefers morning appointments.',
  });
  drafts.push({ dob: '1979-03-14', conditions: ['diabetes', 'hypertension'], payer: 'Blue Cross Blue Shield' });
  for (let i = 1; i < PATIENT_COUNT; i += 1) {
    let name = `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
    while (usedNames.has(name)) name = `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
    usedNames.add(name);
    const age = r.weighted([
      [r.int(1, 17), 15],
      [r.int(18, 44), 35],
      [r.int(45, 64), 30],
      [r.int(65, 95), 20],
    ] as const);
    const dob = addDays(today, -(age * 365 + r.int(0, 364)));
    const conditions = drawConditions(r, age);
    drafts.push({ dob, conditions, payer: drawPayer(r, age) });
    patientValues.push({
      name,
      mrn: `MRN-${100001 + i * 7}`,
      dob,
      phone: phone(r),
      email: r.chance(0.6) ? `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com` : null,
      sex: FEMALE_FIRST_NAMES.has(name.split(' ')[0] ?? '') ? 'F' : 'M',
      addressLine1: `${r.int(100, 4899)} ${r.pick(STREETS)}`,
      city: 'Springfield',
      state: 'IL',
      zip: r.pick(ZIPS),
      allergies: r.chance(0.55) ? [] : r.sample(ALLERGIES, r.int(1, 3)),
      meds: medicationsFor(r, conditions),
      notes: r.chance(0.5) ? '' : noteFor(r, conditions),
    });
  }
  const patientIds = await insertRows(tx, patients, patientValues, { returningIds: true });
  const profiles: PatientProfile[] = patientIds.map((id, i) => ({ id, ...(drafts[i] as Omit<PatientProfile, 'id'>) }));
  const profileOf = new Map(profiles.map((p) => [p.id, p]));
  const demoProfile = profiles[0];
  if (!demoProfile) throw new Error('no demo patient');
  const demoPatientId = demoProfile.id;

  // Their insurance: the policies claims are billed to.
  const coverageValues = profiles.flatMap((profile, i) =>
    drawCoverages(r, profile, { name: patientValues[i]?.name ?? '' }, today, FIRST_NAMES),
  );
  // Medicare behind an employer's plan, from a stream of its own: no draw above or below changes.
  const medicareStream = new Random(((options.seed ?? DEFAULT_SEED) ^ MEDICARE_SECONDARY_STREAM) >>> 0);
  for (const profile of profiles) {
    const primary = coverageValues.find((c) => c.patientId === profile.id && c.priority === 1);
    const medicare = drawMedicareSecondary(medicareStream, primary, profile, today);
    if (medicare) coverageValues.push(medicare);
  }
  const coverageIds = await insertRows(tx, coverages, coverageValues, { returningIds: true });
  const coverageRows = coverageValues.map((c, i) => ({
    id: coverageIds[i] ?? 0,
    patientId: c.patientId,
    payer: c.payer,
    priority: c.priority,
  }));
  const primaryCoverage = new Map(coverageRows.filter((c) => c.priority === 1).map((c) => [c.patientId, c.id]));
  const secondaryCoverage = new Map(
    coverageRows.filter((c) => c.priority === 2).map((c) => [c.patientId, { id: c.id, payer: c.payer }]),
  );
  const lapsed = new Set(patientIds.slice(PATIENT_COUNT - LAPSED_PATIENTS));
  // Older and chronically ill patients are seen more often.
  const activeByFrequency = profiles
    .filter((p) => !lapsed.has(p.id))
    .map((p) => [p, visitFrequency(p, today)] as const);

  const staffIds = await options.linkAccounts(demoPatientId);

  // Appointments from 60 days ago to 60 days ahead on the days the practice is open, in its slots (one
  // visit plus the buffer apart), one visit per patient a day. Today's visits that have ended by now took
  // place (or were missed); the rest are still to come.
  const starts = visitStarts(hours);
  const taken = new Set<string>();
  const appointmentValues: (typeof appointments.$inferInsert)[] = [];
  const completedVisits: CompletedVisit[] = [];
  const book = (profile: PatientProfile, date: string, status: (time: string) => string, reason?: string) => {
    if (taken.has(`patient|${profile.id}|${date}`)) return;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const visit = drawVisit(r, profile, date, clinicians, reason);
      const time = r.pick(starts);
      const key = `${visit.providerId}|${date}|${time}`;
      if (taken.has(key)) continue;
      taken.add(key);
      taken.add(`patient|${profile.id}|${date}`);
      const visitStatus = status(time);
      appointmentValues.push({
        patientId: profile.id,
        providerId: visit.providerId,
        date,
        time,
        durationMinutes: hours.appointmentMinutes,
        status: visitStatus,
        reason: visit.kind.reason,
      });
      if (visitStatus === 'Completed') {
        completedVisits.push({
          patientId: profile.id,
          providerId: visit.providerId,
          date,
          kind: visit.kind,
          diagnoses: visit.diagnoses,
        });
      }
      return;
    }
  };
  const pastStatus = () =>
    r.weighted([
      ['Completed', 82],
      ['No-Show', 8],
      ['Cancelled', 7],
      ['Rescheduled', 3],
    ] as const);
  const futureStatus = () =>
    r.weighted([
      ['Scheduled', 90],
      ['Cancelled', 6],
      ['Rescheduled', 4],
    ] as const);
  const statusOn =
    (date: string) =>
    (time: string): string => {
      if (date < today) return pastStatus();
      if (date > today) return futureStatus();
      return minutesOf(time) + hours.appointmentMinutes <= minutesOf(now) ? pastStatus() : futureStatus();
    };
  for (let offset = -60; offset <= 60; offset += 1) {
    const date = addDays(today, offset);
    if (!isPracticeOpen(date, hours)) continue;
    const perDay = offset === 0 ? 16 : r.int(8, 12);
    for (let i = 0; i < perDay; i += 1) book(r.weighted(activeByFrequency), date, statusOn(date));
  }
  // The demo patient: visits behind and ahead, one of them cancelled.
  const demoVisit = (days: number, status: string, reason: string) =>
    book(demoProfile, nearestOpenDay(addDays(today, days), days < 0 ? -1 : 1, hours), () => status, reason);
  demoVisit(-45, 'Completed', 'Diabetes follow-up');
  demoVisit(-12, 'Completed', 'Lab results review');
  demoVisit(9, 'Scheduled', 'Diabetes follow-up');
  demoVisit(30, 'Cancelled', 'Annual physical');
  demoVisit(41, 'Scheduled', 'Annual physical');
  await insertRows(tx, appointments, appointmentValues);

  // Claims, payments, operating expenses and billing staff hours (their own random stream).
  const seeded = await seedClaimsAndFinances(tx, {
    today,
    seed: options.seed ?? DEFAULT_SEED,
    demoPatientId,
    profiles: profileOf,
    providers: clinicians,
    appealedBy: staffIds.billingAdminId,
    completedVisits: completedVisits.sort((a, b) => a.date.localeCompare(b.date)),
    hours,
    primaryCoverage,
    secondaryCoverage,
  });
  const claimIds = seeded.claimIds;

  // Prior authorizations requested over the last 30 days, for services that suit the patient, with their
  // insurer (self-pay patients need none).
  const insured = profiles.filter((p) => p.payer !== 'Self-Pay');
  const authorizationValues: (typeof authorizations.$inferInsert)[] = [];
  while (authorizationValues.length < 150) {
    const profile = r.pick(insured);
    const requestedOn = addDays(today, -r.int(0, 30));
    const fitting = AUTHORIZATION_SERVICES.filter((s) => authorizationFits(s.code, profile, requestedOn));
    if (!fitting.length) continue;
    const service = r.pick(fitting);
    const status = r.weighted([
      ['Pending', 50],
      ['Approved', 35],
      ['Denied', 15],
    ] as const);
    const decided = status !== 'Pending';
    const decidedOn = decided ? addDays(requestedOn, Math.min(r.int(1, 10), daysBetween(requestedOn, today))) : null;
    authorizationValues.push({
      patientId: profile.id,
      service: service.service,
      procedureCode: service.code,
      payer: profile.payer,
      status,
      requestedOn,
      decidedOn,
      decidedBy: decided ? staffIds.nurseManagerId : null,
    });
  }
  await insertRows(tx, authorizations, authorizationValues);

  // Encounters: active patients' recent visits, and lapsed patients' older visits whose follow-ups are overdue.
  const encounterValues: (typeof encounters.$inferInsert)[] = [];
  const encounter = (patientId: number, day: string, followUpDays: number | null) => {
    const profile = profileOf.get(patientId);
    if (!profile) return;
    const encounterDate = nearestOpenDay(day, -1, hours);
    const visit = drawVisit(r, profile, encounterDate, clinicians);
    encounterValues.push({
      patientId,
      providerId: visit.providerId,
      encounterDate,
      encounterType: r.pick(visit.kind.encounterTypes),
      chiefComplaint: visit.kind.complaint,
      diagnosis: visit.diagnoses,
      followUpDue: followUpDays === null ? null : addDays(encounterDate, followUpDays),
      chargesCaptured: !r.chance(0.015),
    });
  };
  for (let i = 0; i < 350; i += 1) {
    encounter(
      r.weighted(activeByFrequency).id,
      addDays(today, -r.int(1, 365)),
      r.chance(0.35) ? r.pick([14, 30, 60, 90]) : null,
    );
  }
  // Lapsed patients: their last visit asked for a follow-up that is now overdue, mostly by days or weeks
  // (a worklist that is worked), some by months; a few also have an older visit before it.
  for (const patientId of lapsed) {
    const followUpDays = r.pick([7, 14, 30, 60]);
    const overdueBy = r.weighted([
      [r.int(1, 14), 40],
      [r.int(15, 45), 35],
      [r.int(46, 180), 25],
    ] as const);
    const visitDaysAgo = followUpDays + overdueBy;
    encounter(patientId, addDays(today, -visitDaysAgo), followUpDays);
    if (r.chance(0.3)) encounter(patientId, addDays(today, -(visitDaysAgo + r.int(30, 200))), null);
  }
  encounterValues.sort((a, b) => a.encounterDate.localeCompare(b.encounterDate));
  await insertRows(tx, encounters, encounterValues);

  return {
    summary: {
      providers: providerIds.length,
      patients: patientIds.length,
      appointments: appointmentValues.length,
      claims: claimIds.length,
      payments: seeded.payments,
      claimAppeals: seeded.appeals,
      authorizations: authorizationValues.length,
      encounters: encounterValues.length,
    },
    patientIds,
    claimIds,
    appointmentCount: appointmentValues.length,
  };
}

/**
 * Fills an empty database with the demo clinic: the same `today`, `time` (the clinic's clock, HH:mm) and
 * seed always give the same rows. `hashPassword` hashes the demo accounts' passwords (the app's own by default).
 */
export async function seedDemoClinic(
  db: Db | Tx,
  options: {
    today: string;
    time: string;
    seed?: number;
    hashPassword?: (password: string) => Promise<string>;
  },
): Promise<SeedSummary> {
  const r = new Random(options.seed ?? DEFAULT_SEED);
  const today = options.today;
  const hash = options.hashPassword ?? hashPassword;
  const passwordHashes = await Promise.all(DEMO_ACCOUNTS.map((a) => hash(a.password)));

  return db.transaction(async (tx) => {
    let userRows: { id: number; email: string; role: string }[] = [];
    const clinic = await seedClinicData(tx, {
      today,
      time: options.time,
      seed: options.seed,
      random: r,
      linkAccounts: async (demoPatientId) => {
        // Demo users, one per role; the patient account is linked to Maria Lopez's record.
        const USER_NAMES: Record<string, string> = {
          admin: 'Jordan Lee',
          doctor: 'Dr. Priya Raman',
          nurse_manager: 'Nora Kim',
          billing_admin: 'Sam Ortiz',
          patient: 'Maria Lopez',
          guest: 'Guest User',
        };
        userRows = await tx
          .insert(users)
          .values(
            DEMO_ACCOUNTS.map((a, i) => ({
              email: a.email,
              name: USER_NAMES[a.role] ?? a.role,
              passwordHash: passwordHashes[i] ?? '',
              role: a.role,
              patientId: a.role === 'patient' ? demoPatientId : null,
            })),
          )
          .returning({ id: users.id, email: users.email, role: users.role });
        await tx.insert(userSettings).values(userRows.map((u) => ({ userId: u.id })));

        await tx.insert(practiceSettings).values({
          practiceId: 1,
          notifications: { email: true, sms: true, push: false, emailReminderHours: 24, smsReminderHours: 1 },
          integrations: { paymentGateway: true, accounting: true, sms: false, calendar: false, chat: true, crm: false },
          ...DEMO_BILLING_IDENTITY,
          ...DEMO_CLEARINGHOUSE,
        });
        const userByRole = new Map(userRows.map((u) => [u.role, u.id]));
        return {
          nurseManagerId: userByRole.get('nurse_manager') ?? null,
          billingAdminId: userByRole.get('billing_admin') ?? null,
        };
      },
    });
    const { patientIds, claimIds } = clinic;
    const eligibilityChecks = await seedDemoEligibility(tx, today);

    await insertRows(
      tx,
      complianceGaps,
      COMPLIANCE_GAPS.map((g) => ({
        title: g.title,
        safeguard: g.safeguard,
        severity: g.severity,
        status: g.status,
        dueDate: addDays(today, g.days),
        owner: g.owner,
      })),
    );
    // The mock audit and WCAG checklist are the practice's programme: kept by a reset, inserted once.
    await seedComplianceProgramme(tx);

    // About 500 audit entries over the last 30 days, oldest first, as the chain requires.
    const staff = userRows.filter((u) => u.role !== 'guest' && u.role !== 'patient');
    const auditInputs: AuditInput[] = [];
    const start = Date.parse(`${addDays(today, -30)}T13:00:00Z`);
    for (let i = 0; i < 500; i += 1) {
      const user = r.pick(staff);
      const at = new Date(start + Math.round((i / 500) * 29 * 86_400_000) + r.int(0, 3_000_000));
      const kind = r.weighted([
        ['login', 20],
        ['view', 35],
        ['appointment', 15],
        ['claim', 10],
        ['authorization', 8],
        ['export', 7],
        ['settings', 3],
        ['failure', 2],
      ] as const);
      const patientId = r.pick(patientIds);
      const entry: AuditInput = {
        actor: user.email,
        actorUserId: user.id,
        actorRole: user.role,
        action: '',
        resource: '',
        at,
      };
      switch (kind) {
        case 'login':
          auditInputs.push({
            ...entry,
            action: 'auth.login.success',
            resource: 'session',
            detail: 'signed in with MFA',
          });
          break;
        case 'failure':
          auditInputs.push({
            ...entry,
            actorRole: null,
            action: 'auth.login.failure',
            resource: 'session',
            detail: 'email or password not accepted',
          });
          break;
        case 'view':
          auditInputs.push({
            ...entry,
            action: 'patient.view',
            resource: `patient/${patientId}`,
            detail: 'opened patient snapshot',
            patientId,
          });
          break;
        case 'appointment':
          auditInputs.push({
            ...entry,
            action: 'appointment.update',
            resource: `appointment/${r.int(1, clinic.appointmentCount)}`,
            detail: `status set to ${r.pick(['Completed', 'No-Show', 'Scheduled'])}`,
            patientId,
          });
          break;
        case 'claim':
          auditInputs.push({
            ...entry,
            action: 'claim.appeal',
            resource: `claim/${r.pick(claimIds)}`,
            detail: 'appeal recorded',
          });
          break;
        case 'authorization':
          auditInputs.push({
            ...entry,
            action: 'authorization.update',
            resource: `authorization/${r.int(1, 150)}`,
            detail: `status set to ${r.pick(['Approved', 'Denied'])}`,
          });
          break;
        case 'export':
          auditInputs.push({
            ...entry,
            action: 'export.csv',
            resource: r.pick(['claims', 'call_list', 'authorizations']),
            detail: 'CSV export',
          });
          break;
        case 'settings':
          auditInputs.push({
            ...entry,
            action: 'settings.update',
            resource: 'user_settings',
            detail: 'fontSize=large',
          });
          break;
      }
    }
    auditInputs.sort((a, b) => a.at.getTime() - b.at.getTime());
    await recordMany(tx, auditInputs);

    return {
      ...clinic.summary,
      users: userRows.length,
      auditEntries: auditInputs.length,
      complianceGaps: COMPLIANCE_GAPS.length,
      eligibilityChecks,
    };
  });
}
