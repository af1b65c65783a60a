import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claimFilterSchema } from '../claims.schema';
import { CLAIM_FILTER_FIELDS, claimFilterDetail, claimsRollupWhere, claimsWhere } from './claims.filter.queries';
import { claimsDailyRollup, claimsStatusRollup } from './claims.rollup.table';

const NO_FILTER = claimFilterSchema.parse({});
const text = (condition: SQL) => new PgDialect().sqlToQuery(condition).sql;

describe('the declared claims filter fields', () => {
  it('declare samples the filter accepts, each narrowing the claims', () => {
    for (const [field, declared] of Object.entries(CLAIM_FILTER_FIELDS)) {
      expect(declared.samples.length, field).toBeGreaterThan(0);
      for (const value of declared.samples) {
        const filter = claimFilterSchema.parse({ [field]: value });
        expect(claimsWhere(filter), `${field} ${value}`).toBeDefined();
      }
    }
  });

  it('are answered by the rollups, on the rollup given, unless a field the rollups lack is set', () => {
    for (const [field, declared] of Object.entries(CLAIM_FILTER_FIELDS)) {
      const filter = claimFilterSchema.parse({ [field]: declared.samples[0] });
      const onStatus = claimsRollupWhere(filter, claimsStatusRollup);
      const onDaily = claimsRollupWhere(filter, claimsDailyRollup);
      if (declared.rollup === null) {
        expect([onStatus, onDaily], field).toEqual([null, null]);
        continue;
      }
      if (!onStatus || !onDaily) throw new Error(`${field}: no rollup condition`);
      expect(text(onStatus), field).toContain('"claims_status_rollup"');
      expect(text(onDaily), field).toContain('"claims_daily_rollup"');
    }
    expect(claimsRollupWhere({ search: 'Smith', reason: 'CO', payer: 'Aetna' }, claimsStatusRollup)).toBeNull();
  });

  it('narrow nothing when none is set', () => {
    expect(claimsWhere(NO_FILTER)).toBeUndefined();
    expect(claimsRollupWhere(NO_FILTER, claimsStatusRollup)).toBeUndefined();
    expect(claimFilterDetail(NO_FILTER)).toBe('');
  });

  it('name every set field in the export audit entry, in a fixed order', () => {
    expect(claimFilterDetail({ search: 'Smith', reason: 'co 197', payer: 'Aetna' })).toBe(
      ' (payer Aetna, reason "co 197", search "Smith")',
    );
    expect(claimFilterDetail({ search: '', reason: 'PR', payer: undefined })).toBe(' (reason "PR")');
  });
});
