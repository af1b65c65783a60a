import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, type Route } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { Coverage } from '@/features/coverage/coverage.schema';
import type { ClaimDetail, ClaimDraftInput } from '../claims.schema';
import { ClaimFormDialog, formFieldOf } from './ClaimFormDialog';

const COVERAGES: Coverage[] = [
  {
    id: 31,
    patientId: 3,
    payer: 'Aetna',
    priority: 1,
    memberId: 'W123456789',
    groupNumber: 'GRP-42',
    relationship: 'self',
    subscriberName: null,
    subscriberDob: null,
    effectiveOn: '2026-01-01',
    endOn: null,
    medicareSecondaryType: null,
  },
  {
    id: 32,
    patientId: 3,
    payer: 'Medicaid',
    priority: 2,
    memberId: 'MCD-77',
    groupNumber: null,
    relationship: 'self',
    subscriberName: null,
    subscriberDob: null,
    effectiveOn: '2026-01-01',
    endOn: null,
    medicareSecondaryType: null,
  },
];

function savedClaim(overrides: Partial<ClaimDetail> = {}): ClaimDetail {
  return {
    id: 7,
    accountNumber: 'ACC-2026-100007',
    status: 'Draft',
    patient: { id: 3, name: 'Ana Silva', mrn: '*******01', dob: '1984-03-04' },
    provider: { id: 2, name: 'Dr. Sarah Mitchell', npi: '1234567893' },
    payer: 'Aetna',
    coverage: {
      id: 31,
      payer: 'Aetna',
      priority: 1,
      memberId: 'W123456789',
      groupNumber: 'GRP-42',
      relationship: 'self',
      subscriberName: null,
      effectiveOn: '2026-01-01',
      endOn: null,
    },
    placeOfService: '11',
    frequencyCode: '1',
    originalClaimNumber: null,
    referringProvider: null,
    serviceDate: '2026-07-01',
    submittedOn: null,
    adjudicatedOn: null,
    resolvedOn: null,
    billedCents: 14_900,
    paidCents: 0,
    contractualAdjustmentCents: 0,
    patientResponsibilityCents: 0,
    balanceCents: 14_900,
    handedOnCents: 0,
    priorPayersCents: 0,
    reason: null,
    denialDescription: null,
    diagnoses: ['E11.9'],
    lines: [
      {
        lineNumber: 1,
        procedureCode: '99213',
        description: null,
        modifiers: [],
        units: 1,
        chargeCents: 14_900,
        diagnosisPointers: [1],
        serviceDate: '2026-07-01',
        lineControlNumber: 'ACC-2026-100007-1',
      },
    ],
    lastScrub: null,
    submissions: [],
    history: [],
    primaryClaim: null,
    laterClaims: [],
    nextPolicy: null,
    ...overrides,
  };
}

function serve(more: Record<string, Route> = {}) {
  return fakeApi({
    'GET /api/claims/patients': [{ id: 3, name: 'Ana Silva', dob: '1984-03-04', mrn: '*******01' }],
    'GET /api/patients/3/coverages': COVERAGES,
    'GET /api/claims/providers': [
      { id: 4, name: 'Dr. James Chen' },
      { id: 2, name: 'Dr. Sarah Mitchell' },
    ],
    'POST /api/claims': () => savedClaim(),
    ...more,
  });
}

function renderForm(claim: ClaimDetail | null = null) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  renderWithApp(<ClaimFormDialog claim={claim} onSaved={onSaved} onClose={onClose} />);
  return { onSaved, onClose };
}

const form = () => screen.getByRole('dialog');
const line = (n: number) => within(form()).getByRole('group', { name: `Line ${n}` });
const pointers = (n: number) => within(form()).getByRole('group', { name: `Line ${n} Diagnosis pointers` });
const checked = (n: number) =>
  within(pointers(n))
    .getAllByRole<HTMLInputElement>('checkbox')
    .filter((box) => box.checked)
    .map((box) => box.closest('label')?.textContent);

