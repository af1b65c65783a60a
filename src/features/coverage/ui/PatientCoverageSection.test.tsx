import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending, reply, type FakeRequest } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { Coverage } from '../coverage.schema';
import type { EligibilityCheck } from '../coverage.eligibility.schema';
import { PatientCoverageSection } from './PatientCoverageSection';

const LIST = 'GET /api/patients/:id/coverages';
const PAYERS = [
  { name: 'Aetna', claimFilingIndicator: 'CI' },
  { name: 'Medicare', claimFilingIndicator: 'MB' },
];

const aetna: Coverage = {
  id: 11,
  patientId: 7,
  payer: 'Aetna',
  priority: 1,
  memberId: 'W123456789',
  groupNumber: 'GRP100200',
  relationship: 'child',
  subscriberName: 'Ruth Example',
  subscriberDob: '1970-05-06',
  effectiveOn: '2024-01-01',
  endOn: null,
  medicareSecondaryType: null,
};
const cigna: Coverage = {
  id: 12,
  patientId: 7,
  payer: 'Cigna',
  priority: 2,
  memberId: 'U12345678',
  groupNumber: null,
  relationship: 'self',
  subscriberName: null,
  subscriberDob: null,
  effectiveOn: '2019-01-01',
  endOn: '2020-12-31',
  medicareSecondaryType: null,
};
/** What a role that does not bill reads of the same policy (the server masks it). */
const aetnaMasked: Coverage = { ...aetna, memberId: '********89', subscriberDob: 'XX-XX-1970' };

