import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { PracticeHours } from '@/features/settings/practice.schema';
import type { Provider } from '@/features/providers/providers.schema';
import type { PatientOption } from '@/features/patients/patients.schema';
import type {
  Appointment,
  CallListRow,
  AppointmentPage,
  AppointmentStatus,
  FreeSlots,
  NewAppointment,
  Reschedule,
  UncoveredAppointments,
} from '../appointments.schema';
import type { NextDayEligibility, RequestedEligibility } from '@/features/coverage/coverage.eligibility.schema';
import { appointmentKeys } from '../appointments.query-keys';

const APPOINTMENTS = '/api/appointments';

/** Cards per page: the day's schedule arrives a page at a time ('Load more' asks for the next). */
export const APPOINTMENTS_PAGE_SIZE = 50;

/**
 * A day's appointments, keyset-paged (docs/paging.md): each page resumes after the last card shown
 * (`nextCursor`); the first page carries the day's count.
 */
export function useAppointments(date: string) {
  return useInfiniteQuery({
    queryKey: appointmentKeys.day(date),
    queryFn: ({ signal, pageParam }) =>
      apiFetch<AppointmentPage>(
        `${APPOINTMENTS}?date=${encodeURIComponent(date)}&limit=${APPOINTMENTS_PAGE_SIZE}` +
          (pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''),
        { signal },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: date !== '',
  });
}

export function useProviders() {
  return useQuery({
    queryKey: appointmentKeys.providers,
    queryFn: ({ signal }) => apiFetch<Provider[]>('/api/providers', { signal }),
  });
}

export function usePracticeHours() {
  return useQuery({
    queryKey: appointmentKeys.practiceHours,
    queryFn: ({ signal }) => apiFetch<PracticeHours>('/api/appointments/practice-hours', { signal }),
  });
}

/** Whose free times a time picker offers: a new visit's provider (and patient), or the visit being moved. */
export interface SlotsFor {
  date: string;
  providerId?: number;
  patientId?: number;
  appointmentId?: number;
}

/** The start times still free on a day; asked for once a day and a provider (or the visit moved) are known. */
export function useFreeSlots(slotsFor: SlotsFor) {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(slotsFor) as [string, string | number | undefined][]) {
    if (value !== undefined && value !== '') query[key] = String(value);
  }
  const ready = /^\d{4}-\d{2}-\d{2}$/.test(slotsFor.date) && (query.providerId ?? query.appointmentId) !== undefined;
  return useQuery({
    queryKey: appointmentKeys.freeSlots(query),
    queryFn: ({ signal }) =>
      apiFetch<FreeSlots>(`${APPOINTMENTS}/free-slots?${new URLSearchParams(query).toString()}`, { signal }),
    enabled: ready,
  });
}

export type PatientName = PatientOption;

/** The booking form's patient picker: names with date of birth and MRN (masked for the role). */
export function usePatientNames(search: string) {
  return useQuery({
    queryKey: appointmentKeys.patientNames(search),
    queryFn: ({ signal }) =>
      apiFetch<PatientName[]>(`/api/patients/names?search=${encodeURIComponent(search)}&limit=20`, { signal }),
    // Typing a name asks again; the last answer stays on screen meanwhile.
    placeholderData: (previous) => previous,
  });
}

function useRefreshAppointments() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: appointmentKeys.days });
}

export function useUpdateStatus() {
  const refresh = useRefreshAppointments();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: AppointmentStatus }) =>
      apiFetch<Appointment>(`${APPOINTMENTS}/${id}`, { method: 'PATCH', body: { status } }),
    onSettled: refresh,
  });
}

export function useReschedule() {
  const refresh = useRefreshAppointments();
  return useMutation({
    mutationFn: ({ id, ...body }: Reschedule & { id: number }) =>
      apiFetch<Appointment>(`${APPOINTMENTS}/${id}`, { method: 'PATCH', body }),
    // A refusal (the time was taken meanwhile) refreshes the free times too.
    onSettled: refresh,
  });
}

export function useCreateAppointment() {
  const refresh = useRefreshAppointments();
  return useMutation({
    mutationFn: (body: NewAppointment) => apiFetch<Appointment>(APPOINTMENTS, { method: 'POST', body }),
    // A refusal (the time was taken meanwhile) refreshes the free times too.
    onSettled: refresh,
  });
}

/** The call list as exported; the server records the export in the audit log. */
export function fetchCallList(date: string) {
  return apiFetch<CallListRow[]>(`${APPOINTMENTS}/call-list-export`, { method: 'POST', body: { date } });
}

/** The next working day's visits not known to be covered (the front desk's notice). */
export function useUncoveredNextDay() {
  return useQuery({
    queryKey: appointmentKeys.uncoveredNextDay,
    queryFn: ({ signal }) => apiFetch<UncoveredAppointments>(`${APPOINTMENTS}/eligibility/next-day`, { signal }),
  });
}

/** Runs the evening eligibility batch now: one 270 for the next working day's visits. */
export function useCheckNextDay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<NextDayEligibility>(`${APPOINTMENTS}/eligibility/next-day`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appointmentKeys.days }),
  });
}

/** Asks the payer about the visit's primary policy for the visit's day (one 270); the day's cards show it awaiting. */
export function useCheckVisitEligibility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ coverageId, serviceDate }: { coverageId: number; serviceDate: string }) =>
      apiFetch<RequestedEligibility>(`/api/coverages/${coverageId}/eligibility`, {
        method: 'POST',
        body: { serviceDate },
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: appointmentKeys.days }),
        queryClient.invalidateQueries({ queryKey: appointmentKeys.uncoveredNextDay }),
      ]),
  });
}
