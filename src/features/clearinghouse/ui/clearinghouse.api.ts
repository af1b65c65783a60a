import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type {
  MailboxDirection,
  MailboxFilePage,
  MailboxFileStatus,
  MailboxRunResult,
  MailboxSettings,
  MailboxSettingsInput,
  MailboxTestResult,
} from '../clearinghouse.schema';

const MAILBOX = ['/api/clearinghouse/mailbox'] as const;
const FILES = ['/api/clearinghouse/files'] as const;

export function useMailboxSettings() {
  return useQuery({
    queryKey: MAILBOX,
    queryFn: ({ signal }) => apiFetch<MailboxSettings>('/api/clearinghouse/mailbox', { signal }),
  });
}

export function useSaveMailbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MailboxSettingsInput) =>
      apiFetch<MailboxSettings>('/api/clearinghouse/mailbox', { method: 'PUT', body: input }),
    onSuccess: (saved) => queryClient.setQueryData(MAILBOX, saved),
  });
}

export function useTestMailbox() {
  return useMutation({
    mutationFn: () => apiFetch<MailboxTestResult>('/api/clearinghouse/mailbox/test', { method: 'POST' }),
  });
}

/** A run changes the mailbox's state and the log: both are read again. */
export function useRunMailbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<MailboxRunResult>('/api/clearinghouse/mailbox/run', { method: 'POST' }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: MAILBOX });
      void queryClient.invalidateQueries({ queryKey: FILES });
    },
  });
}

export interface MailboxFileFilters {
  direction?: MailboxDirection;
  status?: MailboxFileStatus;
  cursor?: string;
}

export function useMailboxFiles(filters: MailboxFileFilters) {
  const params = new URLSearchParams({ limit: '25' });
  if (filters.direction) params.set('direction', filters.direction);
  if (filters.status) params.set('status', filters.status);
  if (filters.cursor) params.set('cursor', filters.cursor);
  return useQuery({
    queryKey: [...FILES, filters],
    queryFn: ({ signal }) => apiFetch<MailboxFilePage>(`/api/clearinghouse/files?${params.toString()}`, { signal }),
  });
}
