import { lazy } from 'react';
import { can, type Role } from '@/shared/access';
import ClaimsPage from '@/features/claims/ui/ClaimsPage';
import { ClaimStatusPanel } from '@/features/submission/ui/ClaimStatusPanel';

// The Batches view is billing's: fetched when opened (ClaimsPage holds it in a Suspense), with the mailbox's log.
const ClaimBatchesView = lazy(() => import('@/features/submission/ui/ClaimBatchesView'));
const MailboxLog = lazy(() =>
  import('@/features/clearinghouse/ui/MailboxLog').then((m) => ({ default: m.MailboxLog })),
);

/**
 * '/claims': the claims feature's screen with the claim submission feature's Batches view (and under it the
 * clearinghouse mailbox's log, for those who read it), and the payer status of a claim in its view, assembled in for
 * those who send claims.
 */
export default function ClaimsRoute({ role }: { role: Role }) {
  return (
    <ClaimsPage
      role={role}
      batchesView={
        <div className="grid gap-4">
          <ClaimBatchesView />
          {can(role, 'clearinghouse:read') && <MailboxLog />}
        </div>
      }
      statusView={
        can(role, 'claims:submit')
          ? (claim) => <ClaimStatusPanel key={`${claim.id}-${claim.status}`} claimId={claim.id} />
          : undefined
      }
    />
  );
}
