import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiFetch, setRequestIdentity } from '@/client/lib/api-client';
import type {
  EnrolmentConfirmRequest,
  EnrolmentConfirmResponse,
  EnrolmentStart,
  LoginRequest,
  LoginResponse,
  MfaRequest,
  Registration,
  SessionResponse,
} from '../auth.schema';
import { clearSessionExpired, sessionExpiredFor } from './session-expiry';
import { setPracticeTimeZone, setServerTime } from '@/shared/practice-zone';

export const authKeys = {
  session: ['/api/auth/session'] as const,
};

/** The session query stays (its observers keep listening); every other cached answer goes. */
function forgetEverythingButSession(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== authKeys.session[0] });
}

/**
 * A completed sign-in. The same person signing in again after their session expired keeps the screens
 * they had open (and what they had typed), which reload what they show; anyone else starts clean, since
 * nothing the previous user had cached may show for them.
 */
function startSession(queryClient: QueryClient, session: SessionResponse) {
  setRequestIdentity(session.user, session.csrfToken);
  if (session.timeZone) setPracticeTimeZone(session.timeZone);
  if (session.serverTime) setServerTime(session.serverTime);
  const resumed = session.user !== null && sessionExpiredFor()?.id === session.user.id;
  if (!resumed) {
    forgetEverythingButSession(queryClient);
    clearSessionExpired();
  }
  // A resumed session leaves the note of who expired in place: clearing it here would re-render before
  // the session's new answer reaches its observers, with nobody to show, and unmount the screens kept.
  // It is harmless while someone is signed in, and replaced by the next expiry or cleared by Logout.
  queryClient.setQueryData(authKeys.session, session);
  if (resumed) void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== authKeys.session[0] });
}

export function useSession() {
  return useQuery({
    queryKey: authKeys.session,
    queryFn: async ({ signal }) => {
      const session = await apiFetch<SessionResponse>('/api/auth/session', { signal });
      setRequestIdentity(session.user, session.csrfToken);
      if (session.timeZone) setPracticeTimeZone(session.timeZone);
      if (session.serverTime) setServerTime(session.serverTime);
      // A 401 that was not the session ending after all: the server still knows the same person.
      if (session.user && sessionExpiredFor()?.id === session.user.id) clearSessionExpired();
      return session;
    },
  });
}

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginRequest) => apiFetch<LoginResponse>('/api/auth/login', { method: 'POST', body }),
  });
}

export function useVerifyCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MfaRequest) => apiFetch<SessionResponse>('/api/auth/mfa', { method: 'POST', body }),
    onSuccess: (session) => startSession(queryClient, session),
  });
}

export function useStartEnrolment() {
  return useMutation({
    mutationFn: (body: { challengeId: string }) =>
      apiFetch<EnrolmentStart>('/api/auth/mfa/enrol/start', { method: 'POST', body }),
  });
}

/** Confirms enrolment; the caller shows the recovery codes, then calls `finishSignIn` with the answer. */
export function useConfirmEnrolment() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (body: EnrolmentConfirmRequest) =>
      apiFetch<EnrolmentConfirmResponse>('/api/auth/mfa/enrol/confirm', { method: 'POST', body }),
  });
  const finishSignIn = ({ recoveryCodes: _shownOnce, ...session }: EnrolmentConfirmResponse) =>
    startSession(queryClient, session);
  return { ...mutation, finishSignIn };
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<void>('/api/auth/logout', { method: 'POST' }),
    onSettled: () => {
      setRequestIdentity(null, null);
      clearSessionExpired();
      forgetEverythingButSession(queryClient);
      queryClient.setQueryData(authKeys.session, { user: null, mfa: false, csrfToken: null, expiresAt: null });
    },
  });
}

// The email of an account just registered, for the sign-in screen to start from (kept in memory only).
let emailForSignIn: string | null = null;

export function rememberEmailForSignIn(email: string) {
  emailForSignIn = email;
}

/** The remembered email, once: a later visit to the sign-in screen starts empty again. */
export function takeEmailForSignIn(): string {
  const email = emailForSignIn ?? '';
  emailForSignIn = null;
  return email;
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: Registration) => apiFetch<{ email: string }>('/api/auth/register', { method: 'POST', body }),
  });
}
