import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RESTRICTED } from '@/shared/access';
import { apiError, fakeApi, pending, type FakeRequest } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { PatientBillingDetails } from '../patients.schema';
import { PatientBillingDetailsSection } from './PatientBillingDetailsSection';

const GET = 'GET /api/patients/:id/billing-details';
const PUT = 'PUT /api/patients/:id/billing-details';

const onFile: PatientBillingDetails = {
  patientId: 7,
  sex: 'F',
  addressLine1: '12 Elm Street',
  city: 'Springfield',
  state: 'IL',
  zip: '627011234',
  addressComplete: true,
};
const noAddress: PatientBillingDetails = {
  patientId: 7,
  sex: 'U',
  addressLine1: null,
  city: null,
  state: null,
  zip: null,
  addressComplete: false,
};
/** What the doctor reads of the same patient (the server masks the street and ZIP). */
const onFileMasked: PatientBillingDetails = { ...onFile, addressLine1: RESTRICTED, zip: RESTRICTED };

/** The PUT answers what it was sent, as stored. */
const stored = (r: FakeRequest) => {
  const body = r.body as Omit<PatientBillingDetails, 'patientId' | 'addressComplete'>;
  return { patientId: 7, ...body, addressComplete: body.addressLine1 !== null };
};

describe('PatientBillingDetailsSection', () => {
  it("shows the patient's sex and address, the ZIP+4 with its dash, and offers to edit them", async () => {
    const api = fakeApi({ [GET]: onFile });
    renderWithApp(<PatientBillingDetailsSection patientId={7} role="nurse_manager" />);
    const section = screen.getByRole('region', { name: 'Billing details' });
    expect(await within(section).findByText('Female')).toBeTruthy();
    expect(within(section).getByText('12 Elm Street')).toBeTruthy();
    expect(within(section).getByText('Springfield, IL 62701-1234')).toBeTruthy();
    expect(within(section).queryByText('A claim to an insurer needs the full address.')).toBeNull();
    expect(within(section).getByRole('button', { name: 'Edit billing details' })).toBeTruthy();
    expect(api.sent(GET).map((r) => r.path)).toEqual(['/api/patients/7/billing-details']);
  });

  it('says when no address is on file, and warns of an incomplete one to those who can complete it', async () => {
    const api = fakeApi({ [GET]: noAddress });
    const { unmount } = renderWithApp(<PatientBillingDetailsSection patientId={7} role="billing_admin" />);
    expect(await screen.findByText('No address on file')).toBeTruthy();
    expect(screen.getByText('Unknown')).toBeTruthy();
    expect(screen.getByText('A claim to an insurer needs the full address.')).toBeTruthy();
    unmount();

    // A record from before the address was all or nothing may hold some of its parts.
    api.on(GET, { ...noAddress, city: 'Springfield', state: 'IL' });
    renderWithApp(<PatientBillingDetailsSection patientId={8} role="billing_admin" />);
    expect(await screen.findByText('Springfield, IL')).toBeTruthy();
    expect(screen.queryByText('No address on file')).toBeNull();
    expect(screen.getByText('A claim to an insurer needs the full address.')).toBeTruthy();
  });

  it('shows the doctor the street and ZIP masked, with no edit and no warning', async () => {
    fakeApi({ [GET]: onFileMasked });
    renderWithApp(<PatientBillingDetailsSection patientId={7} role="doctor" />);
    expect(await screen.findByText(RESTRICTED)).toBeTruthy();
    expect(screen.getByText(`Springfield, IL ${RESTRICTED}`)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit billing details' })).toBeNull();
    expect(screen.queryByText('A claim to an insurer needs the full address.')).toBeNull();
  });

  it('shows loading, and says when the details could not be loaded', async () => {
    const api = fakeApi({ [GET]: pending });
    const { unmount } = renderWithApp(<PatientBillingDetailsSection patientId={7} role="admin" />);
    expect(await screen.findByRole('status', { name: 'Loading billing details' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit billing details' })).toBeNull();
    unmount();
    api.on(GET, apiError(404, 'NOT_FOUND', 'Patient not found'));
    renderWithApp(<PatientBillingDetailsSection patientId={7} role="admin" />);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The billing details could not be loaded: Patient not found',
    );
  });

  it('refuses a partial address in the browser, then saves a whole one with the ZIP as digits', async () => {
    const api = fakeApi({ [GET]: noAddress, [PUT]: stored });
    const user = userEvent.setup();
    const { queryClient } = renderWithApp(<PatientBillingDetailsSection patientId={7} role="nurse_manager" />);
    // Answers another screen holds: a claims page and a work-queue page.
    const claimsPage = ['/api/claims', 'list', {}];
    const queuePage = ['/api/work-queue', 'page', {}];
    queryClient.setQueryData(claimsPage, { items: [] });
    queryClient.setQueryData(queuePage, { items: [] });
    await user.click(await screen.findByRole('button', { name: 'Edit billing details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Billing details' });
    expect(within(dialog).getByRole('combobox', { name: 'Sex' }).textContent).toBe('Unknown');

    await user.click(within(dialog).getByRole('combobox', { name: 'Sex' }));
    await user.click(await screen.findByRole('option', { name: 'Male' }));
    await user.type(within(dialog).getByLabelText('Street address'), '12 Elm Street');
    await user.type(within(dialog).getByLabelText('City'), 'Springfield');
    await user.type(within(dialog).getByLabelText('ZIP code'), '62701-1234');
    await user.click(within(dialog).getByRole('button', { name: 'Save billing details' }));
    const missing = await within(dialog).findByText('State is required with the rest of the address');
    expect(within(dialog).getByLabelText('State').getAttribute('aria-describedby')).toContain(missing.id);
    expect(within(dialog).getByLabelText('State').getAttribute('aria-invalid')).toBe('true');
    expect(api.sent(PUT)).toEqual([]);

    await user.type(within(dialog).getByLabelText('State'), 'il');
    await user.click(within(dialog).getByRole('button', { name: 'Save billing details' }));
    expect(await screen.findByText('Billing details saved')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.sent(PUT).map((r) => [r.path, r.body])).toEqual([
      [
        '/api/patients/7/billing-details',
        { sex: 'M', addressLine1: '12 Elm Street', city: 'Springfield', state: 'IL', zip: '627011234' },
      ],
    ]);
    // The section shows what the server stored without asking for it again.
    const section = screen.getByRole('region', { name: 'Billing details' });
    expect(within(section).getByText('Male')).toBeTruthy();
    expect(within(section).getByText('Springfield, IL 62701-1234')).toBeTruthy();
    expect(within(section).queryByText('A claim to an insurer needs the full address.')).toBeNull();
    expect(api.sent(GET)).toHaveLength(1);
    // The server scrubbed the patient's held claims again: the claims and the work queue are read afresh.
    expect(queryClient.getQueryState(claimsPage)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(queuePage)?.isInvalidated).toBe(true);
  });

  it("shows the server's refusal under its field and keeps the dialog open", async () => {
    const api = fakeApi({
      [GET]: onFile,
      [PUT]: apiError(400, 'VALIDATION_FAILED', 'state: not a state', {
        fields: [{ field: 'state', message: 'must be the 2-letter code of a US state or territory, such as IL' }],
      }),
    });
    const user = userEvent.setup();
    renderWithApp(<PatientBillingDetailsSection patientId={7} role="admin" />);
    await user.click(await screen.findByRole('button', { name: 'Edit billing details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Billing details' });
    // The form starts from what is on file, the ZIP+4 as it is typed.
    expect(within(dialog).getByLabelText('Street address')).toHaveProperty('value', '12 Elm Street');
    expect(within(dialog).getByLabelText('ZIP code')).toHaveProperty('value', '62701-1234');

    await user.click(within(dialog).getByRole('button', { name: 'Save billing details' }));
    const refusal = await within(dialog).findByText(
      'State must be the 2-letter code of a US state or territory, such as IL',
    );
    expect(within(dialog).getByLabelText('State').getAttribute('aria-describedby')).toContain(refusal.id);
    expect(await screen.findByText('Billing details not saved')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Billing details' })).toBeTruthy();
    expect(api.sent(PUT).map((r) => r.body)).toEqual([
      { sex: 'F', addressLine1: '12 Elm Street', city: 'Springfield', state: 'IL', zip: '627011234' },
    ]);
  });
});
