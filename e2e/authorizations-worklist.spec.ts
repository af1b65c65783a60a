import type { Page } from '@playwright/test';
import type { AuthorizationList } from '../src/features/authorizations/authorizations.schema';
import type { OverdueFollowUp, OverdueFollowUpPage } from '../src/features/worklist/worklist.schema';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { apiGet, downloadedCsv, choose, signIn } from './helpers';

/** The whole worklist in its default order, read a page at a time by the server's cursor. */
async function wholeWorklist(page: Page): Promise<OverdueFollowUp[]> {
  const rows: OverdueFollowUp[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${cursor}` : '';
    const found: OverdueFollowUpPage = await apiGet<OverdueFollowUpPage>(
      page,
      `/api/worklist/overdue-followups?limit=200${query}`,
    );
    rows.push(...found.items);
    cursor = found.nextCursor;
  } while (cursor);
  return rows;
}

test.describe('authorizations', () => {
  test('a nurse manager filters, approves a pending authorization and exports the filtered rows', async ({ page }) => {
    await signIn(page, 'nurse_manager', '/authorizations');
    await expect(page.getByRole('heading', { name: 'Authorizations', level: 1 })).toBeVisible();

    const first = await apiGet<AuthorizationList>(page, '/api/authorizations?limit=1');
    if (!first.kpis) throw new Error('the first page carries no KPIs');
    const all = { ...first, kpis: first.kpis };
    const kpi = (name: string) => page.getByTestId(`kpi-${name}`);
    await expect(kpi('total')).toHaveText(String(all.kpis.total));
    await expect(kpi('pending')).toHaveText(String(all.kpis.pending));
    await expect(kpi('at-risk')).toHaveText(String(all.kpis.atRisk));
    const footer = page.getByText(/^Showing \d+ of \d+ authorizations$/);
    await expect(footer).toHaveText(`Showing ${all.kpis.total} of ${all.kpis.total} authorizations`);

    // Filters narrow the table and the KPIs alike; the footer's second number stays every authorization.
    await choose(page, 'Status', 'Pending');
    await expect(footer).toHaveText(`Showing ${all.kpis.pending} of ${all.kpis.total} authorizations`);
    await choose(page, 'Payer', 'Medicare');
    const medicarePending = await apiGet<AuthorizationList>(
      page,
      '/api/authorizations?payer=Medicare&status=Pending&limit=1',
    );
    expect(medicarePending.total).toBeGreaterThan(1);
    await expect(footer).toHaveText(`Showing ${medicarePending.total} of ${all.kpis.total} authorizations`);
    // The tiles follow the filters: they count the rows the list shows.
    await expect(kpi('total')).toHaveText(String(medicarePending.total));
    await expect(kpi('pending')).toHaveText(String(medicarePending.total));
    await expect(kpi('approved')).toHaveText('0');
    const table = page.getByRole('table', { name: 'Authorizations' });
    await expect(table.locator('tbody tr')).toHaveCount(medicarePending.total ?? -1);
    for (const status of await table.locator('tbody tr td:nth-child(4)').allTextContents())
      expect(status).toBe('Pending');
    for (const payer of await table.locator('tbody tr td:nth-child(3)').allTextContents())
      expect(payer).toBe('Medicare');

    // Approve the first pending one: confirmed, announced, and it leaves the Pending filter.
    const approve = table.getByRole('button', { name: /^Approve authorization for / }).first();
    const label = (await approve.getAttribute('aria-label')) ?? '';
    await approve.click();
    const dialog = page.getByRole('dialog', { name: 'Approve authorization?' });
    // Approving records what the payer granted.
    await dialog.getByLabel('Authorization number').fill('MCR-55120');
    await dialog.getByLabel('Units approved').fill('6');
    await dialog.getByLabel('Valid from').fill('2026-11-25');
    await dialog.getByLabel('Valid to').fill('2027-02-25');
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(page.getByText('Authorization approved', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();
    const remaining = (medicarePending.total ?? 0) - 1;
    await expect(footer).toHaveText(`Showing ${remaining} of ${all.kpis.total} authorizations`);
    await expect(table.getByRole('button', { name: label })).toHaveCount(0);
    await expect(kpi('pending')).toHaveText(String(remaining));
    await expect(kpi('total')).toHaveText(String(remaining));

    // The export holds exactly the filtered rows.
    const csv = await downloadedCsv(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
    expect(csv.fileName).toBe('authorizations.csv');
    expect(csv.rows[0]).toEqual(['Patient', 'Service', 'Payer', 'Status', 'Age (days)']);
    expect(csv.rows.length - 1).toBe(remaining);
    for (const row of csv.rows.slice(1)) expect([row[2], row[3]]).toEqual(['Medicare', 'Pending']);
  });
});

test.describe('overdue follow-ups', () => {
  test('the doctor sees the tiles, filters by priority and provider, and exports the filtered rows', async ({
    page,
  }) => {
    await signIn(page, 'doctor', '/overdue-followups');
    await expect(page.getByRole('heading', { name: 'Overdue Follow-ups', level: 1 })).toBeVisible();

    const rows = await wholeWorklist(page);
    expect(rows.length).toBeGreaterThan(5);
    const count = (priority: string) => rows.filter((r) => r.priority === priority).length;
    const avg = Math.round(rows.reduce((sum, r) => sum + r.daysOverdue, 0) / rows.length);
    await expect(page.getByTestId('tile-total-overdue')).toHaveText(String(rows.length));
    await expect(page.getByTestId('tile-high-priority')).toHaveText(String(count('High')));
    await expect(page.getByTestId('tile-medium-priority')).toHaveText(String(count('Medium')));
    await expect(page.getByTestId('tile-low-priority')).toHaveText(String(count('Low')));
    await expect(page.getByTestId('tile-avg-days-overdue')).toHaveText(String(avg));

    const table = page.getByRole('table', { name: 'Overdue follow-ups' });
    // The server pages the list, 50 rows a page.
    await expect(table.locator('tbody tr')).toHaveCount(Math.min(50, rows.length));
    await expect(
      page.getByText(`Showing ${Math.min(50, rows.length)} of ${rows.length} overdue follow-ups`),
    ).toBeVisible();

    await choose(page, 'Priority', 'High');
    const high = rows.filter((r) => r.priority === 'High');
    await expect(table.locator('tbody tr')).toHaveCount(Math.min(50, high.length));
    for (const badge of await table.locator('tbody tr td:nth-child(1)').allTextContents()) expect(badge).toBe('High');

    const provider = high[0]?.providerName ?? '';
    await choose(page, 'Provider', provider);
    const filtered = high.filter((r) => r.providerName === provider);
    expect(filtered.length).toBeLessThanOrEqual(50);
    await expect(table.locator('tbody tr')).toHaveCount(filtered.length);
    await expect(page.getByText(`Showing ${filtered.length} of ${filtered.length} overdue follow-ups`)).toBeVisible();
    expect(await table.locator('tbody tr td:nth-child(2)').allTextContents()).toEqual(
      filtered.map((r) => r.patientName),
    );
    // The tiles still count the whole list.
    await expect(page.getByTestId('tile-total-overdue')).toHaveText(String(rows.length));

    const csv = await downloadedCsv(page, () => page.getByRole('button', { name: 'Export', exact: true }).click());
    expect(csv.fileName).toBe('overdue-followups.csv');
    expect(csv.rows[0]).toEqual([
      'Patient',
      'Phone',
      'Provider',
      'Encounter Date',
      'Type',
      'Chief Complaint',
      'Diagnosis',
      'Days Overdue',
      'Priority',
      'Action',
    ]);
    expect(csv.rows.length - 1).toBe(filtered.length);
    expect(csv.rows.slice(1).map((r) => r[0])).toEqual(filtered.map((r) => r.patientName));
    for (const row of csv.rows.slice(1)) expect([row[2], row[8]]).toEqual([provider, 'High']);
    // Each line has the phone to call, as the server gave it on screen.
    expect(csv.rows.slice(1).map((r) => r[1])).toEqual(filtered.map((r) => r.phone));
    expect(await table.locator('tbody tr td:nth-child(3)').allTextContents()).toEqual(filtered.map((r) => r.phone));
  });
});

test.describe('accessibility', () => {
  test('the authorizations screen and its decision dialog have no serious violations', async ({ page }) => {
    await signIn(page, 'admin', '/authorizations');
    await expect(page.getByRole('button', { name: /^Approve authorization for / }).first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page
      .getByRole('button', { name: /^Deny authorization for / })
      .first()
      .click();
    await expect(page.getByRole('dialog', { name: 'Deny authorization?' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('the overdue follow-ups screen has no serious violations', async ({ page }) => {
    await signIn(page, 'nurse_manager', '/overdue-followups');
    await expect(page.getByRole('table', { name: 'Overdue follow-ups' }).locator('tbody tr').first()).toBeVisible();
    await expect(page.getByTestId('tile-total-overdue')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
