import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '@/client/components/layout/NotFoundPage';
import PatientPortalPage from '@/features/portal/ui/PatientPortalPage';

const MyBillingPage = lazy(() => import('@/features/billing/ui/MyBillingPage'));

/**
 * '/patient-portal' and its sub-paths (a role may open a route's sub-paths). The
 * patient's 'My Billing' (a billing screen) lives at /patient-portal/billing, so the two features' screens
 * are assembled here, in the client shell.
 */
export default function PatientPortalRoute() {
  return (
    <Routes>
      <Route index element={<PatientPortalPage />} />
      <Route path="billing" element={<MyBillingPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
