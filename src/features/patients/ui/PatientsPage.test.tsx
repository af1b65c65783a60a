import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, reply, type FakeRequest } from '@/testing/fake-api';
import { ShowLocation, renderWithApp } from '@/testing/ui-render';
import type { Patient, PatientPage } from '../patients.schema';
import PatientsPage from './PatientsPage';

const maria: Patient = {
  id: 1,
  name: 'Maria Lopez',
  mrn: 'MRN-100001',
  dob: 'XX-XX-1979',
  phone: '(555) 214-7788',
  allergies: ['Penicillin'],
  meds: [],
  notes: '[ACCESS RESTRICTED]',
  nextVisit: '2026-12-01',
};

function page(items: Patient[], masked: boolean): PatientPage {
  return { items, total: items.length, nextCursor: null, masked };
}

function renderPage() {
  return renderWithApp(<PatientsPage role="nurse_manager" />);
}

describe('PatientsPage', () => {
  it('shows the rows with readable dates, a tel: call link, and the masked-PHI footer', async () => {
    fakeApi({ 'GET /api/patients': page([maria], true) });
    renderPage();
    expect(await screen.findByText('Maria Lopez')).toBeTruthy();
    expect(screen.getByText('Dec 1, 2026')).toBeTruthy();
    expect(screen.getByText('XX-XX-1979')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Call Maria Lopez' }).getAttribute('href')).toBe('tel:5552147788');
    expect(screen.getByText('Showing 1 of 1 patients (PHI is masked for your role)')).toBeTruthy();
  });

  it('leaves the masking note out when nothing is masked', async () => {
    fakeApi({ 'GET /api/patients': page([{ ...maria, dob: '1979-03-14' }], false) });
    renderPage();
    expect(await screen.findByText('Showing 1 of 1 patients')).toBeTruthy();
    expect(screen.getByText('Mar 14, 1979')).toBeTruthy();
  });

  it("says 'No patients available' without a search and 'No patients found' during one, searching on the server", async () => {
    const api = fakeApi({ 'GET /api/patients': page([], false) });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('No patients available')).toBeTruthy();
    await user.type(screen.getByPlaceholderText('Name, phone, or MRN'), 'zed');
    expect(await screen.findByText('No patients found')).toBeTruthy();
    expect(api.sent('GET /api/patients?search=zed')).not.toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Reset Search' }));
    expect(await screen.findByText('No patients available')).toBeTruthy();
    expect(screen.getByPlaceholderText<HTMLInputElement>('Name, phone, or MRN').value).toBe('');
  });

  it('opens the snapshot with Demographics and Clinical Information and their empty texts', async () => {
    fakeApi({
      'GET /api/patients': page([maria], true),
      'GET /api/patients/1': { ...maria, nextVisit: '', allergies: [], notes: '' },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'View snapshot for Maria Lopez' }));
    const dialog = await screen.findByRole('dialog', { name: 'Maria Lopez' });
    expect(await within(dialog).findByRole('heading', { name: 'Demographics' })).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: 'Clinical Information' })).toBeTruthy();
    expect(within(dialog).getByText('Not scheduled')).toBeTruthy();
    expect(within(dialog).getByText('No known allergies')).toBeTruthy();
    expect(within(dialog).getByText('No current medications')).toBeTruthy();
    expect(within(dialog).queryByText('Clinical Notes')).toBeNull();
  });

  it('shows each missing field under itself, then a taken MRN from the server on the MRN field', async () => {
    fakeApi({
      'GET /api/patients': page([maria], true),
      'POST /api/patients': apiError(409, 'MRN_TAKEN', 'mrn: another patient already has this MRN', {
        fields: [{ field: 'mrn', message: 'another patient already has this MRN' }],
      }),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add Patient' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Patient' });
    await user.click(within(dialog).getByRole('button', { name: 'Add Patient' }));
    for (const text of ['Name is required', 'Date of birth is required', 'Phone is required', 'MRN is required']) {
      expect(await within(dialog).findByText(text)).toBeTruthy();
    }
    await user.type(within(dialog).getByLabelText('Name'), 'New Person');
    await user.type(within(dialog).getByLabelText('Date of birth'), '1990-01-02');
    await user.type(within(dialog).getByLabelText('Phone'), '555 123 4567');
    await user.type(within(dialog).getByLabelText('MRN'), 'MRN-100001');
    await user.click(within(dialog).getByRole('button', { name: 'Add Patient' }));
    expect(await within(dialog).findByText('Another patient already has this MRN')).toBeTruthy();
    expect(within(dialog).getByLabelText('MRN').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).queryByText('Name is required')).toBeNull();
    await waitFor(() => expect(screen.getByText('Failed to create patient')).toBeTruthy());
  });

  it('opens with the search, sort and page the address gives (a global search hit), and writes changes back', async () => {
    const api = fakeApi({
      'GET /api/patients': (request) =>
        request.query.get('cursor')
          ? { ...page([{ ...maria, id: 2, name: 'Maria Lopez Jr' }], false), total: null }
          : { ...page([maria], false), total: 30, nextCursor: 'after-maria' },
    });
    const user = userEvent.setup();
    renderWithApp(
      <>
        <PatientsPage role="nurse_manager" />
        <ShowLocation />
      </>,
      { route: '/patients?search=Maria%20Lopez' },
    );
    expect(await screen.findByText('Showing 1 of 30 patients')).toBeTruthy();
    expect(screen.getByPlaceholderText<HTMLInputElement>('Name, phone, or MRN').value).toBe('Maria Lopez');
    expect(api.sent('GET /api/patients?search=Maria+Lopez')).not.toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Maria Lopez Jr')).toBeTruthy();
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/patients?search=Maria+Lopez&page=2&cursor=after-maria');

    await user.click(screen.getByRole('button', { name: /^DOB/ }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/patients?search=Maria+Lopez&sort=dob'),
    );
    expect(api.sent('GET /api/patients?search=Maria+Lopez&sort=dob&dir=asc')).not.toEqual([]);
  });

  it('restores a later page from a shared link, counting the first page for its total', async () => {
    const api = fakeApi({
      'GET /api/patients': (request) =>
        request.query.get('cursor') === 'page-3'
          ? { ...page([{ ...maria, name: 'Page Three Person' }], false), total: null }
          : { ...page([maria], false), total: 60, nextCursor: 'page-2' },
    });
    renderWithApp(<PatientsPage role="nurse_manager" />, { route: '/patients?sort=mrn&dir=desc&page=3&cursor=page-3' });
    expect(await screen.findByText('Page Three Person')).toBeTruthy();
    expect(await screen.findByText('Page 3 of 3')).toBeTruthy();
    expect(api.sent('GET /api/patients?sort=mrn&dir=desc&cursor=page-3')).not.toEqual([]);
  });

  it('warns of a likely duplicate with the matches, and creates only when confirmed', async () => {
    const duplicate = {
      error: {
        code: 'LIKELY_DUPLICATE',
        message:
          '1 patient on file has the same name and date of birth, or the same phone. Check them, or confirm to create this patient anyway.',
      },
      duplicates: [{ id: 1, name: 'Maria Lopez', dob: 'XX-XX-1979', phone: '(555) 214-7788', mrn: 'MRN-100001' }],
    };
    const api = fakeApi({
      'GET /api/patients': page([maria], true),
      'POST /api/patients': ({ body }: FakeRequest) =>
        (body as { confirmDuplicate?: boolean }).confirmDuplicate
          ? reply(201, { ...maria, id: 2 })
          : reply(409, duplicate),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add Patient' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Patient' });
    await user.type(within(dialog).getByLabelText('Name'), 'Maria Lopez');
    await user.type(within(dialog).getByLabelText('Date of birth'), '1979-04-12');
    await user.type(within(dialog).getByLabelText('Phone'), '(555) 214-7788');
    await user.type(within(dialog).getByLabelText('MRN'), 'MRN-200002');
    await user.click(within(dialog).getByRole('button', { name: 'Add Patient' }));

    const warning = await within(dialog).findByRole('alert');
    expect(within(warning).getByText('Possible duplicate patient')).toBeTruthy();
    expect(warning.textContent).toContain(duplicate.error.message);
    expect(warning.textContent).toContain('Maria Lopez · DOB XX-XX-1979 · Phone (555) 214-7788 · MRN MRN-100001');
    expect(screen.queryByText('Patient created')).toBeNull();
    expect(
      api.sent('POST /api/patients').map((r) => (r.body as { confirmDuplicate: boolean }).confirmDuplicate),
    ).toEqual([false]);

    await user.click(within(dialog).getByRole('button', { name: 'Create anyway' }));
    expect(await screen.findByText('Patient created')).toBeTruthy();
    expect(
      api.sent('POST /api/patients').map((r) => (r.body as { confirmDuplicate: boolean }).confirmDuplicate),
    ).toEqual([false, true]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('refuses a phone of punctuation only and a date of birth before 1900 before sending', async () => {
    const api = fakeApi({ 'GET /api/patients': page([maria], true) });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add Patient' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Patient' });
    await user.type(within(dialog).getByLabelText('Name'), 'Old Timer');
    await user.type(within(dialog).getByLabelText('Date of birth'), '1899-12-31');
    await user.type(within(dialog).getByLabelText('Phone'), '---');
    await user.type(within(dialog).getByLabelText('MRN'), 'MRN-300003');
    await user.click(within(dialog).getByRole('button', { name: 'Add Patient' }));
    expect(await within(dialog).findByText('Phone must have 7 to 15 digits')).toBeTruthy();
    expect(within(dialog).getByText('Date of birth cannot be before Jan 1, 1900')).toBeTruthy();
    expect(api.sent('POST /api/patients')).toEqual([]);
  });

  it('gives focus back to the snapshot button when the snapshot closes', async () => {
    fakeApi({ 'GET /api/patients': page([maria], true), 'GET /api/patients/1': maria });
    const user = userEvent.setup();
    renderPage();
    const opener = await screen.findByRole('button', { name: 'View snapshot for Maria Lopez' });
    await user.click(opener);
    await screen.findByRole('dialog', { name: 'Maria Lopez' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });
});
