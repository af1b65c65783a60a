import { formatDollars } from '@/shared/api';
import { writeOffClaimSchema, type ClaimDetail } from '../claims.schema';
import { useWriteOffClaim } from './claims.api';
import { ClaimReasonDialog } from './ClaimReasonDialog';
import { reasonChecker } from './claim-reason';

/**
 * Writes off the rest of a Denied or Partially Paid claim's balance after the user gives a reason: the claim
 * becomes Written Off, its open work-queue items are resolved, and the patient's own share stays due. Mounted
 * while open.
 */
export function WriteOffClaimDialog({ claim, onClose }: { claim: ClaimDetail; onClose: () => void }) {
  const writeOff = useWriteOffClaim();
  return (
    <ClaimReasonDialog
      claimId={claim.id}
      fieldId="write-off-reason"
      reasonOf={reasonChecker(writeOffClaimSchema)}
      action={writeOff}
      onClose={onClose}
      texts={{
        title: `Write off claim ${claim.accountNumber}?`,
        description:
          `${formatDollars(claim.balanceCents)} is still owed on this claim. Written off, what ${claim.payer} did not ` +
          `pay is not pursued and counts as revenue lost; the patient's own share ` +
          `(${formatDollars(claim.patientResponsibilityCents)}) stays due.`,
        placeholder: 'e.g. below the cost of an appeal',
        submit: 'Write off',
        pending: 'Writing off…',
        done: (updated) => ({
          title: 'Claim written off',
          description: `Claim ${updated.accountNumber} is Written Off.`,
        }),
        refused: 'Claim cannot be written off',
        failed: 'Failed to write off the claim. Please try again.',
      }}
    />
  );
}
