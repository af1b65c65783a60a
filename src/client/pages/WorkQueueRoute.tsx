import { lazy, Suspense } from 'react';
import { can, type Role } from '@/shared/access';
import WorkQueuePage from '@/features/workqueue/ui/WorkQueuePage';
import { ClaimStatusPanel } from '@/features/submission/ui/ClaimStatusPanel';

const ClaimDetailDialog = lazy(() =>
  import('@/features/claims/ui/ClaimDetailDialog').then((module) => ({ default: module.ClaimDetailDialog })),
);

/**
 * '/work-queue': the work queue, whose items open their claim's view (the claims feature's) for the roles that
 * may read claims, to appeal, correct or write the claim off where those actions live.
 */
export default function WorkQueueRoute({ role }: { role: Role }) {
  return (
    <WorkQueuePage
      role={role}
      claimView={
        can(role, 'claims:read')
          ? (claim, onClose) => (
              <Suspense fallback={null}>
                <ClaimDetailDialog
                  claimId={claim.id}
                  accountNumber={claim.accountNumber}
                  canWrite={can(role, 'claims:write')}
                  onClose={onClose}
                  statusView={
                    can(role, 'claims:submit')
                      ? (shown) => <ClaimStatusPanel key={`${shown.id}-${shown.status}`} claimId={shown.id} />
                      : undefined
                  }
                />
              </Suspense>
            )
          : undefined
      }
    />
  );
}
