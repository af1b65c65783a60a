import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import Papa from 'papaparse';
import type { AuditPage } from '../src/features/audit/audit.schema';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { apiGet, signIn } from './helpers';

function entriesTable(page: Page) {
  return page.getByRole('table', { name: 'Audit log entries, newest first' });
}

test.describe('audit log', () => {
  test('the billing admin sees the newest entries, filters by action and exports the CSV', async ({ page }) => {
    await signIn(page, 'billing_admin', '/audit');
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    await expect(page.getByTestId('audit-stat-totalEntries')).toHaveText(/^[\d,]+$/);

    // Newest first: this very sign-in is at the top.
    const firstRow = entriesTable(page).locator('tbody tr').first();
    await expect(firstRow).toContainText('billing.admin@healthcare.demo');
    await expect(page.getByText(/^Showing 200 entries, newest first; older entries follow$/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Verify chain' })).toHaveCount(0);

    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'patient.view', exact: true }).click();
    await expect(firstRow).toContainText('patient.view');
    const expected = await apiGet<AuditPage>(page, '/api/audit?action=patient.view');
    const actionCells = entriesTable(page).locator('tbody tr td:nth-child(3)');
    await expect(actionCells.first()).toHaveText('patient.view');
    for (const text of await actionCells.allTextContents()) expect(text).toBe('patient.view');

    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe('audit-log.csv');
    const rows = Papa.parse<string[]>((await readFile(await download.path(), 'utf8')).trim()).data;
    expect(rows[0]).toEqual(['Time', 'Actor', 'Action', 'Resource', 'Detail']);
    const newest = expected.entries[0]!;
    expect(rows[1]).toEqual([newest.time, newest.actor, 'patient.view', newest.resource, newest.detail ?? '']);
    expect(rows.slice(1).every((r) => r[2] === 'patient.view')).toBe(true);

    // The export is itself in the log.
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'export.csv', exact: true }).click();
    await expect(firstRow).toContainText('audit_log');
    await expect(firstRow).toContainText(`audit-log.csv: ${rows.length - 1} rows (action patient.view)`);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.getByRole('combobox', { name: 'Action' })).toHaveText('All actions');
  });

  test('an actor that matches nothing shows the empty message', async ({ page }) => {
    await signIn(page, 'billing_admin', '/audit');
    await page.getByLabel('Actor').fill('nobody-at-all');
    await expect(entriesTable(page)).toContainText('No audit logs available');
  });

  test('the admin verifies the hash chain', async ({ page }) => {
    await signIn(page, 'admin', '/audit');
    await page.getByRole('button', { name: 'Verify chain' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Audit chain verified' })).toHaveText(
      /^Audit chain verified: [\d,]+ entries intact$/,
    );
  });
});

test.describe('accessibility', () => {
  test('the audit log has no serious violations', async ({ page }) => {
    await signIn(page, 'admin', '/audit');
    await expect(entriesTable(page).locator('tbody tr').first()).toContainText('@');
    await expect(page.getByTestId('audit-stat-totalEntries')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Verify chain' }).click();
    await expect(page.getByText(/^Audit chain verified/)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
