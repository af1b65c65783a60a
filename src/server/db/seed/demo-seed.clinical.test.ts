/**
 * The demo clinic as a clinician or a biller would read it: seeded for a Tuesday at noon, two days before
 * Thanksgiving, so today's schedule, a holiday ahead and Christmas in the window are all in play.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRACTICE_HOURS } from '@/features/settings/practice.schema';
import { detachPatientAccounts } from '@/features/users/server/users.queries';
import { isValidMbi, isValidNpi } from '@/shared/billing-identifiers';
import { createTestDatabase, type TestDatabase } from '@/testing/test-db';
import { CONDITIONS, PREVENTIVE_AGES, VISIT_KINDS, specialtySeesAge } from './demo-clinical';
import { AUTHORIZATION_SERVICES } from './demo-data';
import { deleteClinicRecords, seedClinicData } from './demo-seed';

const TODAY = '2026-11-24';
const NOW = '12:00';
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.transaction(async (tx) => {
    await detachPatientAccounts(tx);
    await deleteClinicRecords(tx);
    await seedClinicData(tx, {
      today: TODAY,
      time: NOW,
      linkAccounts: () => Promise.resolve({ nurseManagerId: null, billingAdminId: null }),
    });
  });
});
afterAll(() => database.drop());

async function rows<T>(query: string): Promise<T[]> {
  return (await database.pool.query(query)).rows as T[];
}

const kindOf = (reason: string) => {
  const kind = VISIT_KINDS.find((k) => k.reason === reason);
  if (!kind) throw new Error(`no visit kind for "${reason}"`);
  return kind;
};

describe('the seeded demo clinic makes clinical sense', () => {
  it('books each visit with a specialty that sees its reason and the patient’s age', async () => {
    const visits = await rows<{ reason: string; specialty: string; age: number }>(
      `select a.reason, pr.specialty, extract(year from age(a.date, p.dob))::int as age
         from appointments a join patients p on p.id = a.patient_id join providers pr on pr.id = a.provider_id`,
    );
    expect(visits.length).toBeGreaterThan(500);
    for (const visit of visits) {
      const kind = kindOf(visit.reason);
      expect(kind.specialties, `${visit.reason} with ${visit.specialty}`).toContain(visit.specialty);
      expect(specialtySeesAge(visit.specialty, visit.age), `${visit.specialty} at ${visit.age}`).toBe(true);
      expect(visit.age, visit.reason).toBeGreaterThanOrEqual(kind.ages[0]);
      expect(visit.age, visit.reason).toBeLessThanOrEqual(kind.ages[1]);
    }
    // What the review found: no adult well-child visit, and Internal Medicine sees no child.
    expect(visits.filter((v) => v.reason === 'Well-child visit' && v.age >= 18)).toEqual([]);
    expect(visits.filter((v) => v.specialty === 'Internal Medicine' && v.age < 18)).toEqual([]);
    expect(visits.filter((v) => v.specialty === 'Pediatrics' && v.age >= 18)).toEqual([]);
    expect(visits.some((v) => v.reason === 'Well-child visit')).toBe(true);
  });

  it('codes each encounter with a diagnosis that answers its complaint', async () => {
    const encounters = await rows<{ complaint: string; diagnosis: string[]; specialty: string; age: number }>(
      `select e.chief_complaint as complaint, e.diagnosis, pr.specialty,
              extract(year from age(e.encounter_date, p.dob))::int as age
         from encounters e join patients p on p.id = e.patient_id join providers pr on pr.id = e.provider_id`,
    );
    expect(encounters.length).toBeGreaterThan(300);
    const conditionDiagnoses = Object.values(CONDITIONS).map((c) => c.diagnosis);
    for (const encounter of encounters) {
      const kind = VISIT_KINDS.find((k) => k.complaint === encounter.complaint);
      expect(kind, encounter.complaint).toBeDefined();
      if (!kind) continue;
      const principal = encounter.diagnosis[0];
      if (kind.diagnosis) expect(principal, encounter.complaint).toBe(kind.diagnosis);
      else if (kind.follows === 'any') expect(conditionDiagnoses).toContain(principal);
      else if (kind.follows) expect(principal, encounter.complaint).toBe(CONDITIONS[kind.follows].diagnosis);
      expect(specialtySeesAge(encounter.specialty, encounter.age)).toBe(true);
    }
    const earPain = encounters.filter((e) => e.complaint === 'Ear pain');
    expect(earPain.every((e) => e.diagnosis[0]?.startsWith('H66.'))).toBe(true);
  });

  it('gives children no adult medicines', async () => {
    const children = await rows<{ meds: string[] }>(
      `select meds from patients where dob > date '${TODAY}' - interval '18 years'`,
    );
    expect(children.length).toBeGreaterThan(10);
    const adultOnly = [...CONDITIONS.diabetes.meds, ...CONDITIONS.hypertension.meds, ...CONDITIONS.hyperlipidemia.meds];
    expect(children.flatMap((c) => c.meds.filter((m) => adultOnly.includes(m)))).toEqual([]);
  });

  it('marks no visit Completed or No-Show before it has ended; today’s morning has happened, the afternoon not', async () => {
    const early = await rows<{ date: string; time: string; status: string }>(
      `select date::text as date, time, status from appointments
        where status in ('Completed', 'No-Show') and (date > date '${TODAY}'
          or (date = date '${TODAY}' and time::time + make_interval(mins => duration_minutes) > time '${NOW}'))`,
    );
    expect(early).toEqual([]);
    const today = await rows<{ status: string; time: string }>(
      `select status, time from appointments where date = date '${TODAY}'`,
    );
    expect(today.some((v) => v.status === 'Completed' && v.time < NOW)).toBe(true);
    expect(today.some((v) => v.status === 'Scheduled' && v.time >= NOW)).toBe(true);
  });

  it('has nothing on days the practice is closed: weekends, Thanksgiving, Christmas, New Year’s Day', async () => {
    const closed = `(extract(isodow from d) > 5 or d in (date '2025-11-27', date '2025-12-25', date '2026-01-01',
      date '2026-11-26', date '2026-12-25', date '2027-01-01'))`;
    const [found] = await rows<{ claims: number; appointments: number; encounters: number }>(
      `select (select count(*) from claims, lateral (select service_date as d) x where ${closed})::int as claims,
              (select count(*) from appointments, lateral (select date as d) x where ${closed})::int as appointments,
              (select count(*) from encounters, lateral (select encounter_date as d) x where ${closed})::int as encounters`,
    );
    expect(found).toEqual({ claims: 0, appointments: 0, encounters: 0 });
  });

  it('keeps each provider’s visits one visit plus the buffer apart, inside opening hours', async () => {
    const { appointmentMinutes, bufferMinutes, workdayStart, workdayEnd } = DEFAULT_PRACTICE_HOURS;
    const [clashes] = await rows<{ n: number }>(
      `select count(*)::int as n from appointments a join appointments b
         on a.provider_id = b.provider_id and a.date = b.date and a.id < b.id
        where abs(extract(epoch from a.time::time - b.time::time)) < ${(appointmentMinutes + bufferMinutes) * 60}`,
    );
    expect(clashes?.n).toBe(0);
    const [outside] = await rows<{ n: number }>(
      `select count(*)::int as n from appointments
        where time::time < time '${workdayStart}'
           or time::time + make_interval(mins => duration_minutes) > time '${workdayEnd}'`,
    );
    expect(outside?.n).toBe(0);
  });

  it('denies for a missing authorization (CO-197, CO-15) only services that need one', async () => {
    const denied = await rows<{ id: number; reason: string; codes: string[] }>(
      `select c.id, c.reason_code as reason, array_agg(l.procedure_code order by l.line_number) as codes
         from claims c join claim_lines l on l.claim_id = c.id
        where c.reason_code in ('CO-197', 'CO-15') group by c.id`,
    );
    const needing = AUTHORIZATION_SERVICES.map((s) => s.code as string);
    expect(denied.filter((d) => !d.codes.some((code) => needing.includes(code)))).toEqual([]);
    expect(denied.some((d) => d.reason === 'CO-197')).toBe(true);
  });

  it('bills preventive visits by the patient’s age, and the annual wellness visit to Medicare from 65', async () => {
    const preventive = await rows<{ code: string; payer: string; age: number }>(
      `select c.procedure_code as code, c.payer, extract(year from age(c.service_date, p.dob))::int as age
         from claims c join patients p on p.id = c.patient_id
        -- the visit as first billed (a supplemental plan billed after Medicare is billed the same codes)
        where c.primary_claim_id is null and c.procedure_code in (${Object.keys(PREVENTIVE_AGES)
          .map((code) => `'${code}'`)
          .join(', ')})`,
    );
    expect(preventive.length).toBeGreaterThan(20);
    for (const claim of preventive) {
      const [from, to] = PREVENTIVE_AGES[claim.code] ?? [0, 0];
      expect(claim.age, `${claim.code} at ${claim.age}`).toBeGreaterThanOrEqual(from);
      expect(claim.age, `${claim.code} at ${claim.age}`).toBeLessThanOrEqual(to);
      if (claim.code === 'G0439') expect(claim.payer).toBe('Medicare');
    }
  });

  it('asks no Medicare patient to share the cost of an annual wellness visit billed alone', async () => {
    const wellness = await rows<{ account: string; share: number }>(
      `select c.account_number as account, c.patient_responsibility_cents as share
         from claims c
        where c.payer = 'Medicare' and c.status in ('Paid', 'Closed', 'Partially Paid')
          and not exists (select 1 from claim_lines l where l.claim_id = c.id and l.procedure_code <> 'G0439')`,
    );
    expect(wellness.length).toBeGreaterThan(0);
    expect(wellness.filter((c) => c.share !== 0)).toEqual([]);
  });
});

describe('the seeded claims are billable', () => {
  it('bill 1–4 lines each, the claim total the sum of its lines, each line pointing at the claim’s diagnoses', async () => {
    const claims = await rows<{
      billed: number;
      code: string;
      lines: { code: string; charge: number; pointers: number[] }[];
      diagnoses: string[];
    }>(
      `select c.billed_cents as billed, c.procedure_code as code, c.diagnoses,
              json_agg(json_build_object('code', l.procedure_code, 'charge', l.charge_cents, 'pointers', l.diagnosis_pointers)
                       order by l.line_number) as lines
         from claims c join claim_lines l on l.claim_id = c.id group by c.id`,
    );
    const [count] = await rows<{ n: number }>('select count(*)::int as n from claims');
    expect(claims.length).toBe(count?.n);
    for (const claim of claims) {
      expect(claim.lines.length).toBeGreaterThanOrEqual(1);
      expect(claim.lines.length).toBeLessThanOrEqual(4);
      expect(claim.billed).toBe(claim.lines.reduce((sum, l) => sum + l.charge, 0));
      expect(claim.code).toBe(claim.lines[0]?.code);
      expect(claim.diagnoses.length).toBeGreaterThan(0);
      for (const line of claim.lines) {
        expect(line.pointers.length).toBeGreaterThan(0);
        expect(line.pointers.every((p) => p >= 1 && p <= claim.diagnoses.length)).toBe(true);
      }
    }
    expect(claims.some((c) => c.lines.length > 1)).toBe(true);
  });

  it('code their lines as a biller would: 25 on a visit beside a vaccine given, QW on waived tests for Medicare, units', async () => {
    const lines = await rows<{
      claim: number;
      payer: string;
      code: string;
      mods: string[];
      units: number;
      charge: number;
    }>(
      // The payer the lines were coded for: the visit's first (a claim billed after it copies its lines).
      `select l.claim_id as claim, f.payer, l.procedure_code as code, l.modifiers as mods, l.units,
              l.charge_cents as charge
         from claim_lines l join claims c on c.id = l.claim_id join claims f on f.id = coalesce(c.primary_claim_id, c.id)
        order by l.claim_id, l.line_number`,
    );
    const byClaim = new Map<number, typeof lines>();
    for (const line of lines) byClaim.set(line.claim, [...(byClaim.get(line.claim) ?? []), line]);
    const isVisit = (code: string) => /^(992[01]\d|993[89]\d|G043[89])$/.test(code);
    let marked = 0;
    for (const claimLines of byClaim.values()) {
      const vaccineGiven = claimLines.some((l) => l.code === '90471');
      for (const line of claimLines) {
        expect(line.mods.includes('25'), `${line.code} on claim ${line.claim}`).toBe(
          vaccineGiven && isVisit(line.code),
        );
        if (line.mods.includes('25')) marked += 1;
      }
    }
    expect(marked).toBeGreaterThan(0);
    const waived = lines.filter((l) => l.code === '87880' || l.code === '87804');
    expect(waived.filter((l) => l.payer === 'Medicare').length).toBeGreaterThan(0);
    for (const test of waived) expect(test.mods).toEqual(test.payer === 'Medicare' ? ['QW'] : []);
    // The influenza test once for A and once for B: two units, its charge twice the unit's.
    const flu = lines.filter((l) => l.code === '87804');
    expect(flu.length).toBeGreaterThan(0);
    for (const test of flu) expect([test.units, test.charge]).toEqual([2, 2 * 4_200]);
    expect(lines.filter((l) => l.code !== '87804' && l.units !== 1)).toEqual([]);
  });

  it('send a claim corrected after a coding denial as a replacement of the payer’s claim number', async () => {
    const replacements = await rows<{ reason: string; original: string | null; status: string }>(
      `select reason_code as reason, original_claim_number as original, status from claims where frequency_code = '7'`,
    );
    expect(replacements.length).toBeGreaterThan(0);
    for (const claim of replacements) {
      expect(['CO-4', 'CO-11', 'CO-16', 'CO-97']).toContain(claim.reason);
      expect(claim.original).toMatch(/^\d{13}$/);
      // Paid in full on the replacement, nothing left owed: Closed.
      expect(claim.status).toBe('Closed');
    }
    const [others] = await rows<{ n: number }>(
      `select count(*)::int as n from claims where frequency_code <> '7' and original_claim_number is not null`,
    );
    expect(others?.n).toBe(0);
  });

  it('bill a patient’s second policy for the share the first payer left, once, as a claim billed after it', async () => {
    const visits = await rows<{
      first_payer: string;
      payer: string;
      coverage_priority: number;
      msp: string | null;
      share: number;
      handed_on: number;
      prior: number;
      billed: number;
      first_billed: number;
      status: string;
      first_status: string;
      paid: number;
      same_lines: boolean;
      patient_paid_first: number;
    }>(
      `select f.payer as first_payer, c.payer, v.priority as coverage_priority, v.medicare_secondary_type as msp,
              f.patient_responsibility_cents as share, f.handed_on_cents as handed_on, c.prior_payers_cents as prior,
              c.billed_cents as billed, f.billed_cents as first_billed, c.status, f.status as first_status,
              c.paid_cents as paid,
              (select array_agg(procedure_code || ':' || array_to_string(modifiers, ',') order by line_number)
                 from claim_lines where claim_id = c.id)
                = (select array_agg(procedure_code || ':' || array_to_string(modifiers, ',') order by line_number)
                 from claim_lines where claim_id = f.id) as same_lines,
              (select coalesce(sum(amount_cents), 0)::int from payments
                where claim_id = f.id and source = 'patient') as patient_paid_first
         from claims c join claims f on f.id = c.primary_claim_id join coverages v on v.id = c.coverage_id`,
    );
    expect(visits.length).toBeGreaterThan(5);
    for (const visit of visits) {
      expect(visit).toMatchObject({ coverage_priority: 2, same_lines: true });
      // A Medicare patient's supplemental plan, or Medicare behind an employer's plan (saying why: working aged).
      if (visit.first_payer === 'Medicare') expect([visit.payer, visit.msp]).not.toContain('Medicare');
      else expect([visit.payer, visit.msp]).toEqual(['Medicare', '12']);
      // The first claim hands on its patient share; the new one owes only that, the rest settled by Medicare.
      expect([visit.handed_on, visit.prior, visit.billed]).toEqual([
        visit.share,
        visit.first_billed - visit.share,
        visit.first_billed,
      ]);
      expect(visit.patient_paid_first).toBe(0);
      // Paid by the second payer, nothing is owed on the visit: both claims are Closed.
      if (visit.status === 'Closed') expect([visit.paid, visit.first_status]).toEqual([visit.share, 'Closed']);
      else expect(visit.first_status).toBe('Paid');
    }
    expect(visits.some((v) => v.status === 'Closed')).toBe(true);
  });

  it('put Medicare second, saying why, behind the employer plan of a patient of 65 or more', async () => {
    const policies = await rows<{ first: string; age: number; msp: string | null; mbi: string; starts: string }>(
      `select f.payer as first, extract(year from age(date '${TODAY}', p.dob))::int as age,
              m.medicare_secondary_type as msp, m.member_id as mbi, m.effective_on::text as starts
         from coverages m join patients p on p.id = m.patient_id
         join coverages f on f.patient_id = m.patient_id and f.priority = 1
        where m.payer = 'Medicare' and m.priority = 2`,
    );
    expect(policies.length).toBeGreaterThan(0);
    for (const policy of policies) {
      expect(['Aetna', 'Blue Cross Blue Shield', 'Cigna', 'UnitedHealthcare']).toContain(policy.first);
      expect(policy.age).toBeGreaterThanOrEqual(65);
      expect(policy.msp).toBe('12');
      expect(isValidMbi(policy.mbi)).toBe(true);
    }
    const [elsewhere] = await rows<{ n: number }>(
      `select count(*)::int as n from coverages where medicare_secondary_type is not null
         and not (payer = 'Medicare' and priority = 2)`,
    );
    expect(elsewhere?.n).toBe(0);
  });

  it('gives providers and the practice valid NPIs, and insured patients a coverage in their payer’s format', async () => {
    const npis = await rows<{ npi: string | null }>(
      `select npi from providers union all select billing_npi from practice_settings`,
    );
    expect(npis.length).toBeGreaterThan(1);
    expect(npis.filter((n) => n.npi === null || !isValidNpi(n.npi))).toEqual([]);
    const medicare = await rows<{ member_id: string }>(`select member_id from coverages where payer = 'Medicare'`);
    expect(medicare.length).toBeGreaterThan(10);
    expect(medicare.filter((m) => !isValidMbi(m.member_id))).toEqual([]);
    // Every insured claim names a coverage of its own patient with its payer, in force on the service date.
    const [mismatched] = await rows<{ n: number }>(
      `select count(*)::int as n from claims c left join coverages v on v.id = c.coverage_id
        where c.payer <> 'Self-Pay' and (v.id is null or v.patient_id <> c.patient_id or v.payer <> c.payer
          or v.effective_on > c.service_date)`,
    );
    expect(mismatched?.n).toBe(0);
    const [secondary] = await rows<{ n: number }>(`select count(*)::int as n from coverages where priority = 2`);
    expect(secondary?.n).toBeGreaterThan(0);
    const [dependents] = await rows<{ n: number }>(
      `select count(*)::int as n from coverages where relationship = 'child' and subscriber_name is not null`,
    );
    expect(dependents?.n).toBeGreaterThan(0);
  });
});
