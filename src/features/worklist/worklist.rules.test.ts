import { describe, expect, it } from 'vitest';
import { compareFollowUps, diagnosisCode, followUpPriority, recommendedAction, riskClassOf } from './worklist.rules';

describe('worklist rules', () => {
  it('reads the ICD-10 code at the start of a diagnosis, whatever its case or spacing', () => {
    expect(diagnosisCode('I50.9 Heart failure, unspecified')).toBe('I50.9');
    expect(diagnosisCode('  j44.9   COPD')).toBe('J44.9');
    expect(diagnosisCode('')).toBe('');
  });

  it('takes the highest risk class among the diagnoses', () => {
    expect(riskClassOf(['M54.50 Low back pain', 'N18.30 Chronic kidney disease, stage 3'])).toBe('high-risk');
    // Records coded before ICD-10-CM split stage 3 (October 2020) keep their class.
    expect(riskClassOf(['N18.3 Chronic kidney disease, stage 3'])).toBe('high-risk');
    expect(riskClassOf(['H66.90 Otitis media', 'E03.9 Hypothyroidism'])).toBe('chronic');
    expect(riskClassOf(['Z00.00 General adult examination'])).toBe('routine');
    expect(riskClassOf([])).toBe('routine');
    // A code that only starts like a listed one is not that condition.
    expect(riskClassOf(['I50.91 Something else'])).toBe('routine');
  });

  it('grades by risk class and days overdue', () => {
    expect(followUpPriority(['I50.9'], 15)).toBe('High');
    expect(followUpPriority(['I50.9'], 1)).toBe('Medium');
    expect(followUpPriority(['E11.9'], 181)).toBe('High');
    expect(followUpPriority(['E11.9'], 31)).toBe('Medium');
    expect(followUpPriority(['E11.9'], 30)).toBe('Low');
    expect(followUpPriority(['M54.5'], 10_000)).toBe('Medium');
    expect(followUpPriority(['M54.5'], 180)).toBe('Low');
  });

  it('recommends an action per priority', () => {
    expect(recommendedAction('High')).toBe('Call patient today to schedule follow-up');
    expect(recommendedAction('Medium')).toBe('Schedule follow-up within 1 week');
    expect(recommendedAction('Low')).toBe('Send reminder to schedule follow-up');
  });

  it('orders High before Medium before Low, then the longest overdue first', () => {
    const rows = [
      { encounterId: 1, priority: 'Low' as const, daysOverdue: 400 },
      { encounterId: 2, priority: 'High' as const, daysOverdue: 20 },
      { encounterId: 3, priority: 'Medium' as const, daysOverdue: 50 },
      { encounterId: 4, priority: 'High' as const, daysOverdue: 90 },
    ];
    expect([...rows].sort(compareFollowUps).map((r) => r.encounterId)).toEqual([4, 2, 3, 1]);
  });
});
