import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type {
  OverdueFollowUp,
  OverdueFollowUpPage,
  WorklistFilterInput,
  WorklistPageQueryInput,
  WorklistSummary,
} from '../worklist.schema';

export const OVERDUE_FOLLOWUPS_PATH = '/api/worklist/overdue-followups';

export const worklistKeys = {
  page: (query: WorklistPageQueryInput) => [OVERDUE_FOLLOWUPS_PATH, 'page', query] as const,
  summary: [OVERDUE_FOLLOWUPS_PATH, 'summary'] as const,
};

/** One page of the worklist, keyset-paged by the server (docs/paging.md). */
export function useOverdueFollowUps(query: WorklistPageQueryInput, enabled = true) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return useQuery({
    queryKey: worklistKeys.page(query),
    queryFn: ({ signal }) =>
      apiFetch<OverdueFollowUpPage>(`${OVERDUE_FOLLOWUPS_PATH}?${params.toString()}`, { signal }),
    enabled,
    // Keep the current page on screen while the next page, sort or filter loads.
    placeholderData: keepPreviousData,
  });
}

/** The tiles (whole unfiltered list) and the provider filter's choices. */
export function useWorklistSummary() {
  return useQuery({
    queryKey: worklistKeys.summary,
    queryFn: ({ signal }) => apiFetch<WorklistSummary>(`${OVERDUE_FOLLOWUPS_PATH}/summary`, { signal }),
  });
}

/** Every row the filters select, for the CSV; the server records the export before it answers. */
export function fetchWorklistExport(filter: WorklistFilterInput): Promise<OverdueFollowUp[]> {
  return apiFetch<OverdueFollowUp[]>(`${OVERDUE_FOLLOWUPS_PATH}/exports`, { method: 'POST', body: filter });
}
