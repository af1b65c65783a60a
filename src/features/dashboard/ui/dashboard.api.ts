import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { DashboardSummary } from '../dashboard.schema';

export const DASHBOARD_SUMMARY_KEY = ['/api/dashboard/summary'] as const;

/** Dashboard data is fetched only for roles other than guest (`enabled`). */
export function useDashboardSummary(enabled: boolean) {
  return useQuery({
    queryKey: DASHBOARD_SUMMARY_KEY,
    queryFn: ({ signal }) => apiFetch<DashboardSummary>('/api/dashboard/summary', { signal }),
    enabled,
  });
}
