import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import { crossFeatureKeys } from '@/client/lib/cross-feature-keys';
import type {
  AssignmentRule,
  Assignee,
  NewAssignmentRule,
  ResolveWorkItem,
  WorkItem,
  WorkQueuePage,
} from '../workqueue.schema';

const QUEUE = '/api/work-queue';
export const workQueueKeys = {
  all: crossFeatureKeys.workQueue,
  page: (query: Record<string, string | undefined>) => [QUEUE, 'page', query] as const,
  assignees: [QUEUE, 'assignees'] as const,
};

export function useWorkQueue(query: Record<string, string | undefined>) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  return useQuery({
    queryKey: workQueueKeys.page(query),
    queryFn: ({ signal }) => apiFetch<WorkQueuePage>(`${QUEUE}?${params.toString()}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAssignees() {
  return useQuery({
    queryKey: workQueueKeys.assignees,
    queryFn: ({ signal }) => apiFetch<{ items: Assignee[] }>(`${QUEUE}/assignees`, { signal }),
  });
}

type Action =
  | { kind: 'assign'; id: number; assigneeId: number | null }
  | { kind: 'note'; id: number; body: string }
  | { kind: 'resolve'; id: number; resolution: ResolveWorkItem };

/** Assign, note or resolve an item; the queue refreshes after each. */
export function useWorkItemAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: Action) => {
      const path = `/api/work-items/${action.id}`;
      switch (action.kind) {
        case 'assign':
          return apiFetch<WorkItem>(`${path}/assign`, { method: 'POST', body: { assigneeId: action.assigneeId } });
        case 'note':
          return apiFetch<WorkItem>(`${path}/notes`, { method: 'POST', body: { body: action.body } });
        case 'resolve':
          return apiFetch<WorkItem>(`${path}/resolve`, { method: 'POST', body: action.resolution });
      }
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workQueueKeys.all }),
  });
}

/**
 * Reads an item again as it stands now (an action on its claim may have resolved it); the queue refreshes too.
 * A mutation rather than a query: it runs when asked, not whenever the item's view mounts (each read is audited).
 */
export function useWorkItemRefresh() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<WorkItem>(`/api/work-items/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workQueueKeys.all }),
  });
}

/** The practice's active payers, for the payer filter. */
export function usePayerNames() {
  return useQuery({
    queryKey: ['/api/payers'],
    queryFn: ({ signal }) => apiFetch<{ name: string }[]>('/api/payers', { signal }),
  });
}

const RULES = '/api/work-queue/rules';

/** The admin's auto-assignment rules. */
export function useAssignmentRules(enabled: boolean) {
  return useQuery({
    queryKey: [RULES],
    queryFn: ({ signal }) => apiFetch<{ items: AssignmentRule[] }>(RULES, { signal }),
    enabled,
  });
}

export function useRuleChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: { add: NewAssignmentRule } | { remove: number }): Promise<void> => {
      if ('add' in change) await apiFetch<AssignmentRule>(RULES, { method: 'POST', body: change.add });
      else await apiFetch<void>(`${RULES}/${change.remove}`, { method: 'DELETE' });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [RULES] }),
  });
}
