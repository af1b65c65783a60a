import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import { crossFeatureKeys } from '@/client/lib/cross-feature-keys';
import type { ActivePayer } from '@/features/payers/payers.schema';
import type { Coverage, CoveragePatchInput, NewCoverageInput } from '../coverage.schema';
import type {
  NewEligibilityCheck,
  PostedEligibilityResponse,
  RequestedEligibility,
} from '../coverage.eligibility.schema';

/** The claim form reads the same list under this key, so a saved policy shows there at once. */
export const patientCoveragesKey = (patientId: number) => ['/api/patients', 'coverages', patientId] as const;
const ACTIVE_PAYERS = ['/api/payers'] as const;

/** The patient's policies, primary first, masked for the role by the server. */
export function usePatientCoverages(patientId: number) {
  return useQuery({
    queryKey: patientCoveragesKey(patientId),
    queryFn: ({ signal }) => apiFetch<Coverage[]>(`/api/patients/${patientId}/coverages`, { signal }),
  });
}

/** The payers a policy can name: the practice's active ones. */
export function useActivePayers() {
  return useQuery({
    queryKey: ACTIVE_PAYERS,
    queryFn: ({ signal }) => apiFetch<ActivePayer[]>('/api/payers', { signal }),
  });
}

export type CoverageSave = { id: null; body: NewCoverageInput } | { id: number; body: CoveragePatchInput };

/** Adds a policy (id null) or changes one (only the fields that changed). */
export function useSaveCoverage(patientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: CoverageSave) =>
      save.id === null
        ? apiFetch<Coverage>(`/api/patients/${patientId}/coverages`, { method: 'POST', body: save.body })
        : apiFetch<Coverage>(`/api/coverages/${save.id}`, { method: 'PATCH', body: save.body }),
    // The server scrubs the patient's held claims again: their statuses and holds may have moved.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: patientCoveragesKey(patientId) }),
        queryClient.invalidateQueries({ queryKey: crossFeatureKeys.claims }),
        queryClient.invalidateQueries({ queryKey: crossFeatureKeys.workQueue }),
      ]),
  });
}

/** Asks the payer about one policy (a 270); the list shows the check awaiting its answer. */
export function useCheckEligibility(patientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ coverageId, body }: { coverageId: number; body: NewEligibilityCheck }) =>
      apiFetch<RequestedEligibility>(`/api/coverages/${coverageId}/eligibility`, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientCoveragesKey(patientId) }),
  });
}

/** Posts a 271 file's text as it came; every patient's policies may have answers now. */
export function usePost271() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ text, fileName }: { text: string; fileName: string }) =>
      apiFetch<PostedEligibilityResponse>('/api/eligibility/responses', {
        method: 'POST',
        text,
        contentType: 'text/plain',
        headers: { 'X-File-Name': encodeURIComponent(fileName) },
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['/api/patients', 'coverages'] }),
        queryClient.invalidateQueries({ queryKey: crossFeatureKeys.claims }),
        queryClient.invalidateQueries({ queryKey: crossFeatureKeys.appointments }),
      ]),
  });
}
