import { readFile } from 'node:fs/promises';
import { ack277CA } from '../src/testing/x12-acknowledgements';
import { claimsReadBack } from '../src/testing/x12-837-read';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { signIn } from './helpers';

interface ReadyClaim {
  id: number;
  account_number: string;
  billed_cents: number;
}

test.describe('claim batches', () => {
  test('the billing admin sends a batch, downloads its 837 and sees the claim a 277CA rejects', async ({
    page,
    withDatabase,
  }) => {
    // Three Aetna claims made Ready here: scrubbing them to Ready is the claims tests' part.
    const ready = await withDatabase(async (db) => {
      const { rows } = await db.query<ReadyClaim>(
        `update claims set status = 'Ready' where id in (
           select id from claims where payer = 'Aetna' and voided_at is null and coverage_id is not null
             and status not in ('Ready', 'Submitted') order by id limit 3)
         returning id, account_number, billed_cents`,
      );
      return rows.sort((a, b) => a.id - b.id);
    });
    expect(ready).toHaveLength(3);

    await signIn(page, 'billing_admin', '/claims');
    await page.getByRole('navigation', { name: 'Claims views' }).getByRole('link', { name: 'Batches' }).click();
    await expect(page).toHaveURL(/\/claims\/batches$/);
    const batches = page.getByRole('table', { name: 'Batches' });
    await expect(batches).toContainText('No batches yet');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Create batch for Aetna' }).click();
    await expect(page.getByText('Batch created', { exact: true })).toBeVisible();
    const row = batches.locator('tbody tr').first();
    await expect(row).toContainText('Aetna');
    await expect(row).toContainText('Submitted');
    await expect(row.locator('td').nth(2)).toHaveText('3');

    // The 837 downloads under its name and holds the three claims.
    const downloading = page.waitForEvent('download');
    await row.getByRole('link', { name: /^Download the 837 of batch \d+$/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^837P-batch-\d+-\d{9}\.txt$/);
    const file = await readFile(await download.path(), 'utf8');
    expect(claimsReadBack(file).map((c) => [c.accountNumber, c.totalCents])).toEqual(
      ready.map((c) => [c.account_number, c.billed_cents]),
    );

    // The 277CA accepts two claims and rejects the third for its billing NPI.
    const [first, second, rejected] = ready;
    const ack = ack277CA({
      interchangeControlNumber: 7001,
      claims: [
        { accountNumber: first!.account_number, status: 'A2:20:PR', billedCents: first!.billed_cents },
        { accountNumber: second!.account_number, status: 'A2:20:PR', billedCents: second!.billed_cents },
        {
          accountNumber: rejected!.account_number,
          status: 'A7:562:85',
          billedCents: rejected!.billed_cents,
          text: 'BILLING NPI NOT ON FILE',
        },
      ],
    });
    await page.getByRole('button', { name: 'Upload acknowledgement' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload acknowledgement' });
    await dialog
      .getByLabel('999, 277CA or 277 file')
      .setInputFiles({ name: '277ca.txt', mimeType: 'text/plain', buffer: Buffer.from(ack) });
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('277CA: 2 claims accepted, 1 claim rejected', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('2 accepted, 1 rejected');

    // The rejected claim is Draft again, its reason on its view.
    await page.getByRole('navigation', { name: 'Claims views' }).getByRole('link', { name: 'All claims' }).click();
    await page.getByRole('searchbox', { name: /Search claims/ }).fill(rejected!.account_number);
    await page.getByRole('button', { name: `View claim ${rejected!.account_number}` }).click();
    const view = page.getByRole('dialog', { name: `Claim ${rejected!.account_number}` });
    const notice = view.getByRole('alert', { name: 'Claim rejected' });
    await expect(notice).toContainText('Rejected by the payer (277CA)');
    await expect(notice).toContainText(
      "A7:562:85 Rejected for invalid information: entity's National Provider Identifier (NPI) (billing provider) — BILLING NPI NOT ON FILE",
    );
    await expect(view.getByRole('term').filter({ hasText: 'Status' }).locator('+ dd')).toContainText('Draft');
    expect(await seriousViolations(page)).toEqual([]);

    // The rejection waits in the work queue for somebody to correct and resend the claim.
    await page.keyboard.press('Escape');
    await page.goto('/work-queue');
    const item = page
      .getByRole('table', { name: 'Work items' })
      .locator('tbody tr')
      .filter({ hasText: rejected!.account_number });
    await expect(item).toHaveCount(1);
    await expect(item).toContainText('Rejected by 277CA: A7:562:85');
  });
});
