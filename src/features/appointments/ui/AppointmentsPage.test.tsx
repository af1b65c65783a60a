import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/client/components/ui/toast';
import { DEFAULT_PRACTICE_HOURS } from '@/features/settings/practice.schema';
import { apiError, fakeApi, reply, type FakeRequest, type Route } from '@/testing/fake-api';
import { TEST_TODAY } from '@/testing/test-clock';
import { ShowLocation, renderWithApp } from '@/testing/ui-render';
import { APPOINTMENT_STATUSES, type Appointment } from '../appointments.schema';
import AppointmentsPage from './AppointmentsPage';

// The screen opens on today: the clock is fixed to a Sunday, so the dates below hold on any real day.
const TODAY = TEST_TODAY;
const NEXT_MONDAY = '2026-11-30';
const SATURDAY_BEFORE = '2026-11-28';

const VISITS: Appointment[] = [
  {
    id: 1,
    patientId: 10,
    patient: 'Dmitri Young',
    providerId: 2,
    provider: 'Dr. Ana Gutierrez',
    reason: 'Lab results review',
    date: TODAY,
    time: '09:00',
    status: 'Scheduled',
  },
  {
    id: 2,
    patientId: 11,
    patient: 'Hannah Silva',
    providerId: 3,
    provider: 'Dr. Kenji Watanabe',
    reason: 'Pre-operative evaluation',
    date: TODAY,
    time: '13:30',
    status: 'Cancelled',
  },
];

const baseHandlers: Record<string, Route> = {
  'GET /api/appointments': { items: VISITS, nextCursor: null, total: VISITS.length },
  'GET /api/appointments/practice-hours': DEFAULT_PRACTICE_HOURS,
  'GET /api/appointments/eligibility/next-day': { date: '2026-11-23', appointments: [] },
  'GET /api/providers': [{ id: 2, name: 'Dr. Ana Gutierrez', specialty: 'Family Medicine' }],
  'GET /api/patients/names': [{ id: 10, name: 'Dmitri Young', dob: 'XX-XX-1958', mrn: 'MRN-100071' }],
  // The practice is closed on Saturdays; on other days the server leaves these times free.
  'GET /api/appointments/free-slots': ({ query }: FakeRequest) => ({
    times: query.get('date') === SATURDAY_BEFORE ? [] : ['08:00', '10:30', '11:10'],
  }),
};

/** The PATCH answer: the appointment with the change applied. */
const patched = ({ body }: FakeRequest) => ({ ...VISITS[0], ...(body as object) });

function renderPage() {
  return renderWithApp(<AppointmentsPage role="nurse_manager" />, { route: '/appointments' });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(`${TODAY}T10:00:00`));
});

afterEach(() => {
  // Toasts live in a module-level store: start each test without the previous one showing.
  act(() => toast({ title: '' }));
});

async function chooseOption(user: ReturnType<typeof userEvent.setup>, trigger: HTMLElement, name: string) {
  await user.click(trigger);
  await user.click(await screen.findByRole('option', { name }));
}

