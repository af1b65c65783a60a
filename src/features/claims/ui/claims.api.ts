import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from '@/client/lib/api-client';
import { crossFeatureKeys } from '@/client/lib/cross-feature-keys';
import {
  importRejectedSchema,
  type AppealOutcomeRequest,
  type ClaimAppeal,
  type ClaimExport,
  type ClaimFilterInput,
  type ClaimListQueryInput,
  type ClaimOverview,
  type ClaimPage,
  type ClaimProvider,
  type ClaimRow,
  type ImportRejected,
  type ImportResult,
  type ChargeCeiling,
  type ChargeCeilingList,
  type ClaimDetail,
  type ClaimDraftInput,
  type ClaimScrubResult,
  type NewAppeal,
  type ScrubRequest,
  type VoidClaim,
  type CorrectClaim,
  type VoidAtPayer,
  type WriteOffClaim,
} from '../claims.schema';
import type { Coverage } from '@/features/coverage/coverage.schema';
import type { PatientOption } from '@/features/patients/patients.schema';

export const CLAIMS_PATH = '/api/claims';

export const claimKeys = {
  all: crossFeatureKeys.claims,
  list: (query: ClaimListQueryInput) => [...claimKeys.all, 'list', query] as const,
  overview: (filter: ClaimFilterInput) => [...claimKeys.all, 'overview', filter] as const,
  detail: (id: number) => [...claimKeys.all, 'detail', id] as const,
};

function queryString(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** One page of the filtered, sorted claims; the last page stays shown while the next loads. */
export function useClaims(query: ClaimListQueryInput) {
  return useQuery({
    queryKey: claimKeys.list(query),
    queryFn: ({ signal }) => apiFetch<ClaimPage>(`${CLAIMS_PATH}${queryString(query)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The most recent claims of one patient (newest service first), for the patient snapshot. */
export function usePatientClaims(patientId: number, limit: number) {
  const query: ClaimListQueryInput = { patientId, sort: 'serviceDate', dir: 'desc', limit };
  return useQuery({
    queryKey: claimKeys.list(query),
    queryFn: ({ signal }) => apiFetch<ClaimPage>(`${CLAIMS_PATH}${queryString(query)}`, { signal }),
  });
}

/** The summary line and the three charts for the current filters. */
export function useClaimsOverview(filter: ClaimFilterInput) {
  return useQuery({
    queryKey: claimKeys.overview(filter),
    queryFn: ({ signal }) => apiFetch<ClaimOverview>(`${CLAIMS_PATH}/overview${queryString(filter)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Every claim matching the filters, for the CSV; the server audits this read as the export. */
export function fetchClaimsExport(
  filter: ClaimFilterInput & Pick<ClaimListQueryInput, 'sort' | 'dir'>,
): Promise<ClaimExport> {
  return apiFetch<ClaimExport>(`${CLAIMS_PATH}/export${queryString(filter)}`);
}

function useRefreshClaims() {
  const queryClient = useQueryClient();
  return async () => {
    // Other screens' figures (dashboard, KPIs) refresh when next shown.
    void queryClient.invalidateQueries({ refetchType: 'none' });
    await queryClient.invalidateQueries({ queryKey: claimKeys.all });
  };
}

export function useAppealClaim() {
  const refresh = useRefreshClaims();
  return useMutation({
    mutationFn: ({ id, ...appeal }: { id: number } & NewAppeal) =>
      apiFetch<ClaimRow>(`${CLAIMS_PATH}/${id}/appeals`, { method: 'POST', body: appeal }),
    // Settled, not only on success: a 409 means someone else changed the claim, and the list must show it.
    onSettled: refresh,
  });
}

const CHARGE_CEILINGS = ['/api/admin/charge-ceilings'] as const;

export function useChargeCeilings() {
  return useQuery({
    queryKey: CHARGE_CEILINGS,
    queryFn: ({ signal }) => apiFetch<ChargeCeilingList>('/api/admin/charge-ceilings', { signal }),
  });
}

export function useSetChargeCeiling() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ procedureCode, ceilingCents }: ChargeCeiling) =>
      apiFetch<ChargeCeiling>(`/api/admin/charge-ceilings/${encodeURIComponent(procedureCode)}`, {
        method: 'PUT',
        body: { ceilingCents },
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CHARGE_CEILINGS }),
  });
}

export function useVoidClaim() {
  const refresh = useRefreshClaims();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number } & VoidClaim) =>
      apiFetch<ClaimRow>(`${CLAIMS_PATH}/${id}/void`, { method: 'POST', body }),
    onSettled: refresh,
  });
}

export function useWriteOffClaim() {
  const refresh = useRefreshClaims();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number } & WriteOffClaim) =>
      apiFetch<ClaimRow>(`${CLAIMS_PATH}/${id}/write-off`, { method: 'POST', body }),
    onSettled: refresh,
  });
}

/** Reopens a claim the payer has as a Draft, to be corrected and sent again as a replacement. */
export function useCorrectClaim() {
  const refresh = useRefreshClaims();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number } & CorrectClaim) =>
      apiFetch<ClaimRow>(`${CLAIMS_PATH}/${id}/correct`, { method: 'POST', body }),
    onSettled: refresh,
  });
}

