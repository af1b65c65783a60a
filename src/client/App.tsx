import { useEffect } from 'react';
import type { Role } from '@/shared/access';
import { BrowserRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from '@/client/components/ui/toast';
import { AppShell } from '@/client/components/layout/AppShell';
import { ApiError } from '@/client/lib/api-client';
import { createQueryClient } from '@/client/lib/query-client';
import { authKeys, useLogout, useSession } from '@/features/auth/ui/auth.api';
import { SignInPage } from '@/features/auth/ui/SignInPage';
import { PasswordChangeRequiredPage } from './pages/PasswordChangeRequiredPage';
import { applyDisplaySettings, localDisplaySettings, useUserSettings } from '@/features/settings/ui/settings.api';
import { AppRoutes, preloadScreen } from './routes';

const queryClient = createQueryClient();
// A screen's address (a bookmark, a reload) is most often opened signed in: fetch the screen's code
// alongside the session check rather than after it. The sign-in address '/' loads no screen.
preloadScreen(window.location.pathname);
// A 401 anywhere means the session ended (idle timeout, logout elsewhere): ask again who is signed in.
queryClient.getQueryCache().config.onError = (error, query) => {
  if (error instanceof ApiError && error.status === 401 && query.queryKey[0] !== authKeys.session[0]) {
    void queryClient.invalidateQueries({ queryKey: authKeys.session });
  }
};

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
  const user = session.data?.user;
  if (!user) return <SignInPage />;
  if (session.data?.passwordChangeRequired) return <PasswordChangeRequiredPage />;
  return <SignedInApp key={user.id} role={user.role} />;
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