describe('AppointmentsPage', () => {
  it("shows skeletons, then the day's cards with 12-hour times, status badges and the footer", async () => {
    fakeApi(baseHandlers);
    renderPage();
    expect(screen.getByLabelText('Loading appointments').getAttribute('aria-busy')).toBe('true');
    expect(await screen.findByText('Showing 2 appointments for Nov 22, 2026')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Date').value).toBe(TODAY);
    const cards = screen.getAllByRole('article');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual([
      '9:00 AM, Dmitri Young',
      '1:30 PM, Hannah Silva',
    ]);
    const [first, second] = cards;
    expect(within(first!).getByText('Dr. Ana Gutierrez')).toBeTruthy();
    expect(within(first!).getByText('Lab results review')).toBeTruthy();
    expect(within(second!).getByText('Cancelled', { selector: 'span.rounded-full' }).className).toContain(
      'bg-destructive',
    );
    expect(within(first!).getByText('Scheduled', { selector: 'span.rounded-full' }).className).toContain('bg-primary');
  });

  it('opens on the day the address names (a search hit) and writes a chosen day back to it', async () => {
    const api = fakeApi(baseHandlers);
    renderWithApp(
      <>
        <AppointmentsPage role="nurse_manager" />
        <ShowLocation />
      </>,
      { route: `/appointments?date=${NEXT_MONDAY}` },
    );
    await waitFor(() => expect(api.sent(`GET /api/appointments?date=${NEXT_MONDAY}`)).not.toEqual([]));
    expect(screen.getByLabelText<HTMLInputElement>('Date').value).toBe(NEXT_MONDAY);
    expect(api.sent(`GET /api/appointments?date=${TODAY}`)).toEqual([]);

    fireEvent.change(screen.getByLabelText('Date'), { target: { value: SATURDAY_BEFORE } });
    expect(screen.getByTestId('location').textContent).toBe(`/appointments?date=${SATURDAY_BEFORE}`);
    await waitFor(() => expect(api.sent(`GET /api/appointments?date=${SATURDAY_BEFORE}`)).not.toEqual([]));
  });

  it('asks for the chosen date and shows the empty text', async () => {
    const api = fakeApi({ ...baseHandlers, 'GET /api/appointments': { items: [], nextCursor: null, total: 0 } });
    renderPage();
    await screen.findByText('No appointments scheduled for Nov 22, 2026');
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2027-01-04' } });
    expect(await screen.findByText('No appointments scheduled for Jan 4, 2027')).toBeTruthy();
    expect(api.requests.map((r) => r.url)).toContain('/api/appointments?date=2027-01-04&limit=50');
  });

  it("loads a busy day's next page after the last card shown, by keyboard, and says how many are left", async () => {
    const user = userEvent.setup();
    const later: Appointment = { ...VISITS[0]!, id: 3, patient: 'Ivy Chen', time: '15:00' };
    const api = fakeApi({
      ...baseHandlers,
      'GET /api/appointments': ({ query }) =>
        query.has('cursor')
          ? { items: [later], nextCursor: null, total: null }
          : { items: VISITS, nextCursor: 'after-hannah', total: 3 },
    });
    renderPage();
    expect(await screen.findByText('Showing 2 appointments for Nov 22, 2026')).toBeTruthy();
    const more = screen.getByRole('button', { name: 'Load more appointments (1 more)' });
    more.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Showing 3 appointments for Nov 22, 2026')).toBeTruthy();
    expect(api.requests.map((r) => r.url)).toContain(`/api/appointments?date=${TODAY}&limit=50&cursor=after-hannah`);
    expect(screen.getAllByRole('article').map((c) => within(c).getByRole('heading').textContent)).toEqual([
      '9:00 AM, Dmitri Young',
      '1:30 PM, Hannah Silva',
      '3:00 PM, Ivy Chen',
    ]);
    expect(screen.queryByRole('button', { name: /Load more/ })).toBeNull();
  });

  it('changes a status with a PATCH and the exact toast', async () => {
    const user = userEvent.setup();
    const api = fakeApi({ ...baseHandlers, 'PATCH /api/appointments/1': patched });
    renderPage();
    await chooseOption(
      user,
      await screen.findByRole('combobox', { name: 'Status for Dmitri Young at 9:00 AM' }),
      'No-Show',
    );
    expect(await screen.findByText('Status updated')).toBeTruthy();
    expect(screen.getByText('Appointment status has been changed')).toBeTruthy();
    expect(api.sent('PATCH /api/appointments/1').map((r) => r.body)).toEqual([{ status: 'No-Show' }]);
  });

  it('offers Completed and No-Show only for a visit that has started', async () => {
    const user = userEvent.setup();
    // The clock reads 10:00: the 9:00 visit has started, the 1:30 PM one has not.
    fakeApi(baseHandlers);
    renderPage();
    await user.click(await screen.findByRole('combobox', { name: 'Status for Dmitri Young at 9:00 AM' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([...APPOINTMENT_STATUSES]);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('combobox', { name: 'Status for Hannah Silva at 1:30 PM' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Scheduled',
      'Cancelled',
      'Rescheduled',
    ]);
  });

  it("shows a refused status change as a destructive toast with the server's message", async () => {
    const user = userEvent.setup();
    fakeApi({
      ...baseHandlers,
      'PATCH /api/appointments/2': apiError(
        409,
        'DOUBLE_BOOKING',
        'time: Dr. Kenji Watanabe already has an appointment',
        {
          fields: [{ field: 'time', message: 'Dr. Kenji Watanabe already has an appointment' }],
        },
      ),
    });
    renderPage();
    await chooseOption(
      user,
      await screen.findByRole('combobox', { name: 'Status for Hannah Silva at 1:30 PM' }),
      'Scheduled',
    );
    expect(await screen.findByText('Could not update the status')).toBeTruthy();
    expect(screen.getByText('Dr. Kenji Watanabe already has an appointment')).toBeTruthy();
  });

  it('says the server could not complete a status change instead of its raw status line', async () => {
    const user = userEvent.setup();
    // A 500 without our error envelope, as a proxy or a crashed upstream answers.
    fakeApi({ ...baseHandlers, 'PATCH /api/appointments/1': reply(500, 'Internal Server Error') });
    renderPage();
    await chooseOption(
      user,
      await screen.findByRole('combobox', { name: 'Status for Dmitri Young at 9:00 AM' }),
      'No-Show',
    );
    expect(await screen.findByText('Could not update the status')).toBeTruthy();
    expect(screen.getByText('The server could not complete the request. Please try again in a moment.')).toBeTruthy();
    expect(screen.queryByText(/500/)).toBeNull();
  });

  it('needs both a new date and a new time to reschedule, then sends them', async () => {
    const user = userEvent.setup();
    const monday = NEXT_MONDAY;
    const api = fakeApi({ ...baseHandlers, 'PATCH /api/appointments/1': patched });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Reschedule Dmitri Young at 9:00 AM' }));
    const dialog = screen.getByRole('dialog', { name: 'Reschedule Appointment' });
    await user.click(within(dialog).getByRole('button', { name: 'Reschedule' }));
    expect(
      within(dialog)
        .getAllByRole('alert')
        .map((a) => a.textContent),
    ).toEqual(['New date is required', 'New time is required']);
    expect(within(dialog).getByLabelText('New date').getAttribute('aria-invalid')).toBe('true');
    expect(api.requests.some((r) => r.method === 'PATCH')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('New date'), { target: { value: monday } });
    await chooseOption(user, within(dialog).getByRole('combobox', { name: 'New time' }), '10:30 AM');
    await user.click(within(dialog).getByRole('button', { name: 'Reschedule' }));
    expect(await screen.findByText('Appointment rescheduled')).toBeTruthy();
    expect(screen.getByText('Appointment date and time have been updated')).toBeTruthy();
    expect(api.sent('PATCH /api/appointments/1')[0]?.body).toEqual({ date: monday, time: '10:30' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers no time on a closed day, and shows a server refusal on its field', async () => {
    const user = userEvent.setup();
    const monday = NEXT_MONDAY;
    const saturday = SATURDAY_BEFORE;
    const message = `Dr. Ana Gutierrez already has an appointment from 10:30 AM to 11:00 AM on Nov 30, 2026`;
    const api = fakeApi({
      ...baseHandlers,
      'PATCH /api/appointments/1': apiError(409, 'PROVIDER_BUSY', `time: ${message}`, {
        fields: [{ field: 'time', message }],
      }),
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Reschedule Dmitri Young at 9:00 AM' }));
    const dialog = screen.getByRole('dialog', { name: 'Reschedule Appointment' });
    fireEvent.change(within(dialog).getByLabelText('New date'), { target: { value: saturday } });
    const time = within(dialog).getByRole('combobox', { name: 'New time' });
    await waitFor(() => expect(time.textContent).toBe('No free times that day'));
    expect(time.hasAttribute('disabled')).toBe(true);
    expect(api.sent('GET /api/appointments/free-slots').at(-1)?.query.get('appointmentId')).toBe('1');

    fireEvent.change(within(dialog).getByLabelText('New date'), { target: { value: monday } });
    await chooseOption(user, within(dialog).getByRole('combobox', { name: 'New time' }), '10:30 AM');
    await user.click(within(dialog).getByRole('button', { name: 'Reschedule' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(message));
    expect(screen.getByText('Could not reschedule')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Reschedule Appointment' })).toBeTruthy();
  });

  it('offers only the times the server has free for the chosen provider, patient and day', async () => {
    const user = userEvent.setup();
    const api = fakeApi(baseHandlers);
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'New Appointment' }));
    const dialog = screen.getByRole('dialog', { name: 'New Appointment' });
    const time = within(dialog).getByRole('combobox', { name: 'Time' });
    expect(time.textContent).toBe('Choose a provider first');
    expect(api.sent('GET /api/appointments/free-slots')).toEqual([]);

    await user.type(within(dialog).getByRole('combobox', { name: 'Patient' }), 'Dm');
    // Each patient shows with date of birth and MRN (as the role sees them), to tell namesakes apart.
    await user.click(
      await within(dialog).findByRole('option', { name: 'Dmitri Young DOB XX-XX-1958 · MRN MRN-100071' }),
    );
    await chooseOption(
      user,
      within(dialog).getByRole('combobox', { name: 'Provider' }),
      'Dr. Ana Gutierrez (Family Medicine)',
    );
    await user.click(time);
    const offered = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(offered).toEqual(['8:00 AM', '10:30 AM', '11:10 AM']);
    const asked = api.sent('GET /api/appointments/free-slots').at(-1)?.query;
    expect(Object.fromEntries(asked ?? [])).toEqual({ date: TODAY, providerId: '2', patientId: '10' });
  });

  it('gives focus back to the Reschedule and New Appointment buttons when their dialogs close', async () => {
    const user = userEvent.setup();
    fakeApi(baseHandlers);
    renderPage();
    const reschedule = await screen.findByRole('button', { name: 'Reschedule Dmitri Young at 9:00 AM' });
    await user.click(reschedule);
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule Appointment' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(reschedule));

    const book = screen.getByRole('button', { name: 'New Appointment' });
    await user.click(book);
    await screen.findByRole('dialog', { name: 'New Appointment' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(book));
  });
});

describe('AppointmentsPage: who is not covered', () => {
  const MONDAY = '2026-11-23';
  const uncovered = {
    date: MONDAY,
    appointments: [
      {
        appointmentId: 31,
        patientId: 10,
        patient: 'Dmitri Young',
        time: '08:30',
        provider: 'Dr. Ana Gutierrez',
        payer: 'Aetna',
        eligibility: {
          state: 'inactive',
          checkedAt: '2026-11-21T23:00:00.000Z',
          detail: 'The payer says the policy is not active',
        },
      },
      {
        appointmentId: 32,
        patientId: 11,
        patient: 'Hannah Silva',
        time: '14:00',
        provider: 'Dr. Kenji Watanabe',
        payer: null,
        eligibility: {
          coverageId: null,
          state: 'unknown',
          checkedAt: null,
          detail: 'No primary policy in force on the day',
        },
      },
    ],
  };

  it("lists the next working day's visits not known to be covered, and opens that day", async () => {
    const api = fakeApi({ ...baseHandlers, 'GET /api/appointments/eligibility/next-day': uncovered });
    const user = userEvent.setup();
    renderPage();
    const notice = await screen.findByRole('region', { name: '2 visits on Nov 23, 2026 not known to be covered' });
    const items = within(notice).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      '8:30 AM Dmitri Young with Dr. Ana Gutierrez: Inactive (Aetna) — The payer says the policy is not active',
      '2:00 PM Hannah Silva with Dr. Kenji Watanabe: Not checked — No primary policy in force on the day',
    ]);
    await user.click(within(notice).getByRole('button', { name: 'Open Nov 23, 2026' }));
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Date').value).toBe(MONDAY));
    expect(api.sent('GET /api/appointments').at(-1)?.query.get('date')).toBe(MONDAY);
  });

  it('runs the eligibility check for the next day now, and says so', async () => {
    const api = fakeApi({
      ...baseHandlers,
      'GET /api/appointments/eligibility/next-day': uncovered,
      'POST /api/appointments/eligibility/next-day': {
        inquiryId: 7,
        appointments: 14,
        coverages: 12,
        serviceDate: MONDAY,
      },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Check eligibility for Nov 23, 2026' }));
    expect(await screen.findByText("A 270 asks the payers about 12 policies of Nov 23, 2026's visits")).toBeTruthy();
    expect(api.sent('POST /api/appointments/eligibility/next-day')).toHaveLength(1);
  });

  it('says when every visit is covered, and when the notice could not be loaded', async () => {
    const api = fakeApi(baseHandlers);
    const { unmount } = renderPage();
    expect(
      await screen.findByRole('region', { name: 'Every visit on Nov 23, 2026 is covered by an active policy' }),
    ).toBeTruthy();
    unmount();
    api.on(
      'GET /api/appointments/eligibility/next-day',
      apiError(500, 'INTERNAL', 'The server could not complete the request.'),
    );
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain("The next day's coverage could not be loaded");
  });

  it("shows each card's coverage for the day", async () => {
    fakeApi({
      ...baseHandlers,
      'GET /api/appointments': {
        items: [
          {
            ...VISITS[0],
            eligibility: {
              coverageId: 31,
              state: 'active',
              checkedAt: '2026-11-21T23:00:00.000Z',
              detail: 'Gold PPO 1500',
            },
          },
          {
            ...VISITS[1],
            eligibility: {
              coverageId: 32,
              state: 'rejected',
              checkedAt: null,
              detail: 'The payer cannot find the subscriber',
            },
          },
        ],
        nextCursor: null,
        total: 2,
      },
    });
    renderPage();
    const cards = await screen.findAllByRole('article');
    expect(within(cards[0]!).getByText('Coverage: Active')).toBeTruthy();
    expect(within(cards[0]!).getByText('Gold PPO 1500')).toBeTruthy();
    expect(within(cards[1]!).getByText('Coverage: Rejected')).toBeTruthy();
    expect(within(cards[1]!).getByText('The payer cannot find the subscriber')).toBeTruthy();
  });

  it("asks the payer about a visit's policy for the visit's day from its card, and says a refusal", async () => {
    const api = fakeApi({
      ...baseHandlers,
      'GET /api/appointments': {
        items: [
          {
            ...VISITS[0],
            eligibility: { coverageId: 31, state: 'unknown', checkedAt: null, detail: null },
          },
          {
            ...VISITS[1],
            eligibility: { coverageId: null, state: 'unknown', checkedAt: null, detail: 'No primary policy' },
          },
        ],
        nextCursor: null,
        total: 2,
      },
      'POST /api/coverages/31/eligibility': { inquiryId: 9, checks: [] },
    });
    const user = userEvent.setup();
    renderPage();
    const cards = await screen.findAllByRole('article');
    // No policy in force: nothing to ask about.
    expect(within(cards[1]!).queryByRole('button', { name: /Check eligibility/ })).toBeNull();
    await user.click(within(cards[0]!).getByRole('button', { name: /^Check eligibility for .+'s visit at / }));
    expect(await screen.findByText(/^A 270 asks the payer about .+'s policy for /)).toBeTruthy();
    expect(api.sent('POST /api/coverages/31/eligibility').map((r) => r.body)).toEqual([
      { serviceDate: VISITS[0]!.date },
    ]);

    api.on(
      'POST /api/coverages/31/eligibility',
      apiError(400, 'VALIDATION_FAILED', 'serviceDate: is outside the policy'),
    );
    await user.click(within(cards[0]!).getByRole('button', { name: /^Check eligibility for / }));
    expect(await screen.findByText('Could not ask the payer')).toBeTruthy();
  });

  it('offers no eligibility check to a role that may not ask payers', async () => {
    fakeApi({
      ...baseHandlers,
      'GET /api/appointments': {
        items: [{ ...VISITS[0], eligibility: { coverageId: 31, state: 'unknown', checkedAt: null, detail: null } }],
        nextCursor: null,
        total: 1,
      },
    });
    renderWithApp(<AppointmentsPage role="patient" />, { route: '/appointments' });
    const [card] = await screen.findAllByRole('article');
    expect(within(card!).queryByRole('button', { name: /Check eligibility/ })).toBeNull();
  });
});
