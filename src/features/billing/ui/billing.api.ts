import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type {
  GuestPaymentReceipt,
  GuestPaymentRequest,
  GuestStatement,
  GuestStatementRequest,
} from '../billing.schema';

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
