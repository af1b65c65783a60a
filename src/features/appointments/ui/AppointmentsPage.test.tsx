import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { today } from '@/shared/api';
import { Toaster, toast } from '@/client/components/ui/toast';
import { createQueryClient } from '@/client/lib/query-client';
import { DEFAULT_PRACTICE_HOURS } from '@/features/settings/practice.schema';
import type { Appointment } from '../appointments.schema';
import AppointmentsPage from './AppointmentsPage';

const TODAY = today();

function nextMondayAfter(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  while (d.getDay() !== 1) d.setDate(d.getDate() + 1);
  return today(d);
}

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

interface Call {
  method: string;
  url: string;
  body: unknown;
}

type Handler = (call: Call) => { status?: number; body: unknown };

/** A fake API: answers by "METHOD path" (query string ignored) and records every call. */
function mockApi(handlers: Record<string, Handler>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const text = typeof init?.body === 'string' ? init.body : undefined;
      const call: Call = { method, url: input, body: text === undefined ? undefined : (JSON.parse(text) as unknown) };
      calls.push(call);
      const handler = handlers[`${method} ${input.split('?')[0]}`];
      const answer = handler ? handler(call) : { status: 404, body: { error: { code: 'NOT_FOUND', message: 'none' } } };
      return Promise.resolve(
        new Response(JSON.stringify(answer.body), {
          status: answer.status ?? 200,
          headers: { 'Content-Type': 'application/json' },
        }),
      );
    }),
  );
  return calls;
}

const baseHandlers: Record<string, Handler> = {
  'GET /api/appointments': () => ({ body: { items: VISITS, nextCursor: null, total: VISITS.length } }),
  'GET /api/appointments/practice-hours': () => ({ body: DEFAULT_PRACTICE_HOURS }),
  'GET /api/providers': () => ({ body: [{ id: 2, name: 'Dr. Ana Gutierrez', specialty: 'Family Medicine' }] }),
  'GET /api/patients/names': () => ({ body: [{ id: 10, name: 'Dmitri Young' }] }),
};

function renderPage() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AppointmentsPage />
      <Toaster />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  // Toasts live in a module-level store: start each test without the previous one showing.
  act(() => toast({ title: '' }));
});

async function chooseOption(user: ReturnType<typeof userEvent.setup>, trigger: HTMLElement, name: string) {
  await user.click(trigger);
  await user.click(await screen.findByRole('option', { name }));
}

