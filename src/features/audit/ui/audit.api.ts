import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type {
  AuditActions,
  AuditExport,
  AuditPage,
  AuditQueryInput,
  AuditStats,
  ChainVerificationResult,
} from '../audit.schema';

export const AUDIT_PATH = '/api/audit';

export const auditKeys = {
  all: [AUDIT_PATH] as const,
  entries: (filter: AuditFilterInput) => [...auditKeys.all, 'entries', filter] as const,
  stats: [AUDIT_PATH, 'stats'] as const,
  actions: [AUDIT_PATH, 'actions'] as const,
};

/** The filters the screen sends; empty values are left out of the URL. */
export type AuditFilterInput = Pick<AuditQueryInput, 'actor' | 'action' | 'from' | 'to'>;

function queryString(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The newest entries first, a page (200) at a time; each next page continues from the last one's cursor. */
export function useAuditEntries(filter: AuditFilterInput, enabled = true) {
  return useInfiniteQuery({
    queryKey: auditKeys.entries(filter),
    queryFn: ({ pageParam, signal }) =>
      apiFetch<AuditPage>(`${AUDIT_PATH}${queryString({ ...filter, cursor: pageParam })}`, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}

export function useAuditStats() {
  return useQuery({
    queryKey: auditKeys.stats,
    queryFn: ({ signal }) => apiFetch<AuditStats>(`${AUDIT_PATH}/stats`, { signal }),
  });
}

export function useAuditActions() {
  return useQuery({
    queryKey: auditKeys.actions,
    queryFn: ({ signal }) => apiFetch<AuditActions>(`${AUDIT_PATH}/actions`, { signal }),
  });
}

/** The newest matching entries (capped) for the CSV; the server audits this read as the export. */
export function fetchAuditExport(filter: AuditFilterInput): Promise<AuditExport> {
  return apiFetch<AuditExport>(`${AUDIT_PATH}/export${queryString(filter)}`);
}

/** Both the export and the check write an audit entry: the list, actions and counts show it afterwards. */
export function useRefreshAudit() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: auditKeys.all });
}

/** Admin: recompute the whole hash chain on the server (a read that is itself audited). */
export function useVerifyChain() {
  const refresh = useRefreshAudit();
  return useMutation({
    mutationFn: () => apiFetch<ChainVerificationResult>(`${AUDIT_PATH}/verify`),
    onSettled: () => refresh(),
  });
}
