import type { Page } from '@playwright/test';
import { formatCents } from '../src/shared/api';
import type { KpiResult, ProviderAnalytics } from '../src/features/analytics/analytics.schema';
import type { PayerPerformance, Statement } from '../src/features/billing/billing.schema';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { apiGet, downloadedCsv, signIn } from './helpers';

const money = (cents: number) => `$${formatCents(cents)}`;
const percent = (rate: number | null) => (rate === null ? 'No data' : `${rate.toFixed(1)}%`);

/** '$1,234.56' on screen to cents. */
function centsOf(text: string | null): number {
  return Math.round(Number((text ?? '').replace(/[$,]/g, '')) * 100);
}

/** The statement's totals as shown on screen, in cents. */
async function shownTotals(page: Page) {
  const cents = async (id: string) => centsOf(await page.getByTestId(`statement-${id}`).textContent());
  return {
    billed: await cents('total-billed'),
    insurancePaid: await cents('insurance-paid'),
    adjustments: await cents('adjustments'),
    insurancePending: await cents('insurance-pending'),
    patientPaid: await cents('patient-paid'),
    due: await cents('amount-due'),
  };
}

/** The CSV's Total line in cents, in the shape of shownTotals. */
function csvTotals(rows: string[][]) {
  const header = rows[0] ?? [];
  const total = rows.find((r) => r[header.indexOf('Line')] === 'Total') ?? [];
  const cents = (column: string) => Math.round(Number(total[header.indexOf(column)]) * 100);
  return {
    billed: cents('Billed'),
    insurancePaid: cents('Insurance Paid'),
    adjustments: cents('Contractual Adjustment') + cents('Other Adjustment'),
    insurancePending: cents('Insurance Pending'),
    patientPaid: cents('Patient Paid'),
    due: cents('Amount Due'),
  };
}

