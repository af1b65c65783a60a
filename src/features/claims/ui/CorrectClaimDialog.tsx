import { correctClaimSchema, type ClaimDetail } from '../claims.schema';
import { useCorrectClaim } from './claims.api';
import { ClaimReasonDialog } from './ClaimReasonDialog';
import { reasonChecker } from './claim-reason';

/**
 * Reopens a claim the payer has (accepted, pending or answered) as a Draft after the user says what is wrong with
 * it: it is then edited, scrubbed and sent again as a replacement (frequency 7) of the payer's claim number, and its
 * open denial items are resolved as corrected and resubmitted. Mounted while open.
 */
export function CorrectClaimDialog({ claim, onClose }: { claim: ClaimDetail; onClose: () => void }) {
  const correct = useCorrectClaim();
  return (
    <ClaimReasonDialog
      claimId={claim.id}
      fieldId="correct-reason"
      reasonOf={reasonChecker(correctClaimSchema)}
      action={correct}
      onClose={onClose}
      texts={{
        title: `Correct claim ${claim.accountNumber}?`,
        description:
          `${claim.payer} has this claim (${claim.status}). Corrected, it goes to ${claim.payer} again as a replacement ` +
          `of its claim number: it becomes a Draft to edit and scrub, and is sent in the next batch. What ${claim.payer} ` +
          'decided stays on it until its answer to the replacement.',
        placeholder: 'e.g. wrong diagnosis pointer on line 2',
        submit: 'Reopen to correct',
        pending: 'Reopening…',
        done: (updated) => ({
          title: 'Claim reopened to correct',
          description: `Claim ${updated.accountNumber} is a Draft: edit it, scrub it, and send it as a replacement.`,
        }),
        refused: 'Claim cannot be corrected',
        failed: 'Failed to reopen the claim. Please try again.',
      }}
    />
  );
}
