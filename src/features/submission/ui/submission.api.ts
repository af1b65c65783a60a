import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type {
  AcknowledgementResult,
  ClaimStatusRequestList,
  ClaimStatusRequestResult,
  ClaimStatusResponseResult,
  ClaimStatusView,
  ClaimBatchDetail,
  ClaimBatchList,
  CreatedClaimBatches,
  NewClaimBatch,
  ReadyPayer,
} from '../submission.schema';
import { crossFeatureKeys } from '@/client/lib/cross-feature-keys';

export const BATCHES_PATH = '/api/claim-batches';

const batchKeys = {
  all: [BATCHES_PATH] as const,
  list: [BATCHES_PATH, 'list'] as const,
  ready: [BATCHES_PATH, 'ready'] as const,
  detail: (id: number) => [BATCHES_PATH, 'detail', id] as const,
};

/** Where the browser downloads a batch's 837P (the server names the file). */
export function batchFileUrl(batchId: number): string {
  return `${BATCHES_PATH}/${batchId}/837`;
}

/** The newest batches first. */
export function useClaimBatches() {
  return useQuery({
    queryKey: batchKeys.list,
    queryFn: ({ signal }) => apiFetch<ClaimBatchList>(BATCHES_PATH, { signal }),
  });
}

/** The payers with Ready claims waiting to be sent. */
export function useReadyPayers() {
  return useQuery({
    queryKey: batchKeys.ready,
    queryFn: ({ signal }) => apiFetch<{ items: ReadyPayer[] }>(`${BATCHES_PATH}/ready`, { signal }),
  });
}

/**
 * One batch with its claims. Opening it is an audited read of patients' names, so it is not kept in the
 * browser's cache once its view closes.
 */
export function useClaimBatchDetail(id: number) {
  return useQuery({
    queryKey: batchKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<ClaimBatchDetail>(`${BATCHES_PATH}/${id}`, { signal }),
    gcTime: 0,
  });
}

/** After a batch or an acknowledgement the claims' statuses moved too: both lists are read again. */
function useRefreshBatches() {
  const queryClient = useQueryClient();
  return async () => {
    void queryClient.invalidateQueries({ refetchType: 'none' });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: batchKeys.all }),
      queryClient.invalidateQueries({ queryKey: crossFeatureKeys.claims }),
    ]);
  };
}

export function useCreateClaimBatch() {
  const refresh = useRefreshBatches();
  return useMutation({
    mutationFn: (body: NewClaimBatch) => apiFetch<CreatedClaimBatches>(BATCHES_PATH, { method: 'POST', body }),
    // Settled, not only on success: a 409 may mean someone else sent these claims meanwhile.
    onSettled: refresh,
  });
}

/** Posts a 999 or 277CA file's text as it came. */
export function useApplyAcknowledgement() {
  const refresh = useRefreshBatches();
  return useMutation({
    mutationFn: (text: string) =>
      apiFetch<AcknowledgementResult>('/api/acknowledgements', { method: 'POST', text, contentType: 'text/plain' }),
    onSuccess: refresh,
  });
}

export const STATUS_REQUESTS_PATH = '/api/claims/status-requests';

const statusKeys = {
  all: [STATUS_REQUESTS_PATH] as const,
  list: [STATUS_REQUESTS_PATH, 'list'] as const,
  claim: (id: number) => [STATUS_REQUESTS_PATH, 'claim', id] as const,
};

/** Where the browser downloads a status request's 276 (the server names the file). */
export function statusRequestFileUrl(requestId: number): string {
  return `${STATUS_REQUESTS_PATH}/${requestId}/file`;
}

/** The newest claim status requests (276) first. */
export function useClaimStatusRequests() {
  return useQuery({
    queryKey: statusKeys.list,
    queryFn: ({ signal }) => apiFetch<ClaimStatusRequestList>(STATUS_REQUESTS_PATH, { signal }),
  });
}

/** A claim's latest status answer, and whether its payer can be asked now. */
export function useClaimStatus(claimId: number) {
  return useQuery({
    queryKey: statusKeys.claim(claimId),
    queryFn: ({ signal }) => apiFetch<ClaimStatusView>(`/api/claims/${claimId}/status`, { signal }),
  });
}

function useRefreshStatus() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: statusKeys.all }),
      queryClient.invalidateQueries({ queryKey: crossFeatureKeys.claims }),
    ]);
  };
}

/** Asks the payers: every claim due by its payer's days, or the chosen claims now. */
export function useAskClaimStatus() {
  const refresh = useRefreshStatus();
  return useMutation({
    mutationFn: (claimIds?: number[]) =>
      apiFetch<ClaimStatusRequestResult>(STATUS_REQUESTS_PATH, {
        method: 'POST',
        body: claimIds ? { claimIds } : {},
      }),
    onSuccess: refresh,
  });
}

/** Posts a 277 claim status response's text as it came. */
export function useApplyClaimStatusResponse() {
  const refresh = useRefreshStatus();
  const refreshBatches = useRefreshBatches();
  return useMutation({
    mutationFn: ({ text, fileName }: { text: string; fileName: string }) =>
      apiFetch<ClaimStatusResponseResult>(
        `/api/claims/status-responses?fileName=${encodeURIComponent(fileName.replace(/[^\w .()-]/g, '_').slice(0, 255) || '277')}`,
        {
          method: 'POST',
          text,
          contentType: 'text/plain',
        },
      ),
    onSuccess: async () => {
      await Promise.all([refresh(), refreshBatches()]);
    },
  });
}
