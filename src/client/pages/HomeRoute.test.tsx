import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { DashboardSummary } from '@/features/dashboard/dashboard.schema';
import HomeRoute from './HomeRoute';

const nurseSummary: DashboardSummary = {
  today: '2026-11-22',
  stats: {
    patients: 200,
    todaysAppointments: 16,
    pendingAuthorizations: 75,
    revenueCollectedCents: 4_123_400,
    revenuePeriodDays: 30,
  },
  alerts: {
    agedAuthorizations: [{ id: 4, patient: 'Yuki Smith', service: 'MRI lumbar spine', payer: 'Aetna', ageDays: 12 }],
    deniedClaims: null,
  },
  recentActivity: [],
  statusCounts: {
    appointmentsToday: [{ status: 'Scheduled', count: 16 }],
    claims: null,
    authorizations: [{ status: 'Pending', count: 75 }],
  },
};

function renderHome(role: 'guest' | 'nurse_manager') {
  return renderWithApp(<HomeRoute role={role} />, { route: '/home' });
}

describe('HomeRoute', () => {
  it('gives the guest the landing with both actions and calls no dashboard endpoint', () => {
    const api = fakeApi();
    renderHome('guest');
    expect(screen.getByRole('heading', { name: 'Welcome' })).toBeTruthy();
    expect(screen.getByText('Guest Portal')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Create Patient Account' }).disabled).toBe(false);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Pay Bill as Guest' }).disabled).toBe(false);
    expect(api.requests).toEqual([]);
  });

  it('shows the four stat cards, leaves out the lists a role may not see, and says so where a list is empty', async () => {
    fakeApi({ 'GET /api/dashboard/summary': nurseSummary });
    renderHome('nurse_manager');
    expect(screen.getByRole('heading', { name: 'Dashboard Overview' })).toBeTruthy();
    expect(await screen.findByRole('region', { name: 'Total Patients' })).toBeTruthy();
    expect(screen.getAllByTestId('stat-value').map((e) => e.textContent)).toEqual(['200', '16', '75', '$41k']);
    expect(screen.getByRole('region', { name: 'Revenue Collected' }).textContent).toContain(
      'Payments received in the last 30 days',
    );
    expect(screen.getByText('Authorization pending 12 days')).toBeTruthy();
    expect(screen.getByText('No recent activity')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Claims' })).toBeNull();
    expect(screen.getByText('Scheduled: 16')).toBeTruthy();
  });

  it('names recent activity in words, not action codes', async () => {
    fakeApi({
      'GET /api/dashboard/summary': {
        ...nurseSummary,
        recentActivity: [
          {
            id: 7,
            time: '2026-11-22T15:04:00.000Z',
            actor: 'nurse@healthcare.demo',
            action: 'patients.list.view',
            resource: 'patients',
            detail: null,
          },
        ],
      },
    });
    renderHome('nurse_manager');
    const activity = await screen.findByRole('region', { name: 'Recent Activity' });
    expect(activity.textContent).toContain('Viewed the patients list');
    expect(activity.textContent).not.toContain('patients.list.view');
  });
});