test.describe('Financial Summary & Billing (staff)', () => {
  test('the billing admin sees the summary, the provider and payer tables, and generates, exports and prints a statement', async ({
    page,
  }) => {
    await signIn(page, 'billing_admin', '/billing');
    await expect(page.getByRole('heading', { name: 'Financial Summary & Billing', level: 1 })).toBeVisible();

    // The four cards show the KPI engine's numbers for the default 30 days, and say so.
    const kpis = await apiGet<KpiResult>(page, '/api/claims/analytics/kpis?periodDays=30');
    await expect(page.getByTestId('card-total-revenue')).toHaveText(money(kpis.totalPaidCents));
    await expect(page.getByTestId('card-collection-rate')).toHaveText(percent(kpis.netCollectionRate));
    await expect(page.getByTestId('card-denial-rate')).toHaveText(percent(kpis.denialRate));
    await expect(page.getByTestId('card-avg-days-ar')).toHaveText(
      kpis.avgDaysAR === null ? 'No data' : `${kpis.avgDaysAR.toFixed(1)} days`,
    );
    await expect(page.getByText(/^Last 30 days: /)).toHaveCount(4);

    // The denial trend compares with the previous 30 days, in words as well as with the arrow.
    const performance = await apiGet<PayerPerformance>(page, '/api/billing/payer-performance?periodDays=30');
    const trend = page.getByTestId('denial-trend');
    await expect(trend).toContainText(`from ${percent(performance.denialTrend.previousRate)} in the previous 30 days`);
    if ((performance.denialTrend.currentRate ?? 0) > 10) await expect(trend).toContainText('Above the 10% alert level');

    // Top providers: the analytics endpoint's first 5, by collections.
    const providers = await apiGet<ProviderAnalytics>(page, '/api/claims/analytics/provider?periodDays=30');
    const providerRows = page.getByRole('table', { name: 'Top providers by revenue' }).locator('tbody tr');
    await expect(providerRows).toHaveCount(5);
    for (const [i, provider] of providers.slice(0, 5).entries()) {
      await expect(providerRows.nth(i).locator('td').first()).toHaveText(provider.provider);
      await expect(providerRows.nth(i).locator('td').nth(2)).toHaveText(money(provider.totalCollectionsCents));
    }

    // Payer performance: 5 payers with their collections and a denial-rate badge (destructive above 15 %).
    const payerRows = page.getByRole('table', { name: 'Payer performance' }).locator('tbody tr');
    await expect(payerRows).toHaveCount(5);
    for (const [i, payer] of performance.payers.entries()) {
      const cells = payerRows.nth(i).locator('td');
      await expect(cells.first()).toHaveText(payer.payer);
      await expect(cells.nth(1)).toHaveText(money(payer.collectionsCents));
      const high = (payer.denialRate ?? 0) > 15;
      await expect(cells.nth(4)).toHaveText(high ? `${percent(payer.denialRate)} high` : percent(payer.denialRate));
      await expect(cells.nth(4).locator('span')).toHaveClass(high ? /bg-destructive/ : /bg-secondary/);
    }

    // The statement generator: pick a patient by name; the statement matches the API's.
    await expect(page.getByRole('button', { name: 'Export Statement' })).toBeDisabled();
    await page.getByRole('combobox', { name: 'Patient' }).fill('Maria Lop');
    await page.getByRole('option', { name: 'Maria Lopez' }).click();
    await expect(page.getByRole('heading', { name: 'Statement for Maria Lopez' })).toBeVisible();
    const [maria] = await apiGet<{ id: number; name: string }[]>(page, '/api/billing/patients?search=Maria%20Lopez');
    const statement = await apiGet<Statement>(page, `/api/billing/statements/${maria!.id}`);
    const onScreen = await shownTotals(page);
    expect(onScreen).toEqual({
      billed: statement.totalBilledCents,
      insurancePaid: statement.insurancePaidCents,
      adjustments: statement.contractualAdjustmentCents + statement.otherAdjustmentCents,
      insurancePending: statement.insurancePendingCents,
      patientPaid: statement.patientPaidCents,
      due: statement.amountDueCents,
    });
    // The columns add up: nothing billed is missing from the statement.
    expect(
      onScreen.insurancePaid + onScreen.adjustments + onScreen.insurancePending + onScreen.patientPaid + onScreen.due,
    ).toBe(onScreen.billed);
    const claimsTable = page.getByRole('table', { name: '3 most recent claims and every claim with an amount due' });
    await expect(claimsTable.locator('tbody tr')).toHaveCount(statement.claims.length);
    for (const claim of statement.claims.filter((c) => c.amountDueCents > 0)) {
      await expect(claimsTable.getByRole('row').filter({ hasText: claim.accountNumber })).toContainText(
        money(claim.amountDueCents),
      );
    }

    // Export Statement downloads the CSV; its totals are the ones on screen.
    const csv = await downloadedCsv(page, () => page.getByRole('button', { name: 'Export Statement' }).click());
    expect(csv.fileName).toBe(`statement_patient-${maria!.id}_${statement.statementDate}.csv`);
    expect(csvTotals(csv.rows)).toEqual(onScreen);
    expect(csv.rows.filter((r) => r[3] === 'Claim')).toHaveLength(statement.claimCount);

    // Print opens the browser's print dialog; on paper only the statement remains.
    await page.evaluate(() => {
      const w = window as unknown as { printCalls: number };
      w.printCalls = 0;
      window.print = () => {
        w.printCalls += 1;
      };
    });
    await page.getByRole('button', { name: 'Print' }).click();
    expect(await page.evaluate(() => (window as unknown as { printCalls: number }).printCalls)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('heading', { name: 'Statement for Maria Lopez' })).toBeVisible();
    await expect(page.getByTestId('statement-amount-due')).toBeVisible();
    // On paper: the practice's letterhead, the patient's account number, and no sort arrows.
    await expect(page.getByRole('group', { name: 'Practice' })).toContainText(statement.practice.phone);
    await expect(page.getByText(`Account ${statement.accountNumber}`, { exact: false })).toBeVisible();
    await expect(claimsTable.getByRole('button')).toHaveCount(0);
    for (const hidden of [
      page.getByRole('button', { name: 'Logout' }),
      page.getByRole('navigation', { name: 'Main' }),
      page.getByRole('heading', { name: 'Financial Summary & Billing' }),
      page.getByRole('heading', { name: 'Payer Performance' }),
      page.getByRole('button', { name: 'Export Statement' }),
      page.getByRole('button', { name: 'Print' }),
    ]) {
      await expect(hidden).toBeHidden();
    }
    await page.emulateMedia({ media: 'screen' });

    expect(await seriousViolations(page)).toEqual([]);
  });
});

