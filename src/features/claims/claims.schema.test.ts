import { describe, expect, it } from 'vitest';
import { claimImportRowSchema, parseReasonFilter, reasonFilterSchema } from './claims.schema';

describe('parseReasonFilter', () => {
  it('reads a code however it is typed', () => {
    for (const typed of ['CO-197', 'CO 197', 'co-197', 'co197', ' Co_197 ', 'CO - 197']) {
      expect(parseReasonFilter(typed), typed).toEqual({ group: 'CO', number: '197' });
    }
    expect(parseReasonFilter('197')).toEqual({ group: null, number: '197' });
    expect(parseReasonFilter('oa')).toEqual({ group: 'OA', number: null });
    expect(parseReasonFilter('pr1')).toEqual({ group: 'PR', number: '1' });
  });

  it('refuses text that cannot be a CARC code', () => {
    for (const typed of ['', 'XY-12', 'CO-12345', '<b>', 'CO 19 7', '%']) {
      expect(parseReasonFilter(typed), typed).toBeNull();
    }
    expect(reasonFilterSchema.safeParse('').success).toBe(true);
    expect(reasonFilterSchema.safeParse('XY-12').success).toBe(false);
  });
});

describe('claimImportRowSchema', () => {
  const row = {
    accountNumber: 'IMP-1',
    patientMrn: 'MRN-100001',
    procedureCode: 'g0439',
    provider: 'Dr. Sarah Mitchell',
    payer: 'Aetna',
    serviceDate: '2026-11-02',
    billedAmount: '175.00',
    status: '',
    reasonCode: '',
  };

  it('normalises a good row: cents, upper-case codes, Submitted by default', () => {
    expect(claimImportRowSchema.parse(row)).toEqual({
      ...row,
      procedureCode: 'G0439',
      billedAmount: 17_500,
      status: 'Submitted',
    });
    expect(claimImportRowSchema.parse({ ...row, status: 'Denied', reasonCode: 'co 16' }).reasonCode).toBe('CO-16');
  });

  it('names each bad field', () => {
    const result = claimImportRowSchema.safeParse({
      ...row,
      accountNumber: 'bad account!',
      serviceDate: '02/11/2026',
      status: 'Paid',
    });
    expect(result.success).toBe(false);
    expect(new Set(result.error?.issues.map((i) => i.path[0]))).toEqual(
      new Set(['accountNumber', 'serviceDate', 'status']),
    );
  });
});
