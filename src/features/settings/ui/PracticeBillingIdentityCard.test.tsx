import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending, type FakeRequest } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { BillingIdentity } from '../practice.schema';
import { PracticeBillingIdentityCard } from './PracticeBillingIdentityCard';

const URL = '/api/settings/practice/billing-identity';

/** As the server stores it: the EIN and ZIP+4 as digits only. */
const SAVED: BillingIdentity = {
  billingName: 'Riverside Family Practice LLC',
  billingNpi: '1667788990',
  taxId: '371234567',
  taxonomyCode: '193200000X',
  billingAddressLine1: '1200 Main Street, Suite 200',
  billingCity: 'Springfield',
  billingState: 'IL',
  billingZip: '627011234',
};

/** A PUT answers what it was sent, as the server stores it. */
function serve() {
  return fakeApi({ [`GET ${URL}`]: SAVED, [`PUT ${URL}`]: (request: FakeRequest) => request.body });
}

async function replace(label: string, text: string) {
  const input = await screen.findByLabelText(label);
  await userEvent.clear(input);
  await userEvent.type(input, text);
}

describe('PracticeBillingIdentityCard', () => {
  it('shows the stored identity, the EIN and ZIP+4 with their dash', async () => {
    serve();
    renderWithApp(<PracticeBillingIdentityCard />);
    expect(await screen.findByLabelText('Legal name')).toHaveProperty('value', 'Riverside Family Practice LLC');
    expect(screen.getByLabelText('Billing NPI')).toHaveProperty('value', '1667788990');
    expect(screen.getByLabelText('Tax ID (EIN)')).toHaveProperty('value', '37-1234567');
    expect(screen.getByLabelText('Taxonomy code')).toHaveProperty('value', '193200000X');
    expect(screen.getByLabelText('Address')).toHaveProperty('value', '1200 Main Street, Suite 200');
    expect(screen.getByLabelText('City')).toHaveProperty('value', 'Springfield');
    expect(screen.getByLabelText('State')).toHaveProperty('value', 'IL');
    expect(screen.getByLabelText('ZIP code')).toHaveProperty('value', '62701-1234');
  });

  it('shows blanks while nothing is entered yet, and a skeleton while loading', async () => {
    const api = fakeApi({ [`GET ${URL}`]: pending });
    const { unmount } = renderWithApp(<PracticeBillingIdentityCard />);
    expect(await screen.findByRole('status', { name: 'Loading billing identity' })).toBeTruthy();
    unmount();
    api.on(`GET ${URL}`, Object.fromEntries(Object.keys(SAVED).map((key) => [key, null])));
    renderWithApp(<PracticeBillingIdentityCard />);
    expect(await screen.findByLabelText('Billing NPI')).toHaveProperty('value', '');
  });

  it('says when the identity could not be loaded', async () => {
    fakeApi({ [`GET ${URL}`]: apiError(500, 'INTERNAL', 'The server could not complete the request.') });
    renderWithApp(<PracticeBillingIdentityCard />);
    expect((await screen.findByRole('alert')).textContent).toContain('The billing identity could not be loaded');
  });

  it('refuses an NPI with a wrong check digit in the browser, tied to the field', async () => {
    const api = serve();
    renderWithApp(<PracticeBillingIdentityCard />);
    await replace('Billing NPI', '1234567890');
    await userEvent.click(screen.getByRole('button', { name: 'Save billing identity' }));
    const message = await screen.findByText('Billing NPI must be a valid NPI: 10 digits with a correct check digit');
    const input = screen.getByLabelText('Billing NPI');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain(message.id);
    expect(api.sent(`PUT ${URL}`)).toEqual([]);
  });

  it('saves a valid identity as digits only and says so', async () => {
    const api = serve();
    renderWithApp(<PracticeBillingIdentityCard />);
    await replace('Billing NPI', '1234567893');
    await replace('Tax ID (EIN)', '12-3456789');
    await replace('State', 'wi');
    await replace('ZIP code', '53703-1234');
    await userEvent.click(screen.getByRole('button', { name: 'Save billing identity' }));
    expect(await screen.findByText('Billing identity saved')).toBeTruthy();
    expect(api.sent(`PUT ${URL}`).map((r) => r.body)).toEqual([
      { ...SAVED, billingNpi: '1234567893', taxId: '123456789', billingState: 'WI', billingZip: '537031234' },
    ]);
    expect(screen.getByLabelText('ZIP code')).toHaveProperty('value', '53703-1234');
  });

  it("shows the server's field error under that field", async () => {
    serve().on(
      `PUT ${URL}`,
      apiError(400, 'VALIDATION_FAILED', 'taxonomyCode: is not a code', {
        fields: [{ field: 'taxonomyCode', message: 'must be a NUCC taxonomy code the payer knows' }],
      }),
    );
    renderWithApp(<PracticeBillingIdentityCard />);
    const button = await screen.findByRole('button', { name: 'Save billing identity' });
    await userEvent.click(button);
    const message = await screen.findByText('Taxonomy code must be a NUCC taxonomy code the payer knows');
    expect(screen.getByLabelText('Taxonomy code').getAttribute('aria-describedby')).toContain(message.id);
    const toast = await screen.findByText('Billing identity not saved');
    expect(within(toast.parentElement!).queryByText(/taxonomy/)).toBeTruthy();
    expect((button as HTMLButtonElement).disabled).toBe(false);
  });
});
