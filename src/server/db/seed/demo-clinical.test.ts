import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRACTICE_HOURS } from '@/features/settings/practice.schema';
import {
  ageOn,
  authorizationFits,
  CONDITION_KEYS,
  drawVisit,
  isPracticeHoliday,
  isPracticeOpen,
  nearestOpenDay,
  preventiveCode,
  specialtySeesAge,
  visitStarts,
  type PatientProfile,
} from './demo-clinical';
import { AUTHORIZATION_SERVICES, denialsFor, needsAuthorization, PROVIDERS } from './demo-data';
import { Random } from './random';

describe('the demo practice calendar', () => {
  it('closes on the federal holidays a clinic keeps, wherever they fall', () => {
    for (const day of ['2026-01-01', '2026-05-25', '2026-07-04', '2026-09-07', '2026-11-26', '2026-12-25']) {
      expect(isPracticeHoliday(day), day).toBe(true);
    }
    // Memorial Day is the last Monday of May, Thanksgiving the fourth Thursday of November.
    for (const day of ['2026-05-18', '2026-11-19', '2026-09-14', '2026-12-24', '2027-05-24']) {
      expect(isPracticeHoliday(day), day).toBe(false);
    }
    expect(isPracticeHoliday('2027-05-31')).toBe(true);
    expect(isPracticeHoliday('2027-11-25')).toBe(true);
  });

  it('is open on its working days only, and steps to the nearest open day', () => {
    expect(isPracticeOpen('2026-11-24')).toBe(true);
    expect(isPracticeOpen('2026-11-22')).toBe(false); // a Sunday
    expect(isPracticeOpen('2026-11-22', { ...DEFAULT_PRACTICE_HOURS, workingDays: ['Sun'] })).toBe(true);
    expect(nearestOpenDay('2026-11-22', -1)).toBe('2026-11-20');
    expect(nearestOpenDay('2026-11-26', 1)).toBe('2026-11-27');
    expect(nearestOpenDay('2026-12-27', -1)).toBe('2026-12-24');
  });

  it('starts visits one visit plus the buffer apart, the last ending by closing', () => {
    expect(visitStarts({ ...DEFAULT_PRACTICE_HOURS, workdayStart: '08:00', workdayEnd: '10:00' })).toEqual([
      '08:00',
      '08:40',
      '09:20',
    ]);
  });
});

describe('visits that make clinical sense', () => {
  it('codes preventive visits by age, and a Medicare patient from 65 gets the annual wellness visit', () => {
    expect(preventiveCode(0, 'Medicaid')).toBe('99391');
    expect(preventiveCode(7, 'Aetna')).toBe('99393');
    expect(preventiveCode(17, 'Aetna')).toBe('99394');
    expect(preventiveCode(18, 'Aetna')).toBe('99395');
    expect(preventiveCode(64, 'Medicare')).toBe('99396');
    expect(preventiveCode(70, 'Medicare')).toBe('G0439');
    expect(preventiveCode(70, 'Humana')).toBe('99397');
  });

  it('counts age in whole years up to the day before the birthday', () => {
    expect(ageOn('2008-11-25', '2026-11-24')).toBe(17);
    expect(ageOn('2008-11-25', '2026-11-25')).toBe(18);
  });

  it('books every patient, whatever their age and conditions, for a visit that fits, with a provider who sees it', () => {
    const providers = PROVIDERS.map((p, i) => ({ id: i + 1, specialty: p.specialty }));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99 }),
        fc.subarray([...CONDITION_KEYS]),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (age, conditions, seed) => {
          const profile: PatientProfile = { id: 1, dob: `${2026 - age}-06-01`, conditions, payer: 'Aetna' };
          const visit = drawVisit(new Random(seed), profile, '2026-06-15', providers);
          const specialty = providers.find((p) => p.id === visit.providerId)?.specialty ?? '';
          expect(visit.kind.specialties).toContain(specialty);
          expect(specialtySeesAge(specialty, age)).toBe(true);
          expect(age).toBeGreaterThanOrEqual(visit.kind.ages[0]);
          expect(age).toBeLessThanOrEqual(visit.kind.ages[1]);
          if (age >= 18) expect(visit.kind.reason).not.toBe('Well-child visit');
          if (age < 18) expect(['Annual physical', 'Medication review']).not.toContain(visit.kind.reason);
          expect(visit.diagnoses.length).toBeGreaterThan(0);
        },
      ),
    );
  });

  it('gives authorization denials only to services that need an authorization', () => {
    expect(needsAuthorization('93306')).toBe(true);
    expect(needsAuthorization('99213')).toBe(false);
    expect(denialsFor(['99213', '36415']).map((d) => d.code)).not.toContain('CO-197');
    expect(denialsFor(['99213']).map((d) => d.code)).not.toContain('CO-15');
    expect(denialsFor(['99214', '93306']).map((d) => d.code)).toContain('CO-197');
  });

  it('has a rule for who each prior-authorization service suits', () => {
    const adult: PatientProfile = { id: 1, dob: '1950-01-01', conditions: [...CONDITION_KEYS], payer: 'Medicare' };
    for (const service of AUTHORIZATION_SERVICES) {
      expect(authorizationFits(service.code, adult, '2026-11-24'), service.service).toBe(true);
    }
    const child: PatientProfile = { id: 2, dob: '2020-01-01', conditions: [], payer: 'Medicaid' };
    expect(authorizationFits('45378', child, '2026-11-24')).toBe(false); // no colonoscopy screening at 6
  });
});
