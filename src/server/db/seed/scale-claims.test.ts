import { describe, expect, it } from 'vitest';
import { CLAIM_COLUMNS, CLAIM_TYPES, HISTORY_DAYS, generateClaims, patientPayersOf } from './scale-claims';
import { isPracticeHoliday } from './demo-clinical';

const DAY_MS = 86_400_000;
const N = 20_000;

function claimsFor(today: string) {
  const generated = generateClaims({
    n: N,
    seed: 7,
    today,
    firstClaimId: 101,
    firstPatientId: 1,
    patientCount: 2_000,
    providerIds: [1, 2, 3],
    patientPayers: patientPayersOf(7, 2_000),
    firstCoverageId: 1,
    importer: { email: 'billing@example.test', id: 1, role: 'billing_admin' },
    payer: { email: 'guest', id: null, role: 'guest' },
  });
  // Each row as text, as PostgreSQL would show it: dates (day numbers in the rows) as YYYY-MM-DD, null as ''.
  return [...generated.claimLines()].map((row) => {
    const cells = row.map((value, i) => {
      if (value === null) return '';
      if (CLAIM_TYPES[i] === 'date') return new Date(Number(value) * DAY_MS).toISOString().slice(0, 10);
      if (typeof value === 'boolean') return value ? 't' : 'f';
      return Array.isArray(value) ? `{${value.join(',')}}` : String(value);
    });
    return Object.fromEntries(CLAIM_COLUMNS.map((column, i) => [column, cells[i] ?? ''])) as Record<
      (typeof CLAIM_COLUMNS)[number],
      string
    >;
  });
}

describe('generateClaims', () => {
  // The oldest draw falls on each weekday once over seven days; a Sunday moves it two days further back
  // (to the Friday), which once ran past the counting sort's arrays and left claims without a service date,
  // and a holiday next to a weekend up to four.
  const week = Array.from({ length: 7 }, (_, i) => new Date(Date.UTC(2026, 10, 20 + i)).toISOString().slice(0, 10));

  it.each(week)(
    'gives every claim one service date on a day the practice was open, within the history on %s',
    (today) => {
      const claims = claimsFor(today);
      const todayMs = Date.parse(`${today}T00:00:00Z`);

      expect(claims.map((c) => Number(c.id))).toEqual(Array.from({ length: N }, (_, i) => 101 + i));
      expect(new Set(claims.map((c) => c.account_number)).size).toBe(N);
      // Checked row by row, reported as the rows that break a rule (20,000 expects would cost seconds).
      const broken: string[] = [];
      let previous = '';
      for (const claim of claims) {
        const service = Date.parse(`${claim.service_date}T00:00:00Z`);
        const back = (todayMs - service) / DAY_MS;
        const weekday = new Date(service).getUTCDay();
        const rule = !/^\d{4}-\d{2}-\d{2}$/.test(claim.service_date)
          ? 'is not a date'
          : back < 1 || back > HISTORY_DAYS + 4
            ? `is ${back} days back`
            : weekday === 0 || weekday === 6
              ? 'is a weekend day'
              : isPracticeHoliday(claim.service_date)
                ? 'is a holiday'
                : // Ids follow the service date, as claims arrive in a real clinic.
                  claim.service_date < previous
                  ? `comes before the previous claim's ${previous}`
                  : null;
        if (rule) broken.push(`claim ${claim.id}: service date '${claim.service_date}' ${rule}`);
        previous = claim.service_date;
      }
      expect(broken.slice(0, 5)).toEqual([]);
    },
  );

  it('reaches the oldest Friday when the oldest draw is a Sunday', () => {
    // 2026-11-24 less 548 days is Sunday 2025-05-25: its claims are dated Friday 2025-05-23.
    const claims = claimsFor('2026-11-24');
    expect(claims[0]?.service_date).toBe('2025-05-23');
  });
});