/** Reopens a claim the payer has and paid nothing on as a Draft void of the payer's claim number. */
export function useVoidClaimAtPayer() {
  const refresh = useRefreshClaims();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number } & VoidAtPayer) =>
      apiFetch<ClaimRow>(`${CLAIMS_PATH}/${id}/void-at-payer`, { method: 'POST', body }),
    onSettled: refresh,
  });
}

/** The claim's appeals for its history; null id: nothing asked. */
export function useClaimAppeals(claimId: number | null) {
  return useQuery({
    queryKey: [...claimKeys.all, 'appeals', claimId] as const,
    queryFn: ({ signal }) => apiFetch<ClaimAppeal[]>(`${CLAIMS_PATH}/${claimId}/appeals`, { signal }),
    enabled: claimId !== null,
  });
}

export function useRecordAppealOutcome() {
  const refresh = useRefreshClaims();
  return useMutation({
    mutationFn: ({ claimId, appealId, ...answer }: { claimId: number; appealId: number } & AppealOutcomeRequest) =>
      apiFetch<ClaimRow>(`${CLAIMS_PATH}/${claimId}/appeals/${appealId}/outcome`, { method: 'POST', body: answer }),
    onSettled: refresh,
  });
}

export function useImportClaims() {
  const refresh = useRefreshClaims();
  return useMutation({
    mutationFn: (csv: string) => apiFetch<ImportResult>(`${CLAIMS_PATH}/import`, { method: 'POST', body: { csv } }),
    onSuccess: refresh,
  });
}

/** The row-by-row report of a refused import, or null when the error is something else. */
export function importReportOf(error: unknown): ImportRejected | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const parsed = importRejectedSchema.safeParse(error.body);
  return parsed.success ? parsed.data : null;
}

/** The providers for the Provider filter; they change rarely. */
export function useClaimProviders() {
  return useQuery({
    queryKey: [...claimKeys.all, 'providers'] as const,
    queryFn: ({ signal }) => apiFetch<ClaimProvider[]>(`${CLAIMS_PATH}/providers`, { signal }),
    staleTime: 5 * 60_000,
  });
}

/**
 * One claim with its lines, scrub and history. Each opening is an audited PHI read on the server, so the
 * claim is not kept in the browser's cache once its view closes.
 */
export function useClaimDetail(id: number) {
  return useQuery({
    queryKey: claimKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<ClaimDetail>(`${CLAIMS_PATH}/${id}`, { signal }),
    gcTime: 0,
  });
}

/** Creates a Draft claim (no id) or rewrites a Draft or Ready one. */
export function useSaveClaim() {
  const queryClient = useQueryClient();
  const refresh = useRefreshClaims();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ClaimDraftInput }) =>
      id === null
        ? apiFetch<ClaimDetail>(CLAIMS_PATH, { method: 'POST', body })
        : apiFetch<ClaimDetail>(`${CLAIMS_PATH}/${id}`, { method: 'PUT', body }),
    onSuccess: (saved) => queryClient.setQueryData(claimKeys.detail(saved.id), saved),
    // Settled, not only on success: a 409 means someone else moved the claim on, and the view must show it.
    onSettled: refresh,
  });
}

/** Runs the scrubber on one claim; a reason accepts its warnings. */
/** Bills a claim's balance to the patient's next policy: answers the new Draft claim. */
export function useBillNextPolicy() {
  const refresh = useRefreshClaims();
  return useMutation({
    mutationFn: (id: number) => apiFetch<ClaimDetail>(`${CLAIMS_PATH}/${id}/next-policy`, { method: 'POST' }),
    // Settled: a 409 (billed meanwhile by someone else) must show on the claim as it now is.
    onSettled: refresh,
  });
}

export function useScrubClaim() {
  const refresh = useRefreshClaims();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number } & ScrubRequest) =>
      apiFetch<ClaimScrubResult>(`${CLAIMS_PATH}/${id}/scrub`, { method: 'POST', body }),
    onSettled: refresh,
  });
}

/** The policies a claim for this patient can bill, primary first; null id: nothing asked. */
export function usePatientCoverages(patientId: number | null) {
  return useQuery({
    queryKey: ['/api/patients', 'coverages', patientId] as const,
    queryFn: ({ signal }) => apiFetch<Coverage[]>(`/api/patients/${patientId}/coverages`, { signal }),
    enabled: patientId !== null,
  });
}

/** The claim form's patient picker: names with date of birth and MRN (masked for the role). */
export function usePatientOptions(search: string) {
  return useQuery({
    queryKey: ['/api/claims/patients', search] as const,
    queryFn: ({ signal }) =>
      apiFetch<PatientOption[]>(`/api/claims/patients?search=${encodeURIComponent(search)}&limit=20`, { signal }),
    // Typing a name asks again; the last answer stays on screen meanwhile.
    placeholderData: (previous) => previous,
  });
}
