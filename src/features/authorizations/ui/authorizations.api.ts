import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type {
  Authorization,
  AuthorizationDecision,
  AuthorizationExport,
  AuthorizationList,
  AuthorizationQueryInput,
} from '../authorizations.schema';

export const AUTHORIZATIONS_PATH = '/api/authorizations';

export const authorizationKeys = {
  all: [AUTHORIZATIONS_PATH] as const,
  list: (query: AuthorizationQueryInput) => [...authorizationKeys.all, query] as const,
};

function queryString(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** One page of the filtered list plus the KPIs over every authorization; the last page stays shown while the next loads. */
export function useAuthorizations(query: AuthorizationQueryInput) {
  return useQuery({
    queryKey: authorizationKeys.list(query),
    queryFn: ({ signal }) => apiFetch<AuthorizationList>(`${AUTHORIZATIONS_PATH}${queryString(query)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Every row matching the filters, for the CSV; the server audits this read as the export. */
export function fetchAuthorizationsExport(
  filter: Pick<AuthorizationQueryInput, 'payer' | 'status' | 'search' | 'sort' | 'dir'>,
): Promise<AuthorizationExport> {
  return apiFetch<AuthorizationExport>(`${AUTHORIZATIONS_PATH}/export${queryString(filter)}`);
}

export function useDecideAuthorization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...decision }: { id: number } & AuthorizationDecision) =>
      apiFetch<Authorization>(`${AUTHORIZATIONS_PATH}/${id}`, { method: 'PATCH', body: decision }),
    // Settled, not only on success: a 409 means someone else decided it, and the list must show that.
    onSettled: async () => {
      // Other screens' counts (e.g. pending authorizations on the dashboard) refresh when next shown.
      void queryClient.invalidateQueries({ refetchType: 'none' });
      await queryClient.invalidateQueries({ queryKey: authorizationKeys.all });
    },
  });
}
