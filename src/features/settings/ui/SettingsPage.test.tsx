import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { createQueryClient } from '@/client/lib/query-client';
import type { Role } from '@/shared/access';
import { DEFAULT_PRACTICE_HOURS } from '../practice.schema';
import { DEFAULT_INTEGRATIONS, DEFAULT_NOTIFICATIONS, DEFAULT_USER_SETTINGS } from '../settings.schema';
import SettingsPage, { visibleTabs } from './SettingsPage';

const apiFetch = vi.fn();
vi.mock('@/client/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  apiFetch: (...args: unknown[]) => apiFetch(...args) as unknown,
}));

afterEach(() => {
  apiFetch.mockReset();
});

function answer(path: string, init?: { method?: string; body?: unknown }) {
  const method = init?.method ?? 'GET';
  if (path === '/api/settings') return { id: 1, ...DEFAULT_USER_SETTINGS };
  if (path === '/api/settings/practice') return method === 'PUT' ? init?.body : DEFAULT_PRACTICE_HOURS;
  if (path === '/api/settings/notifications') return { scope: 'practice', settings: DEFAULT_NOTIFICATIONS };
  if (path === '/api/settings/integrations') return DEFAULT_INTEGRATIONS;
  if (path.startsWith('/api/settings/integrations/')) {
    return {
      ...DEFAULT_INTEGRATIONS,
      [path.split('/').at(-1) ?? '']: (init?.body as { connected: boolean }).connected,
    };
  }
  throw new Error(`unexpected ${method} ${path}`);
}

function renderPage(role: Role) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <SettingsPage role={role} usersTab={<p>users tab</p>} />
      <Toaster />
    </QueryClientProvider>,
  );
}

describe('SettingsPage', () => {
  it('shows patient and guest only Display and Notifications, and disables Users for other staff', () => {
    expect(visibleTabs('patient').map((t) => t.tab)).toEqual(['display', 'notifications']);
    expect(visibleTabs('guest').map((t) => t.tab)).toEqual(['display', 'notifications']);
    expect(visibleTabs('doctor').find((t) => t.tab === 'users')?.disabled).toBe(true);
    expect(visibleTabs('admin').every((t) => !t.disabled)).toBe(true);
  });

  it('saves the practice settings with a toast', async () => {
    apiFetch.mockImplementation((path: string, init?: { method?: string; body?: unknown }) =>
      Promise.resolve(answer(path, init)),
    );
    renderPage('admin');
    await userEvent.click(screen.getByRole('tab', { name: 'Practice' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Saturday' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save practice settings' }));
    expect(await screen.findByText('Settings saved')).toBeTruthy();
    expect(apiFetch).toHaveBeenCalledWith('/api/settings/practice', {
      method: 'PUT',
      body: { ...DEFAULT_PRACTICE_HOURS, workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] },
    });
  });

  it('refuses to send practice settings without a working day', async () => {
    apiFetch.mockImplementation((path: string, init?: { method?: string; body?: unknown }) =>
      Promise.resolve(answer(path, init)),
    );
    renderPage('admin');
    await userEvent.click(screen.getByRole('tab', { name: 'Practice' }));
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
      await userEvent.click(await screen.findByRole('checkbox', { name: day }));
    }
    await userEvent.click(screen.getByRole('button', { name: 'Save practice settings' }));
    expect(await screen.findByText('Working days must include at least one day')).toBeTruthy();
    expect(apiFetch).not.toHaveBeenCalledWith('/api/settings/practice', expect.objectContaining({ method: 'PUT' }));
  });

  it('toggles an integration and names its new state in a toast', async () => {
    apiFetch.mockImplementation((path: string, init?: { method?: string; body?: unknown }) =>
      Promise.resolve(answer(path, init)),
    );
    renderPage('billing_admin');
    await userEvent.click(screen.getByRole('tab', { name: 'Integrations' }));
    await userEvent.click(await screen.findByRole('switch', { name: 'Calendar' }));
    expect(await screen.findByText('Calendar connected')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Calendar' }).getAttribute('aria-checked')).toBe('true'),
    );
  });

  it('shows the server’s answer under the current password', async () => {
    apiFetch.mockImplementation((path: string, init?: { method?: string; body?: unknown }) => {
      if (path === '/api/account/password') {
        return Promise.reject(
          new ApiError(
            400,
            '400: wrong',
            'WRONG_PASSWORD',
            'wrong',
            [{ field: 'currentPassword', message: 'is not your current password' }],
            null,
          ),
        );
      }
      return Promise.resolve(answer(path, init));
    });
    renderPage('doctor');
    await userEvent.click(screen.getByRole('tab', { name: 'Security' }));
    await userEvent.type(screen.getByLabelText('Current password'), 'not-mine');
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('New password must be at least 12 characters')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.type(screen.getByLabelText('New password'), 'a much longer passphrase');
    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'a much longer passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is not your current password')).toBeTruthy();
  });
});
