import { describe, expect, it } from 'vitest';
import { codeLines } from './claim-coding';

describe('codeLines', () => {
  it('marks a visit billed beside an immunization administration with modifier 25, and no other visit', () => {
    expect(codeLines(['99392', '90471', '90686'], 'Medicaid')).toEqual([
      { modifiers: ['25'], units: 1 },
      { modifiers: [], units: 1 },
      { modifiers: [], units: 1 },
    ]);
    expect(codeLines(['99214', '36415', '80053'], 'Aetna').map((l) => l.modifiers)).toEqual([[], [], []]);
    // A vaccine given without a visit: nothing to mark.
    expect(codeLines(['90471', '90686'], 'Cigna').map((l) => l.modifiers)).toEqual([[], []]);
  });

  it('marks CLIA-waived tests QW for Medicare only, and bills the influenza test once for A and once for B', () => {
    expect(codeLines(['99213', '87804'], 'Medicare')).toEqual([
      { modifiers: [], units: 1 },
      { modifiers: ['QW'], units: 2 },
    ]);
    expect(codeLines(['99213', '87880'], 'Blue Cross Blue Shield')).toEqual([
      { modifiers: [], units: 1 },
      { modifiers: [], units: 1 },
    ]);
    expect(codeLines(['87880'], 'Medicare')).toEqual([{ modifiers: ['QW'], units: 1 }]);
  });
});
