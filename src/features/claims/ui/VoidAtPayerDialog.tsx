import { voidAtPayerSchema, type ClaimDetail } from '../claims.schema';
import { useVoidClaimAtPayer } from './claims.api';
import { ClaimReasonDialog } from './ClaimReasonDialog';
import { reasonChecker } from './claim-reason';

/**
 * Asks the payer to cancel a claim it has and paid nothing on, after the user says why: the claim becomes a Draft
 * void (frequency 8) of the payer's claim number, to scrub and send; it is voided here when the payer accepts the
 * void. Mounted while open.
 */
export function VoidAtPayerDialog({ claim, onClose }: { claim: ClaimDetail; onClose: () => void }) {
  const voidAtPayer = useVoidClaimAtPayer();
  return (
    <ClaimReasonDialog
      claimId={claim.id}
      fieldId="void-at-payer-reason"
      reasonOf={reasonChecker(voidAtPayerSchema)}
      action={voidAtPayer}
      onClose={onClose}
      texts={{
        title: `Void claim ${claim.accountNumber} at ${claim.payer}?`,
        description:
          `${claim.payer} has this claim (${claim.status}). It becomes a Draft void of ${claim.payer}'s claim number, ` +
          `to scrub and send in the next batch; it counts as owed until ${claim.payer} accepts the void, and is voided ` +
          'then. Use it for a claim that should not have been billed at all; to change one, correct it instead.',
        placeholder: 'e.g. billed under the wrong patient',
        submit: 'Prepare the void',
        pending: 'Preparing…',
        done: (updated) => ({
          title: 'Void prepared',
          description: `Claim ${updated.accountNumber} is a Draft void: scrub it and send it in a batch.`,
        }),
        refused: 'Claim cannot be voided at its payer',
        failed: 'Failed to prepare the void. Please try again.',
      }}
    />
  );
}
