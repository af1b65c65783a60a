import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { SCREENS, canOpen, homePathFor, type Role, type ScreenPath } from '@/shared/access';
import { toast } from '@/client/components/ui/toast';
import { Skeleton } from '@/client/components/ui/skeleton';
import { NotFoundPage } from '@/client/components/layout/NotFoundPage';

type ScreenComponent = ComponentType<{ role: Role }>;

/** One page per screen of shared/access.ts, each loaded with its screen (route-level code splitting). */
const PAGES: Record<ScreenPath, ScreenComponent> = {
  '/home': lazy(() => import('./pages/HomeRoute')),
  '/patient-portal': lazy(() => import('./pages/PatientPortalRoute')),
  '/patients': lazy(() => import('@/features/patients/ui/PatientsPage')),
  '/appointments': lazy(() => import('@/features/appointments/ui/AppointmentsPage')),
  '/overdue-followups': lazy(() => import('@/features/worklist/ui/OverdueFollowupsPage')),
  '/claims': lazy(() => import('@/features/claims/ui/ClaimsPage')),
  '/kpis': lazy(() => import('@/features/analytics/ui/KpisPage')),
  '/analytics': lazy(() => import('@/features/analytics/ui/AnalyticsPage')),
  '/billing': lazy(() => import('@/features/billing/ui/BillingPage')),
  '/authorizations': lazy(() => import('@/features/authorizations/ui/AuthorizationsPage')),
  '/compliance': lazy(() => import('@/features/compliance/ui/CompliancePage')),
  '/audit': lazy(() => import('@/features/audit/ui/AuditLogPage')),
  '/rtm': lazy(() => import('@/features/rtm/ui/TraceabilityPage')),
  '/settings': lazy(() => import('./pages/SettingsRoute')),
};

/** SPEC 2.1: a route the role may not open shows the 'Access denied' toast and redirects home. */
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
