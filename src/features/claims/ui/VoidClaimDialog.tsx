import { formatDollars } from '@/shared/api';
import { formatDate } from '@/shared/dates';
import { canVoidAtPayer, voidClaimSchema, type ClaimRow } from '../claims.schema';
import { useVoidClaim } from './claims.api';
import { ClaimReasonDialog } from './ClaimReasonDialog';
import { reasonChecker } from './claim-reason';

/**
 * Voids a claim entered by mistake (a bad import) after the user gives a reason: it stays listed as Voided
 * and in the audit trail, and no KPI or total counts it any more. The payer is not told (that is the claim view's
 * Void at payer), which the dialog says for a claim the payer has, and for a replacement or void of one not yet
 * sent (the payer's claim stays as it is). Mounted while open.
 */
export function VoidClaimDialog({ claim, onClose }: { claim: ClaimRow; onClose: () => void }) {
  const voidClaim = useVoidClaim();
  return (
    <ClaimReasonDialog
      claimId={claim.id}
      fieldId="void-reason"
      reasonOf={reasonChecker(voidClaimSchema)}
      action={voidClaim}
      onClose={onClose}
      texts={{
        title: `Void claim ${claim.accountNumber}?`,
        description: (
          <>
            {`${claim.patient}, ${claim.procedure} on ${formatDate(claim.serviceDate)}, billed ${formatDollars(claim.billedCents)} to ${claim.payer}. `}
            A voided claim stays in the list as Voided and in the audit trail, and no KPI or total counts it.
            {canVoidAtPayer(claim.status)
              ? ` ${claim.payer} is not told: to cancel the claim ${claim.payer} has, open it and use Void at payer.`
              : (claim.status === 'Draft' || claim.status === 'Ready') &&
                claim.frequencyCode !== '1' &&
                ` ${claim.payer} is not told: the claim ${claim.payer} has, which this ${claim.frequencyCode === '7' ? 'replacement was to correct' : 'void was to cancel'}, stays as it is.`}
          </>
        ),
        placeholder: 'e.g. wrong service date in the imported file',
        submit: 'Void claim',
        pending: 'Voiding…',
        done: (updated) => ({
          title: 'Claim voided',
          description: `Claim ${updated.accountNumber} no longer counts in the KPIs and totals.`,
        }),
        refused: 'Claim cannot be voided',
        failed: 'Failed to void the claim. Please try again.',
      }}
    />
  );
}
