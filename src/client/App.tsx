import { lazy, Suspense, useEffect } from 'react';
import type { Role } from '@/shared/access';
import { BrowserRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from '@/client/components/ui/toast';
import { AppShell } from '@/client/components/layout/AppShell';
import { ApiError } from '@/client/lib/api-client';
import { createQueryClient } from '@/client/lib/query-client';
import { authKeys, useLogout, useSession } from '@/features/auth/ui/auth.api';
import { SignInPage } from '@/features/auth/ui/SignInPage';
import type { SessionResponse } from '@/features/auth/auth.schema';
import { noteSessionExpired, useSessionExpiredFor } from '@/features/auth/ui/session-expiry';
import { applyDisplaySettings, localDisplaySettings, useUserSettings } from '@/features/settings/ui/settings.api';
import { AppRoutes, preloadScreen } from './routes';

// Seldom needed, and it brings the dialog primitives: kept out of the first download (e2e/client-weight).
const SessionExpiredDialog = lazy(() =>
  import('@/features/auth/ui/SessionExpiredDialog').then((m) => ({ default: m.SessionExpiredDialog })),
);

// Only a sign-in with a temporary password needs it (and its password form's schema).
const PasswordChangeRequiredPage = lazy(() =>
  import('./pages/PasswordChangeRequiredPage').then((m) => ({ default: m.PasswordChangeRequiredPage })),
);

const queryClient = createQueryClient();
// A screen's address (a bookmark, a reload) is most often opened signed in: fetch the screen's code
// alongside the session check rather than after it. The sign-in address '/' loads no screen.
preloadScreen(window.location.pathname);
// A 401 to a signed-in person's read or write means the session ended (idle timeout, logout elsewhere):
// remember who it was, so that the sign-in asked for over the app keeps what they had typed, and ask
// again who is signed in. A 401 while signed out is a sign-in step's own answer (a wrong password).
function onUnauthenticated(error: Error) {
  if (!(error instanceof ApiError) || error.status !== 401) return;
  const user = queryClient.getQueryData<SessionResponse>(authKeys.session)?.user;
  if (!user) return;
  noteSessionExpired(user);
  void queryClient.invalidateQueries({ queryKey: authKeys.session });
}
queryClient.getQueryCache().config.onError = (error, query) => {
  if (query.queryKey[0] !== authKeys.session[0]) onUnauthenticated(error);
};
queryClient.getMutationCache().config.onError = (error) => onUnauthenticated(error);

function SignedInApp({ role }: { role: Role }) {
  useUserSettings(true);
  const logout = useLogout();
  return (
    <AppShell role={role} onLogout={() => logout.mutate()} loggingOut={logout.isPending}>
      <AppRoutes role={role} />
    </AppShell>
  );
}

function SessionGate() {
  const session = useSession();
  if (session.isLoading) {
    // The same as index.html paints before the scripts run, so the page does not change while the session is checked.
    return (
      <div className="p-8" role="status" aria-busy="true" aria-label="Loading">
        <p className="font-semibold">Healthcare RCM</p>
        <p className="text-sm text-muted-foreground">Loading…</p>
      </div>
    );
  }
  return <SignedInOrNot session={session.data} />;
}

function SignedInOrNot({ session }: { session: SessionResponse | undefined }) {
  const expiredFor = useSessionExpiredFor();
  const user = session?.user ?? null;
  const shown = user ?? expiredFor;
  if (!shown) return <SignInPage />;
  if (user && session?.passwordChangeRequired) {
    return (
      <Suspense fallback={<p className="p-8 text-sm text-muted-foreground">Loading…</p>}>
        <PasswordChangeRequiredPage />
      </Suspense>
    );
  }
  // While the session is expired the app stays mounted under the sign-in overlay; keyed by person, so a
  // different account signing in starts with fresh screens.
  return (
    <>
      <SignedInApp key={shown.id} role={shown.role} />
      {!user && expiredFor && (
        <Suspense fallback={<div className="fixed inset-0 z-[60] bg-background" aria-busy="true" />}>
          <SessionExpiredDialog email={expiredFor.email} />
        </Suspense>
      )}
    </>
  );
}

export function App() {
  useEffect(() => applyDisplaySettings(localDisplaySettings()), []);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <SessionGate />
      </BrowserRouter>
      <Toaster />
    </QueryClientProvider>
  );
}