test.describe('My Billing (patient)', () => {
  test('the patient follows the portal link to My Billing, pays part of the balance and sees it drop by that amount', async ({
    page,
  }) => {
    await signIn(page, 'patient');
    await expect(page.getByRole('heading', { name: 'My Health Portal' })).toBeVisible();
    // The visits and the claims first, as a person would see them before reaching for the link.
    await expect(page.getByRole('list', { name: 'Upcoming appointments' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'My claims' })).toBeVisible();
    await page.getByRole('link', { name: 'View statement and pay' }).click();
    await expect(page).toHaveURL(/\/patient-portal\/billing$/);
    await expect(page.getByRole('heading', { name: 'My Billing', level: 1 })).toBeVisible();
    await expect(page.getByText('View statements and pay', { exact: true })).toBeVisible();

    const statement = await apiGet<Statement>(page, '/api/portal/statement');
    await expect(page.getByTestId('statement-amount-due')).toHaveText(money(statement.amountDueCents));
    // The seeded balance depends on the day the demo clinic was seeded; pay part of whatever it is.
    expect(statement.amountDueCents).toBeGreaterThan(1);
    const payCents = Math.min(1000, Math.floor(statement.amountDueCents / 2));
    await expect(page.getByRole('table', { name: 'All claims' }).locator('tbody tr')).toHaveCount(statement.claimCount);
    expect(await seriousViolations(page)).toEqual([]);

    // The dialog offers the whole balance; the patient pays part of it.
    await page.getByRole('button', { name: 'Pay Balance' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay Balance' });
    const amount = dialog.getByLabel('Payment amount ($)');
    await expect(amount).toHaveValue((statement.amountDueCents / 100).toFixed(2));
    await amount.fill(((statement.amountDueCents + 1) / 100).toFixed(2));
    await dialog.getByRole('button', { name: 'Pay now' }).click();
    await expect(dialog.getByText(/must be at most your balance/)).toBeVisible();
    await amount.fill((payCents / 100).toFixed(2));
    await dialog.getByRole('button', { name: 'Pay now' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Payment received', { exact: true })).toBeVisible();
    await expect(page.getByTestId('statement-amount-due')).toHaveText(money(statement.amountDueCents - payCents));
    await expect(page.getByTestId('statement-patient-paid')).toHaveText(money(statement.patientPaidCents + payCents));
    // The toast gives the receipt number; the payment history lists the payment under it.
    const toastText = await page
      .getByText(/has been applied \(receipt PP-[0-9A-F]{10}\)/)
      .first()
      .textContent();
    const receipt = /PP-[0-9A-F]{10}/.exec(toastText ?? '')?.[0] ?? 'no receipt';
    const newest = page.getByRole('table', { name: 'Payment history' }).locator('tbody tr').first();
    await expect(newest).toContainText(receipt);
    await expect(newest).toContainText(money(payCents));

    // Download Statement: the CSV's totals are the ones on screen after the payment.
    const csv = await downloadedCsv(page, () => page.getByRole('button', { name: 'Download Statement' }).click());
    expect(csv.fileName).toMatch(/^statement_patient-\d+_\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csvTotals(csv.rows)).toEqual(await shownTotals(page));
    expect(csvTotals(csv.rows).due).toBe(statement.amountDueCents - payCents);
  });

  test('a patient who opens /billing gets Access denied and returns to the portal', async ({ page }) => {
    await signIn(page, 'patient');
    await page.goto('/billing');
    await expect(page.getByText('Access denied', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/patient-portal$/);
  });
});
