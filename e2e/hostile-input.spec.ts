import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_TODAY, expect, test } from './fixtures';
import { signIn } from './helpers';

/**
 * Stored text containing markup renders inert (ASVS V1.2 injection, V1.3 output
 * encoding / XSS; HIPAA 164.312(c)(1) integrity of what staff read). Every free-text field a user can
 * write and that a screen shows back is stored with script payloads through the API, then each screen
 * that shows it is opened: the payload must appear literally as text, no element it describes may exist,
 * `window.__xss` stays undefined and no dialog opens.
 *
 * Free-text fields written by users and shown back (found in the *.schema.ts write contracts):
 * patient name, notes, allergies, meds (POST /api/patients → Patients list, snapshot, global search,
 * Appointments cards); appointment reason (POST /api/appointments → Appointments cards); appeal reason
 * and note (POST /api/claims/:id/appeals → the audit log's detail); a user's name (POST /api/users →
 * Settings › Users, audit log). Authorizations, compliance gaps and settings take only choices (status,
 * booleans, hours), no free text.
 */
const SCRIPT = '<script>window.__xss=1</script>';
const IMG = '<img src=x onerror="window.__xss=1">';
const SVG = '<svg onload="window.__xss=1"></svg>';
const LINK = '<a href="javascript:window.__xss=1">x</a>';
const ATTR = '" autofocus onfocus="window.__xss=1" x="';

// Letters only: a patient search holding three or more digits also matches phones by them (patients.queries.ts),
// and a token such as 'mx5edm52' then listed two dozen other patients before this run's on the first page.
const run = Date.now()
  .toString(36)
  .replace(/\d/g, (digit) => 'qrstuvwxyz'.charAt(Number(digit)));
const patientName = `Xss ${run} ${SCRIPT}`;
const notes = `Notes ${IMG} ${SVG} ${LINK} ${ATTR}`;
const allergy = `Allergy ${IMG}`;
const med = `Med ${SVG}`;
const reason = `Reason ${SCRIPT} ${IMG}`;
const appealReason = `Appeal ${IMG}`;
const appealNote = `Note ${SCRIPT}`;
const userName = `User ${run} ${IMG}`;

interface Watch {
  dialogs: string[];
}

async function watch(page: Page): Promise<Watch> {
  const seen: Watch = { dialogs: [] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return seen;
}

async function expectInert(page: Page, seen: Watch) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(seen.dialogs).toEqual([]);
  // No payload became an element.
  await expect(page.locator('img[src="x"], svg[onload], a[href^="javascript:"], [onfocus]')).toHaveCount(0);
}

async function csrfOf(request: APIRequestContext): Promise<string> {
  const session = await request.get('/api/auth/session');
  expect(session.status()).toBe(200);
  const token = ((await session.json()) as { csrfToken: string | null }).csrfToken;
  if (!token) throw new Error('no CSRF token');
  return token;
}

test('stored markup renders as inert text on every screen that shows it', async ({ page }) => {
  const seen = await watch(page);
  await signIn(page, 'admin');
  const request = page.request;
  const headers = { 'X-CSRF-Token': await csrfOf(request) };

  // Patient with payloads in every free-text field.
  const created = await request.post('/api/patients', {
    headers,
    data: {
      name: patientName,
      dob: '1970-05-05',
      // A phone of this run's own: another run's patient with this one would make it a likely duplicate.
      phone: `(555) 010-${String(Date.now() % 10_000).padStart(4, '0')}`,
      mrn: `XSS-${run}`,
      notes,
      allergies: [allergy],
      meds: [med],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patient = (await created.json()) as { id: number; name: string; notes: string };
  expect(patient.name).toBe(patientName);
  expect(patient.notes).toBe(notes);

  // Appointment today for that patient, with a payload reason (first free slot).
  const providers = (await (await request.get('/api/providers')).json()) as { id: number }[];
  const date = E2E_TODAY;
  let booked = false;
  for (let minutes = 8 * 60; minutes < 17 * 60 && !booked; minutes += 15) {
    const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    const res = await request.post('/api/appointments', {
      headers,
      data: { patientId: patient.id, providerId: providers[0]!.id, reason, date, time },
    });
    booked = res.status() === 201;
    if (!booked) expect([400, 409, 422], await res.text()).toContain(res.status());
  }
  expect(booked, 'an appointment could be booked today').toBe(true);

  // Appeal of a denied claim.
  const claims = (await (await request.get('/api/claims?limit=500')).json()) as {
    items: { id: number; status: string }[];
  };
  const denied = claims.items.find((c) => c.status === 'Denied' || c.status === 'Partially Paid');
  expect(denied, 'a denied claim to appeal').toBeDefined();
  const appeal = await request.post(`/api/claims/${denied!.id}/appeals`, {
    headers,
    data: { reason: appealReason, note: appealNote },
  });
  expect(appeal.status(), await appeal.text()).toBeLessThan(300);

  // A staff user with a payload name.
  const user = await request.post('/api/users', {
    headers,
    data: { name: userName, email: `xss.${run}@healthcare.demo`, role: 'nurse_manager' },
  });
  expect(user.status(), await user.text()).toBeLessThan(300);

  // Patients: the list (searched by name) and the snapshot with notes, allergies and meds.
  await page.goto('/patients');
  await page.getByPlaceholder('Name, phone, or MRN').fill(`Xss ${run}`);
  await expect(page.getByText(patientName, { exact: true }).first()).toBeVisible();
  await expectInert(page, seen);
  await page.getByRole('button', { name: `View snapshot for ${patientName}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(notes)).toBeVisible();
  await expect(dialog.getByText(allergy)).toBeVisible();
  await expect(dialog.getByText(med)).toBeVisible();
  await expectInert(page, seen);
  await page.keyboard.press('Escape');

  // Global search shows the name.
  await page.getByLabel('Global search').fill(`Xss ${run}`);
  await expect(page.getByText(patientName).first()).toBeVisible();
  await expectInert(page, seen);

  // Appointments: today's card shows the reason and the patient's name.
  await page.goto('/appointments');
  await expect(page.getByText(reason, { exact: true }).first()).toBeVisible();
  await expect(page.getByText(patientName).first()).toBeVisible();
  await expectInert(page, seen);

  // Audit log: the appeal's reason and the new user's name are in the details.
  await page.goto('/audit');
  await expect(page.getByText(appealReason).first()).toBeVisible();
  await expectInert(page, seen);

  // Settings › Users lists the new user by name.
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Users' }).click();
  await expect(page.getByText(userName).first()).toBeVisible();
  await expectInert(page, seen);
});
