import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eraFile, eraHeader } from '@/testing/era-files';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { readBalancedEras } from './remittances.queries';

/**
 * An 835 whose element the database could not keep (a day not on the calendar, an amount past its column, a
 * code outside its list) is refused with a 4xx that names the segment and element, and writes nothing: the
 * readers check every date, amount and code they hand on, so none reaches the database to fail there as a 500.
 * The files are written by hand from the ASC X12 005010X221A1 structure.
 */

let t: TestApp;
let billing: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  billing = await signInAs(t.app, 'billing_admin');
});

afterAll(async () => {
  await t.close();
});

/** One claim of one line, balanced (charge 120 = paid 100 + CO-45 20), and a PLB interest payment of 5. */
const BODY = [
  ...eraHeader({ paid: '105.00', trace: 'REFUSALS-1' }),
  'CLP*NO-SUCH-ACCOUNT*1*120.00*100.00**12*ICN-R1',
  'NM1*QC*1*DOE*JANE',
  'DTM*232*20261101',
  'SVC*HC:99213*120.00*100.00**1',
  'DTM*472*20261101',
  'CAS*CO*45*20.00',
  'AMT*B6*100.00',
  'PLB*1234567893*20261231*L6:INTEREST*-5.00',
];

/** The body with the segment starting `prefix` replaced. */
function withSegment(prefix: string, replacement: string): string[] {
  const at = BODY.findIndex((s) => s.startsWith(prefix));
  if (at === -1) throw new Error(`no segment ${prefix}`);
  return BODY.map((s, i) => (i === at ? replacement : s));
}

const WRITTEN_TABLES = ['remittances', 'remittance_claims', 'remittance_ledger', 'payments', 'work_items', 'audit_log'];

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of WRITTEN_TABLES) {
    const { rows } = await t.database.pool.query<{ n: number }>(`select count(*)::int as n from ${table}`);
    out[table] = rows[0]!.n;
  }
  return out;
}

async function expectRefused(body: readonly string[] | string, element: RegExp, field = 'file') {
  const before = await counts();
  const res = await billing.request({
    method: 'POST',
    url: '/api/remittances',
    payload: typeof body === 'string' ? body : eraFile(body),
    headers: { 'content-type': 'application/edi-x12' },
  });
  expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, res.body).toBeLessThan(500);
  const error = res.json<{ error: { message: string; fields?: { field: string; message: string }[] } }>().error;
  expect(error.message).toMatch(element);
  expect(error.fields?.[0]?.field).toBe(field);
  expect(await counts()).toEqual(before);
}

describe('an 835 element the database could not keep', () => {
  it('the unchanged file reads and balances, so each refusal below is its one changed element', () => {
    expect(readBalancedEras(eraFile(BODY))).toHaveLength(1);
  });

  it('refuses a date that is not on the calendar, in each date element', async () => {
    const header = BODY[0]!;
    await expectRefused(withSegment('BPR', header.replace(/20261118$/, '20002316')), /^file: BPR16: "20002316"/);
    await expectRefused(withSegment('DTM*405', 'DTM*405*20260230'), /DTM02: "20260230" is not a calendar date/);
    await expectRefused(withSegment('DTM*232', 'DTM*232*20261301'), /DTM02: "20261301" is not a calendar date/);
    await expectRefused(withSegment('DTM*472', 'DTM*472*20261232'), /DTM02: "20261232" is not a calendar date/);
    await expectRefused(
      withSegment('PLB', 'PLB*1234567893*20250229*L6:INTEREST*-5.00'),
      /PLB02: "20250229" is not a calendar date/,
    );
  });

  it('refuses an amount past what its column keeps, in each amount element', async () => {
    const huge = '99999999.00';
    await expectRefused(withSegment('CLP', `CLP*NO-SUCH-ACCOUNT*1*${huge}*100.00**12*ICN-R1`), /CLP03: "99999999.00"/);
    await expectRefused(withSegment('CLP', `CLP*NO-SUCH-ACCOUNT*1*120.00*100.00*${huge}*12*ICN-R1`), /CLP05/);
    await expectRefused(withSegment('SVC', `SVC*HC:99213*${huge}*100.00**1`), /SVC02: "99999999.00"/);
    await expectRefused(withSegment('SVC', `SVC*HC:99213*120.00*-${huge}**1`), /SVC03: "-99999999.00"/);
    await expectRefused(withSegment('CAS', `CAS*CO*45*${huge}`), /CAS03: "99999999.00"/);
    await expectRefused(withSegment('AMT', `AMT*B6*${huge}`), /AMT02: "99999999.00"/);
    await expectRefused(withSegment('PLB', `PLB*1234567893*20261231*L6:INTEREST*${huge}`), /PLB04: "99999999.00"/);
    const header = BODY[0]!;
    await expectRefused(withSegment('BPR', header.replace('*105.00*', '*1234567890123456.00*')), /BPR02: .* too large/);
  });

  it('refuses a code outside its list, and text the database cannot hold', async () => {
    await expectRefused(withSegment('CAS', 'CAS*XX*45*20.00'), /CAS01: "XX" is not a claim adjustment group code/);
    await expectRefused(withSegment('CAS', 'CAS*CO*co45*20.00'), /CAS02: "co45" is not a claim adjustment reason code/);
    await expectRefused(withSegment('CAS', 'CAS*CO*45678*20.00'), /CAS02: "45678"/);
    // Written into the file's text (the test's own X12 writer refuses a control character): PostgreSQL's text
    // cannot hold a NUL, and the server refuses one in any request before it is read.
    const withNul = eraFile(BODY).replace('DOE*JANE', 'DOE\u0000*JANE');
    expect(withNul).toContain('\u0000');
    await expectRefused(withNul, /NUL character/, 'request');
  });
});
