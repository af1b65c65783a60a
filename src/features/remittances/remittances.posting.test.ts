import { describe, expect, it } from 'vitest';
import { bucketOf, reasonOf, statusAfter } from './remittances.posting';

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
