import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Role } from '@/shared/access';
import { apiError, fakeApi, type Route } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { RunTestsResponse } from '@/features/selftest/selftest.schema';
import type { ComplianceOverview, GapsResponse, SecurityCheckResult } from '../compliance.schema';
import CompliancePage from './CompliancePage';
import { CHECK_INTERVAL_MS } from './SecurityCheckRunner';
import { RESET_WARNING, SEED_WARNING } from './SystemActions';

const OVERVIEW: ComplianceOverview = {
  rbac: {
    percent: 91.7,
    apiRoutes: 60,
    protectedRoutes: 55,
    publicRoutes: ['POST /api/auth/login', 'GET /api/health'],
    screenCells: { total: 84, allowed: 39, denied: 45 },
  },
  mfa: {
    secondFactor: 'one-time code',
    roles: [
      { role: 'guest', required: false, activeAccounts: 1, enrolledAccounts: 1 },
      { role: 'admin', required: true, activeAccounts: 2, enrolledAccounts: 2 },
    ],
  },
  audit: { events: 1234 },
  matrix: {
    screens: [
      { path: '/home', label: 'Dashboard' },
      { path: '/compliance', label: 'Compliance' },
    ],
    roles: [
      { role: 'guest', screens: ['/home'], permissions: ['settings:own'] },
      { role: 'admin', screens: ['/home', '/compliance'], permissions: ['compliance:read', 'system:admin'] },
    ],
  },
};

const CHECKS = [
  { checkId: 'vulnerability-scan', name: 'Vulnerability scan', description: 'Headers' },
  { checkId: 'tls', name: 'TLS', description: 'HTTPS' },
  { checkId: 'rbac', name: 'Access control (RBAC)', description: 'Gate' },
] as const;

const RESULTS: Record<string, SecurityCheckResult> = {
  'vulnerability-scan': {
    checkId: 'vulnerability-scan',
    name: 'Vulnerability scan',
    status: 'pass',
    message: 'No high severity issues',
    details: [],
  },
  tls: {
    checkId: 'tls',
    name: 'TLS',
    status: 'fail',
    message: 'TLS not active: this request came over plain HTTP',
    details: ['plain HTTP'],
  },
  rbac: { checkId: 'rbac', name: 'Access control (RBAC)', status: 'pass', message: 'Restricted', details: [] },
};

function gaps(status: 'Open' | 'Closed', technical: number): GapsResponse {
  return {
    gaps: [
      {
        id: 6,
        title: 'Encryption at rest not verified on backup drives',
        safeguard: 'Technical',
        severity: 'High',
        status,
        dueDate: '2026-12-02',
        owner: 'IT Lead',
      },
    ],
    scores: {
      overall: { percent: 85, earned: 42.5, possible: 50 },
      technical: { percent: technical, earned: 9, possible: 12 },
    },
  };
}

const UNIT_ANSWER: RunTestsResponse = {
  success: true,
  summary: { total: 2, passed: 2, failed: 0 },
  tests: [
    { testId: 'UT-01', module: 'access', description: 'Policy grants', status: 'PASS', durationMs: 3 },
    { testId: 'UT-02', module: 'masking', description: 'Phone mask', status: 'PASS', durationMs: 1 },
  ],
  error: null,
};

function serve(overrides: Record<string, Route> = {}) {
  return fakeApi({
    'GET /api/compliance/overview': OVERVIEW,
    'GET /api/compliance/hipaa-items': {
      items: [
        {
          id: 1,
          reference: '164.312(b)',
          safeguard: 'Technical',
          requirement: 'Audit controls',
          status: 'Partial',
          evidence: 'Review cadence not documented',
        },
      ],
    },
    'GET /api/compliance/wcag-checks': {
      checks: [{ id: 1, criterion: '1.4.3', title: 'Contrast (minimum)', level: 'AA', status: 'Pass', note: 'ok' }],
    },
    'GET /api/compliance/gaps': gaps('Open', 75),
    'GET /api/compliance/security-checks': { checks: CHECKS },
    'POST /api/compliance/security-checks/:checkId': ({ params }) => RESULTS[params.checkId ?? ''],
    ...overrides,
  });
}

function renderPage(role: Role = 'admin') {
  return renderWithApp(<CompliancePage role={role} />, { route: '/compliance' });
}

const FORBIDDEN = apiError(403, 'FORBIDDEN', 'You do not have permission to do this.');
const SERVER_DOWN = apiError(500, 'INTERNAL', 'The server could not complete the request.');

