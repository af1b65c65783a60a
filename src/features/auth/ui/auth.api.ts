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

export const authKeys = {
  session: ['/api/auth/session'] as const,
};

/** The session query stays (its observers keep listening); every other cached answer goes. */
function forgetEverythingButSession(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== authKeys.session[0] });
}

export function useSession() {
  return useQuery({
    queryKey: authKeys.session,
    queryFn: async ({ signal }) => {
      const session = await apiFetch<SessionResponse>('/api/auth/session', { signal });
      setRequestIdentity(session.user, session.csrfToken);
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
    onSuccess: (session) => {
      setRequestIdentity(session.user, session.csrfToken);
      // Whatever the previous user had cached must not show for the new one.
      forgetEverythingButSession(queryClient);
      queryClient.setQueryData(authKeys.session, session);
    },
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
  const finishSignIn = ({ recoveryCodes: _shownOnce, ...session }: EnrolmentConfirmResponse) => {
    setRequestIdentity(session.user, session.csrfToken);
    forgetEverythingButSession(queryClient);
    queryClient.setQueryData(authKeys.session, session);
  };
  return { ...mutation, finishSignIn };
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<void>('/api/auth/logout', { method: 'POST' }),
    onSettled: () => {
      setRequestIdentity(null, null);
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
