import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { setPracticeTimeZone } from '@/shared/practice-zone';
import { apiError, fakeApi, type Route } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { ClaimDetail, ClaimScrubResult } from '../claims.schema';
import { claimDetail } from './claims.detail-fixture';
import { ClaimDetailDialog } from './ClaimDetailDialog';

function scrubResult(overrides: Partial<ClaimScrubResult>): ClaimScrubResult {
  return {
    claimId: 7,
    accountNumber: 'ACC-2026-100007',
    clean: true,
    status: 'Ready',
    edits: [],
    overrideReason: null,
    scrubbedAt: '2026-07-04T16:00:00Z',
    ...overrides,
  };
}

function serve(claim: ClaimDetail, more: Record<string, Route> = {}) {
  return fakeApi({ 'GET /api/claims/7': claim, ...more });
}

function renderView(canWrite = true) {
  return renderWithApp(
    <ClaimDetailDialog claimId={7} accountNumber="ACC-2026-100007" canWrite={canWrite} onClose={() => {}} />,
  );
}

/** A dl's term → description pairs, as read. */
function itemsOf(section: HTMLElement): Record<string, string> {
  const items: Record<string, string> = {};
  for (const term of within(section).getAllByRole('term')) {
    items[term.textContent ?? ''] = term.nextElementSibling?.textContent ?? '';
  }
  return items;
}

beforeAll(() => setPracticeTimeZone('America/New_York'));