describe('PatientCoverageSection', () => {
  it("lists the patient's policies with their priority, dates and subscriber, and marks an ended one", async () => {
    const medicare: Coverage = {
      ...cigna,
      id: 13,
      payer: 'Medicare',
      priority: 3,
      memberId: '1EG4TE5MK73',
      endOn: null,
      medicareSecondaryType: '43',
    };
    const api = fakeApi({ [LIST]: [aetna, cigna, medicare] });
    renderWithApp(<PatientCoverageSection patientId={7} role="billing_admin" />);
    const section = screen.getByRole('region', { name: 'Insurance' });
    const items = await within(section).findAllByRole('listitem');
    expect(items).toHaveLength(3);
    const [first, second, third] = items as [HTMLElement, HTMLElement, HTMLElement];
    // Why Medicare pays after the others, on its policy alone.
    expect(within(third).getByText('43: Disabled, under 65: large group health plan')).toBeTruthy();
    expect(within(first).queryByText('Why Medicare pays second')).toBeNull();
    expect(within(first).getByText('Aetna')).toBeTruthy();
    expect(within(first).getByText('Primary')).toBeTruthy();
    expect(within(first).getByText('W123456789')).toBeTruthy();
    expect(within(first).getByText('GRP100200')).toBeTruthy();
    expect(within(first).getByText('Ruth Example, born May 6, 1970 (patient: child)')).toBeTruthy();
    expect(within(first).getByText('From Jan 1, 2024')).toBeTruthy();
    expect(within(first).queryByText('Ended')).toBeNull();
    expect(within(second).getByText('Secondary')).toBeTruthy();
    expect(within(second).getByText('Jan 1, 2019 – Dec 31, 2020')).toBeTruthy();
    expect(within(second).getByText('Ended')).toBeTruthy();
    expect(within(second).getByText('The patient')).toBeTruthy();
    expect(api.sent(LIST).map((r) => r.path)).toEqual(['/api/patients/7/coverages']);
    expect(screen.getByRole('button', { name: 'Add insurance' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit insurance Aetna (Primary)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit insurance Cigna (Secondary)' })).toBeTruthy();
  });

  it('offers no changes to a role that reads insurance but does not register it', async () => {
    fakeApi({ [LIST]: [aetna] });
    renderWithApp(<PatientCoverageSection patientId={7} role="doctor" />);
    expect(await screen.findByText('Aetna')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add insurance' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Edit insurance/ })).toBeNull();
  });

  it('shows loading, then none on file; and says when the list could not be loaded', async () => {
    const api = fakeApi({ [LIST]: pending });
    const { unmount } = renderWithApp(<PatientCoverageSection patientId={7} role="nurse_manager" />);
    expect(await screen.findByRole('status', { name: 'Loading insurance' })).toBeTruthy();
    unmount();
    api.on(LIST, []);
    const empty = renderWithApp(<PatientCoverageSection patientId={7} role="nurse_manager" />);
    expect(await screen.findByText('No insurance on file')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add insurance' })).toBeTruthy();
    empty.unmount();
    api.on(LIST, apiError(500, 'INTERNAL', 'The server could not complete the request.'));
    renderWithApp(<PatientCoverageSection patientId={7} role="nurse_manager" />);
    expect((await screen.findByRole('alert')).textContent).toContain('The insurance could not be loaded');
  });

  it("adds a policy: the form's own checks first, then the server's refusal under its field", async () => {
    let attempt = 0;
    const api = fakeApi({
      [LIST]: [],
      'GET /api/payers': PAYERS,
      'POST /api/patients/:id/coverages': (r: FakeRequest) =>
        ++attempt === 1
          ? apiError(400, 'VALIDATION_FAILED', 'memberId: must be an MBI', {
              fields: [{ field: 'memberId', message: 'must be a Medicare Beneficiary Identifier (MBI)' }],
            })
          : reply(201, { id: 20, patientId: 7, ...(r.body as object) }),
    });
    const user = userEvent.setup();
    renderWithApp(<PatientCoverageSection patientId={7} role="billing_admin" />);
    await user.click(await screen.findByRole('button', { name: 'Add insurance' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add insurance' });
    await user.click(within(dialog).getByRole('button', { name: 'Save insurance' }));
    for (const text of ['Payer is required', 'Member ID is required', 'Effective date is required']) {
      expect(await within(dialog).findByText(text)).toBeTruthy();
    }
    expect(api.sent('POST /api/patients/:id/coverages')).toEqual([]);

    await user.click(within(dialog).getByRole('combobox', { name: 'Payer' }));
    await user.click(await screen.findByRole('option', { name: 'Medicare' }));
    expect(within(dialog).getByText(/Medicare's MBI: 11 letters and digits/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Member ID'), 'W123456789');
    // Why Medicare pays second is asked only of Medicare billed after another payer (837P SBR05).
    expect(within(dialog).queryByRole('combobox', { name: 'Why Medicare pays second' })).toBeNull();
    await user.click(within(dialog).getByRole('combobox', { name: 'Priority' }));
    await user.click(await screen.findByRole('option', { name: 'Secondary' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Why Medicare pays second' }));
    await user.click(await screen.findByRole('option', { name: '12: Working aged: employer group health plan' }));
    // A dependent's policy names its holder.
    await user.click(within(dialog).getByRole('combobox', { name: "Patient's relationship to subscriber" }));
    await user.click(await screen.findByRole('option', { name: 'Spouse' }));
    await user.type(within(dialog).getByLabelText('Effective date'), '2025-06-01');
    await user.click(within(dialog).getByRole('button', { name: 'Save insurance' }));
    expect(
      await within(dialog).findByText('Subscriber name is required when the patient is not the subscriber'),
    ).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Subscriber name'), 'Ruth Example');
    await user.type(within(dialog).getByLabelText('Subscriber date of birth'), '1950-03-04');
    await user.click(within(dialog).getByRole('button', { name: 'Save insurance' }));

    const refusal = await within(dialog).findByText('Member ID must be a Medicare Beneficiary Identifier (MBI)');
    expect(within(dialog).getByLabelText('Member ID').getAttribute('aria-describedby')).toContain(refusal.id);
    expect(await screen.findByText('Insurance not saved')).toBeTruthy();

    await user.clear(within(dialog).getByLabelText('Member ID'));
    await user.type(within(dialog).getByLabelText('Member ID'), '1EG4TE5MK73');
    await user.click(within(dialog).getByRole('button', { name: 'Save insurance' }));
    expect(await screen.findByText('Insurance saved')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = {
      payer: 'Medicare',
      priority: 2,
      groupNumber: null,
      relationship: 'spouse',
      subscriberName: 'Ruth Example',
      subscriberDob: '1950-03-04',
      effectiveOn: '2025-06-01',
      endOn: null,
      medicareSecondaryType: '12',
    };
    expect(api.sent('POST /api/patients/:id/coverages').map((r) => [r.path, r.body])).toEqual([
      ['/api/patients/7/coverages', { ...sent, memberId: 'W123456789' }],
      ['/api/patients/7/coverages', { ...sent, memberId: '1EG4TE5MK73' }],
    ]);
    await waitFor(() => expect(api.sent(LIST)).toHaveLength(2));
  });

  it('ends a policy by its end date, sending only what changed, never a masked value', async () => {
    let attempt = 0;
    const api = fakeApi({
      [LIST]: [aetnaMasked],
      'GET /api/payers': PAYERS,
      'PATCH /api/coverages/:id': (r: FakeRequest) =>
        ++attempt === 1
          ? apiError(409, 'COVERAGE_OVERLAP', 'priority: taken', {
              fields: [{ field: 'priority', message: 'is already held by Cigna (Secondary) from Jan 1, 2024' }],
            })
          : { ...aetnaMasked, ...(r.body as object) },
    });
    const user = userEvent.setup();
    const { queryClient } = renderWithApp(<PatientCoverageSection patientId={7} role="nurse_manager" />);
    // Answers another screen holds: a claims page and a work-queue page.
    const claimsPage = ['/api/claims', 'list', {}];
    const queuePage = ['/api/work-queue', 'page', {}];
    queryClient.setQueryData(claimsPage, { items: [] });
    queryClient.setQueryData(queuePage, { items: [] });
    await user.click(await screen.findByRole('button', { name: 'Edit insurance Aetna (Primary)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit insurance' });
    // The front desk sees the member id and the subscriber's birth date masked: left blank, they stay as stored.
    expect(within(dialog).getByLabelText('Member ID')).toHaveProperty('value', '');
    expect(within(dialog).getByText('On file: ********89. Leave empty to keep it.')).toBeTruthy();
    expect(within(dialog).getByLabelText('Subscriber date of birth')).toHaveProperty('value', '');
    expect(within(dialog).getByLabelText('Subscriber name')).toHaveProperty('value', 'Ruth Example');
    expect(within(dialog).getByRole('combobox', { name: 'Payer' }).textContent).toBe('Aetna');

    await user.click(within(dialog).getByRole('combobox', { name: 'Priority' }));
    await user.click(await screen.findByRole('option', { name: 'Secondary' }));
    await user.type(within(dialog).getByLabelText('End date'), '2026-12-31');
    await user.click(within(dialog).getByRole('button', { name: 'Save insurance' }));
    expect(
      await within(dialog).findByText('Priority is already held by Cigna (Secondary) from Jan 1, 2024'),
    ).toBeTruthy();
    // A refused change scrubbed nothing again.
    expect(queryClient.getQueryState(claimsPage)?.isInvalidated).toBe(false);

    await user.click(within(dialog).getByRole('combobox', { name: 'Priority' }));
    await user.click(await screen.findByRole('option', { name: 'Primary' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save insurance' }));
    expect(await screen.findByText('Insurance saved')).toBeTruthy();
    expect(api.sent('PATCH /api/coverages/:id').map((r) => [r.path, r.body])).toEqual([
      ['/api/coverages/11', { priority: 2, endOn: '2026-12-31' }],
      ['/api/coverages/11', { endOn: '2026-12-31' }],
    ]);
    // The server scrubbed the patient's held claims again: the claims and the work queue are read afresh.
    expect(queryClient.getQueryState(claimsPage)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(queuePage)?.isInvalidated).toBe(true);
  });

  it('closes an edit with nothing changed without asking the server', async () => {
    const api = fakeApi({ [LIST]: [aetna], 'GET /api/payers': PAYERS });
    const user = userEvent.setup();
    renderWithApp(<PatientCoverageSection patientId={7} role="admin" />);
    await user.click(await screen.findByRole('button', { name: 'Edit insurance Aetna (Primary)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit insurance' });
    expect(within(dialog).getByLabelText('Member ID')).toHaveProperty('value', 'W123456789');
    expect(within(dialog).getByLabelText('Subscriber date of birth')).toHaveProperty('value', '1970-05-06');
    await user.click(within(dialog).getByRole('button', { name: 'Save insurance' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.sent('PATCH /api/coverages/:id')).toEqual([]);
  });
});

const ANSWERED = '2026-11-21T15:30:00.000Z';
const activeCheck: EligibilityCheck = {
  id: 1,
  coverageId: 11,
  inquiryId: 4,
  serviceDate: '2026-11-21',
  traceNumber: '500000004-1',
  status: 'Active',
  requestedAt: '2026-11-21T15:00:00.000Z',
  answeredAt: ANSWERED,
  responseId: 9,
  summary: {
    memberId: 'W123456789',
    planName: 'Gold PPO 1500',
    insuranceType: 'PR',
    groupNumber: 'GRP100200',
    coverageBegin: '2026-01-01',
    coverageEnd: '2026-12-31',
    copays: [
      { serviceTypes: ['98'], coverageLevel: 'IND', network: 'out', period: 'Visit', amountCents: 6000 },
      { serviceTypes: ['98'], coverageLevel: 'IND', network: 'in', period: 'Visit', amountCents: 2500 },
    ],
    coinsurance: [{ serviceTypes: ['98'], coverageLevel: 'IND', network: 'in', period: 'Visit', percent: 0.2 }],
    deductibles: [
      {
        serviceTypes: ['30'],
        coverageLevel: 'IND',
        network: 'in',
        lifetime: false,
        totalCents: 150_000,
        period: 'Calendar year',
        remainingCents: 123_456,
        metCents: null,
      },
    ],
    outOfPocket: [],
    messages: ['COPAY WAIVED FOR PREVENTIVE VISITS'],
    rejections: [],
  },
};
const rejectedCheck: EligibilityCheck = {
  ...activeCheck,
  id: 2,
  coverageId: 12,
  status: 'Rejected',
  summary: {
    ...activeCheck.summary!,
    planName: null,
    copays: [],
    coinsurance: [],
    deductibles: [],
    rejections: [
      {
        code: '75',
        reason: 'The payer cannot find the subscriber',
        followUp: 'Correct the request and send it again',
        loop: '2100C',
      },
    ],
  },
};

describe('PatientCoverageSection: eligibility', () => {
  it('shows the latest answer of each policy: Active with its benefits, Rejected with the reason, or none', async () => {
    const current = { ...cigna, endOn: null };
    fakeApi({
      [LIST]: [
        { ...aetna, eligibility: activeCheck },
        { ...current, eligibility: rejectedCheck },
        { ...current, id: 13, payer: 'Humana', priority: 3, eligibility: null },
      ],
    });
    renderWithApp(<PatientCoverageSection patientId={7} role="nurse_manager" />);
    const active = await screen.findByRole('group', { name: 'Eligibility of Aetna (Primary)' });
    expect(within(active).getByText('Active')).toBeTruthy();
    expect(within(active).getByText(/^Checked Nov 21, 2026 at .+ for Nov 21, 2026$/)).toBeTruthy();
    expect(within(active).getByText('Gold PPO 1500')).toBeTruthy();
    expect(within(active).getByText('$25.00 in network')).toBeTruthy();
    expect(within(active).getByText('20% in network')).toBeTruthy();
    expect(within(active).getByText('$1,234.56 left of $1,500.00 in network')).toBeTruthy();
    const messages = within(active).getByRole('list', { name: "The payer's messages" });
    expect(within(messages).getByText('COPAY WAIVED FOR PREVENTIVE VISITS')).toBeTruthy();
    const rejected = screen.getByRole('group', { name: 'Eligibility of Cigna (Secondary)' });
    expect(within(rejected).getByText('Rejected')).toBeTruthy();
    expect(
      within(rejected).getByText(
        'Rejected: The payer cannot find the subscriber (Correct the request and send it again)',
      ),
    ).toBeTruthy();
    const never = screen.getByRole('group', { name: 'Eligibility of Humana (Tertiary)' });
    expect(within(never).getByText('Not checked')).toBeTruthy();
    expect(within(never).getByText('Never checked with the payer')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload 271' })).toBeTruthy();
  });

  it('asks the payer with the button, then shows the check awaiting its answer; a refusal is said', async () => {
    let asked = false;
    const awaiting: EligibilityCheck = {
      ...activeCheck,
      status: 'Awaiting',
      answeredAt: null,
      summary: null,
      responseId: null,
    };
    const api = fakeApi({
      [LIST]: () => [{ ...aetna, eligibility: asked ? awaiting : null }],
      'POST /api/coverages/:id/eligibility': () => {
        asked = true;
        return reply(201, { inquiryId: 4, checks: [awaiting] });
      },
    });
    const user = userEvent.setup();
    renderWithApp(<PatientCoverageSection patientId={7} role="nurse_manager" />);
    await user.click(await screen.findByRole('button', { name: 'Check eligibility of Aetna (Primary)' }));
    const group = screen.getByRole('group', { name: 'Eligibility of Aetna (Primary)' });
    await waitFor(() => expect(within(group).getByText('Awaiting answer')).toBeTruthy());
    expect(api.sent('POST /api/coverages/:id/eligibility').map((r) => [r.path, r.body])).toEqual([
      ['/api/coverages/11/eligibility', {}],
    ]);

    api.on(
      'POST /api/coverages/:id/eligibility',
      apiError(409, 'PRACTICE_NOT_READY_TO_SEND', "The practice's billing settings are incomplete: taxId is not set."),
    );
    await user.click(screen.getByRole('button', { name: 'Check eligibility of Aetna (Primary)' }));
    expect((await within(group).findByRole('alert')).textContent).toContain('Could not ask the payer');
  });

  it('uploads a 271 and shows why a file was refused', async () => {
    const api = fakeApi({
      [LIST]: [aetna],
      'POST /api/eligibility/responses': apiError(
        409,
        'ELIGIBILITY_FILE_SEEN',
        'file: this 271 was received already on Nov 21, 2026 as "a.271" (response 3); nothing was changed',
      ),
    });
    const user = userEvent.setup();
    renderWithApp(<PatientCoverageSection patientId={7} role="nurse_manager" />);
    await user.click(await screen.findByRole('button', { name: 'Upload 271' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload 271' });
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText(/choose the 271 file/)).toBeTruthy();
    await user.upload(
      within(dialog).getByLabelText('271 file'),
      new File(['ISA*00*~'], 'a.271', { type: 'text/plain' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText(/^This 271 was received already on Nov 21, 2026/)).toBeTruthy();
    expect(api.sent('POST /api/eligibility/responses').map((r) => r.body)).toEqual(['ISA*00*~']);
  });
});
