import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import { authKeys } from '@/features/auth/ui/auth.api';
import { PasswordChangeRequiredPage } from './PasswordChangeRequiredPage';

describe('the first sign-in with a temporary password', () => {
  it('asks for a new password, sends it, and reads the session again to let the user in', async () => {
    const api = fakeApi({ 'POST /api/account/password': { endedSessions: 0 } });
    const { queryClient } = renderWithApp(<PasswordChangeRequiredPage />);
    queryClient.setQueryData(authKeys.session, { user: null, mfa: false, csrfToken: null, expiresAt: null });
    const user = userEvent.setup();

    expect(screen.getByRole('heading', { name: 'Set a new password' })).toBeTruthy();
    await user.type(screen.getByLabelText('Current password'), 'temporary-pass-123');
    await user.type(screen.getByLabelText('New password'), 'my-own-passphrase');
    await user.type(screen.getByLabelText('Confirm new password'), 'my-own-passphrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(api.sent('POST /api/account/password')).toHaveLength(1));
    expect(api.sent('POST /api/account/password')[0]?.body).toEqual({
      currentPassword: 'temporary-pass-123',
      newPassword: 'my-own-passphrase',
    });
    await waitFor(() => expect(queryClient.getQueryState(authKeys.session)?.isInvalidated).toBe(true));
  });
});
