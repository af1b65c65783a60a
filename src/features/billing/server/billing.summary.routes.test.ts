import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import type { KpiResult } from '@/features/analytics/analytics.schema';
import { BILLING_TOP_LIMIT, type PayerPerformance } from '../billing.schema';

let t: TestApp;
let billing: SignedIn;

async function sql<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T>(text, values)).rows;
}

/** Denial rate over [start, end] computed here: denied on first adjudication ÷ adjudicated in the period. */
async function denialRate(start: string, end: string): Promise<number | null> {
  const [row] = await sql<{ rate: string | null }>(
    `select round(100.0 * count(*) filter (where denied_on_first_adjudication) / nullif(count(*), 0), 1) as rate
     from claims where adjudicated_on between $1 and $2`,
    [start, end],
  );
  return row?.rate === null || row?.rate === undefined ? null : Number(row.rate);
}

beforeAll(async () => {
  t = await createTestApp();
  billing = await signInAs(t.app, 'billing_admin');
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/billing/payer-performance', () => {
  for (const periodDays of [30, 90]) {
    it(`ranks the 5 payers with the most collections in the last ${periodDays} days, each with its denial rate, as SQL does`, async () => {
      const res = await billing.request({
        method: 'GET',
        url: `/api/billing/payer-performance?periodDays=${periodDays}`,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<PayerPerformance>();
      const [period] = await sql<{ start: string; end: string }>(
        `select ($1::date - ($2::int - 1))::text as start, $1::text as end`,
        ['2026-11-22', periodDays],
      );
      expect(body).toMatchObject({ periodDays, periodStart: period!.start, periodEnd: period!.end });

      const expected = await sql<{ payer: string; collections: string; adjudicated: number; denied: number }>(
        `select c.payer,
           coalesce((select sum(p.amount_cents) from payments p join claims pc on pc.id = p.claim_id
                     where pc.payer = c.payer and p.source = 'payer' and p.received_on between $1 and $2), 0) as collections,
           (count(*) filter (where c.adjudicated_on between $1 and $2))::int as adjudicated,
           (count(*) filter (where c.adjudicated_on between $1 and $2 and c.denied_on_first_adjudication))::int as denied
         from claims c where c.payer <> 'Self-Pay'
         group by c.payer order by collections desc, c.payer limit 5`,
        [period!.start, period!.end],
      );
      expect(body.payers).toHaveLength(BILLING_TOP_LIMIT);
      expect(body.payers.map((p) => [p.payer, p.collectionsCents, p.adjudicatedClaims, p.deniedClaims])).toEqual(
        expected.map((e) => [e.payer, Number(e.collections), e.adjudicated, e.denied]),
      );
      for (const [i, payer] of body.payers.entries()) {
        const row = expected[i]!;
        expect(payer.denialRate).toBe(Math.round((1000 * row.denied) / row.adjudicated) / 10);
      }
      const collections = body.payers.map((p) => p.collectionsCents);
      expect(collections).toEqual([...collections].sort((a, b) => b - a));
      expect(body.payers.some((p) => p.payer === 'Self-Pay')).toBe(false);
    });
  }

  it('compares the denial rate of the period with the period of the same length before it, as SQL does', async () => {
    const body = (
      await billing.request({ method: 'GET', url: '/api/billing/payer-performance?periodDays=30' })
    ).json<PayerPerformance>();
    expect(body.denialTrend).toMatchObject({ previousPeriodStart: '2026-09-24', previousPeriodEnd: '2026-10-23' });
    expect(body.periodStart).toBe('2026-10-24');
    expect(body.denialTrend.currentRate).toBe(await denialRate('2026-10-24', '2026-11-22'));
    expect(body.denialTrend.previousRate).toBe(await denialRate('2026-09-24', '2026-10-23'));
    // The demo clinic denies some claims in both periods, so the comparison is between two real numbers.
    expect(body.denialTrend.currentRate).toBeGreaterThan(0);
    expect(body.denialTrend.previousRate).toBeGreaterThan(0);
  });

  it("shows the same denial rate as the KPI engine's Denial Rate for the period", async () => {
    for (const periodDays of [7, 30, 60, 90]) {
      const performance = (
        await billing.request({ method: 'GET', url: `/api/billing/payer-performance?periodDays=${periodDays}` })
      ).json<PayerPerformance>();
      const kpis = (
        await billing.request({ method: 'GET', url: `/api/claims/analytics/kpis?periodDays=${periodDays}` })
      ).json<KpiResult>();
      expect(performance.periodStart).toBe(kpis.periodStart);
      expect(performance.denialTrend.currentRate, String(periodDays)).toBe(kpis.denialRate);
    }
  });

  it('gives a payer with nothing adjudicated in the period no denial rate rather than 0 %', async () => {
    // Move every Tricare adjudication out of the last 7 days; its payments stay, so it still collects.
    await sql(`update claims set adjudicated_on = '2026-01-05' where payer = 'Tricare'`);
    await sql(
      `insert into payments (patient_id, claim_id, amount_cents, source, received_on)
       select patient_id, id, 99999999, 'payer', '2026-11-21' from claims where payer = 'Tricare' order by id limit 1`,
    );
    const body = (
      await billing.request({ method: 'GET', url: '/api/billing/payer-performance?periodDays=7' })
    ).json<PayerPerformance>();
    expect(body.payers[0]).toMatchObject({ payer: 'Tricare', adjudicatedClaims: 0, deniedClaims: 0, denialRate: null });
  });

  it('accepts only the KPI periods', async () => {
    for (const periodDays of ['0', '14', 'abc', '-30']) {
      const res = await billing.request({
        method: 'GET',
        url: `/api/billing/payer-performance?periodDays=${periodDays}`,
      });
      expect(res.statusCode, periodDays).toBe(400);
      expect(res.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('periodDays');
    }
    const byDefault = await billing.request({ method: 'GET', url: '/api/billing/payer-performance' });
    expect(byDefault.json<PayerPerformance>().periodDays).toBe(30);
  });
});