describe('ClaimDetailDialog', () => {
  it('shows the header, coverage, numbered diagnoses, the lines with their pointers as codes, findings and history', async () => {
    serve(claimDetail({ referringProvider: { name: 'Dr. Lena Park', npi: '1245319599' } }));
    renderView();
    const dialog = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    const header = await within(dialog).findByRole('region', { name: 'Claim' });
    expect(itemsOf(header)).toMatchObject({
      'Patient control number': 'ACC-2026-100007',
      Status: 'Draft',
      Patient: 'Ana Silva',
      MRN: '*******01',
      // Masked by the server: shown as it came.
      'Date of birth': 'XX-XX-1984',
      'Rendering provider': 'Dr. Sarah Mitchell · NPI 1234567893',
      'Referring provider': 'Dr. Lena Park · NPI 1245319599',
      Payer: 'Aetna',
      'Place of service': '11 Office',
      Frequency: '7 Replacement of claim PAYER-998877',
      'Service date': 'Jul 1, 2026',
      Billed: '$249.00',
      Paid: '$0.00',
      Adjustments: '$15.00',
      'Patient responsibility': '$20.00',
      Balance: '$214.00',
    });
    expect(itemsOf(within(dialog).getByRole('region', { name: 'Coverage' }))).toEqual({
      Payer: 'Aetna',
      Priority: 'Primary',
      'Member ID': 'W123456789',
      Group: 'GRP-42',
      Relationship: 'Child',
      Subscriber: 'Marco Silva',
    });
    const diagnoses = within(dialog).getByRole('list', { name: 'Diagnoses (ICD-10-CM)' });
    expect(diagnoses.tagName).toBe('OL');
    expect(
      within(diagnoses)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['E11.9', 'I10', 'Z00.00']);

    const lines = within(dialog).getByRole('table', { name: 'Service lines' });
    expect(
      within(lines)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Line',
      'Procedure',
      'Modifiers',
      'Units',
      'Charge',
      'Diagnoses',
      'Service date',
      'Line control number',
    ]);
    const rows = within(lines).getAllByRole('row');
    const cells = (row: HTMLElement) => Array.from(row.children).map((cell) => cell.textContent);
    expect(cells(rows[1]!)).toEqual([
      '1',
      '99213Office visit, established patient, low complexity',
      '25',
      '1',
      '$149.00',
      'E11.9, I10',
      'Jul 1, 2026',
      'ACC-2026-100007-1',
    ]);
    expect(cells(rows[2]!)).toEqual(['2', '36415', '—', '2', '$100.00', 'Z00.00', 'Jul 1, 2026', 'ACC-2026-100007-2']);
    expect(within(rows[3]!).getByRole('rowheader', { name: 'Total' })).toBeTruthy();
    expect(rows[3]?.textContent).toContain('$249.00');

    const findings = within(dialog).getByRole('list', { name: 'Latest scrub findings' });
    expect(
      within(findings)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'ErrorLine 2 points at diagnosis 4, which the claim does not havelines[1].diagnosisPointers',
      'WarningTimely filing ends in 10 daysserviceDate',
    ]);
    expect(within(dialog).getByText('Scrubbed Jul 2, 2026 at 2:05 PM')).toBeTruthy();

    const history = within(dialog).getByRole('list', { name: 'Claim history' });
    const top = Array.from(history.children) as HTMLElement[];
    expect(top.map((li) => li.firstElementChild?.textContent)).toEqual([
      'Jul 2, 2026 at 10:00 AM Claim created',
      'Jul 2, 2026 at 2:05 PM Scrub found errors by Billing Admin',
      // A day without a time reads as the day alone.
      'Jul 3, 2026 Submitted to the payer',
    ]);
    expect(
      within(top[1]!).getByRole('list', { name: 'Findings of the scrub on Jul 2, 2026 at 2:05 PM' }).textContent,
    ).toContain('Line 2 points at diagnosis 4');
    expect(within(dialog).getByRole('button', { name: /Edit/ })).toBeTruthy();
  });

  it('shows a rejected claim back in Draft with the reason, and every submission', async () => {
    const rejected = {
      batchId: 12,
      sentAt: '2026-11-24T16:00:00Z',
      payer: 'Aetna',
      outcome: 'Rejected' as const,
      answeredBy: '277CA',
      answeredAt: '2026-11-25T15:00:00Z',
      code: 'A7:562:85',
      message:
        "A7:562:85 Rejected for invalid information: entity's National Provider Identifier (NPI) (billing provider)",
      payerClaimNumber: null,
      note: null,
    };
    serve(claimDetail({ status: 'Draft', submissions: [rejected] }));
    renderView();
    const notice = await screen.findByRole('alert', { name: 'Claim rejected' });
    expect(notice.textContent).toContain('Rejected by the payer (277CA) on Nov 25, 2026');
    expect(notice.textContent).toContain(rejected.message);
    const rows = within(screen.getByRole('table', { name: 'Submissions' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/^12Nov 24, 2026.*AetnaRejected \(277CA\)A7:562:85/),
    ]);
  });

  it("shows what the latest eligibility check said of the claim's service date", async () => {
    const base = claimDetail();
    serve(
      claimDetail({
        coverage: {
          ...base.coverage!,
          eligibility: {
            coverageId: base.coverage!.id,
            state: 'inactive',
            checkedAt: '2026-06-30T20:00:00.000Z',
            detail: 'The plan ended on Jun 15, 2026, before the day of service',
          },
        },
      }),
    );
    renderView();
    const dialog = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    const coverage = await within(dialog).findByRole('region', { name: 'Coverage' });
    expect(itemsOf(coverage)['Eligibility on the service date']).toBe(
      'Inactive, checked Jun 30, 2026 (The plan ended on Jun 15, 2026, before the day of service)',
    );
  });

  it('shows a self-pay claim without coverage and a claim never scrubbed', async () => {
    serve(claimDetail({ coverage: null, payer: 'Self-Pay', lastScrub: null, history: [], frequencyCode: '1' }));
    renderView();
    const dialog = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    expect(await within(dialog).findByText('Self-pay: no insurance is billed.')).toBeTruthy();
    expect(within(dialog).getByText('Not scrubbed yet.')).toBeTruthy();
    expect(within(dialog).getByText('No events recorded.')).toBeTruthy();
    expect(itemsOf(within(dialog).getByRole('region', { name: 'Claim' })).Frequency).toBe('1 Original');
  });

  it('shows a loading state, then an error with a retry that loads the claim', async () => {
    let attempt = 0;
    serve(claimDetail(), {
      'GET /api/claims/7': () =>
        ++attempt === 1 ? apiError(500, 'INTERNAL', 'The server could not complete the request.') : claimDetail(),
    });
    const user = userEvent.setup();
    renderView();
    expect(screen.getByLabelText('Loading claim')).toBeTruthy();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The claim could not be loaded.');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Coverage' })).toBeTruthy();
  });

  it('scrubs: errors hold the claim, shown in place with the held toast', async () => {
    const held = scrubResult({
      clean: false,
      status: 'Draft',
      edits: [
        { code: 'NPI_CHECK', severity: 'error', field: 'renderingProvider.npi', message: 'Rendering NPI fails check' },
        { code: 'DX_DOT', severity: 'error', field: 'diagnoses[0]', message: 'Diagnosis 1 is not billable' },
      ],
    });
    const api = serve(claimDetail({ lastScrub: null }), { 'POST /api/claims/7/scrub': held });
    const user = userEvent.setup();
    renderView();
    const dialog = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    await user.click(await within(dialog).findByRole('button', { name: 'Scrub' }));
    expect(await screen.findByText('Claim held: 2 errors')).toBeTruthy();
    expect(api.sent('POST /api/claims/7/scrub').map((r) => r.body)).toEqual([{}]);
    const findings = within(dialog).getByRole('list', { name: 'Latest scrub findings' });
    expect(
      within(findings)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['ErrorRendering NPI fails checkrenderingProvider.npi', 'ErrorDiagnosis 1 is not billablediagnoses[0]']);
    expect(within(dialog).getByRole('status').textContent).toBe('Held: 2 errors to fix.');
    expect(within(dialog).queryByRole('button', { name: 'Send with warnings' })).toBeNull();
    // The view is read again after the scrub (status and history change on the server).
    await waitFor(() => expect(api.sent('GET /api/claims/7').length).toBeGreaterThan(1));
  });

  it('warnings alone: a reason (5 to 500 characters) re-scrubs with it and the claim is ready', async () => {
    const warning = {
      code: 'TIMELY_FILING_NEAR',
      severity: 'warning' as const,
      field: 'serviceDate',
      message: 'Timely filing ends in 10 days',
    };
    const api = serve(claimDetail({ lastScrub: null }), {
      'POST /api/claims/7/scrub': (r) =>
        (r.body as { overrideReason?: string }).overrideReason
          ? scrubResult({ edits: [warning], overrideReason: 'Filed today, within the limit' })
          : scrubResult({ status: 'Draft', edits: [warning] }),
    });
    const user = userEvent.setup();
    renderView();
    const dialog = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    await user.click(await within(dialog).findByRole('button', { name: 'Scrub' }));
    expect(await within(dialog).findByText('Held: 1 warning to accept with a reason, or fix.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Send with warnings' }));
    const reason = within(dialog).getByLabelText('Reason for sending with warnings');
    await user.type(reason, 'late');
    await user.click(within(dialog).getByRole('button', { name: 'Send with warnings' }));
    expect(
      await within(dialog).findByText(
        'Reason for sending with warnings must say why the warnings are accepted (at least 5 characters)',
      ),
    ).toBeTruthy();
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(api.sent('POST /api/claims/7/scrub')).toHaveLength(1);

    await user.clear(reason);
    await user.type(reason, 'Filed today, within the limit');
    await user.click(within(dialog).getByRole('button', { name: 'Send with warnings' }));
    expect(await screen.findByText('Claim is ready to submit')).toBeTruthy();
    expect(api.sent('POST /api/claims/7/scrub').map((r) => r.body)).toEqual([
      {},
      { overrideReason: 'Filed today, within the limit' },
    ]);
    expect(within(dialog).getByRole('status').textContent).toBe(
      'Ready to submit: 1 warning accepted (Filed today, within the limit).',
    );
  });

  it('offers no Edit or Scrub to a role without claims:write, nor on a claim already sent', async () => {
    serve(claimDetail());
    renderView(false);
    const dialog = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    await within(dialog).findByRole('region', { name: 'Coverage' });
    expect(within(dialog).queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Scrub' })).toBeNull();
  });

  it('offers no Edit or Scrub on a submitted claim', async () => {
    serve(claimDetail({ status: 'Submitted' }));
    renderView();
    const dialog = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    await within(dialog).findByRole('region', { name: 'Coverage' });
    expect(within(dialog).queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Scrub' })).toBeNull();
  });

  it('edits the claim: the form opens with its values and the view shows the saved claim', async () => {
    const saved = claimDetail({ placeOfService: '10', history: [] });
    const api = serve(claimDetail(), {
      'GET /api/claims/providers': [{ id: 2, name: 'Dr. Sarah Mitchell' }],
      'GET /api/patients/3/coverages': [
        {
          id: 31,
          patientId: 3,
          payer: 'Aetna',
          priority: 1,
          memberId: 'W123456789',
          groupNumber: 'GRP-42',
          relationship: 'child',
          subscriberName: 'Marco Silva',
          subscriberDob: null,
          effectiveOn: '2026-01-01',
          endOn: null,
        },
      ],
      'PUT /api/claims/7': saved,
    });
    const user = userEvent.setup();
    renderView();
    const view = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    await user.click(await within(view).findByRole('button', { name: /Edit/ }));
    const form = await screen.findByRole('dialog', { name: 'Edit claim ACC-2026-100007' });
    expect(within(form).getByLabelText<HTMLInputElement>('Patient').disabled).toBe(true);
    await waitFor(() => expect(within(form).getByLabelText<HTMLSelectElement>('Coverage').value).toBe('31'));
    expect(within(form).getByLabelText<HTMLInputElement>('Line 1 Charge ($)').value).toBe('149.00');
    await user.selectOptions(within(form).getByLabelText('Place of service'), '10 Telehealth at home');
    api.on('GET /api/claims/7', saved);
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Claim saved')).toBeTruthy();
    expect(api.sent('PUT /api/claims/7').map((r) => (r.body as { placeOfService: string }).placeOfService)).toEqual([
      '10',
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit claim ACC-2026-100007' })).toBeNull());
    await waitFor(() =>
      expect(itemsOf(within(view).getByRole('region', { name: 'Claim' }))['Place of service']).toBe(
        '10 Telehealth at home',
      ),
    );
  });
  it("bills the balance to the patient's next policy once the payer has adjudicated, and opens the new claim", async () => {
    const paid = claimDetail({
      status: 'Partially Paid',
      payer: 'Medicare',
      nextPolicy: { payer: 'Cigna', billable: true, reason: null },
    });
    const made = claimDetail({
      id: 8,
      accountNumber: 'ACC-2026-M0000008',
      status: 'Draft',
      payer: 'Cigna',
      primaryClaim: { id: 7, accountNumber: 'ACC-2026-100007', payer: 'Medicare' },
      priorPayersCents: 17_200,
      nextPolicy: null,
    });
    const api = serve(paid, { 'POST /api/claims/7/next-policy': made, 'GET /api/claims/8': made });
    const user = userEvent.setup();
    renderView();
    const dialog = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    const policies = await within(dialog).findByRole('region', { name: 'Other policies' });
    expect(itemsOf(policies)).toEqual({ 'Next policy': 'Cigna' });
    await user.click(within(policies).getByRole('button', { name: 'Bill Cigna for the balance' }));
    expect(await screen.findByText('Claim created')).toBeTruthy();
    expect(api.sent('POST /api/claims/7/next-policy')).toHaveLength(1);
    // The new claim opens in the same view, saying which claim it bills after; that one is a click away.
    const opened = await screen.findByRole('dialog', { name: 'Claim ACC-2026-M0000008' });
    const after = await within(opened).findByRole('region', { name: 'Other policies' });
    expect(itemsOf(after)).toEqual({
      'Billed after': "Medicare's adjudication of ACC-2026-100007",
      'Settled by earlier payers': '$172.00',
    });
    await user.click(within(after).getByRole('button', { name: 'ACC-2026-100007' }));
    expect(await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' })).toBeTruthy();
  });

  it('writes off a denied claim with a reason, announced; offered only for a denied or partially paid claim', async () => {
    const denied = claimDetail({ status: 'Denied', payer: 'Aetna', balanceCents: 21_400 });
    const api = serve(denied, {
      'POST /api/claims/7/write-off': { id: 7, accountNumber: 'ACC-2026-100007', status: 'Written Off' },
    });
    const user = userEvent.setup();
    renderView();
    const view = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    await user.click(await within(view).findByRole('button', { name: 'Write off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Write off claim ACC-2026-100007?' });
    expect(within(dialog).getByText(/\$214\.00 is still owed on this claim/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Write off' }));
    expect(await within(dialog).findByText('Reason is required')).toBeTruthy();
    expect(api.sent('POST /api/claims/7/write-off')).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason'), 'Below the cost of an appeal');
    await user.click(within(dialog).getByRole('button', { name: 'Write off' }));
    expect(await screen.findByText('Claim written off')).toBeTruthy();
    expect(api.sent('POST /api/claims/7/write-off').map((r) => r.body)).toEqual([
      { reason: 'Below the cost of an appeal' },
    ]);
  });

  it('appeals a denied claim from its view: the dialog names the claim, the appeal is sent and announced', async () => {
    const denied = claimDetail({ status: 'Denied', reason: 'CO-197' });
    const api = serve(denied, {
      'POST /api/claims/7/appeals': {
        id: 7,
        accountNumber: 'ACC-2026-100007',
        patient: 'Ana Silva',
        status: 'Appealed',
      },
    });
    const user = userEvent.setup();
    renderView();
    const view = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    await user.click(await within(view).findByRole('button', { name: 'Appeal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appeal claim' });
    expect(
      within(dialog).getByText(
        /^ACC-2026-100007: Ana Silva, 99213, 36415 on .*, billed \$249\.00 to Aetna; Denied \(CO-197\)/,
      ),
    ).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Reason'), 'Authorization was on file');
    await user.click(within(dialog).getByRole('button', { name: 'Submit appeal' }));
    expect(await screen.findByText('Appeal recorded')).toBeTruthy();
    expect(api.sent('POST /api/claims/7/appeals').map((r) => r.body)).toEqual([
      { reason: 'Authorization was on file', note: '', level: 'first', deadline: null },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Appeal claim' })).toBeNull());
  });

  it('reopens a claim the payer has to correct it, with a reason, announced', async () => {
    const api = serve(claimDetail({ status: 'Paid', payer: 'Aetna', frequencyCode: '1', originalClaimNumber: null }), {
      'POST /api/claims/7/correct': { id: 7, accountNumber: 'ACC-2026-100007', status: 'Draft' },
    });
    const user = userEvent.setup();
    renderView();
    const view = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    // Paid: not appealed or written off, but it may be corrected.
    expect(within(view).queryByRole('button', { name: 'Appeal' })).toBeNull();
    await user.click(await within(view).findByRole('button', { name: 'Correct' }));
    const dialog = await screen.findByRole('dialog', { name: 'Correct claim ACC-2026-100007?' });
    expect(within(dialog).getByText(/goes to Aetna again as a replacement of its claim number/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Reopen to correct' }));
    expect(await within(dialog).findByText('Reason is required')).toBeTruthy();
    expect(api.sent('POST /api/claims/7/correct')).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason'), 'Wrong diagnosis pointer on line 2');
    await user.click(within(dialog).getByRole('button', { name: 'Reopen to correct' }));
    expect(await screen.findByText('Claim reopened to correct')).toBeTruthy();
    expect(api.sent('POST /api/claims/7/correct').map((r) => r.body)).toEqual([
      { reason: 'Wrong diagnosis pointer on line 2' },
    ]);
  });

  it('prepares a void of a claim the payer has, with a reason, and says what happens next', async () => {
    const api = serve(
      claimDetail({ status: 'Accepted', payer: 'Aetna', frequencyCode: '1', originalClaimNumber: null }),
      {
        'POST /api/claims/7/void-at-payer': { id: 7, accountNumber: 'ACC-2026-100007', status: 'Draft' },
      },
    );
    const user = userEvent.setup();
    renderView();
    const view = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    await user.click(await within(view).findByRole('button', { name: 'Void at payer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Void claim ACC-2026-100007 at Aetna?' });
    expect(within(dialog).getByText(/counts as owed until Aetna accepts the void, and is voided then/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Prepare the void' }));
    expect(await within(dialog).findByText('Reason is required')).toBeTruthy();
    expect(api.sent('POST /api/claims/7/void-at-payer')).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason'), 'Billed under the wrong patient');
    await user.click(within(dialog).getByRole('button', { name: 'Prepare the void' }));
    expect(await screen.findByText('Void prepared')).toBeTruthy();
    expect(api.sent('POST /api/claims/7/void-at-payer').map((r) => r.body)).toEqual([
      { reason: 'Billed under the wrong patient' },
    ]);
  });

  it('offers no appeal or write-off for a claim the payer has not answered, nor to those who only read claims', async () => {
    serve(claimDetail({ status: 'Submitted' }));
    const { unmount } = renderView();
    const view = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    await within(view).findByRole('region', { name: 'Claim' });
    expect(within(view).queryByRole('button', { name: 'Write off' })).toBeNull();
    expect(within(view).queryByRole('button', { name: 'Appeal' })).toBeNull();
    // Submitted: the payer has not acknowledged it yet, so there is no claim of its own to replace or void.
    expect(within(view).queryByRole('button', { name: 'Correct' })).toBeNull();
    expect(within(view).queryByRole('button', { name: 'Void at payer' })).toBeNull();
    unmount();
    serve(claimDetail({ status: 'Denied' }));
    renderView(false);
    const readOnly = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    await within(readOnly).findByRole('region', { name: 'Claim' });
    expect(within(readOnly).queryByRole('button', { name: 'Write off' })).toBeNull();
    expect(within(readOnly).queryByRole('button', { name: 'Appeal' })).toBeNull();
    expect(within(readOnly).queryByRole('button', { name: 'Correct' })).toBeNull();
    expect(within(readOnly).queryByRole('button', { name: 'Void at payer' })).toBeNull();
  });

  it('names the claim its balance was billed to next, and how much of it', async () => {
    serve(
      claimDetail({
        status: 'Partially Paid',
        payer: 'Medicare',
        balanceCents: 0,
        handedOnCents: 2_800,
        laterClaims: [{ id: 8, accountNumber: 'ACC-2026-M0000008', payer: 'Cigna' }],
        nextPolicy: { payer: 'Cigna', billable: false, reason: 'is billed to Cigna already, as ACC-2026-M0000008' },
      }),
    );
    renderView();
    const dialog = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    const policies = await within(dialog).findByRole('region', { name: 'Other policies' });
    expect(itemsOf(policies)).toEqual({ 'Billed next': 'Cigna as ACC-2026-M0000008, for $28.00' });
  });

  it('says why the next policy cannot be billed yet, and offers it only to those who may edit claims', async () => {
    serve(
      claimDetail({
        status: 'Submitted',
        payer: 'Medicare',
        nextPolicy: { payer: 'Cigna', billable: false, reason: 'Medicare has not adjudicated the claim yet' },
      }),
    );
    renderView();
    const dialog = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    const policies = await within(dialog).findByRole('region', { name: 'Other policies' });
    expect(itemsOf(policies)).toEqual({
      'Next policy': 'Cigna: Medicare has not adjudicated the claim yet',
    });
    expect(within(policies).queryByRole('button')).toBeNull();
  });

  it('shows no billing action to a reader, and no policies part for a claim with no other policy', async () => {
    serve(claimDetail({ status: 'Paid', nextPolicy: { payer: 'Cigna', billable: true, reason: null } }));
    const { unmount } = renderView(false);
    const dialog = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    const policies = await within(dialog).findByRole('region', { name: 'Other policies' });
    expect(within(policies).queryByRole('button', { name: /^Bill / })).toBeNull();
    unmount();
    serve(claimDetail());
    renderView();
    const plain = await screen.findByRole('dialog', { name: 'Claim ACC-2026-100007' });
    await within(plain).findByRole('region', { name: 'Claim' });
    expect(within(plain).queryByRole('region', { name: 'Other policies' })).toBeNull();
  });
});
