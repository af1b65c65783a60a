import { eraFile, eraHeader } from '../src/testing/era-files';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { choose, downloadedCsv, signIn } from './helpers';

const amt = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

test.describe('remittances and the work queue', () => {
  test('the billing admin uploads an ERA, sees the claims posted and the exception in the work queue, assigns it and resolves it', async ({
    page,
    withDatabase,
  }) => {
    // Claims billed to Aetna, the file's payer (eraHeader's): a payer's remittance pays only claims it was billed.
    const claims = await withDatabase(
      async (client) =>
        (
          await client.query<{
            account_number: string;
            billed_cents: number;
            lcn: string;
            code: string;
            mods: string[];
          }>(
            `select c.account_number, c.billed_cents, l.line_control_number as lcn, l.procedure_code as code,
             l.modifiers as mods
           from claims c join claim_lines l on l.claim_id = c.id
           where c.payer = 'Aetna' and c.status in ('Submitted', 'Pending') and c.paid_cents = 0 and c.voided_at is null
             and c.billed_cents >= 10000 and (select count(*) from claim_lines x where x.claim_id = c.id) = 1
           order by c.id limit 2`,
          )
        ).rows,
    );
    expect(claims).toHaveLength(2);
    let paid = 0;
    const body: string[] = [];
    for (const c of claims) {
      const p = c.billed_cents - 2000;
      paid += p;
      body.push(
        `CLP*${c.account_number}*1*${amt(c.billed_cents)}*${amt(p)}**12*E2E${c.lcn}`,
        `SVC*HC:${[c.code, ...c.mods].join(':')}*${amt(c.billed_cents)}*${amt(p)}**1`,
        'CAS*CO*45*20.00',
        `REF*6R*${c.lcn}`,
      );
    }
    // A claim payment for an account the practice does not have: it goes to the work queue.
    body.push('CLP*E2E-UNKNOWN-1*1*50.00*40.00**12*E2EX', 'CAS*CO*45*10.00');
    const file = eraFile([...eraHeader({ paid: amt(paid + 4000), trace: 'E2E-TRACE-1' }), ...body]);

    await signIn(page, 'billing_admin', '/remittances');
    await expect(page.getByRole('heading', { level: 1, name: 'Remittances' })).toBeVisible();
    await expect(page.getByText('No remittances imported yet')).toBeVisible();
    await page
      .getByTestId('era-file')
      .setInputFiles({ name: 'era.835', mimeType: 'text/plain', buffer: Buffer.from(file) });
    await expect(page.getByText('Remittance imported', { exact: true })).toBeVisible();
    await expect(
      page.getByText(
        `2 claims posted ($${(paid / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}), 1 sent to the work queue.`,
        { exact: true },
      ),
    ).toBeVisible();
    const row = page.getByRole('table', { name: 'Remittances' }).locator('tbody tr').first();
    await expect(row).toContainText('Aetna');
    await expect(row).toContainText('2026-11-18');
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole('button', { name: 'E2E-TRACE-1' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('In work queue')).toBeVisible();
    await expect(dialog.getByText('Posted', { exact: true })).toHaveCount(2);
    await expect(dialog.getByText('CLP01 E2E-UNKNOWN-1 (segment', { exact: false })).toBeVisible();
    const { fileName, rows } = await downloadedCsv(page, () =>
      dialog.getByRole('button', { name: 'Download CSV' }).click(),
    );
    expect(fileName).toBe('remittance-E2E-TRACE-1.csv');
    expect(rows[0]).toEqual([
      'Account',
      'Patient',
      'Claim status (CLP02)',
      'Outcome',
      'Line control number',
      'Entry',
      'Adjustment',
      'Counts as',
      'Amount',
    ]);
    expect(rows.filter((r) => r[5] === 'payment').map((r) => r[8])).toEqual(
      claims.map((c) => amt(c.billed_cents - 2000)),
    );
    await page.keyboard.press('Escape');

    // Uploading the same file again posts nothing.
    await page
      .getByTestId('era-file')
      .setInputFiles({ name: 'era.835', mimeType: 'text/plain', buffer: Buffer.from(file) });
    await expect(page.getByText('Already imported', { exact: true })).toBeVisible();

    await page.goto('/work-queue');
    await expect(page.getByRole('heading', { level: 1, name: 'Work Queue' })).toBeVisible();
    // This ERA's exception only: other files' tests on this server may have left items of their own (a 277CA
    // rejection).
    const items = page
      .getByRole('table', { name: 'Work items' })
      .locator('tbody tr')
      .filter({ hasText: 'E2E-UNKNOWN-1' });
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText('Unmatched claim');
    await expect(items.first()).toContainText('Unassigned');
    expect(await seriousViolations(page)).toEqual([]);

    await items.first().getByRole('button', { name: 'E2E-UNKNOWN-1' }).click();
    const item = page.getByRole('dialog');
    await choose(page, 'Assignee', 'Sam Ortiz');
    await expect(page.getByText('Item assigned', { exact: true })).toBeVisible();
    await item.getByLabel('Add a note').fill('Not our patient: the payer sent another practice’s claim.');
    await item.getByRole('button', { name: 'Add note' }).click();
    await expect(item.getByText('Not our patient: the payer sent another practice’s claim.')).toBeVisible();
    await choose(page, 'Outcome', 'Written off');
    await expect(item.getByRole('button', { name: 'Resolve' })).toBeDisabled();
    await item.getByLabel('Reason (required)').fill('Returned to the payer as not ours');
    await item.getByRole('button', { name: 'Resolve' }).click();
    await expect(page.getByText('Item resolved', { exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(items).toHaveCount(0);

    await choose(page, 'Status', 'Resolved');
    await expect(items.first()).toContainText('E2E-UNKNOWN-1');
    await expect(items.first()).toContainText('Sam Ortiz');
  });

  test('the admin adds an auto-assignment rule and removes it', async ({ page }) => {
    await signIn(page, 'admin', '/work-queue');
    await expect(page.getByText('No rules yet: new items stay unassigned')).toBeVisible();
    await choose(page, 'Rule payer', 'Medicare');
    await choose(page, 'Rule category', 'Eligibility');
    await choose(page, 'Rule assignee', 'Sam Ortiz');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const rules = page.getByRole('list', { name: 'Assignment rules' });
    await expect(rules).toContainText('Medicare · Eligibility → Sam Ortiz');
    expect(await seriousViolations(page)).toEqual([]);
    await rules.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('No rules yet: new items stay unassigned')).toBeVisible();
  });
});
