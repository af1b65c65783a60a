import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import { crossFeatureKeys } from '@/client/lib/cross-feature-keys';
import type { NewPatient, Patient, PatientListQueryInput, PatientPage } from '../patients.schema';

export const patientKeys = {
  all: ['/api/patients'] as const,
  list: (query: PatientListQueryInput) => [...patientKeys.all, 'list', query] as const,
  snapshot: (id: number | null) => [...patientKeys.all, 'snapshot', id] as const,
};

export function usePatients(query: PatientListQueryInput, enabled = true) {
  const params = new URLSearchParams({
    search: query.search,
    sort: query.sort,
    dir: query.dir,
    limit: String(query.limit),
  });
  if (query.cursor) params.set('cursor', query.cursor);
  return useQuery({
    queryKey: patientKeys.list(query),
    queryFn: ({ signal }) => apiFetch<PatientPage>(`/api/patients?${params.toString()}`, { signal }),
    enabled,
    // Keep the current page on screen while the next search or page loads.
    placeholderData: keepPreviousData,
  });
}

/**
 * One patient's snapshot. Each opening is a fresh, audited read on the server, and the record is not kept
 * in the browser's cache once the dialog closes.
 */
export function usePatientSnapshot(id: number | null) {
  return useQuery({
    queryKey: patientKeys.snapshot(id),
    queryFn: ({ signal }) => apiFetch<Patient>(`/api/patients/${id}`, { signal }),
    enabled: id !== null,
    gcTime: 0,
  });
}

export function useCreatePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewPatient) => apiFetch<Patient>('/api/patients', { method: 'POST', body }),
    onSuccess: async () => {
      // The list and the dashboard's patient count both change.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: patientKeys.all }),
        queryClient.invalidateQueries({ queryKey: crossFeatureKeys.dashboardSummary }),
      ]);
    },
  });
}
