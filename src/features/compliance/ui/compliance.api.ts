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

export const complianceKeys = {
  overview: ['/api/compliance/overview'] as const,
  hipaaItems: ['/api/compliance/hipaa-items'] as const,
  wcagChecks: ['/api/compliance/wcag-checks'] as const,
  gaps: ['/api/compliance/gaps'] as const,
  securityChecks: ['/api/compliance/security-checks'] as const,
};

export function useComplianceOverview() {
  return useQuery({
    queryKey: complianceKeys.overview,
    queryFn: () => apiFetch<ComplianceOverview>('/api/compliance/overview'),
  });
}

export function useHipaaItems() {
  return useQuery({
    queryKey: complianceKeys.hipaaItems,
    queryFn: async () => (await apiFetch<{ items: HipaaItem[] }>('/api/compliance/hipaa-items')).items,
  });
}

export function useWcagChecks() {
  return useQuery({
    queryKey: complianceKeys.wcagChecks,
    queryFn: async () => (await apiFetch<{ checks: WcagCheck[] }>('/api/compliance/wcag-checks')).checks,
  });
}

export function useComplianceGaps(enabled: boolean) {
  return useQuery({
    queryKey: complianceKeys.gaps,
    queryFn: () => apiFetch<GapsResponse>('/api/compliance/gaps'),
    enabled,
  });
}

/** The answer carries the whole list with the new scores, so it replaces the cache as it is. */
export function useUpdateGapStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: GapStatus }) =>
      apiFetch<GapsResponse>(`/api/compliance/gaps/${id}`, { method: 'PATCH', body: { status } }),
    onSuccess: (answer) => {
      queryClient.setQueryData(complianceKeys.gaps, answer);
      // The change is audited: the audit event count moves too.
      void queryClient.invalidateQueries({ queryKey: complianceKeys.overview });
    },
  });
}

export function useSecurityChecks(enabled: boolean) {
  return useQuery({
    queryKey: complianceKeys.securityChecks,
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
    mutationFn: () => apiFetch<SeedResponse>('/api/seed', { method: 'POST', body: { confirm: 'SEED' } }),
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
