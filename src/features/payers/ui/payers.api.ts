import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { NewPayer, PayerPatch, PayerRecord } from '../payers.schema';

const ADMIN_PAYERS = ['/api/admin/payers'] as const;

export function usePayers() {
  return useQuery({
    queryKey: ADMIN_PAYERS,
    queryFn: ({ signal }) => apiFetch<{ items: PayerRecord[] }>('/api/admin/payers', { signal }),
  });
}

/** A change shows in the insurance form's payer list (GET /api/payers) too, so both lists are read again. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ADMIN_PAYERS });
    void queryClient.invalidateQueries({ queryKey: ['/api/payers'] });
  };
}

export function useCreatePayer() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: NewPayer) => apiFetch<PayerRecord>('/api/admin/payers', { method: 'POST', body: input }),
    onSuccess: refresh,
  });
}

export function useUpdatePayer() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: PayerPatch }) =>
      apiFetch<PayerRecord>(`/api/admin/payers/${id}`, { method: 'PATCH', body: patch }),
    onSuccess: refresh,
  });
}
