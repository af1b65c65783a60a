import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { PortalAppointment, PortalClaim } from '../portal.schema';
import { portalKeys } from '../portal.query-keys';

/** No ids are sent: the server answers for the signed-in patient only (docs/access.md). */
export function usePortalAppointments() {
  return useQuery({
    queryKey: portalKeys.appointments,
    queryFn: ({ signal }) => apiFetch<PortalAppointment[]>('/api/portal/appointments', { signal }),
  });
}

export function usePortalClaims() {
  return useQuery({
    queryKey: portalKeys.claims,
    queryFn: ({ signal }) => apiFetch<PortalClaim[]>('/api/portal/claims', { signal }),
  });
}
