import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type {
  AcknowledgementResult,
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
