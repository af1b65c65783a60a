import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import { analyticsKeys } from '@/features/analytics/analytics.query-keys';
import type { KpiResult, ProviderAnalytics } from '@/features/analytics/analytics.schema';
import { crossFeatureKeys } from '@/client/lib/cross-feature-keys';
import type {
  BillingPatient,
  GuestPaymentReceipt,
  GuestPaymentRequest,
  GuestStatement,
  GuestStatementRequest,
  PatientPaymentReceipt,
  PatientPaymentRequest,
  PayerPerformance,
  Statement,
} from '../billing.schema';

const OWN_STATEMENT = '/api/portal/statement';

export const billingKeys = {
  payerPerformance: (periodDays: number) => ['/api/billing/payer-performance', { periodDays }] as const,
  statementPatients: (search: string) => ['/api/billing/patients', { search }] as const,
  staffStatement: (patientId: number | null) => ['/api/billing/statements', patientId] as const,
  ownStatement: [OWN_STATEMENT] as const,
};

/** Pay Bill as Guest, step 1. A POST: the date of birth must not travel in a URL (logs, history). */
export function useGuestStatementLookup() {
  return useMutation({
    mutationFn: (body: GuestStatementRequest) =>
      apiFetch<GuestStatement>('/api/guest/statement', { method: 'POST', body }),
  });
}

export function useGuestPayment() {
  return useMutation({
    mutationFn: (body: GuestPaymentRequest) =>
      apiFetch<GuestPaymentReceipt>('/api/guest/payments', { method: 'POST', body }),
  });
}

// Staff: Financial Summary & Billing. The KPI and provider numbers come from the analytics endpoints; the
// query keys are the analytics screens' own, so /kpis, /analytics and /billing share one cached answer.
const ANALYTICS_PATH = '/api/claims/analytics';

export function useBillingKpis(periodDays: number) {
  return useQuery({
    queryKey: analyticsKeys.kpis(periodDays),
    queryFn: ({ signal }) => apiFetch<KpiResult>(`${ANALYTICS_PATH}/kpis?periodDays=${periodDays}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useProviderAnalytics(periodDays: number) {
  return useQuery({
    queryKey: analyticsKeys.provider(periodDays),
    queryFn: ({ signal }) =>
      apiFetch<ProviderAnalytics>(`${ANALYTICS_PATH}/provider?periodDays=${periodDays}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function usePayerPerformance(periodDays: number) {
  return useQuery({
    queryKey: billingKeys.payerPerformance(periodDays),
    queryFn: ({ signal }) =>
      apiFetch<PayerPerformance>(`/api/billing/payer-performance?periodDays=${periodDays}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The statement generator's picker: patients matching the text, with date of birth and MRN. */
export function useStatementPatients(search: string) {
  return useQuery({
    queryKey: billingKeys.statementPatients(search),
    queryFn: ({ signal }) =>
      apiFetch<BillingPatient[]>(`/api/billing/patients?search=${encodeURIComponent(search)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useStaffStatement(patientId: number | null) {
  return useQuery({
    queryKey: billingKeys.staffStatement(patientId),
    queryFn: ({ signal }) => apiFetch<Statement>(`/api/billing/statements/${patientId}`, { signal }),
    enabled: patientId !== null,
  });
}

/** 'Export Statement': the server records the export and answers the full statement for the CSV. */
export function useExportStaffStatement() {
  return useMutation({
    mutationFn: (patientId: number) =>
      apiFetch<Statement>(`/api/billing/statements/${patientId}/export`, { method: 'POST' }),
  });
}

// The patient's My Billing: no ids are sent; the server answers for the signed-in patient only.

export function useOwnStatement() {
  return useQuery({
    queryKey: billingKeys.ownStatement,
    queryFn: ({ signal }) => apiFetch<Statement>(OWN_STATEMENT, { signal }),
  });
}

export function useExportOwnStatement() {
  return useMutation({
    mutationFn: () => apiFetch<Statement>(`${OWN_STATEMENT}/export`, { method: 'POST' }),
  });
}

/** 'Pay Balance': the answer is the receipt number and the new statement, shown at once; the portal's claim list is refreshed. */
export function usePayOwnBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PatientPaymentRequest) =>
      apiFetch<PatientPaymentReceipt>('/api/portal/payments', { method: 'POST', body }),
    onSuccess: async ({ receiptReference: _receipt, ...statement }) => {
      queryClient.setQueryData<Statement>(billingKeys.ownStatement, statement);
      await queryClient.invalidateQueries({ queryKey: crossFeatureKeys.portalClaims });
    },
  });
}
