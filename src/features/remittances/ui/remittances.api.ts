import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { RemittanceDetail, RemittanceImport, RemittancePage } from '../remittances.schema';

const REMITTANCES = '/api/remittances';
export const remittanceKeys = {
  all: [REMITTANCES] as const,
  list: (cursor: string | undefined) => [REMITTANCES, 'list', cursor ?? null] as const,
  detail: (id: number) => [REMITTANCES, 'detail', id] as const,
};

export function useRemittances(cursor: string | undefined) {
  return useQuery({
    queryKey: remittanceKeys.list(cursor),
    queryFn: ({ signal }) =>
      apiFetch<RemittancePage>(`${REMITTANCES}?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        signal,
      }),
  });
}

export function useRemittance(id: number | null) {
  return useQuery({
    queryKey: remittanceKeys.detail(id ?? 0),
    queryFn: ({ signal }) => apiFetch<RemittanceDetail>(`${REMITTANCES}/${id}`, { signal }),
    enabled: id !== null,
  });
}

/** The remittance for the CSV; the server records the export before it answers. */
export function fetchRemittanceExport(id: number): Promise<RemittanceDetail> {
  return apiFetch<RemittanceDetail>(`${REMITTANCES}/${id}/export`);
}

/** Uploads an 835 file as it is (application/edi-x12): one or more remittances. */
export function useUploadEra() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) =>
      apiFetch<RemittanceImport>(REMITTANCES, {
        method: 'POST',
        text: content,
        contentType: 'application/edi-x12',
      }),
    onSuccess: async () => {
      // Claims, KPIs, statements and the work queue all changed: refresh them when next shown.
      void queryClient.invalidateQueries({ refetchType: 'none' });
      await queryClient.invalidateQueries({ queryKey: remittanceKeys.all });
    },
  });
}
