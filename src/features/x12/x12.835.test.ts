import { describe, expect, it } from 'vitest';
import { eraFile, eraFileOfSets, eraHeader } from '@/testing/era-files';
import { centsOf, claimImbalance, dateOf, EraError, fileImbalance, MAX_CLAIM_AMOUNT_CENTS, readEras } from './x12.835';

describe('amounts in cents', () => {
  it('reads decimal text exactly, never through a float', () => {
    expect(
      ['100', '100.5', '-25.00', '.07', '0.10', '1.000', '-0', '19.99', '10000000.00'].map((v) => centsOf(v, 'X', 1)),
    ).toEqual([10000, 10050, -2500, 7, 10, 100, 0, 1999, MAX_CLAIM_AMOUNT_CENTS]);
    // A whole payment (BPR02) may be larger: it is kept in 64-bit cents.
    expect(centsOf('123456789.01', 'BPR02', 1, Number.MAX_SAFE_INTEGER)).toBe(12345678901);
  });
  it("refuses a claim's amount the database could not keep, naming the element", () => {
    expect(() => centsOf('10000000.01', 'CLP03', 7)).toThrow(
      'CLP03: "10000000.01" is more than 10000000.00, the largest amount accepted (segment 7)',
    );
    expect(() => centsOf('-21474836.48', 'CAS03', 9)).toThrow('CAS03: "-21474836.48" is more than');
  });
  it('refuses what is not an amount, or a fraction of a cent', () => {
    for (const bad of ['', '-', '.', '1.005', '1,00', '1e3', ' 1', '+1']) {
      expect(() => centsOf(bad, 'CLP04', 7), bad).toThrow(EraError);
    }
  });
});

describe('dates', () => {
  it('reads a calendar day, leap days included', () => {
    expect(['20261118', '20240229', '20001231', ''].map((v) => dateOf(v, 'DTM02', 4))).toEqual([
      '2026-11-18',
      '2024-02-29',
      '2000-12-31',
      null,
    ]);
  });
  it('refuses a day that is not on the calendar, naming the segment and element', () => {
    for (const bad of [
      '20002316',
      '20260230',
      '20250229',
      '20261300',
      '20261100',
      '20261131',
      '00000101',
      '30000101',
    ]) {
      expect(() => dateOf(bad, 'BPR16', 3), bad).toThrow(
        `BPR16: "${bad}" is not a calendar date CCYYMMDD between 1900 and 2999 (segment 3)`,
      );
    }
    expect(() => dateOf('2026-11-18', 'PLB02', 30)).toThrow('PLB02: "2026-11-18" is not a date CCYYMMDD (segment 30)');
  });
});

describe('reading an 835', () => {
  const body = [
    ...eraHeader({ paid: '150', trace: 'T-1' }),
    'CLP*ACC-1*1*200*150*20*12*ICN1',
    'NM1*QC*1*DOE*JANE',
    'SVC*HC:99214:25*200*150**1',
    'DTM*472*20261101',
    'CAS*PR*2*20',
    'CAS*CO*45*30',
    'REF*6R*ACC-1-1',
    'LQ*HE*M15',
  ];
  it('reads the header, claims, lines, adjustments and remarks', () => {
    const [era] = readEras(eraFile(body));
    if (!era) throw new Error('no 835 read');
    expect(era).toMatchObject({
      paymentCents: 15000,
      traceNumber: 'T-1',
      payerName: 'Aetna',
      paymentDate: '2026-11-18',
    });
    expect(era.claims[0]).toMatchObject({
      patientControlNumber: 'ACC-1',
      statusCode: '1',
      chargeCents: 20000,
      paidCents: 15000,
    });
    expect(era.claims[0]!.lines[0]).toMatchObject({
      procedureCode: '99214',
      modifiers: ['25'],
      lineControlNumber: 'ACC-1-1',
      serviceDate: '2026-11-01',
      remarkCodes: ['M15'],
    });
    expect(era.claims[0]!.lines[0]!.adjustments.map((a) => [a.group, a.reason, a.amountCents])).toEqual([
      ['PR', '2', 2000],
      ['CO', '45', 3000],
    ]);
    expect(claimImbalance(era.claims[0]!)).toBeNull();
    expect(fileImbalance(era)).toBeNull();
  });
  it('finds what does not balance, line, claim and file', () => {
    const [line] = readEras(eraFile(body.map((s) => (s === 'CAS*CO*45*30' ? 'CAS*CO*45*29' : s))));
    expect(claimImbalance(line!.claims[0]!)).toMatch(/^service line 99214/);
    const [file] = readEras(eraFile(body.map((s) => s.replace('BPR*I*150*', 'BPR*I*151*'))));
    expect(fileImbalance(file!)).toBe(
      'BPR02 payment 151.00 ≠ claims paid (ΣCLP04) 150.00 − provider adjustments (ΣPLB) 0.00 = 150.00',
    );
  });
  it('reads each 835 of a file that holds several, in file order, each with where its ST is', () => {
    const second = body.map((s) => s.replace('TRN*1*T-1*', 'TRN*1*T-2*'));
    const eras = readEras(eraFileOfSets([body, second]));
    expect(eras.map((e) => [e.controlNumber, e.traceNumber, e.position, e.claims.length])).toEqual([
      ['0001', 'T-1', 3, 1],
      ['0002', 'T-2', 3 + body.length + 2, 1],
    ]);
    // A fault in the second is named where it is; the first being right does not let the file through.
    expect(() => readEras(eraFileOfSets([body, second.filter((s) => !s.startsWith('TRN'))]))).toThrow(
      expect.objectContaining({ code: 'STRUCTURE', position: 3 + body.length + 2 }) as Error,
    );
  });
  it('refuses another guide, a bad CAS group and a file without a trace', () => {
    expect(() => readEras(eraFile(body, { version: '005010X222A1' }))).toThrow(/GS08/);
    expect(() => readEras(eraFile(body.map((s) => s.replace('CAS*CO*', 'CAS*XX*'))))).toThrow(/CAS01/);
    expect(() => readEras(eraFile(body.filter((s) => !s.startsWith('TRN'))))).toThrow(/TRN02/);
  });
});
