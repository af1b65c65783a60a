import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import { crossFeatureKeys } from '@/client/lib/cross-feature-keys';
import type { PasswordChange } from '@/features/auth/auth.schema';
import type {
  BillingIdentity,
  BillingIdentityUpdate,
  Clearinghouse,
  ClearinghouseUpdate,
  PracticeHours,
  PracticeHoursUpdate,
} from '../practice.schema';
import { DEFAULT_DISPLAY_SETTINGS, FONT_SIZE_PX, type DisplaySettings } from '../settings.display';
import type {
  IntegrationKey,
  Integrations,
  NotificationSettings,
  NotificationsResponse,
  UserSettings,
  UserSettingsPatch,
} from '../settings.schema';
import type { PracticeTimeZone, PracticeTimeZoneUpdate } from '../practice-zone.schema';
import { setPracticeTimeZone } from '@/shared/practice-zone';

export const settingsKeys = {
  user: ['/api/settings'] as const,
  practice: ['/api/settings/practice'] as const,
  billingIdentity: ['/api/settings/practice/billing-identity'] as const,
  clearinghouse: ['/api/settings/practice/clearinghouse'] as const,
  notifications: ['/api/settings/notifications'] as const,
  integrations: ['/api/settings/integrations'] as const,
};
const LOCAL_KEY = 'rcm.display-settings';

type Display = DisplaySettings;

/** High contrast switches the theme; font size maps small/medium/large to 14/16/18 px. */
export function applyDisplaySettings(display: Display) {
  const root = document.documentElement;
  root.classList.toggle('high-contrast', display.highContrast);
  root.style.setProperty('--app-font-size', `${FONT_SIZE_PX[display.fontSize]}px`);
}

/** The last display settings seen on this device, applied before the server answers (no flash on reload). */
export function localDisplaySettings(): Display {
  try {
    const parsed = JSON.parse(localStorage.getItem(LOCAL_KEY) ?? 'null') as Partial<Display> | null;
    return {
      highContrast: parsed?.highContrast === true,
      fontSize:
        parsed?.fontSize === 'small' || parsed?.fontSize === 'large'
          ? parsed.fontSize
          : DEFAULT_DISPLAY_SETTINGS.fontSize,
    };
  } catch {
    return DEFAULT_DISPLAY_SETTINGS;
  }
}

function rememberLocally(display: Display) {
  try {
    localStorage.setItem(LOCAL_KEY, JSON.stringify({ highContrast: display.highContrast, fontSize: display.fontSize }));
  } catch {
    // Private browsing may refuse storage; the server copy still holds the settings.
  }
}

export function useUserSettings(enabled: boolean) {
  const query = useQuery({
    queryKey: settingsKeys.user,
    queryFn: () => apiFetch<UserSettings>('/api/settings'),
    enabled,
  });
  useEffect(() => {
    if (query.data) {
      applyDisplaySettings(query.data);
      rememberLocally(query.data);
    }
  }, [query.data]);
  return query;
}

/** Applies a change at once, then syncs it to the server; a failed sync is only logged. */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: UserSettingsPatch) => apiFetch<UserSettings>('/api/settings', { method: 'PATCH', body: patch }),
    onMutate: (patch) => {
      const previous = queryClient.getQueryData<UserSettings>(settingsKeys.user);
      if (previous) queryClient.setQueryData(settingsKeys.user, { ...previous, ...patch });
    },
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.user, saved),
    onError: (error) => console.error('Settings sync failed', error),
  });
}

// ---------------------------------------------------------------------------------------------
// Practice, notifications, integrations and the password (Settings tabs).

export function usePracticeHours() {
  return useQuery({
    queryKey: settingsKeys.practice,
    queryFn: () => apiFetch<PracticeHours>('/api/settings/practice'),
  });
}

export function useSavePracticeHours() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PracticeHoursUpdate) =>
      apiFetch<PracticeHours>('/api/settings/practice', { method: 'PUT', body: input }),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.practice, saved);
      // The booking form reads the same hours.
      void queryClient.invalidateQueries({ queryKey: crossFeatureKeys.practiceHours });
    },
  });
}

export function useBillingIdentity() {
  return useQuery({
    queryKey: settingsKeys.billingIdentity,
    queryFn: () => apiFetch<BillingIdentity>('/api/settings/practice/billing-identity'),
  });
}

/** Sends the form's checked values (EIN and ZIP already digits only); the answer is what was stored. */
export function useSaveBillingIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BillingIdentityUpdate) =>
      apiFetch<BillingIdentity>('/api/settings/practice/billing-identity', { method: 'PUT', body: input }),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.billingIdentity, saved),
  });
}

export function useClearinghouse() {
  return useQuery({
    queryKey: settingsKeys.clearinghouse,
    queryFn: () => apiFetch<Clearinghouse>('/api/settings/practice/clearinghouse'),
  });
}

export function useSaveClearinghouse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ClearinghouseUpdate) =>
      apiFetch<Clearinghouse>('/api/settings/practice/clearinghouse', { method: 'PUT', body: input }),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.clearinghouse, saved),
  });
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: settingsKeys.notifications,
    queryFn: () => apiFetch<NotificationsResponse>('/api/settings/notifications'),
  });
}

export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NotificationSettings) =>
      apiFetch<NotificationsResponse>('/api/settings/notifications', { method: 'PUT', body: input }),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.notifications, saved),
  });
}

export function useIntegrations() {
  return useQuery({
    queryKey: settingsKeys.integrations,
    queryFn: () => apiFetch<Integrations>('/api/settings/integrations'),
  });
}

export function useSetIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, connected }: { key: IntegrationKey; connected: boolean }) =>
      apiFetch<Integrations>(`/api/settings/integrations/${key}`, { method: 'PUT', body: { connected } }),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.integrations, saved),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (input: PasswordChange) =>
      apiFetch<{ endedSessions: number }>('/api/account/password', { method: 'POST', body: input }),
  });
}

const practiceTimeZoneKey = ['/api/settings/practice/time-zone'] as const;

export function usePracticeTimeZone() {
  return useQuery({
    queryKey: practiceTimeZoneKey,
    queryFn: () => apiFetch<PracticeTimeZone>('/api/settings/practice/time-zone'),
  });
}

export function useSavePracticeTimeZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PracticeTimeZoneUpdate) =>
      apiFetch<PracticeTimeZone>('/api/settings/practice/time-zone', { method: 'PUT', body: input }),
    onSuccess: (saved) => {
      setPracticeTimeZone(saved.timeZone);
      queryClient.setQueryData(practiceTimeZoneKey, saved);
      // Every "today" the screens asked for may have moved to another day.
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== practiceTimeZoneKey[0] });
    },
  });
}