/** Patient, provider, one diagnosis and one line: a claim the schema accepts. */
async function fillIn(user: UserEvent) {
  await user.type(within(form()).getByRole('combobox', { name: 'Patient' }), 'Ana');
  await user.click(await screen.findByRole('option', { name: /Ana Silva/ }));
  await user.selectOptions(within(form()).getByLabelText('Rendering provider'), 'Dr. Sarah Mitchell');
  // The primary policy is chosen once the patient's policies arrive.
  await waitFor(() => expect(within(form()).getByLabelText<HTMLSelectElement>('Coverage').value).toBe('31'));
  await user.type(within(form()).getByLabelText('Diagnosis 1'), 'e11.9');
  await user.type(within(line(1)).getByLabelText('Line 1 Procedure code'), '99213');
  await user.type(within(line(1)).getByLabelText('Line 1 Charge ($)'), '149.00');
  await user.clear(within(line(1)).getByLabelText('Line 1 Service date'));
  await user.type(within(line(1)).getByLabelText('Line 1 Service date'), '2026-07-01');
}

const save = (user: UserEvent) => user.click(within(form()).getByRole('button', { name: 'Save' }));

describe('ClaimFormDialog', () => {
  it('creates a claim: the coverages are labelled, dollars become exact cents and the claim is saved', async () => {
    const api = serve();
    const user = userEvent.setup();
    const { onSaved, onClose } = renderForm();
    expect(within(form()).getByRole('heading', { name: 'New claim' })).toBeTruthy();
    await fillIn(user);
    const coverage = within(form()).getByLabelText('Coverage');
    expect(
      within(coverage)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Choose a policy',
      'Aetna (Primary) · member W123456789',
      'Medicaid (Secondary) · member MCD-77',
      'Self-pay (no insurance)',
    ]);
    await user.selectOptions(within(form()).getByLabelText('Place of service'), '02 Telehealth (not at home)');
    await user.type(within(line(1)).getByLabelText('Line 1 Modifiers'), '25, 59 gt');
    await user.clear(within(line(1)).getByLabelText('Line 1 Units'));
    await user.type(within(line(1)).getByLabelText('Line 1 Units'), '2');

    await user.click(within(form()).getByRole('button', { name: 'Add line' }));
    await user.type(within(line(2)).getByLabelText('Line 2 Procedure code'), 'g0439');
    await user.type(within(line(2)).getByLabelText('Line 2 Charge ($)'), '1,234.5');
    await user.clear(within(line(2)).getByLabelText('Line 2 Service date'));
    await user.type(within(line(2)).getByLabelText('Line 2 Service date'), '2026-07-01');
    expect(within(form()).getByRole('status').textContent).toBe('$1,383.50');

    await save(user);
    expect(await screen.findByText('Claim saved')).toBeTruthy();
    expect(api.sent('POST /api/claims').map((r) => r.body)).toEqual([
      {
        patientId: 3,
        providerId: 2,
        coverageId: 31,
        placeOfService: '02',
        frequencyCode: '1',
        originalClaimNumber: null,
        referringProvider: null,
        diagnoses: ['E11.9'],
        lines: [
          {
            procedureCode: '99213',
            modifiers: ['25', '59', 'GT'],
            units: 2,
            chargeCents: 14_900,
            diagnosisPointers: [1],
            serviceDate: '2026-07-01',
          },
          {
            procedureCode: 'G0439',
            modifiers: [],
            units: 1,
            chargeCents: 123_450,
            diagnosisPointers: [1],
            serviceDate: '2026-07-01',
          },
        ],
      },
    ]);
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }));
    expect(onClose).toHaveBeenCalled();
  });

  it('refuses a charge with more than 2 decimals, and bills self-pay as no coverage', async () => {
    const api = serve();
    const user = userEvent.setup();
    renderForm();
    await fillIn(user);
    await user.selectOptions(within(form()).getByLabelText('Coverage'), 'Self-pay (no insurance)');
    const charge = within(line(1)).getByLabelText('Line 1 Charge ($)');
    await user.clear(charge);
    await user.type(charge, '149.005');
    await save(user);
    expect(
      await within(line(1)).findByText(
        'Charge ($) must be an amount in dollars such as 149.00, with at most 2 decimals',
      ),
    ).toBeTruthy();
    expect(charge.getAttribute('aria-invalid')).toBe('true');
    expect(charge.getAttribute('aria-describedby')).toBe('claim-line-0-charge-error');
    expect(api.sent('POST /api/claims')).toEqual([]);

    await user.clear(charge);
    await user.type(charge, '0.1');
    await save(user);
    await waitFor(() => expect(api.sent('POST /api/claims')).toHaveLength(1));
    const body = api.sent('POST /api/claims')[0]?.body as ClaimDraftInput;
    expect(body.coverageId).toBeNull();
    expect(body.lines[0]?.chargeCents).toBe(10);
  });

  it('renumbers the pointers when a diagnosis is removed, and drops those that pointed at it', async () => {
    const api = serve();
    const user = userEvent.setup();
    renderForm();
    await fillIn(user);
    await user.click(within(form()).getByRole('button', { name: 'Add diagnosis' }));
    await user.type(within(form()).getByLabelText('Diagnosis 2'), 'I10');
    await user.click(within(form()).getByRole('button', { name: 'Add diagnosis' }));
    await user.type(within(form()).getByLabelText('Diagnosis 3'), 'Z00.00');
    // The pointers are chosen among the claim's diagnoses, each by its number and code.
    expect(
      within(pointers(1))
        .getAllByRole('checkbox')
        .map((box) => box.closest('label')?.textContent),
    ).toEqual(['1 · E11.9', '2 · I10', '3 · Z00.00']);
    await user.click(within(pointers(1)).getByRole('checkbox', { name: '3 · Z00.00' }));
    await user.click(within(form()).getByRole('button', { name: 'Add line' }));
    await user.type(within(line(2)).getByLabelText('Line 2 Procedure code'), '36415');
    await user.type(within(line(2)).getByLabelText('Line 2 Charge ($)'), '20');
    await user.clear(within(line(2)).getByLabelText('Line 2 Service date'));
    await user.type(within(line(2)).getByLabelText('Line 2 Service date'), '2026-07-01');
    await user.click(within(pointers(2)).getByRole('checkbox', { name: '1 · E11.9' }));
    await user.click(within(pointers(2)).getByRole('checkbox', { name: '2 · I10' }));
    expect(checked(1)).toEqual(['1 · E11.9', '3 · Z00.00']);
    expect(checked(2)).toEqual(['2 · I10']);

    await user.click(within(form()).getByRole('button', { name: 'Remove diagnosis 2' }));
    expect(within(form()).getByLabelText<HTMLInputElement>('Diagnosis 2').value).toBe('Z00.00');
    expect(checked(1)).toEqual(['1 · E11.9', '2 · Z00.00']);
    // Line 2 pointed only at the removed diagnosis: it now points at nothing, which the schema refuses.
    expect(checked(2)).toEqual([]);
    await save(user);
    expect(
      await within(pointers(2)).findByText('Diagnosis pointers must point at 1 to 4 of the claim’s diagnoses'),
    ).toBeTruthy();
    expect(within(pointers(2)).getAllByRole('checkbox')[0]?.getAttribute('aria-invalid')).toBe('true');
    expect(api.sent('POST /api/claims')).toEqual([]);

    await user.click(within(pointers(2)).getByRole('checkbox', { name: '2 · Z00.00' }));
    await save(user);
    await waitFor(() => expect(api.sent('POST /api/claims')).toHaveLength(1));
    const body = api.sent('POST /api/claims')[0]?.body as ClaimDraftInput;
    expect(body.diagnoses).toEqual(['E11.9', 'Z00.00']);
    expect(body.lines.map((l) => l.diagnosisPointers)).toEqual([[1, 2], [2]]);
  });

  it("refuses a pointer past the claim's diagnoses with the schema's message", async () => {
    const claim = savedClaim({
      diagnoses: ['E11.9', 'I10'],
      lines: [{ ...savedClaim().lines[0]!, diagnosisPointers: [1, 3] }],
    });
    const api = serve({ 'PUT /api/claims/7': claim });
    const user = userEvent.setup();
    renderForm(claim);
    expect(within(form()).getByRole('heading', { name: 'Edit claim ACC-2026-100007' })).toBeTruthy();
    // A pointer to nothing stays listed, so it can be unticked.
    expect(checked(1)).toEqual(['1 · E11.9', '3 · no diagnosis']);
    await waitFor(() => expect(within(form()).getByLabelText<HTMLSelectElement>('Coverage').value).toBe('31'));
    await save(user);
    expect(
      await within(pointers(1)).findByText("Diagnosis pointers must point at one of the claim's 2 diagnoses"),
    ).toBeTruthy();
    expect(api.sent('PUT /api/claims/7')).toEqual([]);
    await user.click(within(pointers(1)).getByRole('checkbox', { name: '3 · no diagnosis' }));
    await save(user);
    await waitFor(() => expect(api.sent('PUT /api/claims/7')).toHaveLength(1));
  });

  it('asks for the original claim number of a replacement', async () => {
    const api = serve();
    const user = userEvent.setup();
    renderForm();
    await fillIn(user);
    expect(within(form()).queryByLabelText('Original claim number')).toBeNull();
    await user.selectOptions(within(form()).getByLabelText('Frequency'), '7 Replacement');
    await save(user);
    expect(
      await within(form()).findByText(
        "Original claim number is required for a replacement or void: the payer's number of the claim it replaces",
      ),
    ).toBeTruthy();
    await user.type(within(form()).getByLabelText('Original claim number'), 'PAYER-1');
    await save(user);
    await waitFor(() => expect(api.sent('POST /api/claims')).toHaveLength(1));
    expect(api.sent('POST /api/claims')[0]?.body).toMatchObject({ frequencyCode: '7', originalClaimNumber: 'PAYER-1' });
  });

  it('sends the referring provider with its NPI, and asks for the NPI when only a name is typed', async () => {
    const api = serve();
    const user = userEvent.setup();
    renderForm();
    await fillIn(user);
    await user.type(within(form()).getByLabelText('Referring provider'), 'Dr. Lena Park');
    await save(user);
    expect(await within(form()).findByText('Referring provider NPI must be 10 digits')).toBeTruthy();
    await user.type(within(form()).getByLabelText('Referring provider NPI'), '1234567890');
    await save(user);
    expect(
      await within(form()).findByText(
        'Referring provider NPI must be a valid NPI: 10 digits with a correct check digit',
      ),
    ).toBeTruthy();
    expect(api.sent('POST /api/claims')).toEqual([]);
    await user.clear(within(form()).getByLabelText('Referring provider NPI'));
    await user.type(within(form()).getByLabelText('Referring provider NPI'), '1234567893');
    await save(user);
    await waitFor(() => expect(api.sent('POST /api/claims')).toHaveLength(1));
    expect(api.sent('POST /api/claims')[0]?.body).toMatchObject({
      referringProvider: { name: 'Dr. Lena Park', npi: '1234567893' },
    });
  });

  it("places the server's field errors on their fields", async () => {
    serve({
      'POST /api/claims': apiError(400, 'VALIDATION', 'lines.0.serviceDate: cannot be after today', {
        fields: [
          { field: 'lines.0.serviceDate', message: 'cannot be after today' },
          { field: 'lines.0.diagnosisPointers.0', message: 'must point at one of the claim’s 1 diagnoses' },
          { field: 'coverageId', message: "is not one of this patient's coverages" },
        ],
      }),
    });
    const user = userEvent.setup();
    const { onClose } = renderForm();
    await fillIn(user);
    await save(user);
    const date = within(line(1)).getByLabelText('Line 1 Service date');
    expect(await within(line(1)).findByText('Service date cannot be after today')).toBeTruthy();
    expect(date.getAttribute('aria-invalid')).toBe('true');
    expect(date.getAttribute('aria-describedby')).toBe('claim-line-0-date-error');
    expect(
      within(pointers(1)).getByText('Diagnosis pointers must point at one of the claim’s 1 diagnoses'),
    ).toBeTruthy();
    expect(within(form()).getByText("Coverage is not one of this patient's coverages")).toBeTruthy();
    expect(await screen.findByText('Claim not saved')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('keeps Save disabled while the claim is saved', async () => {
    let answer: (value: ClaimDetail) => void = () => {};
    serve({ 'POST /api/claims': () => new Promise<ClaimDetail>((resolve) => (answer = resolve)) });
    const user = userEvent.setup();
    renderForm();
    await fillIn(user);
    await save(user);
    const saving = await within(form()).findByRole('button', { name: 'Saving…' });
    expect(saving.hasAttribute('disabled')).toBe(true);
    answer(savedClaim());
    expect(await screen.findByText('Claim saved')).toBeTruthy();
  });
});

describe('formFieldOf', () => {
  it('maps the claim body’s paths onto the form’s fields', () => {
    expect(formFieldOf('patientId')).toBe('patientId');
    expect(formFieldOf('diagnoses')).toBe('diagnoses.root');
    expect(formFieldOf('diagnoses.2')).toBe('diagnoses.2.code');
    expect(formFieldOf('lines')).toBe('lines.root');
    expect(formFieldOf('lines.0.chargeCents')).toBe('lines.0.charge');
    expect(formFieldOf('lines.0.diagnosisPointers.1')).toBe('lines.0.diagnosisPointers');
    expect(formFieldOf('lines.3.modifiers.0')).toBe('lines.3.modifiers');
    expect(formFieldOf('referringProvider.npi')).toBe('referringProviderNpi');
    expect(formFieldOf('referringProvider.name')).toBe('referringProviderName');
    expect(formFieldOf('status')).toBeNull();
  });
});
