import { X12FileDialog } from '@/client/components/ui/x12-file-dialog';
import { ACKNOWLEDGEMENT_MAX_BYTES, isClaimStatusResponse } from '../submission.schema';
import { useApplyAcknowledgement, useApplyClaimStatusResponse } from './submission.api';

/**
 * Upload acknowledgement: a 999 or 277CA file as the clearinghouse sent it, or a payer's 277 claim status response
 * (005010X212, sent to its own route), applied whole or refused whole with the server's reason shown here.
 */
export function UploadAcknowledgementDialog() {
  const acknowledgement = useApplyAcknowledgement();
  const claimStatus = useApplyClaimStatusResponse();
  return (
    <X12FileDialog
      trigger="Upload acknowledgement"
      description={
        <>
          A 999 from the clearinghouse accepts or rejects a batch&apos;s file; a 277CA accepts each claim or rejects it
          back to Draft with its reason; a payer&apos;s 277 answers a claim status request. The whole file is applied,
          or nothing is.
        </>
      }
      fieldId="acknowledgement-file"
      fieldLabel="999, 277CA or 277 file"
      accept=".txt,.x12,.edi,.999,.277,text/plain"
      maxBytes={ACKNOWLEDGEMENT_MAX_BYTES}
      missing="is required: choose the 999, 277CA or 277 file"
      apply={async (file) => {
        if (isClaimStatusResponse(file.text)) {
          const result = await claimStatus.mutateAsync(file);
          return { title: 'Claim status applied', description: `277: ${result.summary}` };
        }
        const result = await acknowledgement.mutateAsync(file.text);
        return { title: 'Acknowledgement applied', description: `${result.kind}: ${result.summary}` };
      }}
    />
  );
}
