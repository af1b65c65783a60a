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

export function useCreatePayer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewPayer) => apiFetch<PayerRecord>('/api/admin/payers', { method: 'POST', body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ADMIN_PAYERS }),
  });
}

export function useUpdatePayer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: PayerPatch }) =>
      apiFetch<PayerRecord>(`/api/admin/payers/${id}`, { method: 'PATCH', body: patch }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ADMIN_PAYERS }),
  });
}
