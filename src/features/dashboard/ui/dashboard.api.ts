import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { DashboardSummary } from '../dashboard.schema';
import { dashboardKeys } from '../dashboard.query-keys';

/** Dashboard data is fetched only for roles other than guest (`enabled`). */
export function useDashboardSummary(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.summary,
    queryFn: ({ signal }) => apiFetch<DashboardSummary>('/api/dashboard/summary', { signal }),
    enabled,
  });
}
