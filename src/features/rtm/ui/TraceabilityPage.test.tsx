import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import { REQUIREMENTS } from '../rtm.requirements';
import type { Verification } from '../rtm.schema';
import TraceabilityPage from './TraceabilityPage';

const VERIFY = 'POST /api/rtm/verify/:reqId';

/** The server: the list, and a verification per requirement (those in `failing` fail). */
function serve(failing: string[] = []) {
  return fakeApi({
    'GET /api/rtm/requirements': REQUIREMENTS,
    [VERIFY]: ({ params }): Verification => {
      const reqId = params.reqId ?? '';
      const requirement = REQUIREMENTS.find((r) => r.reqId === reqId);
      const passed = !failing.includes(reqId);
      return {
        reqId,
        testId: requirement?.testId ?? '',
        passed,
        result: passed ? '100%' : '75%',
        detail: passed ? 'all good' : `measured 75% for ${reqId}`,
      };
    },
  });
}

function renderPage() {
  return renderWithApp(<TraceabilityPage />, { route: '/rtm' });
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('TraceabilityPage', () => {
  it('shows the 20 requirements with dashes, and filters on id, description, module, test id or metric', async () => {
    serve();
    renderPage();
    expect(screen.getByRole('heading', { name: 'Requirements Traceability Matrix' })).toBeTruthy();
    expect(screen.getByText('Link between requirement, design, test case, and KPI')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Requirements (20)' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Req ID',
      'Description',
      'Design module',
      'Test ID',
      'KPI or metric',
      'Result',
    ]);
    expect(screen.getAllByText('Not run yet')).toHaveLength(20);

    const search = screen.getByPlaceholderText('Search requirements...');
    const type = (text: string) => fireEvent.change(search, { target: { value: text } });
    type('phi MASKING');
    expect(screen.getByRole('heading', { name: 'Requirements (1)' })).toBeTruthy();
    expect(screen.getByRole('rowheader', { name: 'R 002' })).toBeTruthy();

    const cases: [string, string][] = [
      ['r 016', 'R 016'],
      ['tc-csv', 'R 014'],
      ['verifyChain', 'R 006'],
      ['idle timeout', 'R 004'],
    ];
    for (const [text, reqId] of cases) {
      type(text);
      expect(screen.getAllByRole('rowheader').map((h) => h.textContent)).toEqual([reqId]);
    }

    type('no such thing');
    expect(screen.getByText('No requirements found matching your search.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Requirements (0)' })).toBeTruthy();
  });

  it('runs the suite in list order, one verification at a time at least 300 ms apart, then toasts success', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = serve();
    renderPage();
    await screen.findByRole('heading', { name: 'Requirements (20)' });

    await act(async () => {
      screen.getByRole('button', { name: 'Run Test Suite' }).click();
      await Promise.resolve();
    });
    const button = screen.getByRole('button', { name: 'Running Tests...' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('progressbar', { name: 'Test suite progress' }).getAttribute('aria-valuenow')).toBe('0');
    expect(screen.getByText('Running: TC-SCOPE-001 (0/20)')).toBeTruthy();
    const first = screen.getByTestId('rtm-row-R 001');
    expect(first.getAttribute('aria-current')).toBe('step');
    expect(within(first).getByText('Running')).toBeTruthy();

    // Not complete before 300 ms even though the server answered at once.
    await advance(250);
    expect(within(first).getByText('Running')).toBeTruthy();
    expect(within(first).queryByText('100%')).toBeNull();
    await advance(60);
    expect(within(first).getByText('100%')).toBeTruthy();
    expect(screen.getByText('Running: TC-PHI-002 (1/20)')).toBeTruthy();

    await advance(19 * 320);
    await waitFor(() => expect(screen.getByText('20/20 tests completed')).toBeTruthy());
    expect(api.sent(VERIFY).map((r) => r.params.reqId)).toEqual(REQUIREMENTS.map((r) => r.reqId));
    expect(screen.getAllByText('100%')).toHaveLength(20);
    expect(screen.getByText('Test Suite Completed')).toBeTruthy();
    expect(screen.getByText('All 20 validation tests passed successfully.')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Run Test Suite' }).disabled).toBe(false);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('says honestly which requirements failed, marks their rows, and clears results when run again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    serve(['R 004', 'R 011']);
    renderPage();
    await screen.findByRole('heading', { name: 'Requirements (20)' });
    await act(async () => {
      screen.getByRole('button', { name: 'Run Test Suite' }).click();
      await Promise.resolve();
    });
    await advance(20 * 320);
    await waitFor(() => expect(screen.getByText('20/20 tests completed')).toBeTruthy());
    expect(screen.getByText('18 of 20 validation tests passed; failed: R 004, R 011')).toBeTruthy();
    expect(screen.queryByText('All 20 validation tests passed successfully.')).toBeNull();
    expect(within(screen.getByTestId('rtm-row-R 004')).getByText('FAIL 75%')).toBeTruthy();
    expect(within(screen.getByTestId('rtm-row-R 004')).getByText('measured 75% for R 004')).toBeTruthy();
    expect(within(screen.getByTestId('rtm-row-R 011')).getByText('FAIL 75%')).toBeTruthy();

    await act(async () => {
      screen.getByRole('button', { name: 'Run Test Suite' }).click();
      await Promise.resolve();
    });
    expect(screen.queryByText('FAIL 75%')).toBeNull();
    expect(screen.getAllByText('Not run yet')).toHaveLength(19);
  });

  it('shows a failed call as a failed requirement, not as a pass', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    serve().on('POST /api/rtm/verify/R%20003', apiError(500, 'INTERNAL', 'boom'));
    renderPage();
    await screen.findByRole('heading', { name: 'Requirements (20)' });
    await act(async () => {
      screen.getByRole('button', { name: 'Run Test Suite' }).click();
      await Promise.resolve();
    });
    await advance(20 * 320);
    await waitFor(() => expect(screen.getByText('20/20 tests completed')).toBeTruthy());
    expect(within(screen.getByTestId('rtm-row-R 003')).getByText('FAIL ERROR')).toBeTruthy();
    expect(screen.getByText('19 of 20 validation tests passed; failed: R 003')).toBeTruthy();
  });
});
