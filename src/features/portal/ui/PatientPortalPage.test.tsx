import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, pending } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { PortalAppointment, PortalClaim } from '../portal.schema';
import PatientPortalPage, { formatPortalDate, greetingName } from './PatientPortalPage';

const SESSION = {
  user: { id: 5, email: 'patient@healthcare.demo', name: 'Maria Lopez', role: 'patient', patientId: 1 },
  mfa: true,
  csrfToken: 'token',
  expiresAt: null,
  // The practice's day is the server's: Tuesday, November 24, 2026 (10:00 in the practice's zone).
  serverTime: '2026-11-24T15:00:00.000Z',
};

const visit = (id: number, date: string, time: string, status: PortalAppointment['status'], reason: string) => ({
  id,
  provider: id % 2 ? 'Dr. Ana Gutierrez' : 'Dr. Emily Carter',
  reason,
  date,
  time,
  status,
});

/** As the API answers them: earliest first. */
const VISITS: PortalAppointment[] = [
  visit(7, '2026-03-04', '08:30', 'Completed', 'Diabetes follow-up'),
  visit(8, '2026-11-24', '09:00', 'Completed', 'Lab review'),
  visit(10, '2026-11-24', '15:30', 'Scheduled', 'Blood pressure check'),
  visit(12, '2026-12-01', '14:00', 'Scheduled', 'Annual physical'),
];

const CLAIMS: PortalClaim[] = [
  {
    id: 3,
    serviceDate: '2026-11-20',
    procedure: '99213',
    provider: 'Dr. Ana Gutierrez',
    billedCents: 14_900,
    paidCents: 11_920,
    status: 'Paid',
  },
  {
    id: 2,
    serviceDate: '2026-10-05',
    procedure: '80053',
    provider: 'Dr. Samuel Okoye',
    billedCents: 123_456,
    paidCents: 0,
    status: 'Denied',
  },
];

/** The portal's three reads: the session and the patient's own visits and claims. */
function serve(visits: PortalAppointment[] | typeof pending, claims: PortalClaim[] | typeof pending) {
  fakeApi({
    'GET /api/auth/session': SESSION,
    'GET /api/portal/appointments': visits,
    'GET /api/portal/claims': claims,
  });
}

function renderPage() {
  return renderWithApp(<PatientPortalPage />, { route: '/patient-portal' });
}

describe('PatientPortalPage', () => {
  it('formats dates as the portal shows them and greets by the name on the account', () => {
    expect(formatPortalDate('2026-03-04')).toBe('March 4, 2026');
    expect(greetingName({ name: 'Maria Lopez', email: 'patient@healthcare.demo' })).toBe('Maria Lopez');
    expect(greetingName({ name: ' ', email: 'maria.lopez@example.com' })).toBe('maria.lopez');
    expect(greetingName(undefined)).toBe('');
  });

  it('shows the loading texts while the lists load', () => {
    serve(pending, pending);
    renderPage();
    expect(screen.getByRole('heading', { name: 'My Health Portal' })).toBeTruthy();
    expect(screen.getByText('View your appointments and billing information')).toBeTruthy();
    expect(screen.getByText('Loading appointments...')).toBeTruthy();
    expect(screen.getByText('Loading claims...')).toBeTruthy();
  });

  it("shows the patient's visits and claims: dates in words, 12-hour times, money with 2 decimals", async () => {
    serve(VISITS, CLAIMS);
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Welcome, Maria Lopez' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Upcoming appointments' });
    // The visits scroll inside a box of fixed height: a named region the keyboard can reach and scroll.
    const box = screen.getByRole('region', { name: 'Your visits' });
    expect(box.contains(list)).toBe(true);
    expect(box.tabIndex).toBe(0);
    // Visits still ahead first, the soonest at the top (today's until it is done); then the past, newest first.
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((v) => v.textContent),
    ).toEqual([
      'November 24, 2026 at 3:30 PMDr. Emily Carter · Blood pressure checkScheduled',
      'December 1, 2026 at 2:00 PMDr. Emily Carter · Annual physicalScheduled',
    ]);
    const past = screen.getByRole('list', { name: 'Past appointments' });
    expect(
      within(past)
        .getAllByRole('listitem')
        .map((v) => v.textContent),
    ).toEqual([
      'November 24, 2026 at 9:00 AMDr. Emily Carter · Lab reviewCompleted',
      'March 4, 2026 at 8:30 AMDr. Ana Gutierrez · Diabetes follow-upCompleted',
    ]);
    expect(box.contains(past)).toBe(true);
    expect(screen.getByRole('heading', { name: 'Upcoming', level: 3 })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Past', level: 3 })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'My claims' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['November 20, 2026', '99213', 'Dr. Ana Gutierrez', '$149.00', '$119.20', 'Paid'],
      ['October 5, 2026', '80053', 'Dr. Samuel Okoye', '$1,234.56', '$0.00', 'Denied'],
    ]);
    expect(within(rows[1]!).getByText('Denied').className).toContain('bg-destructive');
    // The billing office's statuses in the patient's words: those the claims show, in the order they appear.
    expect(screen.getByRole('heading', { name: 'What the statuses mean', level: 3 })).toBeTruthy();
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['Paid:', 'Denied:']);
    expect(screen.getAllByRole('definition').map((d) => d.textContent)).toEqual([
      'Your insurer has paid its part; what you owe, if anything, is on your statement.',
      'Your insurer declined to pay; the clinic is reviewing it and will let you know what happens next.',
    ]);
    // The statement and Pay Balance live in My Billing, a sub-path of the portal.
    expect(screen.getByRole('link', { name: 'View statement and pay' }).getAttribute('href')).toBe(
      '/patient-portal/billing',
    );
  });

  it('tells a closed claim (nothing owed) from a paid one (a share may be owed), each status once', async () => {
    const closed = (id: number): PortalClaim => ({ ...CLAIMS[0]!, id, status: 'Closed', paidCents: 14_900 });
    serve(VISITS, [closed(4), CLAIMS[0]!, closed(5)]);
    renderPage();
    await screen.findByRole('table', { name: 'My claims' });
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['Closed:', 'Paid:']);
    expect(screen.getAllByRole('definition')[0]?.textContent).toBe('Settled: nothing is owed on this claim.');
  });

  it('says when no visit is ahead, above the past ones', async () => {
    serve(
      VISITS.filter((v) => v.status === 'Completed'),
      CLAIMS,
    );
    renderPage();
    const past = await screen.findByRole('list', { name: 'Past appointments' });
    expect(within(past).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('list', { name: 'Upcoming appointments' })).toBeNull();
    const upcoming = screen.getByRole('heading', { name: 'Upcoming', level: 3 }).parentElement!;
    expect(within(upcoming).getByText('No appointments scheduled')).toBeTruthy();
  });

  it('shows the empty texts when the patient has no visits or claims', async () => {
    serve([], []);
    renderPage();
    expect(await screen.findByText('No appointments scheduled')).toBeTruthy();
    expect(await screen.findByText('No claims found')).toBeTruthy();
    // Nothing to scroll, so no extra stop for the keyboard.
    expect(screen.queryByRole('region', { name: 'Your visits' })).toBeNull();
  });
});