describe('AppointmentsPage', () => {
  it("shows skeletons, then the day's cards with 12-hour times, status badges and the footer", async () => {
    mockApi(baseHandlers);
    renderPage();
    expect(screen.getByLabelText('Loading appointments').getAttribute('aria-busy')).toBe('true');
    expect(await screen.findByText(`Showing 2 appointments for ${TODAY}`)).toBeTruthy();
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

  it('asks for the chosen date and shows the empty text', async () => {
    const calls = mockApi({
      ...baseHandlers,
      'GET /api/appointments': () => ({ body: { items: [], nextCursor: null, total: 0 } }),
    });
    renderPage();
    await screen.findByText(`No appointments scheduled for ${TODAY}`);
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2027-01-04' } });
    expect(await screen.findByText('No appointments scheduled for 2027-01-04')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/appointments?date=2027-01-04&limit=50')).toBe(true);
  });

  it("loads a busy day's next page after the last card shown, by keyboard, and says how many are left", async () => {
    const user = userEvent.setup();
    const later: Appointment = { ...VISITS[0]!, id: 3, patient: 'Ivy Chen', time: '15:00' };
    const calls = mockApi({
      ...baseHandlers,
      'GET /api/appointments': (call) =>
        call.url.includes('cursor=')
          ? { body: { items: [later], nextCursor: null, total: null } }
          : { body: { items: VISITS, nextCursor: 'after-hannah', total: 3 } },
    });
    renderPage();
    expect(await screen.findByText(`Showing 2 appointments for ${TODAY}`)).toBeTruthy();
    const more = screen.getByRole('button', { name: 'Load more appointments (1 more)' });
    more.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText(`Showing 3 appointments for ${TODAY}`)).toBeTruthy();
    expect(calls.some((c) => c.url === `/api/appointments?date=${TODAY}&limit=50&cursor=after-hannah`)).toBe(true);
    expect(screen.getAllByRole('article').map((c) => within(c).getByRole('heading').textContent)).toEqual([
      '9:00 AM, Dmitri Young',
      '1:30 PM, Hannah Silva',
      '3:00 PM, Ivy Chen',
    ]);
    expect(screen.queryByRole('button', { name: /Load more/ })).toBeNull();
  });

  it('changes a status with a PATCH and the exact toast', async () => {
    const user = userEvent.setup();
    const calls = mockApi({
      ...baseHandlers,
      'PATCH /api/appointments/1': ({ body }) => ({ body: { ...VISITS[0], ...(body as object) } }),
    });
    renderPage();
    await chooseOption(
      user,
      await screen.findByRole('combobox', { name: 'Status for Dmitri Young at 9:00 AM' }),
      'No-Show',
    );
    expect(await screen.findByText('Status updated')).toBeTruthy();
    expect(screen.getByText('Appointment status has been changed')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      url: '/api/appointments/1',
      body: { status: 'No-Show' },
    });
  });

  it("shows a refused status change as a destructive toast with the server's message", async () => {
    const user = userEvent.setup();
    mockApi({
      ...baseHandlers,
      'PATCH /api/appointments/2': () => ({
        status: 409,
        body: {
          error: {
            code: 'DOUBLE_BOOKING',
            message: 'time: Dr. Kenji Watanabe already has an appointment',
            fields: [{ field: 'time', message: 'Dr. Kenji Watanabe already has an appointment' }],
          },
        },
      }),
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

  it('needs both a new date and a new time to reschedule, then sends them', async () => {
    const user = userEvent.setup();
    const monday = nextMondayAfter(7);
    const calls = mockApi({
      ...baseHandlers,
      'PATCH /api/appointments/1': ({ body }) => ({ body: { ...VISITS[0], ...(body as object) } }),
    });
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
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('New date'), { target: { value: monday } });
    await chooseOption(user, within(dialog).getByRole('combobox', { name: 'New time' }), '10:30 AM');
    await user.click(within(dialog).getByRole('button', { name: 'Reschedule' }));
    expect(await screen.findByText('Appointment rescheduled')).toBeTruthy();
    expect(screen.getByText('Appointment date and time have been updated')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ date: monday, time: '10:30' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('refuses a closed day before sending, and shows a server refusal on its field', async () => {
    const user = userEvent.setup();
    const monday = nextMondayAfter(7);
    const saturday = today(new Date(new Date(`${monday}T12:00:00`).getTime() - 2 * 86_400_000));
    const calls = mockApi({
      ...baseHandlers,
      'PATCH /api/appointments/1': () => ({
        status: 409,
        body: {
          error: {
            code: 'DOUBLE_BOOKING',
            message: `time: Dr. Ana Gutierrez already has an appointment on ${monday} at 10:30 AM`,
            fields: [
              { field: 'time', message: `Dr. Ana Gutierrez already has an appointment on ${monday} at 10:30 AM` },
            ],
          },
        },
      }),
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Reschedule Dmitri Young at 9:00 AM' }));
    const dialog = screen.getByRole('dialog', { name: 'Reschedule Appointment' });
    fireEvent.change(within(dialog).getByLabelText('New date'), { target: { value: saturday } });
    await chooseOption(user, within(dialog).getByRole('combobox', { name: 'New time' }), '10:30 AM');
    await user.click(within(dialog).getByRole('button', { name: 'Reschedule' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/closed on Sat/);
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('New date'), { target: { value: monday } });
    await user.click(within(dialog).getByRole('button', { name: 'Reschedule' }));
    const clash = `Dr. Ana Gutierrez already has an appointment on ${monday} at 10:30 AM`;
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(clash));
    expect(screen.getByText('Could not reschedule')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Reschedule Appointment' })).toBeTruthy();
  });
});
