import { X12FileDialog } from '@/client/components/ui/x12-file-dialog';
import { ELIGIBILITY_RESPONSE_MAX_BYTES } from '../coverage.eligibility.schema';
import { usePost271 } from './coverage.api';

/**
 * Upload 271: a payer's eligibility answer as the clearinghouse sent it, applied whole or refused whole with the
 * server's reason shown here (the mailbox applies the ones it fetches itself).
 */
export function Upload271Dialog() {
  const post = usePost271();
  return (
    <X12FileDialog
      trigger="Upload 271"
      triggerSize="sm"
      description={
        <>
          A payer&apos;s answer to eligibility checks. Each answer must match a check awaiting it; otherwise the whole
          file is refused and nothing changes.
        </>
      }
      fieldId="eligibility-response-file"
      fieldLabel="271 file"
      accept=".txt,.x12,.edi,.271,text/plain"
      maxBytes={ELIGIBILITY_RESPONSE_MAX_BYTES}
      missing="is required: choose the 271 file"
      apply={async (file) => ({
        title: 'Eligibility answers recorded',
        description: (await post.mutateAsync(file)).summary,
      })}
    />
  );
}
