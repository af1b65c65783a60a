import Papa from 'papaparse';
import { TEST_TODAY } from '@/testing/test-clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolesWith, ROLES } from '@/shared/access';
import { formatDollars, today } from '@/shared/api';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { UNKNOWN_REFERENCES_IN_FILE } from './claims.import';
import {
  CLAIM_CSV_COLUMNS,
  CLAIM_EXPORT_MAX_ROWS,
  CLAIM_IMPORT_COLUMNS,
  CLAIM_SORT_KEYS,
  DENIAL_DESCRIPTIONS,
  type ClaimAppeal,
  type ClaimExport,
  type ClaimExportRow,
  type ClaimOverview,
  type ClaimPage,
  type ClaimRow,
  type ImportRejected,
} from '../claims.schema';

let t: TestApp;
let biller: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  biller = await signInAs(t.app, 'billing_admin');
});
afterAll(async () => {
  await t.close();
});

async function sql<T extends object>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.database.pool.query<T>(text, params)).rows;
}

async function list(query = '', session: SignedIn = biller) {
  const res = await session.request({ method: 'GET', url: `/api/claims${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ClaimPage>();
}

async function overview(query = '') {
  const res = await biller.request({ method: 'GET', url: `/api/claims/overview${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ClaimOverview>();
}

async function ids(where: string, params: unknown[] = []): Promise<number[]> {
  const rows = await sql<{ id: number }>(
    `select c.id from claims c join patients p on p.id = c.patient_id join providers v on v.id = c.provider_id
     where ${where} order by c.id`,
    params,
  );
  return rows.map((r) => r.id);
}

const sortedIds = (items: { id: number }[]) => items.map((c) => c.id).sort((a, b) => a - b);

async function auditCount() {
  const [row] = await sql<{ n: number }>(`select count(*)::int as n from audit_log`);
  return row?.n ?? 0;
}

/** A claim's balance written out independently: still owed by anyone, 0 once resolved or written off. */
// A claim billed after another owes only what the earlier payers left (prior_payers_cents, their settled part),
// and the earlier one no longer owes what it handed on (handed_on_cents): docs/x12-837.md "After another payer".
const BALANCE_SQL = `(case when c.resolved_on is not null or c.status = 'Written Off' or c.voided_at is not null then 0
  else greatest(0, c.billed_cents - c.paid_cents - greatest(c.contractual_adjustment_cents, c.prior_payers_cents)
    - c.handed_on_cents
    - coalesce((select sum(amount_cents) from payments where claim_id = c.id and source in ('patient', 'guest')), 0))
  end)::int`;

function fieldsOf(body: string): string[] {
  return (JSON.parse(body) as { error: { fields?: { field: string }[] } }).error.fields?.map((f) => f.field) ?? [];
}

describe('GET /api/claims', () => {
  it('pages the claims newest first with every field of a row', async () => {
    const [{ n }] = (await sql<{ n: number }>(`select count(*)::int as n from claims`)) as [{ n: number }];
    const page = await list('?limit=5');
    expect(page.total).toBe(n);
    expect(page.items).toHaveLength(5);
    const [first] = page.items;
    if (!first) throw new Error('no claims');
    const [raw] = await sql<Record<string, unknown>>(
      `select c.account_number, c.procedure_code, c.payer, c.service_date::text, c.billed_cents, c.paid_cents,
        c.status, c.frequency_code, c.reason_code, c.denial_description, p.name as patient, v.name as provider,
        (coalesce(c.resolved_on, $2::date) - c.service_date) as days, ${BALANCE_SQL} as balance
       from claims c join patients p on p.id = c.patient_id join providers v on v.id = c.provider_id where c.id = $1`,
      [first.id, today(t.clock())],
    );
    expect(first).toEqual({
      id: first.id,
      patient: raw?.patient,
      accountNumber: raw?.account_number,
      procedure: raw?.procedure_code,
      provider: raw?.provider,
      payer: raw?.payer,
      serviceDate: raw?.service_date,
      billedCents: raw?.billed_cents,
      paidCents: raw?.paid_cents,
      daysAR: raw?.days,
      balanceCents: raw?.balance,
      status: raw?.status,
      frequencyCode: raw?.frequency_code,
      reason: raw?.reason_code,
      denialDescription: raw?.denial_description,
    });
    const [newest] = await sql<{ d: string }>(`select max(service_date)::text as d from claims`);
    expect(first.serviceDate).toBe(newest?.d);
  });

  it('computes days in A/R to the resolution, or to today while unresolved', async () => {
    const page = await list('?sort=daysAR&dir=desc&limit=500');
    const rows = await sql<{ id: number; service_date: string; resolved_on: string | null }>(
      `select id, service_date::text, resolved_on::text from claims where id = any($1)`,
      [page.items.map((c) => c.id)],
    );
    const day = Date.parse(`${today(t.clock())}T00:00:00Z`);
    for (const row of rows) {
      const end = row.resolved_on ? Date.parse(`${row.resolved_on}T00:00:00Z`) : day;
      const expected = Math.round((end - Date.parse(`${row.service_date}T00:00:00Z`)) / 86_400_000);
      expect(page.items.find((c) => c.id === row.id)?.daysAR).toBe(expected);
    }
    expect(page.items.some((c) => c.daysAR > 90)).toBe(true);
  });

  it('filters by payer in the database', async () => {
    const expected = await ids(`c.payer = 'Tricare'`);
    expect(expected.length).toBeGreaterThan(10);
    const page = await list('?payer=Tricare&limit=500');
    expect(page.total).toBe(expected.length);
    expect(sortedIds(page.items)).toEqual(expected);
  });

  it('gives each claim its balance: what is still owed on it, 0 once resolved or written off', async () => {
    const page = await list('?sort=billedCents&dir=desc&limit=500');
    const rows = await sql<{ id: number; balance: number }>(
      `select c.id, ${BALANCE_SQL} as balance from claims c where c.id = any($1)`,
      [page.items.map((c) => c.id)],
    );
    const expected = new Map(rows.map((r) => [r.id, r.balance]));
    for (const item of page.items) expect(item.balanceCents, item.accountNumber).toBe(expected.get(item.id));
    // Both kinds occur, so the rule is exercised: open claims with something owed, settled ones with 0.
    expect(page.items.some((c) => c.balanceCents > 0)).toBe(true);
    expect(page.items.some((c) => c.balanceCents === 0)).toBe(true);
  });

  it('filters by status, provider and service dates in the database, alone and together', async () => {
    const [provider] = await sql<{ id: number }>(
      `select provider_id as id from claims group by provider_id order by count(*) desc limit 1`,
    );
    const providerId = provider?.id ?? 0;
    const [patient] = await sql<{ id: number }>(
      `select patient_id as id from claims group by patient_id order by count(*) desc limit 1`,
    );
    const patientId = patient?.id ?? 0;
    const cases: [string, string, unknown[]][] = [
      // The patient snapshot's list: one patient's claims.
      [`?patientId=${patientId}`, `c.patient_id = $1`, [patientId]],
      ['?status=Denied', `c.status = 'Denied'`, []],
      ['?status=Partially%20Paid', `c.status = 'Partially Paid'`, []],
      [`?providerId=${providerId}`, `c.provider_id = $1`, [providerId]],
      ['?from=2026-09-01&to=2026-10-31', `c.service_date between '2026-09-01' and '2026-10-31'`, []],
      ['?from=2026-11-01', `c.service_date >= '2026-11-01'`, []],
      [
        `?status=Paid&providerId=${providerId}&to=2026-12-31&payer=Medicare`,
        `c.status = 'Paid' and c.provider_id = $1 and c.service_date <= '2026-12-31' and c.payer = 'Medicare'`,
        [providerId],
      ],
    ];
    for (const [query, where, params] of cases) {
      const expected = await ids(where, params);
      expect(expected.length, query).toBeGreaterThan(0);
      const page = await list(`${query}&limit=500`);
      expect(page.total, query).toBe(expected.length);
      // The page is the first 500 in the list's order, each one a claim the filter matches.
      expect(page.items.length, query).toBe(Math.min(500, expected.length));
      expect(
        page.items.filter((c) => !expected.includes(c.id)).map((c) => c.id),
        query,
      ).toEqual([]);
      const [summary] = await sql<{ claims: number; billed: string; denied_billed: string }>(
        `select count(*)::int as claims, coalesce(sum(billed_cents), 0)::text as billed,
          coalesce(sum(billed_cents) filter (where denied_on_first_adjudication), 0)::text as denied_billed
         from claims c where ${where}`,
        params,
      );
      const shown = await overview(query);
      expect(shown.summary.claims, query).toBe(summary?.claims);
      expect(shown.summary.totalBilledCents, query).toBe(Number(summary?.billed));
      expect(shown.summary.totalDeniedCents, query).toBe(Number(summary?.denied_billed));
      const exported = await biller.request({ method: 'GET', url: `/api/claims/export${query}` });
      expect(sortedIds(exported.json<ClaimExport>().items), query).toEqual(expected);
    }
  });

  it('lists every provider the claims can be filtered by, by name', async () => {
    const res = await biller.request({ method: 'GET', url: '/api/claims/providers' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await sql<{ id: number; name: string }>(`select id, name from providers order by name`);
    expect(res.json()).toEqual(rows);
  });

  it('matches a reason code however it is typed', async () => {
    const co197 = await ids(`c.reason_code = 'CO-197'`);
    expect(co197.length).toBeGreaterThan(5);
    for (const typed of ['CO-197', 'CO 197', 'co-197', 'co197', ' Co_197 ', '197']) {
      const page = await list(`?reason=${encodeURIComponent(typed)}&limit=500`);
      expect(sortedIds(page.items), typed).toEqual(co197);
      expect(page.items.every((c) => c.reason === 'CO-197')).toBe(true);
    }
    // A number alone matches it in any group; a group alone matches all its codes.
    const eighteen = await list('?reason=18&limit=500');
    expect(sortedIds(eighteen.items)).toEqual(await ids(`c.reason_code like '%-18'`));
    expect(eighteen.items.every((c) => c.reason === 'OA-18')).toBe(true);
    const pr = await list('?reason=PR&limit=1');
    expect(pr.total).toBe((await ids(`c.reason_code like 'PR-%'`)).length);
    // Filters combine.
    const both = await list('?reason=CO%2016&payer=Medicaid&limit=500');
    expect(sortedIds(both.items)).toEqual(await ids(`c.reason_code = 'CO-16' and c.payer = 'Medicaid'`));
  });

  it('searches patient, payer, account number, procedure, provider and reason, ignoring case', async () => {
    const [someone] = await sql<{ name: string; account_number: string }>(
      `select p.name, c.account_number from claims c join patients p on p.id = c.patient_id order by c.id limit 1 offset 40`,
    );
    if (!someone) throw new Error('no claims');
    const lastName = someone.name.split(' ').pop() ?? '';
    const searches: [string, string][] = [
      [lastName.toUpperCase(), `p.name ilike '%' || $1 || '%'`],
      [someone.account_number.toLowerCase(), `c.account_number ilike '%' || $1 || '%'`],
      ['kaiser', `c.payer ilike '%' || $1 || '%'`],
      ['g0439', `c.procedure_code ilike '%' || $1 || '%'`],
      ['watanabe', `v.name ilike '%' || $1 || '%'`],
      ['oa-18', `c.reason_code ilike '%' || $1 || '%'`],
    ];
    for (const [text, where] of searches) {
      const expected = await ids(
        `p.name ilike '%' || $1 || '%' or c.account_number ilike '%' || $1 || '%' or c.payer ilike '%' || $1 || '%'
         or c.procedure_code ilike '%' || $1 || '%' or v.name ilike '%' || $1 || '%'
         or coalesce(c.reason_code, '') ilike '%' || $1 || '%'`,
        [text],
      );
      // Each search finds at least what its own field matches, and the union over all keys exactly.
      const own = await ids(where, [text]);
      expect(own.length, text).toBeGreaterThan(0);
      const page = await list(`?search=${encodeURIComponent(text)}&limit=500`);
      expect(page.total, text).toBe(expected.length);
      if (expected.length <= 500) expect(sortedIds(page.items), text).toEqual(expected);
      for (const id of own.slice(0, 500)) if (expected.length <= 500) expect(expected).toContain(id);
    }
    const none = await list('?search=zz-no-such-claim');
    expect(none).toEqual({ items: [], total: 0, nextCursor: null });
    // % and _ are taken literally, not as wildcards.
    expect((await list('?search=%25')).total).toBe(0);
  });

  /** The list's documented order for each sort (claims.queries.ts orderBy), as independent SQL. */
  function referenceOrder(sort: (typeof CLAIM_SORT_KEYS)[number], dir: 'asc' | 'desc'): string {
    const day = today(t.clock());
    const keys: Record<(typeof CLAIM_SORT_KEYS)[number], string[]> = {
      serviceDate: ['c.service_date'],
      patient: ['p.name', 'p.id', 'c.service_date'],
      accountNumber: ['c.account_number'],
      procedure: ['c.procedure_code'],
      provider: ['v.name', 'c.service_date'],
      payer: ['c.payer', 'c.service_date'],
      billedCents: ['c.billed_cents'],
      paidCents: ['c.paid_cents'],
      daysAR: [`greatest(0, least(coalesce(c.resolved_on, '${day}'::date), '${day}'::date) - c.service_date)`],
      status: ['c.status', 'c.service_date'],
    };
    return [...keys[sort], 'c.id'].map((k) => `${k} ${dir}`).join(', ');
  }

  async function referenceIds(where: string, sort: (typeof CLAIM_SORT_KEYS)[number], dir: 'asc' | 'desc') {
    const rows = await sql<{ id: number }>(
      `select c.id from claims c join patients p on p.id = c.patient_id join providers v on v.id = c.provider_id
       where ${where} order by ${referenceOrder(sort, dir)}`,
    );
    return rows.map((r) => r.id);
  }

  /** Follows nextCursor from the first page to the last, checking each page's size and cursor. */
  async function walk(query: string, limit: number) {
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ClaimPage = await list(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.total === null, 'total only on the first page').toBe(cursor !== null);
      expect(page.items.length).toBeLessThanOrEqual(limit);
      if (page.nextCursor) expect(page.items).toHaveLength(limit);
      seen.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 1000);
    return seen;
  }

  it('sorts by every column, both ways, with a stable order for paging (offset jumps too)', async () => {
    for (const sort of CLAIM_SORT_KEYS) {
      for (const dir of ['asc', 'desc'] as const) {
        const page = await list(`?payer=Humana&sort=${sort}&dir=${dir}&limit=40&offset=10`);
        const expected = await referenceIds(`c.payer = 'Humana'`, sort, dir);
        expect(
          page.items.map((c) => c.id),
          `${sort} ${dir}`,
        ).toEqual(expected.slice(10, 50));
      }
    }
  });

  it('walks every sort both ways by cursor: every match exactly once, in order, ties included', async () => {
    // Claims that only some days-in-A/R streams hold: served today (0 days, open) and resolved after today.
    const day = today(t.clock());
    const extra = await sql<{ id: number }>(
      `insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date, resolved_on,
         billed_cents, status)
       select patient_id, provider_id, 'KS-' || n, procedure_code, 'Aetna', '${day}'::date - (n % 3) * 40,
         case when n > 2 then '${day}'::date + n end, billed_cents,
         -- a paid claim is Closed exactly when resolved (claims_closed_check)
         case when status not in ('Paid', 'Closed') then status when n > 2 then 'Closed' else 'Paid' end
       from claims, generate_series(1, 5) n where id = (select min(id) from claims) returning id`,
    );
    try {
      for (const [query, where] of [
        ['?payer=Aetna', `c.payer = 'Aetna'`],
        [
          '?search=MAR',
          `(p.name ilike '%mar%' or v.name ilike '%mar%' or c.payer ilike '%mar%' or c.account_number ilike '%mar%'
            or c.procedure_code ilike '%mar%' or c.reason_code ilike '%mar%')`,
        ],
      ] as const) {
        const matching = (await ids(where)).length;
        expect(matching).toBeGreaterThan(50);
        for (const sort of CLAIM_SORT_KEYS) {
          for (const dir of ['asc', 'desc'] as const) {
            const walked = await walk(`${query}&sort=${sort}&dir=${dir}`, 97);
            expect(walked, `${query} ${sort} ${dir}`).toEqual(await referenceIds(where, sort, dir));
            // The CSV lists the claims as the screen pages them.
            const exported = await biller.request({
              method: 'GET',
              url: `/api/claims/export${query}&sort=${sort}&dir=${dir}`,
            });
            expect(
              exported.json<ClaimExport>().items.map((c) => c.id),
              `export ${query} ${sort} ${dir}`,
            ).toEqual(walked);
          }
        }
      }
    } finally {
      await sql(`delete from claims where id = any($1)`, [extra.map((r) => r.id)]);
    }
  });

  it('counts every match on the first page and ends with no cursor', async () => {
    const total = (await ids(`c.payer = 'Aetna'`)).length;
    const first = await list(`?payer=Aetna&sort=billedCents&dir=desc&limit=100`);
    expect(first.total).toBe(total);
    expect(await list(`?payer=Aetna&offset=${total}`)).toEqual({ items: [], total, nextCursor: null });
  });

  it('refuses a forged cursor, or one issued for another sort, naming cursor', async () => {
    const page = await list('?sort=billedCents&dir=asc&limit=5');
    expect(page.nextCursor).not.toBeNull();
    const forged = [
      'not-a-cursor',
      Buffer.from('["billedCents","asc","DROP TABLE",3]').toString('base64url'),
      Buffer.from('["billedCents","asc",10]').toString('base64url'),
      Buffer.from('["serviceDate","desc","2026-13-45",3]').toString('base64url'),
      Buffer.from('{"a":1}').toString('base64url'),
    ];
    for (const [query, cursor] of [
      ...forged.map((c) => ['?sort=billedCents&dir=asc', c] as const),
      ['?sort=billedCents&dir=desc', page.nextCursor],
      ['?sort=paidCents&dir=asc', page.nextCursor],
    ] as const) {
      const res = await biller.request({ method: 'GET', url: `/api/claims${query}&cursor=${cursor}` });
      expect(res.statusCode, `${query} ${cursor}`).toBe(400);
      expect(fieldsOf(res.body)).toContain('cursor');
    }
  });

  it('refuses bad filters, sorts and paging with the field named', async () => {
    for (const [query, field] of [
      ['?payer=Acme%20Health', 'payer'],
      ['?reason=%3Cscript%3E', 'reason'],
      ['?reason=XY-12', 'reason'],
      ['?sort=mrn', 'sort'],
      ['?dir=up', 'dir'],
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?offset=-1', 'offset'],
      [`?search=${'x'.repeat(101)}`, 'search'],
      ['?status=Lost', 'status'],
      ['?providerId=abc', 'providerId'],
      ['?providerId=-3', 'providerId'],
      ['?patientId=maria', 'patientId'],
      ['?patientId=0', 'patientId'],
      ['?from=2026-02-30', 'from'],
      ['?to=yesterday', 'to'],
      ['?from=2026-10-01&to=2026-09-01', 'to'],
    ] as const) {
      for (const path of ['/api/claims', '/api/claims/overview', '/api/claims/export']) {
        if (!['status', 'providerId', 'patientId', 'from', 'to'].includes(field) && path !== '/api/claims') continue;
        const res = await biller.request({ method: 'GET', url: `${path}${query}` });
        expect(res.statusCode, `${path}${query}`).toBe(400);
        expect(fieldsOf(res.body), `${path}${query}`).toContain(field);
      }
    }
  });
});

describe('GET /api/claims/overview', () => {
  async function expectedFor(where: string, params: unknown[] = []) {
    const [summary] = await sql<{ claims: number; billed: string; denied: number; denied_billed: string }>(
      `select count(*)::int as claims, coalesce(sum(billed_cents), 0)::text as billed,
        (count(*) filter (where denied_on_first_adjudication))::int as denied,
        coalesce(sum(billed_cents) filter (where denied_on_first_adjudication), 0)::text as denied_billed
       from claims c where ${where}`,
      params,
    );
    const byPayer = await sql<{ payer: string; count: number }>(
      `select payer, count(*)::int as count from claims c where (${where}) and denied_on_first_adjudication
       group by payer order by count desc, payer`,
      params,
    );
    const reasons = await sql<{ reason: string; count: number }>(
      `select reason_code as reason, count(*)::int as count from claims c
       where (${where}) and denied_on_first_adjudication group by reason_code order by count desc, reason_code limit 5`,
      params,
    );
    return { summary, byPayer, reasons };
  }

  it('computes the summary and the denial charts for a payer, as independent SQL does', async () => {
    const result = await overview('?payer=Medicaid');
    const expected = await expectedFor(`c.payer = 'Medicaid'`);
    expect(result.summary).toEqual({
      claims: expected.summary?.claims,
      totalBilledCents: Number(expected.summary?.billed),
      deniedClaims: expected.summary?.denied,
      totalDeniedCents: Number(expected.summary?.denied_billed),
    });
    expect(result.summary.deniedClaims).toBeGreaterThan(5);
    expect(result.denialsByPayer).toEqual(expected.byPayer);
    expect(result.topDenialReasons.map(({ reason, count }) => ({ reason, count }))).toEqual(expected.reasons);
    const co197 = result.topDenialReasons.find((r) => r.reason === 'CO-197');
    if (co197) expect(co197.description).toBe('Precertification or authorization was not obtained');
  });

  it('counts only first-pass denials: CO-45 and PR adjustments are not denials', async () => {
    const all = await overview();
    const expected = await expectedFor('true');
    expect(all.summary.totalDeniedCents).toBe(Number(expected.summary?.denied_billed));
    expect(all.denialsByPayer.reduce((sum, p) => sum + p.count, 0)).toBe(all.summary.deniedClaims);
    expect(all.topDenialReasons).toHaveLength(5);
    for (const reason of all.topDenialReasons) expect(['CO-45', 'PR-1', 'PR-2', 'PR-3']).not.toContain(reason.reason);
    // Appealed and overturned claims stay denials: the count is more than the claims now in status Denied.
    const [denied] = await sql<{ n: number }>(`select count(*)::int as n from claims where status = 'Denied'`);
    expect(all.summary.deniedClaims).toBeGreaterThan(denied?.n ?? 0);
  });

  it('follows the reason and search filters too', async () => {
    const result = await overview('?reason=co%2016&search=medicare');
    const expected = await expectedFor(`c.reason_code = 'CO-16' and c.payer ilike '%medicare%'`);
    expect(result.summary.claims).toBe(expected.summary?.claims);
    expect(result.summary.totalDeniedCents).toBe(Number(expected.summary?.denied_billed));
    expect(result.denialsByPayer).toEqual(expected.byPayer);
    expect(result.denialsByPayer.every((p) => p.payer === 'Medicare')).toBe(true);
  });

  it('gives the weekly trend as 8 Sunday-to-Saturday weeks ending with this week', async () => {
    const result = await overview('?payer=Medicare');
    const day = today(t.clock());
    expect(result.weeklyTrend).toHaveLength(8);
    result.weeklyTrend.forEach((week, i) => {
      expect(new Date(`${week.weekStart}T00:00:00Z`).getUTCDay(), week.weekStart).toBe(0);
      if (i > 0) {
        const previous = result.weeklyTrend[i - 1]?.weekStart ?? '';
        expect(Date.parse(week.weekStart) - Date.parse(previous)).toBe(7 * 86_400_000);
      }
    });
    const last = result.weeklyTrend[7]?.weekStart ?? '';
    expect(last <= day).toBe(true);
    expect(Date.parse(day) - Date.parse(last)).toBeLessThan(7 * 86_400_000);
    for (const week of result.weeklyTrend) {
      const [row] = await sql<{ claims: number; paid: number; denied: number }>(
        `select count(*)::int as claims, (count(*) filter (where status in ('Paid', 'Closed')))::int as paid,
          (count(*) filter (where denied_on_first_adjudication))::int as denied
         from claims where payer = 'Medicare' and service_date >= $1::date and service_date < $1::date + 7`,
        [week.weekStart],
      );
      expect(week, week.weekStart).toEqual({ weekStart: week.weekStart, ...row });
    }
    expect(result.weeklyTrend.reduce((sum, w) => sum + w.claims, 0)).toBeGreaterThan(0);
  });

  it('shows weeks without claims with zeros', async () => {
    const result = await overview('?search=zz-no-such-claim');
    expect(result.summary).toEqual({ claims: 0, totalBilledCents: 0, deniedClaims: 0, totalDeniedCents: 0 });
    expect(result.denialsByPayer).toEqual([]);
    expect(result.topDenialReasons).toEqual([]);
    expect(result.weeklyTrend).toHaveLength(8);
    expect(result.weeklyTrend.every((w) => w.claims === 0 && w.paid === 0 && w.denied === 0)).toBe(true);
  });

  it('names a reason code by our CARC wording when we have one, else by its newest text, on both paths', async () => {
    const [top] = (await overview()).topDenialReasons;
    if (!top) throw new Error('the seed has no denial reasons');
    const ourWording = DENIAL_DESCRIPTIONS[top.reason];
    if (!ourWording) throw new Error(`the seed's top reason ${top.reason} has no wording of ours`);
    const denied = await sql<{ id: number; account_number: string; denial_description: string | null }>(
      `select id, account_number, denial_description from claims
        where reason_code = $1 and denied_on_first_adjudication order by id desc`,
      [top.reason],
    );
    const [newest, older] = denied;
    if (!newest || !older) throw new Error(`fewer than two denied claims of ${top.reason}`);
    const setText = (id: number, text: string | null) =>
      sql(`update claims set denial_description = $2 where id = $1`, [id, text]);
    // No filter: the rollups count; a search: the rows do. Either way the same text names the code.
    const named = async (reason: string) => ({
      fromRollups: (await overview()).topDenialReasons.find((r) => r.reason === reason)?.description,
      fromRows: (await overview(`?search=${encodeURIComponent(newest.account_number)}`)).topDenialReasons,
    });
    // A code no wording of ours covers (the same claims, recoded): its newest first-pass denial's text.
    const unworded = 'CO-252';
    expect(DENIAL_DESCRIPTIONS[unworded]).toBeUndefined();
    const ids = denied.map((d) => d.id);
    try {
      await setText(older.id, 'An older wording');
      await setText(newest.id, 'The newest wording');
      // A code we word is named so on the Claims overview as on Analytics, whatever its claims carry.
      expect(await named(top.reason)).toEqual({
        fromRollups: ourWording,
        fromRows: [{ reason: top.reason, count: 1, description: ourWording }],
      });
      await sql(`update claims set reason_code = $2 where id = any($1)`, [ids, unworded]);
      expect(await named(unworded)).toEqual({
        fromRollups: 'The newest wording',
        fromRows: [{ reason: unworded, count: 1, description: 'The newest wording' }],
      });
    } finally {
      await sql(`update claims set reason_code = $2 where id = any($1)`, [ids, top.reason]);
      await setText(older.id, older.denial_description);
      await setText(newest.id, newest.denial_description);
    }
  });

  it('refuses an unknown payer, naming it', async () => {
    const res = await biller.request({ method: 'GET', url: '/api/claims/overview?payer=Nobody' });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.body)).toEqual(['payer']);
  });
});

describe('GET /api/claims/export', () => {
  it('serves every claim matching the filters and audits the export in the same transaction', async () => {
    const expected = await ids(`c.payer = 'Cigna' and c.reason_code like 'CO-%'`);
    const before = await auditCount();
    const res = await biller.request({ method: 'GET', url: '/api/claims/export?payer=Cigna&reason=CO' });
    expect(res.statusCode, res.body).toBe(200);
    const { items } = res.json<ClaimExport>();
    expect(sortedIds(items)).toEqual(expected);
    expect(await auditCount()).toBe(before + 1);
    const [entry] = await sql<{ action: string; resource: string; detail: string; actor: string }>(
      `select action, resource, detail, actor from audit_log order by id desc limit 1`,
    );
    expect(entry).toMatchObject({ action: 'export.csv', resource: 'claims', actor: 'billing.admin@healthcare.demo' });
    expect(entry?.detail).toBe(`claims CSV: ${items.length} rows (payer Cigna, reason "CO")`);
  });
});

describe('POST /api/claims/:id/appeals', () => {
  async function claimWithStatus(status: string) {
    const [row] = await sql<{ id: number; patient_id: number; account_number: string }>(
      `select id, patient_id, account_number from claims where status = $1 order by id limit 1`,
      [status],
    );
    if (!row) throw new Error(`the seed has no ${status} claim`);
    return row;
  }

  async function appealsOf(claimId: number) {
    return sql<{ reason: string; note: string; created_by: number }>(
      `select reason, note, created_by from claim_appeals where claim_id = $1 order by id`,
      [claimId],
    );
  }

  it('records the appeal, marks the claim Appealed and audits it with the patient', async () => {
    const target = await claimWithStatus('Denied');
    const before = await appealsOf(target.id);
    const res = await biller.request({
      method: 'POST',
      url: `/api/claims/${target.id}/appeals`,
      payload: { reason: '  Authorization was on file  ', note: 'Auth #A-5521 obtained 3 days before the visit.' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ClaimRow>()).toMatchObject({ id: target.id, status: 'Appealed' });
    const [stored] = await sql<{ status: string }>(`select status from claims where id = $1`, [target.id]);
    expect(stored?.status).toBe('Appealed');
    const [user] = await sql<{ id: number }>(`select id from users where email = 'billing.admin@healthcare.demo'`);
    expect(await appealsOf(target.id)).toEqual([
      ...before,
      {
        reason: 'Authorization was on file',
        note: 'Auth #A-5521 obtained 3 days before the visit.',
        created_by: user?.id,
      },
    ]);
    const [entry] = await sql<{ action: string; resource: string; patient_id: number; detail: string }>(
      `select action, resource, patient_id, detail from audit_log order by id desc limit 1`,
    );
    expect(entry).toEqual({
      action: 'claim.appeal',
      resource: `claim/${target.id}`,
      patient_id: target.patient_id,
      detail: `${target.account_number}: status Denied → Appealed; first level appeal; reason: Authorization was on file`,
    });
  });

  it('records the level and deadline, then the outcome with its amount, and shows both in the history', async () => {
    const target = await claimWithStatus('Denied');
    const [claim] = await sql<{ billed: number; paid: number; adj: number }>(
      `select billed_cents as billed, paid_cents as paid, contractual_adjustment_cents as adj from claims where id = $1`,
      [target.id],
    );
    const owed = (claim?.billed ?? 0) - (claim?.paid ?? 0) - (claim?.adj ?? 0);
    expect(owed).toBeGreaterThan(100);
    const filed = await biller.request({
      method: 'POST',
      url: `/api/claims/${target.id}/appeals`,
      payload: { reason: 'Medical necessity documented', level: 'second', deadline: '2027-01-18' },
    });
    expect(filed.statusCode, filed.body).toBe(200);
    const history = async () => {
      const res = await biller.request({ method: 'GET', url: `/api/claims/${target.id}/appeals` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ClaimAppeal[]>();
    };
    const [appeal] = (await history()).slice(-1);
    expect(appeal).toMatchObject({
      level: 'second',
      deadline: '2027-01-18',
      reason: 'Medical necessity documented',
      outcome: null,
      outcomeAmountCents: null,
    });
    expect(appeal?.filedBy).toBeTruthy();
    const decide = (payload: object, appealId = appeal?.id) =>
      biller.request({ method: 'POST', url: `/api/claims/${target.id}/appeals/${appealId}/outcome`, payload });

    // More than the payer owes, a lost appeal with money, a won one without: refused, naming the field.
    for (const payload of [
      { outcome: 'partial', amountCents: owed + 1 },
      { outcome: 'lost', amountCents: 500 },
      { outcome: 'won', amountCents: 0 },
      { outcome: 'maybe', amountCents: 0 },
    ]) {
      const res = await decide(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(fieldsOf(res.body), JSON.stringify(payload)).toContain(
        payload.outcome === 'maybe' ? 'outcome' : 'amountCents',
      );
    }
    expect((await decide({ outcome: 'won', amountCents: 100 }, 999_999)).statusCode).toBe(404);

    const paymentsBefore = await sql<{ n: number }>(`select count(*)::int as n from payments where claim_id = $1`, [
      target.id,
    ]);
    const res = await decide({ outcome: 'partial', amountCents: 100 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ClaimRow>()).toMatchObject({ status: 'Partially Paid', paidCents: (claim?.paid ?? 0) + 100 });
    const [payment] = await sql<{ amount_cents: number; source: string }>(
      `select amount_cents, source from payments where claim_id = $1 order by id desc limit 1`,
      [target.id],
    );
    expect(payment).toEqual({ amount_cents: 100, source: 'payer' });
    const paymentsAfter = await sql<{ n: number }>(`select count(*)::int as n from payments where claim_id = $1`, [
      target.id,
    ]);
    expect(paymentsAfter[0]?.n).toBe((paymentsBefore[0]?.n ?? 0) + 1);
    expect((await history()).slice(-1)[0]).toMatchObject({
      outcome: 'partial',
      outcomeAmountCents: 100,
      decidedOn: today(t.clock()),
    });
    const [entry] = await sql<{ action: string; detail: string }>(
      `select action, detail from audit_log order by id desc limit 1`,
    );
    expect(entry).toEqual({
      action: 'claim.appeal.outcome',
      detail: `${target.account_number}: second level appeal partly won, $1.00; status Appealed → Partially Paid`,
    });
    // An answer is recorded once.
    const again = await decide({ outcome: 'won', amountCents: 100 });
    expect(again.statusCode).toBe(409);
    expect(fieldsOf(again.body)).toContain('outcome');
  });

  it('closes a claim whose appeal is won in full: nothing is left owed, so it is Closed and resolved today', async () => {
    const target = await claimWithStatus('Denied');
    const [claim] = await sql<{ owed: number; share: number }>(
      `select billed_cents - paid_cents - contractual_adjustment_cents as owed, patient_responsibility_cents as share
       from claims where id = $1`,
      [target.id],
    );
    expect(claim?.share).toBe(0);
    const filed = await biller.request({
      method: 'POST',
      url: `/api/claims/${target.id}/appeals`,
      payload: { reason: 'Corrected records attached' },
    });
    expect(filed.statusCode, filed.body).toBe(200);
    const [appeal] = await sql<{ id: number }>(
      `select id from claim_appeals where claim_id = $1 order by id desc limit 1`,
      [target.id],
    );
    const res = await biller.request({
      method: 'POST',
      url: `/api/claims/${target.id}/appeals/${appeal?.id}/outcome`,
      payload: { outcome: 'won', amountCents: claim?.owed },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ClaimRow>()).toMatchObject({ status: 'Closed', balanceCents: 0 });
    const [stored] = await sql<{ status: string; resolved_on: string }>(
      `select status, resolved_on::text from claims where id = $1`,
      [target.id],
    );
    expect(stored).toEqual({ status: 'Closed', resolved_on: today(t.clock()) });
    const [entry] = await sql<{ detail: string }>(
      `select detail from audit_log where action = 'claim.appeal.outcome' order by id desc limit 1`,
    );
    expect(entry?.detail).toBe(
      `${target.account_number}: first level appeal won, ${formatDollars(claim?.owed ?? 0)}; status Appealed → Closed`,
    );
  });

  it('refuses a bad level or deadline, naming the field', async () => {
    const target = await claimWithStatus('Denied');
    for (const [payload, field] of [
      [{ reason: 'x', level: 'third' }, 'level'],
      [{ reason: 'x', deadline: '2027-02-30' }, 'deadline'],
    ] as const) {
      const res = await biller.request({ method: 'POST', url: `/api/claims/${target.id}/appeals`, payload });
      expect(res.statusCode).toBe(400);
      expect(fieldsOf(res.body)).toContain(field);
    }
  });

  it('appeals a partially paid claim too (admin)', async () => {
    const target = await claimWithStatus('Partially Paid');
    const admin = await signInAs(t.app, 'admin');
    const res = await admin.request({
      method: 'POST',
      url: `/api/claims/${target.id}/appeals`,
      payload: { reason: 'Underpaid against the fee schedule' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ClaimRow>().status).toBe('Appealed');
  });

  it('refuses a claim that is not denied with 409 naming status, writing nothing', async () => {
    for (const status of ['Paid', 'Appealed', 'Pending']) {
      const target = await claimWithStatus(status);
      const appeals = await appealsOf(target.id);
      const audits = await auditCount();
      const res = await biller.request({
        method: 'POST',
        url: `/api/claims/${target.id}/appeals`,
        payload: { reason: 'Please reconsider' },
      });
      expect(res.statusCode, status).toBe(409);
      expect(fieldsOf(res.body)).toEqual(['status']);
      const [stored] = await sql<{ status: string }>(`select status from claims where id = $1`, [target.id]);
      expect(stored?.status).toBe(status);
      expect(await appealsOf(target.id)).toEqual(appeals);
      expect(await auditCount()).toBe(audits);
    }
  });

  it('refuses a missing or too long reason, or a too long note, naming the field and writing nothing', async () => {
    const target = await claimWithStatus('Denied');
    const audits = await auditCount();
    for (const [payload, field] of [
      [{ note: 'no reason' }, 'reason'],
      [{ reason: '   ' }, 'reason'],
      [{ reason: 'x'.repeat(201) }, 'reason'],
      [{ reason: 'ok', note: 'y'.repeat(2001) }, 'note'],
      [{ reason: 'ok', status: 'Paid' }, ''],
    ] as const) {
      const res = await biller.request({ method: 'POST', url: `/api/claims/${target.id}/appeals`, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      if (field) expect(fieldsOf(res.body)).toContain(field);
    }
    const [stored] = await sql<{ status: string }>(`select status from claims where id = $1`, [target.id]);
    expect(stored?.status).toBe('Denied');
    expect(await appealsOf(target.id)).toEqual([]);
    expect(await auditCount()).toBe(audits);
  });

  it('answers 404 for an unknown claim', async () => {
    const res = await biller.request({ method: 'POST', url: '/api/claims/9999999/appeals', payload: { reason: 'x' } });
    expect(res.statusCode).toBe(404);
  });
});

describe('POST /api/claims/import', () => {
  const header = CLAIM_IMPORT_COLUMNS.join(',');

  async function fixtures() {
    const [patient] = await sql<{ mrn: string }>(`select mrn from patients order by id limit 1 offset 3`);
    const [taken] = await sql<{ account_number: string }>(`select account_number from claims order by id limit 1`);
    return { mrn: patient?.mrn ?? '', taken: taken?.account_number ?? '' };
  }

  async function importCsv(csv: string, session: SignedIn = biller) {
    return session.request({ method: 'POST', url: '/api/claims/import', payload: { csv } });
  }

  async function claimCount() {
    const [row] = await sql<{ n: number }>(`select count(*)::int as n from claims`);
    return row?.n ?? 0;
  }

  it('rejects the whole file when one row is bad, reporting that row, and writes nothing', async () => {
    const { mrn } = await fixtures();
    const csv = [
      header,
      `IMP-0001,${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-11-02,149.00,Submitted,`,
      `IMP-0002,${mrn},99214,dr. rajesh iyer,Medicare,2026-11-03,"1,214.50",,`,
      `IMP-0003,${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-13-40,12.345,Paid,`,
      `IMP-0004,${mrn},80053,Dr. Emily Carter,Cigna,2026-11-04,116,Denied,co 197`,
    ].join('\n');
    const claims = await claimCount();
    const audits = await auditCount();
    const res = await importCsv(csv);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<ImportRejected>();
    expect(body.error.code).toBe('IMPORT_INVALID');
    expect(body.errors).toEqual([
      { row: 4, field: 'serviceDate', message: 'must be a real calendar date' },
      { row: 4, field: 'billedAmount', message: 'must be an amount in dollars such as 149.00' },
      { row: 4, field: 'status', message: 'must be one of: Draft, Submitted, Pending, Denied (default Submitted)' },
    ]);
    expect(body.errorCount).toBe(3);
    expect(await claimCount()).toBe(claims);
    // Only the refusal's own audit entry: counts, no values from the file.
    expect(await auditCount()).toBe(audits + 1);
    const [refusal] = await sql<{ action: string; detail: string }>(
      `select action, detail from audit_log order by id desc limit 1`,
    );
    expect(refusal).toEqual({ action: 'claims.import.refused', detail: 'refused a CSV file: 3 problems in 1 row' });
  });

  it('checks MRNs, providers, account numbers (in the file and already stored) and dates against the database', async () => {
    const { mrn, taken } = await fixtures();
    // The admin sees MRNs, so is told row by row which match no patient (a billing admin is not: below).
    const admin = await signInAs(t.app, 'admin');
    const csv = [
      header,
      `IMP-0101,MRN-NOPE,99213,Dr. Sarah Mitchell,Aetna,2026-11-02,149.00,Submitted,`,
      `IMP-0102,${mrn},99213,Dr. Nobody,Aetna,2026-11-02,149.00,Submitted,`,
      `${taken},${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-11-02,149.00,Submitted,`,
      `IMP-0104,${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-11-02,149.00,Submitted,`,
      `IMP-0104,${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-11-02,149.00,Submitted,`,
      `IMP-0106,${mrn},99213,Dr. Sarah Mitchell,Aetna,2099-01-01,149.00,Submitted,`,
      `IMP-0107,${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-11-02,149.00,Denied,`,
      `IMP-0108,${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-11-02,149.00,Denied,CO-45`,
      `IMP-0109,${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-11-02,149.00,Pending,CO-16`,
      `IMP-0110,${mrn},9921,Dr. Sarah Mitchell,Acme,2026-11-02,0,Submitted,`,
      // Problems of every kind in one row are all reported at once.
      `IMP-0111,MRN-NOPE,99213,Dr. Nobody,Aetna,2026-13-01,149.00,Submitted,`,
    ].join('\n');
    const claims = await claimCount();
    const res = await importCsv(csv, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json<ImportRejected>().errors).toEqual([
      { row: 2, field: 'patientMrn', message: 'does not match a record this import can use' },
      { row: 3, field: 'provider', message: 'does not match a record this import can use' },
      { row: 4, field: 'accountNumber', message: 'does not match a record this import can use' },
      { row: 6, field: 'accountNumber', message: 'repeats the account number of row 5' },
      { row: 7, field: 'serviceDate', message: 'cannot be in the future' },
      { row: 8, field: 'reasonCode', message: 'is required for a denied claim' },
      { row: 9, field: 'reasonCode', message: 'CO-45 is an adjustment, not a denial reason' },
      { row: 10, field: 'reasonCode', message: 'is only given for a denied claim' },
      { row: 11, field: 'procedureCode', message: 'must be a CPT or HCPCS code such as 99213 or G0439' },
      {
        row: 11,
        field: 'payer',
        message:
          "must be one of the practice's payers: Aetna, Blue Cross Blue Shield, Cigna, Humana, Kaiser Permanente, Medicaid, Medicare, Self-Pay, Tricare, UnitedHealthcare",
      },
      { row: 11, field: 'billedAmount', message: 'must be more than 0.00' },
      { row: 12, field: 'patientMrn', message: 'does not match a record this import can use' },
      { row: 12, field: 'provider', message: 'does not match a record this import can use' },
      { row: 12, field: 'serviceDate', message: 'must be a real calendar date' },
    ]);
    expect(await claimCount()).toBe(claims);
  });

  it('tells a role that sees MRNs masked nothing of which MRNs exist: not by row, not beside other problems', async () => {
    const { mrn, taken } = await fixtures();
    const row = (accountNumber: string, patientMrn: string, serviceDate = '2026-11-02') =>
      `${accountNumber},${patientMrn},99213,Dr. Sarah Mitchell,Aetna,${serviceDate},149.00,Submitted,`;
    const answer = async (...rows: string[]) => {
      const res = await importCsv([header, ...rows].join('\n'));
      expect(res.statusCode).toBe(400);
      return res;
    };
    const fileLevel = [{ row: 1, field: 'csv', message: UNKNOWN_REFERENCES_IN_FILE }];
    const audits = await auditCount();
    // A file refused for another reason says nothing of its MRNs: the answers for a patient's MRN and an unknown
    // one beside the same problem are the same.
    const beside = async (patientMrn: string) =>
      (await answer(row('IMP-0901', patientMrn, '2099-01-01'), row('IMP-0902', mrn))).json<ImportRejected>().errors;
    expect(await beside('MRN-999999')).toEqual([{ row: 2, field: 'serviceDate', message: 'cannot be in the future' }]);
    expect(await beside(mrn)).toEqual(await beside('MRN-999999'));
    // Otherwise right, it is refused for the file as a whole: which row, and whether the MRN or the account
    // number, goes unsaid; no value is echoed.
    const unknownMrn = await answer(row('IMP-0903', mrn), row('IMP-0904', 'MRN-999998'));
    const takenAccount = await answer(row(taken, mrn), row('IMP-0905', mrn));
    for (const res of [unknownMrn, takenAccount]) {
      expect(res.json<ImportRejected>().errors).toEqual(fileLevel);
      expect(res.body).not.toContain('MRN-');
      expect(res.body).not.toContain(taken);
    }
    const refusals = await sql<{ action: string; actor: string; detail: string }>(
      `select action, actor, detail from audit_log where id > (select max(id) - 5 from audit_log) order by id`,
    );
    expect(await auditCount()).toBe(audits + 5);
    expect(refusals.map((r) => r.action)).toEqual(Array(5).fill('claims.import.refused'));
    expect(refusals.map((r) => r.actor)).toEqual(Array(5).fill('billing.admin@healthcare.demo'));
    for (const r of refusals) {
      expect(r.detail).not.toContain('MRN-');
      expect(r.detail).not.toContain(taken);
    }
  });

  it('refuses a file with a missing or unknown column, or no rows', async () => {
    const missing = await importCsv('accountNumber,patientMrn,procedureCode,provider,payer,serviceDate,colour\n');
    expect(missing.statusCode).toBe(400);
    expect(missing.json<ImportRejected>().errors).toEqual([
      { row: 1, field: 'billedAmount', message: 'column is missing' },
      { row: 1, field: 'colour', message: 'is not a column of the template' },
    ]);
    const empty = await importCsv(`${header}\n\n`);
    expect(empty.json<ImportRejected>().errors).toEqual([
      { row: 2, field: 'csv', message: 'the file has no claim rows' },
    ]);
    const noBody = await biller.request({ method: 'POST', url: '/api/claims/import', payload: { csv: '' } });
    expect(noBody.statusCode).toBe(400);
    expect(fieldsOf(noBody.body)).toEqual(['csv']);
  });

  it('reports every problem of every row in one pass: a future date and a denial without reason beside other errors', async () => {
    const { mrn } = await fixtures();
    const csv = [
      header,
      // A bad amount, a future date and a Denied claim without a reason, all in one row.
      `IMP-0301,${mrn},99213,Dr. Sarah Mitchell,Aetna,2099-01-01,abc,Denied,`,
      // An unknown MRN beside a denial code on a claim that is not denied: the billing admin, who sees MRNs
      // masked, is told of the code only.
      `IMP-0302,MRN-NOPE,99213,Dr. Sarah Mitchell,Aetna,2026-11-02,149.00,Pending,CO-16`,
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(400);
    expect(res.json<ImportRejected>().errors).toEqual([
      { row: 2, field: 'serviceDate', message: 'cannot be in the future' },
      { row: 2, field: 'billedAmount', message: 'must be an amount in dollars such as 149.00' },
      { row: 2, field: 'reasonCode', message: 'is required for a denied claim' },
      { row: 3, field: 'reasonCode', message: 'is only given for a denied claim' },
    ]);
  });

  it("refuses service dates older than the payer's timely-filing limit (365 days for an unknown payer)", async () => {
    const { mrn } = await fixtures();
    const admin = await signInAs(t.app, 'admin');
    // Today is 2026-11-22: Aetna's 90 days reach back to 2026-08-24.
    const csv = [
      header,
      `IMP-0401,${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-08-23,149.00,,`,
      `IMP-0402,${mrn},99213,Dr. Sarah Mitchell,Medicare,1990-01-01,149.00,,`,
      `IMP-0403,${mrn},99213,Dr. Sarah Mitchell,Acme,1990-01-01,149.00,,`,
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(400);
    const errors = res.json<ImportRejected>().errors.filter((e) => e.field === 'serviceDate');
    expect(errors).toEqual([
      {
        row: 2,
        field: 'serviceDate',
        message: "is older than Aetna's timely-filing limit of 90 days: it must be on or after Aug 24, 2026",
      },
      {
        row: 3,
        field: 'serviceDate',
        message: "is older than Medicare's timely-filing limit of 365 days: it must be on or after Nov 22, 2025",
      },
      {
        row: 4,
        field: 'serviceDate',
        message: 'is older than the timely-filing limit of 365 days: it must be on or after Nov 22, 2025',
      },
    ]);
    // The limit is the payer's as the admin keeps it: the last day inside it imports, and so does an older
    // one once the limit is raised.
    const onTheLimit = [header, `IMP-0404,${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-08-24,149.00,,`].join('\n');
    expect((await importCsv(onTheLimit)).statusCode).toBe(200);
    const payers = (await admin.request({ method: 'GET', url: '/api/admin/payers' })).json<{
      items: { id: number; name: string }[];
    }>();
    const aetna = payers.items.find((p) => p.name === 'Aetna');
    await admin.request({ method: 'PATCH', url: `/api/admin/payers/${aetna?.id}`, payload: { timelyFilingDays: 120 } });
    const older = [header, `IMP-0405,${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-08-23,149.00,,`].join('\n');
    expect((await importCsv(older)).statusCode).toBe(200);
    // A deactivated payer is refused by new imports.
    await admin.request({ method: 'PATCH', url: `/api/admin/payers/${aetna?.id}`, payload: { active: false } });
    const refused = await importCsv(
      [header, `IMP-0406,${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-11-02,149.00,,`].join('\n'),
    );
    expect(refused.json<ImportRejected>().errors.map((e) => e.field)).toEqual(['payer']);
    await admin.request({
      method: 'PATCH',
      url: `/api/admin/payers/${aetna?.id}`,
      payload: { active: true, timelyFilingDays: 90 },
    });
  });

  it("imports a charge above its code's ceiling with a warning, and audits that it was flagged", async () => {
    const { mrn } = await fixtures();
    const csv = [
      header,
      `IMP-0501,${mrn},36415,Dr. Sarah Mitchell,Aetna,2026-11-02,"999,999.00",,`,
      `IMP-0502,${mrn},36415,Dr. Sarah Mitchell,Aetna,2026-11-02,17.00,,`,
      // A code without its own ceiling uses the default ($5,000.00).
      `IMP-0503,${mrn},99499,Dr. Sarah Mitchell,Aetna,2026-11-02,"5,000.01",,`,
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      imported: 3,
      warnings: [
        {
          row: 2,
          field: 'billedAmount',
          message: '$999,999.00 is above the usual ceiling of $170.00 for 36415: check the amount',
        },
        {
          row: 4,
          field: 'billedAmount',
          message: '$5,000.01 is above the usual ceiling of $5,000.00 for 99499: check the amount',
        },
      ],
    });
    const [entry] = await sql<{ detail: string }>(`select detail from audit_log order by id desc limit 1`);
    expect(entry?.detail).toBe("imported 3 claims from a CSV file (2 charges above the code's ceiling)");
  });

  it('inserts every row of a good file in one go, with one audit entry', async () => {
    const { mrn } = await fixtures();
    const csv = [
      // Header names are matched without regard to case and spaces; status and reason may be left out.
      ' AccountNumber , patientMRN,procedureCode,provider,payer,serviceDate,billedAmount,status,reasonCode',
      `IMP-0201,${mrn},99213,Dr. Sarah Mitchell,Aetna,2026-11-02,149.00,,`,
      `IMP-0202,${mrn},g0439,dr. kenji watanabe,Medicare,2026-10-30,"$1,175.5",Draft,`,
      `IMP-0203,${mrn},80053,Dr. Emily Carter,Cigna,2026-11-04,116,Denied,co 197`,
    ].join('\r\n');
    const claims = await claimCount();
    const audits = await auditCount();
    const res = await importCsv(csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ imported: 3, warnings: [] });
    expect(await claimCount()).toBe(claims + 3);
    const stored = await sql<Record<string, unknown>>(
      `select c.account_number, p.mrn, c.procedure_code, v.name as provider, c.payer, c.service_date::text,
        c.billed_cents, c.status, c.reason_code, c.denial_description, c.submitted_on::text,
        c.adjudicated_on::text, c.denied_on_first_adjudication
       from claims c join patients p on p.id = c.patient_id join providers v on v.id = c.provider_id
       where c.account_number like 'IMP-02%' order by c.account_number`,
    );
    const day = today(t.clock());
    expect(stored).toEqual([
      {
        account_number: 'IMP-0201',
        mrn,
        procedure_code: '99213',
        provider: 'Dr. Sarah Mitchell',
        payer: 'Aetna',
        service_date: '2026-11-02',
        billed_cents: 14_900,
        status: 'Submitted',
        reason_code: null,
        denial_description: null,
        submitted_on: day,
        adjudicated_on: null,
        denied_on_first_adjudication: false,
      },
      {
        account_number: 'IMP-0202',
        mrn,
        procedure_code: 'G0439',
        provider: 'Dr. Kenji Watanabe',
        payer: 'Medicare',
        service_date: '2026-10-30',
        billed_cents: 117_550,
        status: 'Draft',
        reason_code: null,
        denial_description: null,
        submitted_on: null,
        adjudicated_on: null,
        denied_on_first_adjudication: false,
      },
      {
        account_number: 'IMP-0203',
        mrn,
        procedure_code: '80053',
        provider: 'Dr. Emily Carter',
        payer: 'Cigna',
        service_date: '2026-11-04',
        billed_cents: 11_600,
        status: 'Denied',
        reason_code: 'CO-197',
        denial_description: 'Precertification or authorization was not obtained',
        submitted_on: day,
        adjudicated_on: day,
        denied_on_first_adjudication: true,
      },
    ]);
    expect(await auditCount()).toBe(audits + 1);
    const [entry] = await sql<{ action: string; resource: string; detail: string }>(
      `select action, resource, detail from audit_log order by id desc limit 1`,
    );
    expect(entry).toEqual({ action: 'claims.import', resource: 'claims', detail: 'imported 3 claims from a CSV file' });
    // The imported claims are in the list at once.
    expect((await list('?search=IMP-02')).total).toBe(3);
  });
});

/** The calendar day `days` after `day` (YYYY-MM-DD). */
function addDaysIso(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

describe('export → import round trip', () => {
  const IMPORT_FIELDS = [
    'accountNumber',
    'patientMrn',
    'procedure',
    'provider',
    'payer',
    'serviceDate',
    'billedCents',
    'status',
    'reason',
  ] as const;
  const importFields = (row: ClaimExportRow) => IMPORT_FIELDS.map((field) => row[field]);

  it('an exported file imports as it is and gives back the same claims (MRN included)', async () => {
    // The admin sees MRNs in full; the statuses a file can carry (a Paid claim comes with its remittance).
    const admin = await signInAs(t.app, 'admin');
    const exportOf = async (query: string) => {
      const res = await admin.request({ method: 'GET', url: `/api/claims/export${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ClaimExport>().items;
    };
    // A self-pay claim is adjudicated at once with its discount and patient share (PR-2), which a file does
    // not carry: it is left in place.
    const carried = (rows: ClaimExportRow[]) => rows.filter((c) => c.status === 'Denied' || c.reason === null);
    // Within every payer's timely-filing limit (90 days at the shortest), which an import enforces.
    const recent = `&from=${addDaysIso(TEST_TODAY, -80)}`;
    const exported = carried([
      ...(await exportOf(`?status=Denied${recent}`)),
      ...(await exportOf(`?status=Pending${recent}`)),
      ...(await exportOf(`?status=Submitted${recent}`)),
    ]);
    expect(new Set(exported.map((c) => c.status))).toEqual(new Set(['Denied', 'Pending', 'Submitted']));
    const csv = Papa.unparse({
      fields: CLAIM_CSV_COLUMNS.map((c) => c.header),
      data: exported.map((claim) => CLAIM_CSV_COLUMNS.map((c) => c.value(claim) ?? '')),
    });
    expect(exported.length).toBeGreaterThan(20);
    const ids = exported.map((c) => c.id);
    await sql(`delete from claims where id = any($1)`, [ids]);
    const res = await admin.request({ method: 'POST', url: '/api/claims/import', payload: { csv } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ imported: number }>().imported).toBe(exported.length);
    const reimported = carried([
      ...(await exportOf(`?status=Denied${recent}`)),
      ...(await exportOf(`?status=Pending${recent}`)),
      ...(await exportOf(`?status=Submitted${recent}`)),
    ]);
    const byAccount = (rows: ClaimExportRow[]) =>
      rows.map(importFields).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(byAccount(reimported)).toEqual(byAccount(exported));
  });

  it("masks the MRN in the billing admin's export, as the role's screens do", async () => {
    const res = await biller.request({ method: 'GET', url: '/api/claims/export?status=Denied' });
    const [first] = res.json<ClaimExport>().items;
    const [stored] = await sql<{ mrn: string }>(
      `select p.mrn from claims c join patients p on p.id = c.patient_id where c.id = $1`,
      [first?.id],
    );
    const mrn = stored?.mrn ?? '';
    expect(first?.patientMrn).toBe(`${'*'.repeat(mrn.length - 2)}${mrn.slice(-2)}`);
  });
});

describe('access', () => {
  it('follows the policy: claims:read and claims:write', () => {
    expect(rolesWith('claims:read').sort()).toEqual(['admin', 'billing_admin', 'doctor']);
    expect(rolesWith('claims:write').sort()).toEqual(['admin', 'billing_admin']);
  });

  it('lets billing admins and admins read and write, doctors only read, and refuses everyone else', async () => {
    const [denied] = await sql<{ id: number }>(
      `select id from claims where status = 'Denied' order by id desc limit 1`,
    );
    const calls = [
      { method: 'GET' as const, url: '/api/claims', write: false },
      { method: 'GET' as const, url: '/api/claims/overview', write: false },
      { method: 'GET' as const, url: '/api/claims/export?payer=Tricare', write: false },
      // Bodies that fail validation: an allowed role gets 400, so nothing is written here.
      { method: 'POST' as const, url: `/api/claims/${denied?.id}/appeals`, payload: {}, write: true },
      { method: 'POST' as const, url: '/api/claims/import', payload: {}, write: true },
    ];
    for (const role of ROLES) {
      const session = await signInAs(t.app, role);
      for (const { write, ...call } of calls) {
        const res = await session.request(call);
        const allowed = write
          ? ['billing_admin', 'admin'].includes(role)
          : ['billing_admin', 'admin', 'doctor'].includes(role);
        const expected = allowed ? (write ? 400 : 200) : 403;
        expect(res.statusCode, `${role} ${call.method} ${call.url}`).toBe(expected);
      }
    }
    for (const { write: _write, ...call } of calls) {
      const res = await t.app.inject(call);
      expect(res.statusCode, `no session ${call.method} ${call.url}`).toBe(401);
    }
    const [stored] = await sql<{ status: string }>(`select status from claims where id = $1`, [denied?.id]);
    expect(stored?.status).toBe('Denied');
  });
});

describe('export limit', () => {
  it(`refuses to export more than ${CLAIM_EXPORT_MAX_ROWS} claims with a clear 422, auditing nothing`, async () => {
    // Enough extra claims for one payer to pass the limit (set-based, as the scale seed does).
    await sql(
      `insert into claims (patient_id, provider_id, account_number, procedure_code, payer, service_date, billed_cents, status)
       select (select min(id) from patients), (select min(id) from providers), 'BULK-' || g, '99213', 'Tricare',
         date '2026-01-05', 14900, 'Submitted'
       from generate_series(1, $1::int) g`,
      [CLAIM_EXPORT_MAX_ROWS],
    );
    const audits = await auditCount();
    const res = await biller.request({ method: 'GET', url: '/api/claims/export?payer=Tricare' });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ error: { code: string; message: string } }>().error).toEqual({
      code: 'EXPORT_TOO_LARGE',
      message: 'More than 50,000 claims match: narrow the filters to export.',
    });
    expect(await auditCount()).toBe(audits);
    // A narrower filter still exports.
    const narrow = await biller.request({ method: 'GET', url: '/api/claims/export?payer=Tricare&reason=CO' });
    expect(narrow.statusCode).toBe(200);
  });
});

describe('POST /api/claims/:id/void', () => {
  const header = CLAIM_IMPORT_COLUMNS.join(',');
  const kpis = async () =>
    (await biller.request({ method: 'GET', url: '/api/claims/analytics/kpis?periodDays=30' })).json<{
      billingCycleTime: number | null;
      totalClaims: number;
      totalBilledCents: number;
    }>();

  it('takes a bad imported claim out of the KPIs and totals, keeps it listed as Voided, and audits it', async () => {
    const [patient] = await sql<{ mrn: string }>(`select mrn from patients order by id limit 1 offset 5`);
    const beforeKpis = await kpis();
    const beforeOverview = await overview();
    // A claim for a visit 300 days ago (inside Medicare's year) imported today, with a $999,999.00 venipuncture
    // for a visit in the period: Billing Cycle Time and the totals jump.
    const imported = await biller.request({
      method: 'POST',
      url: '/api/claims/import',
      payload: {
        csv: [
          header,
          `VOID-1,${patient?.mrn},99213,Dr. Sarah Mitchell,Medicare,2026-01-26,149.00,,`,
          `VOID-2,${patient?.mrn},36415,Dr. Sarah Mitchell,Aetna,2026-11-10,"999,999.00",,`,
        ].join('\n'),
      },
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const afterImport = await kpis();
    expect(afterImport.billingCycleTime).toBeGreaterThan(beforeKpis.billingCycleTime ?? 0);
    expect(afterImport.totalBilledCents).toBe(beforeKpis.totalBilledCents + 99_999_900);
    expect((await overview()).summary.claims).toBe(beforeOverview.summary.claims + 2);

    const voidIds = await sql<{ id: number }>(`select id from claims where account_number like 'VOID-%' order by id`);
    for (const { id } of voidIds) {
      const res = await biller.request({
        method: 'POST',
        url: `/api/claims/${id}/void`,
        payload: { reason: 'wrong date and amount in the imported file' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ status: string }>().status).toBe('Voided');
    }
    // Back to what they were, to the cent.
    expect(await kpis()).toEqual(beforeKpis);
    expect(await overview()).toEqual(beforeOverview);
    // Still in the list, shown as Voided; still in the database with its values.
    const listed = await list('?search=VOID-');
    expect(listed.items.map((c: { accountNumber: string; status: string }) => [c.accountNumber, c.status])).toEqual([
      ['VOID-2', 'Voided'],
      ['VOID-1', 'Voided'],
    ]);
    const [stored] = await sql<{ billed_cents: number; void_reason: string }>(
      `select billed_cents, void_reason from claims where account_number = 'VOID-2'`,
    );
    expect(stored).toEqual({ billed_cents: 99_999_900, void_reason: 'wrong date and amount in the imported file' });
    const entries = await sql<{ action: string; resource: string; detail: string }>(
      `select action, resource, detail from audit_log where action = 'claim.void' order by id`,
    );
    expect(entries.map((e) => e.resource)).toEqual(voidIds.map(({ id }) => `claim/${id}`));
    expect(entries[1]?.detail).toBe(
      'VOID-2: voided (service date 2026-11-10, billed 99999900 cents); reason: wrong date and amount in the imported file',
    );

    // Voided once: a second void and an appeal are refused.
    const again = await biller.request({
      method: 'POST',
      url: `/api/claims/${voidIds[0]?.id}/void`,
      payload: { reason: 'x' },
    });
    expect(again.statusCode).toBe(409);
  });

  it('refuses a claim with payments, a missing reason, an unknown claim, and a role that may not write claims', async () => {
    const [paid] = await sql<{ id: number }>(`select claim_id as id from payments where claim_id is not null limit 1`);
    const withPayments = await biller.request({
      method: 'POST',
      url: `/api/claims/${paid?.id}/void`,
      payload: { reason: 'mistake' },
    });
    expect(withPayments.statusCode).toBe(409);
    expect(fieldsOf(withPayments.body)).toEqual(['status']);
    const noReason = await biller.request({
      method: 'POST',
      url: `/api/claims/${paid?.id}/void`,
      payload: { reason: ' ' },
    });
    expect(noReason.statusCode).toBe(400);
    expect(fieldsOf(noReason.body)).toEqual(['reason']);
    const unknown = await biller.request({ method: 'POST', url: '/api/claims/9999999/void', payload: { reason: 'x' } });
    expect(unknown.statusCode).toBe(404);
    const doctor = await signInAs(t.app, 'doctor');
    const refused = await doctor.request({
      method: 'POST',
      url: `/api/claims/${paid?.id}/void`,
      payload: { reason: 'x' },
    });
    expect(refused.statusCode).toBe(403);
    const [still] = await sql<{ voided_at: string | null }>(`select voided_at from claims where id = $1`, [paid?.id]);
    expect(still?.voided_at).toBeNull();
  });
});

describe('charge ceilings (Settings → Charge ceilings)', () => {
  it('are listed and set by the admin, audited, and the import flags charges against the new ceiling', async () => {
    const admin = await signInAs(t.app, 'admin');
    const listed = (await admin.request({ method: 'GET', url: '/api/admin/charge-ceilings' })).json<{
      items: { procedureCode: string; ceilingCents: number }[];
      defaultCeilingCents: number;
    }>();
    expect(listed.items.find((c) => c.procedureCode === '99213')).toEqual({
      procedureCode: '99213',
      ceilingCents: 149_000,
    });
    expect(listed.defaultCeilingCents).toBe(500_000);

    const set = await admin.request({
      method: 'PUT',
      url: '/api/admin/charge-ceilings/j1100',
      payload: { ceilingCents: 2_500 },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ procedureCode: 'J1100', ceilingCents: 2_500 });
    const [entry] = await sql<{ action: string; detail: string }>(
      `select action, detail from audit_log order by id desc limit 1`,
    );
    expect(entry).toEqual({
      action: 'claims.charge_ceiling.update',
      detail: 'J1100: ceiling the default $5,000.00 -> $25.00',
    });

    const [patient] = await sql<{ mrn: string }>(`select mrn from patients order by id limit 1 offset 6`);
    const res = await biller.request({
      method: 'POST',
      url: '/api/claims/import',
      payload: {
        csv: [
          CLAIM_IMPORT_COLUMNS.join(','),
          `CEIL-1,${patient?.mrn},J1100,Dr. Sarah Mitchell,Aetna,2026-11-02,30.00,,`,
        ].join('\n'),
      },
    });
    expect(res.json<{ warnings: { message: string }[] }>().warnings.map((w) => w.message)).toEqual([
      '$30.00 is above the usual ceiling of $25.00 for J1100: check the amount',
    ]);
  });

  it('refuses a bad code or amount, and every role but admin', async () => {
    const admin = await signInAs(t.app, 'admin');
    const badCode = await admin.request({
      method: 'PUT',
      url: '/api/admin/charge-ceilings/12',
      payload: { ceilingCents: 100 },
    });
    expect(badCode.statusCode).toBe(400);
    expect(fieldsOf(badCode.body)).toEqual(['code']);
    const badAmount = await admin.request({
      method: 'PUT',
      url: '/api/admin/charge-ceilings/99213',
      payload: { ceilingCents: 0 },
    });
    expect(badAmount.statusCode).toBe(400);
    expect(fieldsOf(badAmount.body)).toEqual(['ceilingCents']);
    const refused = await biller.request({
      method: 'PUT',
      url: '/api/admin/charge-ceilings/99213',
      payload: { ceilingCents: 100 },
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('POST /api/claims/:id/write-off', () => {
  const writeOff = (id: number, payload: object, who: SignedIn = biller) =>
    who.request({ method: 'POST', url: `/api/claims/${id}/write-off`, payload });
  const outstanding = async () =>
    (await biller.request({ method: 'GET', url: '/api/claims/analytics/kpis?periodDays=30' })).json<{
      outstandingArCents: number;
    }>().outstandingArCents;

  it('writes off a denied claim: Written Off and resolved today, out of A/R, its work items resolved, audited', async () => {
    const [target] = await sql<{
      id: number;
      patient_id: number;
      account_number: string;
      balance: number;
      share: number;
    }>(
      `select id, patient_id, account_number, billed_cents - paid_cents - contractual_adjustment_cents as balance,
         patient_responsibility_cents as share
       from claims where status = 'Denied' and voided_at is null and submitted_on is not null and resolved_on is null
         and billed_cents - paid_cents - contractual_adjustment_cents > 0
         and not exists (select 1 from payments p where p.claim_id = claims.id)
       order by id limit 1`,
    );
    if (!target) throw new Error('the seed has no open Denied claim');
    await sql(
      `insert into work_items (source, source_key, claim_id, patient_id, account_number, payer, category, reason,
         dollars_at_risk_cents, due_on, priority)
       select 'denial', 'write-off-test', id, patient_id, account_number, payer, 'other', 'Denied (test)',
         billed_cents, current_date + 30, 'normal' from claims where id = $1`,
      [target.id],
    );
    const before = await outstanding();
    const res = await writeOff(target.id, { reason: '  Below the cost of an appeal  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ClaimRow>()).toMatchObject({ id: target.id, status: 'Written Off', balanceCents: 0 });
    const [stored] = await sql<{ status: string; resolved_on: string }>(
      `select status, resolved_on::text from claims where id = $1`,
      [target.id],
    );
    expect(stored).toEqual({ status: 'Written Off', resolved_on: TEST_TODAY });
    expect(await outstanding()).toBe(before - target.balance);
    const [item] = await sql<{ outcome: string; resolution_note: string }>(
      `select outcome, resolution_note from work_items where source_key = 'write-off-test'`,
    );
    expect(item).toEqual({ outcome: 'written_off', resolution_note: 'Claim written off: Below the cost of an appeal' });
    const [entry] = await sql<{ action: string; patient_id: number; detail: string }>(
      `select action, patient_id, detail from audit_log where resource = $1 order by id desc limit 1`,
      [`claim/${target.id}`],
    );
    expect(entry).toEqual({
      action: 'claim.write_off',
      patient_id: target.patient_id,
      detail:
        `${target.account_number}: status Denied → Written Off, balance ${formatDollars(target.balance)} ` +
        `(the patient's share of ${formatDollars(target.share)} stays due); reason: Below the cost of an appeal`,
    });
    // Twice: refused, naming the status.
    const again = await writeOff(target.id, { reason: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: { code: string; fields: { field: string; message: string }[] } }>().error).toMatchObject(
      {
        code: 'NOT_WRITABLE_OFF',
        fields: [
          { field: 'status', message: 'is Written Off: only a Denied or Partially Paid claim can be written off' },
        ],
      },
    );
  });

  it('refuses a claim the payer has not answered, a missing reason, an unknown claim, and a role that reads claims only', async () => {
    const [submitted] = await ids(`status = 'Submitted' and voided_at is null`);
    const [denied] = await ids(`status = 'Denied' and voided_at is null`);
    const early = await writeOff(submitted!, { reason: 'Not worth it' });
    expect(early.statusCode).toBe(409);
    expect(fieldsOf(early.body)).toEqual(['status']);
    for (const payload of [{}, { reason: '   ' }, { reason: 'x'.repeat(201) }, { reason: 'ok', amount: 1 }]) {
      const res = await writeOff(denied!, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await writeOff(999_999, { reason: 'Not worth it' })).statusCode).toBe(404);
    const doctor = await signInAs(t.app, 'doctor');
    expect((await writeOff(denied!, { reason: 'Not worth it' }, doctor)).statusCode).toBe(403);
    const [still] = await sql<{ status: string }>(`select status from claims where id = $1`, [denied]);
    expect(still?.status).toBe('Denied');
    const written = await sql(`select 1 from audit_log where action = 'claim.write_off' and resource = any($1)`, [
      [`claim/${submitted}`, `claim/${denied}`],
    ]);
    expect(written).toEqual([]);
  });
});
