import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { ArAging, DenialsByReason, KpiExportAudit, KpiResult, ProviderAnalytics } from '../analytics.schema';
import { analyticsKeys } from '../analytics.query-keys';

export const ANALYTICS_PATH = '/api/claims/analytics';

/** The KPIs screen refreshes its data (and its 'Last updated' time) every 30 seconds. */
export const KPI_REFRESH_MS = 30_000;

export function useKpis(periodDays: number, options: { refetchEveryMs?: number } = {}) {
  return useQuery({
    queryKey: analyticsKeys.kpis(periodDays),
    queryFn: ({ signal }) => apiFetch<KpiResult>(`${ANALYTICS_PATH}/kpis?periodDays=${periodDays}`, { signal }),
    refetchInterval: options.refetchEveryMs ?? false,
  });
}

export function useArAging() {
  return useQuery({
    queryKey: analyticsKeys.arAging(),
    queryFn: ({ signal }) => apiFetch<ArAging>(`${ANALYTICS_PATH}/ar-aging`, { signal }),
  });
}

export function useProviderAnalytics(periodDays: number) {
  return useQuery({
    queryKey: analyticsKeys.provider(periodDays),
    queryFn: ({ signal }) =>
      apiFetch<ProviderAnalytics>(`${ANALYTICS_PATH}/provider?periodDays=${periodDays}`, { signal }),
  });
}

export function useDenialsByReason(periodDays: number) {
  return useQuery({
    queryKey: analyticsKeys.denialsByReason(periodDays),
    queryFn: ({ signal }) =>
      apiFetch<DenialsByReason>(`${ANALYTICS_PATH}/denials-by-reason?periodDays=${periodDays}`, { signal }),
  });
}

/** Records the export in the audit log; the CSV is downloaded only once this has succeeded. */
export function recordKpiExport(report: KpiExportAudit): Promise<void> {
  return apiFetch<void>(`${ANALYTICS_PATH}/kpis/exports`, { method: 'POST', body: report });
}
