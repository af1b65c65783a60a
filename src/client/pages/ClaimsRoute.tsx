import { lazy } from 'react';
import type { Role } from '@/shared/access';
import ClaimsPage from '@/features/claims/ui/ClaimsPage';

// The Batches view is billing's: fetched when opened (ClaimsPage holds it in a Suspense).
const ClaimBatchesView = lazy(() => import('@/features/submission/ui/ClaimBatchesView'));

/** '/claims': the claims feature's screen with the claim submission feature's Batches view assembled in. */
export default function ClaimsRoute({ role }: { role: Role }) {
  return <ClaimsPage role={role} batchesView={<ClaimBatchesView />} />;
}
