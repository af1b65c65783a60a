import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { RunTestsResponse, TestType } from '@/features/selftest/selftest.schema';
import type { ResetResponse, SeedResponse } from '@/features/system/system.schema';
import type {
  ComplianceOverview,
  GapStatus,
  GapsResponse,
  HipaaItem,
  SecurityCheck,
  SecurityCheckId,
  SecurityCheckResult,
  WcagCheck,
} from '../compliance.schema';

export const OVERVIEW_KEY = ['/api/compliance/overview'] as const;
export const GAPS_KEY = ['/api/compliance/gaps'] as const;

export function useComplianceOverview() {
  return useQuery({ queryKey: OVERVIEW_KEY, queryFn: () => apiFetch<ComplianceOverview>(OVERVIEW_KEY[0]) });
}

export function useHipaaItems() {
  return useQuery({
    queryKey: ['/api/compliance/hipaa-items'],
    queryFn: async () => (await apiFetch<{ items: HipaaItem[] }>('/api/compliance/hipaa-items')).items,
  });
}

export function useWcagChecks() {
  return useQuery({
    queryKey: ['/api/compliance/wcag-checks'],
    queryFn: async () => (await apiFetch<{ checks: WcagCheck[] }>('/api/compliance/wcag-checks')).checks,
  });
}

export function useComplianceGaps(enabled: boolean) {
  return useQuery({ queryKey: GAPS_KEY, queryFn: () => apiFetch<GapsResponse>(GAPS_KEY[0]), enabled });
}

/** The answer carries the whole list with the new scores, so it replaces the cache as it is. */
export function useUpdateGapStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: GapStatus }) =>
      apiFetch<GapsResponse>(`/api/compliance/gaps/${id}`, { method: 'PATCH', body: { status } }),
    onSuccess: (answer) => {
      queryClient.setQueryData(GAPS_KEY, answer);
      // The change is audited: the audit event count moves too.
      void queryClient.invalidateQueries({ queryKey: OVERVIEW_KEY });
    },
  });
}

export function useSecurityChecks(enabled: boolean) {
  return useQuery({
    queryKey: ['/api/compliance/security-checks'],
    queryFn: async () => (await apiFetch<{ checks: SecurityCheck[] }>('/api/compliance/security-checks')).checks,
    enabled,
  });
}

export function runSecurityCheck(checkId: SecurityCheckId): Promise<SecurityCheckResult> {
  return apiFetch<SecurityCheckResult>(`/api/compliance/security-checks/${checkId}`, { method: 'POST' });
}

export function useRunTests() {
  return useMutation({
    mutationFn: (testType: TestType) =>
      apiFetch<RunTestsResponse>('/api/run-tests', { method: 'POST', body: { testType } }),
  });
}

/** Seed and reset change every screen's data: every cached query is refetched afterwards. */
export function useSeedDemoData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<SeedResponse>('/api/seed', { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export function useGlobalReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<ResetResponse>('/api/system/reset', { method: 'POST', body: { confirm: 'RESET' } }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
