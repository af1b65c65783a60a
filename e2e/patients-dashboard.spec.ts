import { formatRevenueThousands, type DashboardSummary } from '../src/features/dashboard/dashboard.schema';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { choose, signIn, signInWithForm } from './helpers';

test.describe('patients (nurse manager)', () => {
  test('searches by part of a name, opens a snapshot, adds a patient and is told of a duplicate MRN', async ({
    page,
  }) => {
    await signIn(page, 'nurse_manager', '/patients');
    await expect(page.getByRole('heading', { name: 'Patients', level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: 'Patients' });
    await expect(page.getByText(/^Showing 25 of \d+ patients \(PHI is masked for your role\)$/)).toBeVisible();

    const search = page.getByPlaceholder('Name, phone, or MRN');
    await search.fill('a lop');
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('cell', { name: 'Maria Lopez', exact: true })).toBeVisible();
    // The nurse manager sees the year of birth only (docs/access.md), and a readable next visit.
    await expect(table.getByRole('cell', { name: 'XX-XX-1979' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Call Maria Lopez' })).toHaveAttribute('href', 'tel:5552147788');

    await page.getByRole('button', { name: 'View snapshot for Maria Lopez' }).click();
    const snapshot = page.getByRole('dialog', { name: 'Maria Lopez' });
    await expect(snapshot.getByRole('heading', { name: 'Demographics' })).toBeVisible();
    await expect(snapshot.getByRole('heading', { name: 'Clinical Information' })).toBeVisible();
    await expect(snapshot.getByText('Penicillin')).toBeVisible();
    await expect(snapshot.getByText('MRN-100001')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(snapshot).toBeHidden();

    await search.fill('zzzz-nobody');
    await expect(page.getByText('No patients found')).toBeVisible();
    await page.getByRole('button', { name: 'Reset Search' }).click();
    await expect(search).toHaveValue('');
    await expect(table.getByRole('row')).toHaveCount(26);

    const mrn = `MRN-E2E-${Date.now()}`;
    // This run's own name and phone: a patient left by an earlier run would make this one a likely duplicate.
    const name = `Evelyn Playwright ${Date.now().toString(36)}`;
    const phone = `(555) 010-${String(Date.now() % 10_000).padStart(4, '0')}`;
    await page.getByRole('button', { name: 'Add Patient' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add Patient' });
    await dialog.getByRole('button', { name: 'Add Patient' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await expect(dialog.getByText('Date of birth is required')).toBeVisible();
    await expect(dialog.getByText('Phone is required')).toBeVisible();
    await expect(dialog.getByText('MRN is required')).toBeVisible();
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Date of birth').fill('1985-04-12');
    await dialog.getByLabel('Phone').fill(phone);
    await dialog.getByLabel('MRN').fill(mrn);
    await dialog.getByRole('button', { name: 'Add Patient' }).click();
    await expect(page.getByText('Patient created', { exact: true })).toBeVisible();
    await expect(page.getByText('New patient has been added successfully', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();
    await search.fill(mrn);
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('cell', { name, exact: true })).toBeVisible();
    await expect(page.getByText(/^Showing 1 of 1 patients/)).toBeVisible();

    // A patient registered here has no address yet, which a claim to an insurer needs: the front desk adds it.
    await page.getByRole('button', { name: `View snapshot for ${name}` }).click();
    const added = page.getByRole('dialog', { name });
    const billing = added.getByRole('region', { name: 'Billing details' });
    await expect(billing.getByText('No address on file')).toBeVisible();
    await expect(billing.getByText('A claim to an insurer needs the full address.')).toBeVisible();
    await billing.getByRole('button', { name: 'Edit billing details' }).click();
    const details = page.getByRole('dialog', { name: 'Billing details' });
    await choose(page, 'Sex', 'Female');
    await details.getByLabel('Street address').fill('18 Harbor Lane');
    await details.getByLabel('City').fill('Springfield');
    await details.getByRole('button', { name: 'Save billing details' }).click();
    await expect(details.getByText('State is required with the rest of the address')).toBeVisible();
    await details.getByLabel('State').fill('il');
    await details.getByLabel('ZIP code').fill('62704-1234');
    await details.getByRole('button', { name: 'Save billing details' }).click();
    await expect(page.getByText('Billing details saved', { exact: true })).toBeVisible();
    await expect(details).toBeHidden();
    await expect(billing).toContainText('Female');
    await expect(billing).toContainText('18 Harbor Lane');
    await expect(billing).toContainText('Springfield, IL 62704-1234');
    await expect(billing.getByText('A claim to an insurer needs the full address.')).toHaveCount(0);
    // Not Escape: while the toast is up, Escape dismisses the toast first (Radix's top layer).
    await added.getByRole('button', { name: 'Close' }).click();
    await expect(added).toBeHidden();

    // The same name and date of birth again: the form shows the match and creates only when confirmed.
    await page.getByRole('button', { name: 'Add Patient' }).click();
    dialog = page.getByRole('dialog', { name: 'Add Patient' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Date of birth').fill('1985-04-12');
    await dialog.getByLabel('Phone').fill('(555) 010-99');
    await dialog.getByLabel('MRN').fill(`${mrn}-2`);
    await dialog.getByRole('button', { name: 'Add Patient' }).click();
    const warning = dialog.getByRole('alert').filter({ hasText: 'Possible duplicate patient' });
    await expect(warning).toBeVisible();
    await expect(warning).toContainText(`${name} · DOB XX-XX-1985 · Phone ${phone} · MRN ${mrn}`);
    await dialog.getByRole('button', { name: 'Create anyway' }).click();
    await expect(page.getByText('Patient created', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();
    await search.fill(name);
    await expect(table.getByRole('row')).toHaveCount(3);

    await page.getByRole('button', { name: 'Add Patient' }).click();
    dialog = page.getByRole('dialog', { name: 'Add Patient' });
    await dialog.getByLabel('Name').fill('Someone Else');
    await dialog.getByLabel('Date of birth').fill('1990-01-01');
    await dialog.getByLabel('Phone').fill('(555) 610-3030');
    await dialog.getByLabel('MRN').fill(mrn.toLowerCase());
    await dialog.getByRole('button', { name: 'Add Patient' }).click();
    await expect(dialog.getByText('Another patient already has this MRN')).toBeVisible();
    await expect(dialog.getByLabel('MRN')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Failed to create patient', { exact: true })).toBeVisible();
  });

  test('the patients screen and its snapshot have no serious accessibility violations', async ({ page }) => {
    await signIn(page, 'nurse_manager', '/patients');
    await expect(page.getByRole('table', { name: 'Patients' }).getByRole('row')).toHaveCount(26);
    expect(await seriousViolations(page)).toEqual([]);
    await page
      .getByRole('button', { name: /^View snapshot for / })
      .first()
      .click();
    await expect(page.getByRole('heading', { name: 'Demographics' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit billing details' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Edit billing details' }).click();
    await expect(page.getByRole('dialog', { name: 'Billing details' }).getByLabel('ZIP code')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test.describe('dashboard', () => {
  test('the admin sees four stat cards with the numbers the server computed', async ({ page }) => {
    await signIn(page, 'admin');
    await expect(page.getByRole('heading', { name: 'Dashboard Overview' })).toBeVisible();
    const response = await page.request.get('/api/dashboard/summary');
    expect(response.ok()).toBe(true);
    const summary = (await response.json()) as DashboardSummary;
    const { patients, todaysAppointments, pendingAuthorizations, revenueCollectedCents } = summary.stats;
    expect([patients, todaysAppointments, pendingAuthorizations, revenueCollectedCents]).not.toContain(null);
    const cards: [string, string][] = [
      ['Total Patients', patients.toLocaleString('en-US')],
      ["Today's Appointments", todaysAppointments.toLocaleString('en-US')],
      ['Pending Authorizations', pendingAuthorizations.toLocaleString('en-US')],
      ['Revenue Collected', formatRevenueThousands(revenueCollectedCents)],
    ];
    for (const [title, value] of cards) {
      await expect(page.getByRole('region', { name: title }).getByTestId('stat-value')).toHaveText(value);
    }
    await expect(page.getByTestId('stat-value')).toHaveCount(4);
    await expect(page.getByRole('heading', { name: 'Critical Alerts' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Recent Activity' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Quick Stats by Status' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('the nurse manager and the billing admin see the four stat cards too, revenue with its period', async ({
    page,
  }) => {
    for (const role of ['nurse_manager', 'billing_admin'] as const) {
      await signIn(page, role);
      await page.goto('/home');
      await expect(page.getByRole('region', { name: 'Total Patients' })).toBeVisible();
      await expect(page.getByTestId('stat-value')).toHaveCount(4);
      await expect(page.getByRole('region', { name: 'Revenue Collected' })).toContainText(
        'Payments received in the last 30 days',
      );
    }
  });
});

test.describe('guest landing', () => {
  test('a guest registers a patient account and signs in with it', async ({ page }) => {
    // Registering signs the guest out: a session of its own, not the one the other guest tests share.
    await signInWithForm(page, 'guest');
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    await page.getByRole('button', { name: 'Create Patient Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Patient Account' });
    const email = `e2e.registrant.${Date.now()}@example.com`;
    const password = 'a-long-e2e-passphrase';
    await dialog.getByLabel('Full name').fill('Imani Registrant');
    await dialog.getByLabel('Date of birth').fill('1992-06-30');
    await dialog.getByLabel('Phone').fill('(555) 700-8080');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Password', { exact: true }).fill('too-short');
    await dialog.getByLabel('Confirm password').fill('different');
    await dialog.getByRole('button', { name: 'Create account' }).click();
    await expect(dialog.getByText('Password must be at least 12 characters')).toBeVisible();
    await expect(dialog.getByText('Confirm password must match the password')).toBeVisible();
    await dialog.getByLabel('Password', { exact: true }).fill(password);
    await dialog.getByLabel('Confirm password').fill(password);
    await dialog.getByRole('button', { name: 'Create account' }).click();

    await expect(page.getByText('Account created', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Continue' }).click();
    const code = (await page.getByTestId('demo-code').locator('span').textContent())?.trim() ?? '';
    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByTestId('current-role')).toHaveText('patient');
    await expect(page).toHaveURL(/\/patient-portal$/);
    await expect(page.getByRole('heading', { name: 'My Health Portal' })).toBeVisible();
  });

  test('a guest finds a statement by account number and date of birth and pays part of it', async ({
    page,
    withDatabase,
  }) => {
    const claim = await withDatabase(async (db) => {
      const { rows } = await db.query<{ id: number; account_number: string; dob: string; due: number }>(`
        select c.id, c.account_number, p.dob::text as dob,
          (c.patient_responsibility_cents - coalesce(sum(pay.amount_cents), 0))::int as due
        from claims c join patients p on p.id = c.patient_id
        left join payments pay on pay.claim_id = c.id and pay.source in ('patient', 'guest')
        group by c.id, p.dob
        having c.patient_responsibility_cents - coalesce(sum(pay.amount_cents), 0) > 2000
        order by c.id desc limit 1`);
      return rows[0]!;
    });
    const money = (cents: number) =>
      `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

    await signIn(page, 'guest');
    await page.getByRole('button', { name: 'Pay Bill as Guest' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay Bill as Guest' });
    await dialog.getByLabel('Account number').fill(claim.account_number);
    const wrongDob = claim.dob === '1970-01-01' ? '1970-01-02' : '1970-01-01';
    await dialog.getByLabel("Patient's date of birth").fill(wrongDob);
    await dialog.getByRole('button', { name: 'Find statement' }).click();
    await expect(dialog.getByText('No statement matches that account number and date of birth.')).toBeVisible();

    await dialog.getByLabel("Patient's date of birth").fill(claim.dob);
    await dialog.getByRole('button', { name: 'Find statement' }).click();
    // Another line of the statement (e.g. what insurance paid) may show the same amount: read the amount due.
    await expect(dialog.locator('dt:text-is("Amount due") + dd')).toHaveText(money(claim.due));
    expect(await seriousViolations(page)).toEqual([]);

    const part = Math.floor(claim.due / 2);
    await dialog.getByLabel('Payment amount ($)').fill(String(claim.due / 100 + 1));
    await dialog.getByRole('button', { name: 'Pay now' }).click();
    await expect(
      dialog.getByText(`Payment amount ($) must be at most the amount due, ${money(claim.due)}`),
    ).toBeVisible();
    await dialog.getByLabel('Payment amount ($)').fill((part / 100).toFixed(2));
    await dialog.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByText('Payment received', { exact: true })).toBeVisible();
    await expect(dialog.getByText(`Paid ${money(part)} on account ${claim.account_number}`)).toBeVisible();
    await expect(dialog.locator('dt:text-is("Remaining amount due") + dd')).toHaveText(money(claim.due - part));

    const recorded = await withDatabase(async (db) => {
      const { rows } = await db.query<{ amount_cents: number; source: string }>(
        "select amount_cents, source from payments where claim_id = $1 and source = 'guest'",
        [claim.id],
      );
      return rows;
    });
    expect(recorded).toEqual([{ amount_cents: part, source: 'guest' }]);
  });

  test('the guest landing and its dialogs have no serious accessibility violations', async ({ page }) => {
    await signIn(page, 'guest');
    await expect(page.getByText('Guest Portal', { exact: true })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create Patient Account' }).click();
    await page
      .getByRole('dialog', { name: 'Create Patient Account' })
      .getByRole('button', { name: 'Create account' })
      .click();
    await expect(page.getByText('Full name is required')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
