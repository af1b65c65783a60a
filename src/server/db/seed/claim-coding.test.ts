import { describe, expect, it } from 'vitest';
import { codeLines, costSharedCents } from './claim-coding';

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

describe('costSharedCents', () => {
  const line = (procedureCode: string, chargeCents: number) => ({ procedureCode, chargeCents });

  it("leaves out Medicare's annual wellness visit, whose deductible and coinsurance Medicare waives", () => {
    expect(costSharedCents([line('G0439', 17_500)], 'Medicare')).toBe(0);
    expect(costSharedCents([line('G0438', 25_000), line('36415', 1_700)], 'Medicare')).toBe(1_700);
  });

  it('counts every line for any other payer or service', () => {
    expect(costSharedCents([line('G0439', 17_500), line('36415', 1_700)], 'Aetna')).toBe(19_200);
    expect(costSharedCents([line('99214', 15_000), line('87804', 6_000)], 'Medicare')).toBe(21_000);
  });
});
