import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { ManagedProvider, NewProvider, ProviderPatch } from '../providers.schema';

const ADMIN_PROVIDERS = ['/api/admin/providers'] as const;

export function useManagedProviders() {
  return useQuery({
    queryKey: ADMIN_PROVIDERS,
    queryFn: ({ signal }) => apiFetch<{ items: ManagedProvider[] }>('/api/admin/providers', { signal }),
  });
}

/** A change shows in the booking dialog's provider list too, so both lists are read again. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ADMIN_PROVIDERS });
    void queryClient.invalidateQueries({ queryKey: ['/api/providers'] });
  };
}

export function useCreateProvider() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: NewProvider) =>
      apiFetch<ManagedProvider>('/api/admin/providers', { method: 'POST', body: input }),
    onSuccess: refresh,
  });
}

export function useUpdateProvider() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: ProviderPatch }) =>
      apiFetch<ManagedProvider>(`/api/admin/providers/${id}`, { method: 'PATCH', body: patch }),
    onSuccess: refresh,
  });
}
