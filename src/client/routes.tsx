import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import {
  SCREENS,
  canOpen,
  canonicalScreenPath,
  homePathFor,
  screenOf,
  type Role,
  type ScreenPath,
} from '@/shared/access';
import { toast } from '@/client/components/ui/toast';
import { Skeleton } from '@/client/components/ui/skeleton';
import { NotFoundPage } from '@/client/components/layout/NotFoundPage';

type ScreenComponent = ComponentType<{ role: Role }>;

type ScreenModule = Promise<{ default: ScreenComponent }>;

/** One page per screen of shared/access.ts, each loaded with its screen (route-level code splitting). */
const SCREEN_MODULES: Record<ScreenPath, () => ScreenModule> = {
  '/home': () => import('./pages/HomeRoute'),
  '/patient-portal': () => import('./pages/PatientPortalRoute'),
  '/patients': () => import('./pages/PatientsRoute'),
  '/appointments': () => import('@/features/appointments/ui/AppointmentsPage'),
  '/overdue-followups': () => import('@/features/worklist/ui/OverdueFollowupsPage'),
  '/claims': () => import('@/client/pages/ClaimsRoute'),
  '/remittances': () => import('@/features/remittances/ui/RemittancesPage'),
  '/work-queue': () => import('./pages/WorkQueueRoute'),
  '/kpis': () => import('@/features/analytics/ui/KpisPage'),
  '/analytics': () => import('@/features/analytics/ui/AnalyticsPage'),
  '/billing': () => import('@/features/billing/ui/BillingPage'),
  '/authorizations': () => import('@/features/authorizations/ui/AuthorizationsPage'),
  '/compliance': () => import('@/features/compliance/ui/CompliancePage'),
  '/audit': () => import('@/features/audit/ui/AuditLogPage'),
  '/rtm': () => import('@/features/rtm/ui/TraceabilityPage'),
  '/settings': () => import('./pages/SettingsRoute'),
};

const PAGES = {} as Record<ScreenPath, ScreenComponent>;
for (const { path } of SCREENS) PAGES[path] = lazy(SCREEN_MODULES[path]);

/**
 * Starts loading the screen of `pathname` at once, while the session is still being checked, instead of
 * after it (the browser fetches a module once: the page's lazy() then finds it loading or loaded).
 */
export function preloadScreen(pathname: string) {
  // '/' is where a signed-out visitor signs in: its first download stays the sign-in screen alone.
  const screen = pathname === '/' ? null : screenOf(pathname);
  if (screen) void SCREEN_MODULES[screen]().catch(() => undefined);
}

/** A route the role may not open shows the 'Access denied' toast and redirects home. */
function Guard({ role, children }: { role: Role; children: ReactNode }) {
  const location = useLocation();
  const allowed = canOpen(role, location.pathname);
  useEffect(() => {
    if (!allowed) {
      toast({
        title: 'Access denied',
        description: 'You do not have permission to access this page',
        variant: 'destructive',
      });
    }
  }, [allowed, location.pathname]);
  if (!allowed) return <Navigate to={homePathFor(role)} replace />;
  return <>{children}</>;
}

function PageFallback() {
  return (
    <div role="status" className="space-y-4" aria-busy="true" aria-label="Loading">
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-32 w-full" />
    </div>
  );
}

export function AppRoutes({ role }: { role: Role }) {
  const location = useLocation();
  // The router matches paths in any case but the access policy names screens in lower case: `/CLAIMS`
  // is the claims screen, at its own address.
  const canonical = canonicalScreenPath(location.pathname);
  if (canonical) return <Navigate to={{ pathname: canonical, search: location.search, hash: location.hash }} replace />;
  return (
    <Suspense fallback={<PageFallback />}>
      <Routes>
        <Route path="/" element={<Navigate to={homePathFor(role)} replace />} />
        {SCREENS.map(({ path }) => {
          const Page = PAGES[path];
          return (
            <Route
              key={path}
              path={`${path}/*`}
              element={
                <Guard role={role}>
                  <Page role={role} />
                </Guard>
              }
            />
          );
        })}
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
