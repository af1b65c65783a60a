import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import Papa from 'papaparse';
import type { ClaimOverview, ClaimPage } from '../src/features/claims/claims.schema';
import { seriousViolations } from './axe';
import { E2E_TODAY, expect, test } from './fixtures';
import { apiGet, choose, signIn } from './helpers';

const money = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const weekLabel = (weekStart: string) =>
  new Date(`${weekStart}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const daysAgo = (days: number) =>
  new Date(Date.parse(`${E2E_TODAY}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** The summary line and the three charts' data tables show exactly the overview the API gives. */
async function expectOverview(page: Page, overview: ClaimOverview) {
  await expect(page.getByTestId('summary-total-denied')).toHaveText(money(overview.summary.totalDeniedCents));
  await expect(page.getByTestId('summary-total-billed')).toHaveText(money(overview.summary.totalBilledCents));
  await expect(page.getByTestId('summary-claims')).toHaveText(overview.summary.claims.toLocaleString('en-US'));
  const rows = (name: string) => page.getByRole('table', { name, exact: true }).locator('tbody tr');
  await expect(rows('Denials by Payer')).toHaveText(overview.denialsByPayer.map((p) => `${p.payer}${p.count}`));
  await expect(rows('Top Denial Reasons')).toHaveText(
    overview.topDenialReasons.map((r) => `${r.reason}${r.description}${r.count}`),
  );
  await expect(rows('Weekly Claims Trend')).toHaveText(
    overview.weeklyTrend.map((w) => `${weekLabel(w.weekStart)}${w.claims}${w.paid}${w.denied}`),
  );
}

test.describe('claims', () => {
  test('the billing admin filters, searches, sorts and exports claims', async ({ page }) => {
    await signIn(page, 'billing_admin', '/claims');
    await expect(page.getByRole('heading', { name: 'Claims', level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: 'All Claims' });
    const footer = page.getByText(/^Showing \d+ of [\d,]+ claims$/);

    const all = await apiGet<ClaimOverview>(page, '/api/claims/overview');
    await expectOverview(page, all);
    await expect(footer).toHaveText(`Showing 50 of ${all.summary.claims.toLocaleString('en-US')} claims`);

    // Pages follow the server's cursor: Next shows the rows after the last one shown, Previous returns,
    // and the total counted on the first page stays in the footer.
    const first = await apiGet<ClaimPage>(page, '/api/claims?limit=50');
    const second = await apiGet<ClaimPage>(page, `/api/claims?limit=50&cursor=${first.nextCursor ?? ''}`);
    const accountCells = table.locator('tbody tr td:nth-child(3)');
    await expect(accountCells.first()).toHaveText(first.items[0]!.accountNumber);
    const pages = page.getByRole('navigation', { name: 'All Claims pages' });
    await pages.getByRole('button', { name: /Next/ }).click();
    await expect(pages.getByText(/^Page 2 of /)).toBeVisible();
    await expect(accountCells.first()).toHaveText(second.items[0]!.accountNumber);
    await expect(footer).toHaveText(`Showing 50 of ${all.summary.claims.toLocaleString('en-US')} claims`);
    await pages.getByRole('button', { name: /Previous/ }).click();
    await expect(accountCells.first()).toHaveText(first.items[0]!.accountNumber);

    // A payer filter changes the summary, every chart and the table.
    await choose(page, 'Payer', 'Medicaid');
    const medicaid = await apiGet<ClaimOverview>(page, '/api/claims/overview?payer=Medicaid');
    expect(medicaid.summary.claims).toBeLessThan(all.summary.claims);
    expect(medicaid.denialsByPayer.map((p) => p.payer)).toEqual(['Medicaid']);
    await expectOverview(page, medicaid);
    await expect(footer).toHaveText(`Showing 50 of ${medicaid.summary.claims} claims`);
    for (const payer of await table.locator('tbody tr td:nth-child(6)').allTextContents())
      expect(payer).toBe('Medicaid');

    // Search within the payer: a patient's last name.
    const [someone] = (await apiGet<ClaimPage>(page, '/api/claims?payer=Medicaid&limit=1&offset=7')).items;
    const lastName = someone?.patient.split(' ').pop() ?? '';
    await page.getByRole('searchbox', { name: /Search claims/ }).fill(lastName);
    const found = await apiGet<ClaimPage>(
      page,
      `/api/claims?payer=Medicaid&search=${encodeURIComponent(lastName)}&sort=billedCents&dir=asc&limit=50`,
    );
    expect(found.total).toBeGreaterThan(0);
    const foundTotal = found.total ?? 0; // a first page (no cursor) carries its total
    await expect(footer).toHaveText(`Showing ${Math.min(50, foundTotal)} of ${foundTotal} claims`);
    await expectOverview(
      page,
      await apiGet<ClaimOverview>(page, `/api/claims/overview?payer=Medicaid&search=${encodeURIComponent(lastName)}`),
    );

    // Sort by billed (ascending first): the rows come in the API's order.
    await table.getByRole('button', { name: 'Billed', exact: true }).click();
    await expect(table.locator('tbody tr td:nth-child(3)')).toHaveText(found.items.map((c) => c.accountNumber));
    await expect(table.getByRole('columnheader', { name: 'Billed' })).toHaveAttribute('aria-sort', 'ascending');

    // Export: the file holds every claim of the filter.
    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/^claims_\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = Papa.parse<string[]>((await readFile(await download.path(), 'utf8')).trim()).data;
    // The import's columns under its names first (the file re-imports), then the ones added for reading.
    expect(rows[0]).toEqual([
      'accountNumber',
      'patientMrn',
      'procedureCode',
      'provider',
      'payer',
      'serviceDate',
      'billedAmount',
      'status',
      'reasonCode',
      'patient',
      'paidAmount',
      'balanceAmount',
      'daysAR',
      'denialDescription',
    ]);
    expect(rows.length - 1).toBe(found.total);
    expect(rows.slice(1).map((r) => r[0])).toEqual(found.items.map((c) => c.accountNumber).slice(0, rows.length - 1));
    await expect(page.getByText('Claims exported', { exact: true })).toBeVisible();
  });

  test('at 1440x900 every row keeps its status and Appeal in view; the view lives in the address', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, 'billing_admin');
    const [someone] = (await apiGet<ClaimPage>(page, '/api/claims?limit=1&offset=3')).items;
    const name = someone?.patient.split(' ')[0] ?? '';
    // A link opens the list already searched.
    await page.goto(`/claims?search=${encodeURIComponent(name)}`);
    const table = page.getByRole('table', { name: 'All Claims' });
    const footer = page.getByText(/^Showing \d+ of [\d,]+ claims$/);
    const searched = await apiGet<ClaimPage>(page, `/api/claims?search=${encodeURIComponent(name)}&limit=50`);
    await expect(page.getByRole('searchbox', { name: /Search claims/ })).toHaveValue(name);
    await expect(footer).toHaveText(`Showing ${Math.min(50, searched.total ?? 0)} of ${searched.total} claims`);

    // Status and Appeal sit inside the table's visible area, on top, without scrolling sideways (the page
    // is scrolled down to the row; the table's own sideways scroll stays where it is).
    const scroller = table.locator('xpath=..');
    const firstRow = table.locator('tbody tr').first();
    await firstRow.evaluate((row) => window.scrollBy(0, row.getBoundingClientRect().top - 300));
    expect(await scroller.evaluate((element) => element.scrollLeft)).toBe(0);
    const box = await scroller.boundingBox();
    // (A disabled button lets the pointer through, so its cell is what is hit.)
    for (const cell of [firstRow.locator('td').nth(-2), firstRow.locator('td').last()]) {
      const cellBox = await cell.boundingBox();
      if (!box || !cellBox) throw new Error('no layout box');
      expect(cellBox.x + cellBox.width).toBeLessThanOrEqual(box.x + box.width + 1);
      expect(cellBox.x).toBeGreaterThanOrEqual(box.x);
      const onTop = await cell.evaluate((element) => {
        const r = element.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return hit !== null && (element === hit || element.contains(hit));
      });
      expect(onTop).toBe(true);
    }
    await expect(
      firstRow
        .locator('td')
        .last()
        .getByRole('button', { name: /^Appeal claim / }),
    ).toBeInViewport();

    // Filters and pages go into the address; reload, Back and Forward restore the view.
    await page.goto('/claims');
    await choose(page, 'Status', 'Paid');
    await expect(page).toHaveURL(/[?&]status=Paid/);
    const paid = await apiGet<ClaimPage>(page, '/api/claims?status=Paid&limit=50');
    const secondPage = await apiGet<ClaimPage>(
      page,
      `/api/claims?status=Paid&limit=50&cursor=${encodeURIComponent(paid.nextCursor ?? '')}`,
    );
    const accountCells = table.locator('tbody tr td:nth-child(3)');
    await expect(accountCells.first()).toHaveText(paid.items[0]!.accountNumber);
    const pages = page.getByRole('navigation', { name: 'All Claims pages' });
    await pages.getByRole('button', { name: /Next/ }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(accountCells.first()).toHaveText(secondPage.items[0]!.accountNumber);
    await page.reload();
    await expect(pages.getByText(/^Page 2 of /)).toBeVisible();
    await expect(accountCells.first()).toHaveText(secondPage.items[0]!.accountNumber);
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveText('Paid');
    await expect(footer).toHaveText(`Showing 50 of ${paid.total?.toLocaleString('en-US')} claims`);
    await page.goBack();
    await expect(accountCells.first()).toHaveText(paid.items[0]!.accountNumber);
    await page.goBack();
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveText('All Statuses');
    await page.goForward();
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveText('Paid');
    await expect(accountCells.first()).toHaveText(paid.items[0]!.accountNumber);
  });

  test('the billing admin appeals a denied claim', async ({ page }) => {
    await signIn(page, 'billing_admin', '/claims');
    // The reason of a claim still denied, typed as people type it (lower case, a space for the dash).
    const [denied] = (await apiGet<ClaimPage>(page, '/api/claims?status=Denied&limit=1')).items;
    const reason = denied?.reason;
    if (!reason) throw new Error('no denied claim with a reason code');
    await page.getByLabel('Reason code').fill(reason.toLowerCase().replace('-', ' '));
    const byReason = await apiGet<ClaimPage>(page, `/api/claims?reason=${reason}&limit=50`);
    const target = byReason.items.find((c) => c.status === 'Denied');
    if (!target) throw new Error(`no denied ${reason} claim on the first page`);
    const footer = page.getByText(/^Showing \d+ of [\d,]+ claims$/);
    await expect(footer).toHaveText(`Showing ${byReason.items.length} of ${byReason.total} claims`);

    const row = page.getByRole('row').filter({ hasText: target.accountNumber });
    await row.getByRole('button', { name: `Appeal claim ${target.accountNumber}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Appeal claim' });
    await dialog.getByRole('button', { name: 'Submit appeal' }).click();
    await expect(dialog.getByText('Reason is required')).toBeVisible();
    await dialog.getByLabel('Reason').fill('Corrected documentation attached');
    await dialog.getByLabel('Note').fill('Visit notes and the referral attached; please reconsider.');
    await dialog.getByRole('button', { name: 'Submit appeal' }).click();
    await expect(page.getByText('Appeal recorded', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row.locator('td').nth(10)).toHaveText('Appealed');
    await expect(row.getByRole('button', { name: `Appeal claim ${target.accountNumber}` })).toBeDisabled();
    const after = await apiGet<ClaimPage>(page, `/api/claims?search=${target.accountNumber}`);
    expect(after.items[0]?.status).toBe('Appealed');
  });

  test('the billing admin uploads a CSV with a bad row (nothing added), then a good one', async ({ page }) => {
    await signIn(page, 'billing_admin', '/claims');
    const before = await apiGet<ClaimPage>(page, '/api/claims?limit=1');
    const footer = page.getByText(/^Showing \d+ of [\d,]+ claims$/);
    await expect(footer).toHaveText(`Showing 50 of ${(before.total ?? 0).toLocaleString('en-US')} claims`);

    const tag = Date.now().toString(36).toUpperCase();
    const header = 'accountNumber,patientMrn,procedureCode,provider,payer,serviceDate,billedAmount,status,reasonCode';
    const good = [
      `E2E-${tag}-1,MRN-100001,99213,Dr. Sarah Mitchell,Aetna,${daysAgo(3)},149.00,Submitted,`,
      `E2E-${tag}-2,MRN-100008,80053,Dr. Emily Carter,Medicare,${daysAgo(4)},116.00,Denied,CO-16`,
    ];
    const bad = `E2E-${tag}-3,MRN-100001,99214,Dr. Sarah Mitchell,Cigna,2026-02-30,214.00,Submitted,`;

    await page.getByRole('button', { name: 'Upload File' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload claims' });
    const file = dialog.getByLabel('CSV file');
    await file.setInputFiles({
      name: 'claims.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from([header, good[0], bad, good[1]].join('\n')),
    });
    await dialog.getByRole('button', { name: 'Import' }).click();
    const problems = dialog.getByRole('table', { name: 'Problems in the file' });
    await expect(problems.locator('tbody tr')).toHaveText(['3serviceDatemust be a real calendar date']);
    await expect(dialog.getByText('1 problem in 1 row: nothing was imported.')).toBeVisible();
    expect((await apiGet<ClaimPage>(page, `/api/claims?search=E2E-${tag}`)).total).toBe(0);

    await file.setInputFiles({
      name: 'claims.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from([header, ...good].join('\n')),
    });
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(page.getByText('Claims imported', { exact: true })).toBeVisible();
    await expect(page.getByText('2 claims added', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();
    // The list refreshes: two more claims, and both are found by their account numbers.
    await expect(footer).toHaveText(`Showing 50 of ${((before.total ?? 0) + 2).toLocaleString('en-US')} claims`);
    await page.getByRole('searchbox', { name: /Search claims/ }).fill(`E2E-${tag}`);
    const table = page.getByRole('table', { name: 'All Claims' });
    await expect(table.locator('tbody tr td:nth-child(3)')).toHaveText([`E2E-${tag}-1`, `E2E-${tag}-2`]);
  });
});

test.describe('a bad import corrected', () => {
  test('a $999,999.00 venipuncture is imported with a warning, then voided: listed as Voided, out of the totals', async ({
    page,
  }) => {
    await signIn(page, 'billing_admin', '/claims');
    const before = await apiGet<ClaimOverview>(page, '/api/claims/overview');
    const tag = Date.now().toString(36).toUpperCase();
    const account = `E2E-${tag}-V`;
    const header = 'accountNumber,patientMrn,procedureCode,provider,payer,serviceDate,billedAmount,status,reasonCode';
    await page.getByRole('button', { name: 'Upload File' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload claims' });
    await dialog.getByLabel('CSV file').setInputFiles({
      name: 'claims.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        [header, `${account},MRN-100001,36415,Dr. Sarah Mitchell,Aetna,${daysAgo(2)},"999,999.00",,`].join('\n'),
      ),
    });
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(page.getByText('1 claim added', { exact: true })).toBeVisible();
    await expect(dialog.getByRole('table', { name: 'Charges to check' }).locator('tbody tr')).toHaveText([
      '2billedAmount$999,999.00 is above the usual ceiling of $170.00 for 36415: check the amount',
    ]);
    await dialog.getByRole('button', { name: 'Done', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect
      .poll(async () => (await apiGet<ClaimOverview>(page, '/api/claims/overview')).summary.totalBilledCents)
      .toBe(before.summary.totalBilledCents + 99_999_900);

    await page.getByRole('searchbox', { name: /Search claims/ }).fill(account);
    await page.getByRole('button', { name: `Void claim ${account}` }).click();
    const voiding = page.getByRole('dialog', { name: `Void claim ${account}?` });
    await voiding.getByLabel('Reason').fill('Amount typed wrong in the file');
    await voiding.getByRole('button', { name: 'Void claim' }).click();
    await expect(page.getByText('Claim voided', { exact: true })).toBeVisible();
    const row = page.getByRole('table', { name: 'All Claims' }).locator('tbody tr').filter({ hasText: account });
    await expect(row).toContainText('Voided');
    await expect(page.getByRole('button', { name: `Void claim ${account}` })).toBeDisabled();
    expect((await apiGet<ClaimOverview>(page, '/api/claims/overview')).summary).toEqual(before.summary);
  });
});

test.describe('accessibility', () => {
  test('the claims screen and its appeal, history and upload dialogs have no serious violations', async ({ page }) => {
    await signIn(page, 'billing_admin', '/claims');
    await expect(page.getByRole('table', { name: 'All Claims' }).locator('tbody tr').first()).toBeVisible();
    await expect(page.getByTestId('summary-claims')).not.toBeEmpty();
    await expect(page.getByRole('img', { name: /Weekly Claims Trend chart/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // The newest claims are still with the payers: denials are found by their status.
    await choose(page, 'Status', 'Denied');
    await expect(
      page.getByRole('table', { name: 'All Claims' }).locator('tbody tr td:nth-child(11)').first(),
    ).toHaveText('Denied');
    await page
      .getByRole('button', { name: /^Appeal claim / })
      .and(page.locator(':enabled'))
      .first()
      .click();
    await expect(page.getByRole('dialog', { name: 'Appeal claim' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page
      .getByRole('button', { name: /^History of claim / })
      .first()
      .click();
    await expect(page.getByRole('dialog', { name: 'Claim history' })).toBeVisible();
    await expect(page.getByText(/appeal, filed|No appeals recorded/).first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Upload File' }).click();
    await expect(page.getByRole('dialog', { name: 'Upload claims' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
