import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import { SignInPage } from './SignInPage';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/Healthcare%20RCM%3Aowner%40clinic.example?secret=${SECRET}&issuer=Healthcare+RCM`;

describe('SignInPage enrolment (demo mode off, first sign-in)', () => {
  it('shows the QR code and the URI, confirms a code, then shows the recovery codes once', async () => {
    const api = fakeApi({
      'POST /api/auth/login': { challengeId: 'c1', expiresAt: '2026-11-22T15:05:00Z', enrolmentRequired: true },
      'POST /api/auth/mfa/enrol/start': { secret: SECRET, otpauthUri: URI, qrSvg: '<svg></svg>' },
      'POST /api/auth/mfa/enrol/confirm': {
        user: { id: 9, email: 'owner@clinic.example', name: 'Owner', role: 'admin', patientId: null },
        mfa: true,
        csrfToken: 't',
        expiresAt: '2026-11-23T03:00:00Z',
        passwordChangeRequired: true,
        recoveryCodes: ['AAAA-BBBB-CCCC', 'DDDD-EEEE-FFFF'],
      },
    });
    renderWithApp(<SignInPage />, { route: '/' });
    await userEvent.type(screen.getByLabelText('Email'), 'owner@clinic.example');
    await userEvent.type(screen.getByLabelText('Password'), 'Abcd-Efgh-Jkmn-Pqrs');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    expect(screen.getByTestId('totp-secret').textContent).toContain(SECRET);
    expect(screen.getByTestId('otpauth-uri').textContent).toContain(URI);
    await userEvent.type(screen.getByLabelText('6-digit code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));

    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(codes.textContent).toContain('AAAA-BBBB-CCCC');
    expect(codes.textContent).toContain('DDDD-EEEE-FFFF');
    await waitFor(() =>
      expect(api.requests.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/auth/mfa/enrol/confirm'),
    );
    const confirm = api.requests.find((r) => r.path === '/api/auth/mfa/enrol/confirm');
    expect(confirm?.body).toEqual({ challengeId: 'c1', code: '123456' });
  });
});

describe('SignInPage second step with an authenticator', () => {
  const session = {
    user: { id: 9, email: 'owner@clinic.example', name: 'Owner', role: 'admin', patientId: null },
    mfa: true,
    csrfToken: 't',
    expiresAt: '2026-11-23T03:00:00Z',
  };

  async function reachCodeStep() {
    await userEvent.type(screen.getByLabelText('Email'), 'owner@clinic.example');
    await userEvent.type(screen.getByLabelText('Password'), 'Abcd-Efgh-Jkmn-Pqrs');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByLabelText('6-digit code');
  }

  it('signs in with a recovery code instead of the lost phone’s code', async () => {
    const api = fakeApi({
      'POST /api/auth/login': { challengeId: 'c2', expiresAt: '2026-11-22T15:05:00Z' },
      'POST /api/auth/mfa': session,
    });
    renderWithApp(<SignInPage />, { route: '/' });
    await reachCodeStep();
    await userEvent.click(screen.getByRole('button', { name: 'Lost your phone? Use a recovery code' }));
    expect(screen.queryByLabelText('6-digit code')).toBeNull();
    await userEvent.type(screen.getByLabelText('Recovery code'), ' abcd-efgh-jkmn ');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(api.sent('POST /api/auth/mfa').length).toBe(1));
    expect(api.sent('POST /api/auth/mfa')[0]?.body).toEqual({ challengeId: 'c2', recoveryCode: 'abcd-efgh-jkmn' });
  });

  it('offers no recovery code in demo mode, where the code is on screen', async () => {
    fakeApi({ 'POST /api/auth/login': { challengeId: 'c3', expiresAt: '2026-11-22T15:05:00Z', demoCode: '123456' } });
    renderWithApp(<SignInPage />, { route: '/' });
    await reachCodeStep();
    expect(screen.getByTestId('demo-code').textContent).toContain('123456');
    expect(screen.queryByRole('button', { name: 'Lost your phone? Use a recovery code' })).toBeNull();
  });
});

describe('SignInPage after too many wrong codes', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts the lock down and keeps Verify disabled until it ends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    fakeApi({
      'POST /api/auth/login': { challengeId: 'c4', expiresAt: '2026-11-22T15:05:00Z', demoCode: '123456' },
      'POST /api/auth/mfa': apiError(
        423,
        'ACCOUNT_LOCKED',
        'Too many failed attempts. Account locked for 60 seconds.',
        {
          retryAfterSeconds: 2,
        },
      ),
    });
    renderWithApp(<SignInPage />, { route: '/' });
    await user.type(screen.getByLabelText('Email'), 'nurse@healthcare.demo');
    await user.type(screen.getByLabelText('Password'), 'nurse_manager');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByLabelText('6-digit code'), '111111');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    const countdown = await screen.findByTestId('lock-countdown');
    expect(countdown.textContent).toBe('Too many wrong codes. Try again in 2 seconds.');
    await user.type(screen.getByLabelText('6-digit code'), '123456');
    expect(screen.getByRole('button', { name: 'Verify' }).hasAttribute('disabled')).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('lock-countdown').textContent).toBe('Too many wrong codes. Try again in 1 second.');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByTestId('lock-countdown')).toBeNull();
    expect(screen.getByRole('button', { name: 'Verify' }).hasAttribute('disabled')).toBe(false);
  });
});
