import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import { crossFeatureKeys } from '@/client/lib/cross-feature-keys';
import type { PatientBillingDetails, PatientBillingDetailsInput } from '../patients.schema';
import { patientKeys } from './patients.api';

/** Under the patients' key, so that whatever refreshes the patients refreshes these too. */
export const patientBillingDetailsKey = (patientId: number) =>
  [...patientKeys.all, 'billing-details', patientId] as const;

/**
 * The patient's sex and home address as a claim carries them, masked for the role by the server. As with
 * the snapshot, each opening is a fresh, audited read: the address is not kept in the browser's cache once
 * no section shows it.
 */
export function usePatientBillingDetails(patientId: number) {
  return useQuery({
    queryKey: patientBillingDetailsKey(patientId),
    queryFn: ({ signal }) => apiFetch<PatientBillingDetails>(`/api/patients/${patientId}/billing-details`, { signal }),
    gcTime: 0,
  });
}

/** Sends the form's checked values (ZIP already digits only); the answer is what was stored. */
export function useSavePatientBillingDetails(patientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PatientBillingDetailsInput) =>
      apiFetch<PatientBillingDetails>(`/api/patients/${patientId}/billing-details`, { method: 'PUT', body }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(patientBillingDetailsKey(patientId), saved);
      // The server scrubs the patient's held claims again: their statuses and holds may have moved.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: crossFeatureKeys.claims }),
        queryClient.invalidateQueries({ queryKey: crossFeatureKeys.workQueue }),
      ]);
    },
  });
}
