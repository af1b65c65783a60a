import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { CreatedUser, ManagedUser, NewUser, PatientLink, UserPatch } from '../users.schema';

export const userKeys = {
  all: ['/api/users'] as const,
};

export function useUsers() {
  return useQuery({
    queryKey: userKeys.all,
    queryFn: ({ signal }) => apiFetch<{ items: ManagedUser[] }>('/api/users', { signal }),
  });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewUser) => apiFetch<CreatedUser>('/api/users', { method: 'POST', body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: UserPatch }) =>
      apiFetch<ManagedUser>(`/api/users/${id}`, { method: 'PATCH', body: patch }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useLinkPatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, link }: { id: number; link: PatientLink }) =>
      apiFetch<ManagedUser>(`/api/users/${id}/patient-link`, { method: 'PUT', body: link }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useResetMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<ManagedUser>(`/api/users/${id}/mfa-reset`, { method: 'POST' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
