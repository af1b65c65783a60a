import { describe, expect, it } from 'vitest';
import { eraFile, eraFileOfSets, eraHeader } from '@/testing/era-files';
import { centsOf, claimImbalance, EraError, fileImbalance, readEras } from './remittances.era';
import { bucketOf, reasonOf, statusAfter } from './remittances.posting';

describe('amounts in cents', () => {
  it('reads decimal text exactly, never through a float', () => {
    expect(
      ['100', '100.5', '-25.00', '.07', '0.10', '1.000', '-0', '19.99', '123456789.01'].map((v) => centsOf(v, 'X', 1)),
    ).toEqual([10000, 10050, -2500, 7, 10, 100, 0, 1999, 12345678901]);
  });
  it('refuses what is not an amount, or a fraction of a cent', () => {
    for (const bad of ['', '-', '.', '1.005', '1,00', '1e3', ' 1', '+1']) {
      expect(() => centsOf(bad, 'CLP04', 7), bad).toThrow(EraError);
    }
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

describe('posting rules', () => {
  it('counts each CAS group where it belongs', () => {
    expect([
      bucketOf('CO', '45', '1'),
      bucketOf('CO', '197', '4'),
      bucketOf('PR', '1', '1'),
      bucketOf('PR', '2', '19'),
      bucketOf('OA', '23', '2'),
      bucketOf('PI', '94', '1'),
    ]).toEqual(['contractual', 'other', 'patient', 'forwarded', 'other', 'other']);
  });
  it('settles CARC 23 on a claim billed after another payer, and only there', () => {
    expect([
      bucketOf('OA', '23', '2', true),
      bucketOf('OA', '23', '2', false),
      bucketOf('OA', '18', '2', true),
    ]).toEqual(['contractual', 'other', 'other']);
  });
  it('sets the claim status from CLP02 and the totals', () => {
    const t = { paid: 8000, contractual: 1000, patient: 1000, forwarded: 0, other: 0 };
    expect(statusAfter('1', t, 10000)).toBe('Paid');
    expect(statusAfter('2', { ...t, other: 500, paid: 7500 }, 10000)).toBe('Partially Paid');
    expect(statusAfter('19', { ...t, patient: 0, forwarded: 1000 }, 10000)).toBe('Partially Paid');
    expect(statusAfter('4', t, 10000)).toBe('Denied');
    expect(statusAfter('1', { paid: 0, contractual: 0, patient: 0, forwarded: 0, other: 10000 }, 10000)).toBe('Denied');
    expect(statusAfter('22', t, 10000)).toBe('Pending');
  });
  it('names the adjustment that is not the contract or the patient', () => {
    const adj = (group: 'CO' | 'PR' | 'OA', reason: string, amountCents: number) => ({
      group,
      reason,
      amountCents,
      position: 1,
    });
    expect(reasonOf([adj('CO', '45', 5000), adj('CO', '197', 100), adj('PR', '1', 9000)])).toBe('CO-197');
    expect(reasonOf([adj('CO', '45', 5000), adj('PR', '1', 9000)])).toBe('CO-45');
    expect(reasonOf([adj('PR', '1', 9000)])).toBeNull();
  });
});