/** The checks wait CHECK_INTERVAL_MS between them: a fake clock runs through the waits instead. */
async function runThroughCheckIntervals() {
  await act(() => vi.advanceTimersByTimeAsync(CHECKS.length * CHECK_INTERVAL_MS));
}

describe('CompliancePage', () => {
  it('shows the overview cards, the permission matrix, the HIPAA audit and the WCAG checklist', async () => {
    serve();
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Security and Compliance' })).toBeTruthy();
    expect(await screen.findByText('92%')).toBeTruthy();
    expect(screen.getByText(/55 of 60 API routes need a session/)).toBeTruthy();
    expect(screen.getByText('1 of 2 roles')).toBeTruthy();
    expect(screen.getByText('1,234')).toBeTruthy();
    const matrix = screen.getByRole('table', { name: 'Permission matrix' });
    const adminRow = within(matrix).getAllByRole('row')[2]!;
    expect(within(adminRow).getAllByText('Allowed')).toHaveLength(2);
    const guestRow = within(matrix).getAllByRole('row')[1]!;
    expect(within(guestRow).getByText('Not allowed')).toBeTruthy();
    expect(await screen.findByText('164.312(b)')).toBeTruthy();
    expect(await screen.findByText('Contrast (minimum)')).toBeTruthy();
    expect(await screen.findByText('Overall compliance score')).toBeTruthy();
  });

  it('hides the admin-only sections from a role without system:admin', async () => {
    const api = serve();
    renderPage('doctor');
    await screen.findByText('92%');
    expect(screen.queryByRole('button', { name: 'Run security checks' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Seed demo data' })).toBeNull();
    expect(api.requests.map((r) => r.url)).not.toContain('/api/compliance/gaps');
  });

  it('runs the security checks one after the other, half a second apart, then gives the overall result', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = serve();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderPage();
    const run = await screen.findByRole('button', { name: 'Run security checks' });
    await waitFor(() => expect(run.hasAttribute('disabled')).toBe(false));
    await user.click(run);
    await runThroughCheckIntervals();
    await waitFor(() => expect(screen.getByTestId('check-rbac').dataset.state).toBe('pass'));
    expect(screen.getByTestId('check-vulnerability-scan').textContent).toContain('Pass: No high severity issues');
    expect(screen.getByTestId('check-tls').textContent).toContain(
      'Fail: TLS not active: this request came over plain HTTP',
    );
    expect(screen.getByTestId('check-rbac').textContent).toContain('Pass: Restricted');
    expect(await screen.findByText('Some tests failed', { selector: 'p' })).toBeTruthy();

    const posts = api.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.path)).toEqual([
      '/api/compliance/security-checks/vulnerability-scan',
      '/api/compliance/security-checks/tls',
      '/api/compliance/security-checks/rbac',
    ]);
    for (let i = 1; i < posts.length; i += 1)
      expect(posts[i]!.at - posts[i - 1]!.at).toBeGreaterThanOrEqual(CHECK_INTERVAL_MS);
  });

  it('shows a check as running while it runs, and says All tests passed! when every check passes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let finish: (r: SecurityCheckResult) => void = () => {};
    serve({
      'POST /api/compliance/security-checks/vulnerability-scan': () =>
        new Promise<SecurityCheckResult>((resolve) => {
          finish = resolve;
        }),
      'POST /api/compliance/security-checks/tls': () => ({ ...RESULTS.tls, status: 'pass', message: 'TLS active' }),
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderPage();
    const run = await screen.findByRole('button', { name: 'Run security checks' });
    await waitFor(() => expect(run.hasAttribute('disabled')).toBe(false));
    await user.click(run);
    await waitFor(() => expect(screen.getByTestId('check-vulnerability-scan').textContent).toContain('Running…'));
    expect(screen.getByTestId('check-tls').textContent).toContain('Not run');
    finish(RESULTS['vulnerability-scan']!);
    await runThroughCheckIntervals();
    await waitFor(() => expect(screen.getByTestId('check-rbac').dataset.state).toBe('pass'));
    expect(await screen.findByText('All tests passed!', { selector: 'p' })).toBeTruthy();
  });

  it('runs the unit tests and shows each result with its toast, and the error toast when the call fails', async () => {
    const api = serve({
      'POST /api/run-tests': ({ body }) =>
        (body as { testType: string }).testType === 'integration' ? SERVER_DOWN : UNIT_ANSWER,
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Run Unit Tests' }));
    expect(await screen.findByText('Unit tests passed!')).toBeTruthy();
    expect(screen.getAllByText('2/2 tests passed').length).toBeGreaterThan(0);
    const table = screen.getByRole('table', { name: 'Unit test results' });
    expect(within(table).getByText('UT-02')).toBeTruthy();
    expect(within(table).getByText('masking')).toBeTruthy();
    expect(api.sent('POST /api/run-tests').map((r) => r.body)).toEqual([{ testType: 'unit' }]);

    await user.click(screen.getByRole('button', { name: 'Run Integration Tests' }));
    expect(await screen.findByText('Error running tests')).toBeTruthy();
    expect(screen.getByText('Failed to execute integration tests')).toBeTruthy();
  });

  it('says Unit tests failed with the count when a test fails', async () => {
    serve({
      'POST /api/run-tests': () => ({
        ...UNIT_ANSWER,
        success: false,
        summary: { total: 2, passed: 1, failed: 1 },
        tests: [UNIT_ANSWER.tests[0]!, { ...UNIT_ANSWER.tests[1]!, status: 'FAIL', message: 'expected ***' }],
      }),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Run Unit Tests' }));
    expect(await screen.findByText('Unit tests failed')).toBeTruthy();
    expect(screen.getAllByText('1/2 tests passed').length).toBeGreaterThan(0);
    expect(screen.getByText('expected ***')).toBeTruthy();
  });

  it('changes a gap status and shows the new scores', async () => {
    const api = serve({ 'PATCH /api/compliance/gaps/6': gaps('Closed', 83.3) });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('75%')).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'Dec 2, 2026' })).toBeTruthy();
    await user.click(
      screen.getByRole('combobox', { name: 'Status of Encryption at rest not verified on backup drives' }),
    );
    await user.click(await screen.findByRole('option', { name: 'Closed' }));
    expect(await screen.findByText('83%')).toBeTruthy();
    expect(api.sent('PATCH /api/compliance/gaps/6').map((r) => r.body)).toEqual([{ status: 'Closed' }]);
  });

  it('seeds demo data with its toasts (success, refused, failed)', async () => {
    let answer: Route = { summary: { patients: 200 } };
    const api = serve({ 'POST /api/seed': () => answer });
    const user = userEvent.setup();
    renderPage();
    const seed = await screen.findByRole('button', { name: 'Seed demo data' });
    const overviewCalls = () => api.sent('GET /api/compliance/overview').length;
    const before = overviewCalls();
    const seedConfirmed = async () => {
      await user.click(seed);
      const dialog = await screen.findByRole('dialog', { name: 'Seed demo data' });
      await user.click(within(dialog).getByRole('button', { name: 'Replace all clinic data' }));
    };
    await seedConfirmed();
    expect(await screen.findByText('Demo data successfully re-seeded')).toBeTruthy();
    expect(api.sent('POST /api/seed').map((r) => r.body)).toEqual([{ confirm: 'SEED' }]);
    // Every cached query is refetched.
    await waitFor(() => expect(overviewCalls()).toBe(before + 1));

    answer = FORBIDDEN;
    await seedConfirmed();
    expect(await screen.findByText('Only Admin can seed data.')).toBeTruthy();
    expect(screen.getByText('Unauthorized')).toBeTruthy();

    answer = SERVER_DOWN;
    await seedConfirmed();
    expect(await screen.findByText('Failed to seed data')).toBeTruthy();
  });

  it('re-seeds only after the confirmation: one click on Seed demo data replaces nothing', async () => {
    const api = serve({ 'POST /api/seed': () => ({ summary: { patients: 200 } }) });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Seed demo data' }));
    const dialog = await screen.findByRole('dialog', { name: 'Seed demo data' });
    expect(within(dialog).getByText(SEED_WARNING)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.sent('POST /api/seed')).toEqual([]);
  });

  it('resets only after the confirmation, sending the confirmation word', async () => {
    let answer: Route = FORBIDDEN;
    const api = serve({ 'POST /api/system/reset': () => answer });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Global reset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Global reset' });
    expect(within(dialog).getByText(RESET_WARNING)).toBeTruthy();
    expect(RESET_WARNING).toBe('WARNING: This will clear ALL data for this app. Proceed?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.sent('POST /api/system/reset')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Global reset' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Proceed' }));
    expect(await screen.findByText('Only Admin can reset the system.')).toBeTruthy();
    expect(api.sent('POST /api/system/reset').map((r) => r.body)).toEqual([{ confirm: 'RESET' }]);

    answer = { cleared: ['patients'] };
    await user.click(screen.getByRole('button', { name: 'Global reset' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Proceed' }));
    expect(await screen.findByText('System reset')).toBeTruthy();
  });
});
