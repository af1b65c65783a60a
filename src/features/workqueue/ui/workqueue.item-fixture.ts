/** A work item as the queue's calls return it, for the tests of the screens that show one: an open denial. */
import type { WorkItem } from '../workqueue.schema';

export function workItem(overrides: Partial<WorkItem> = {}): WorkItem {
  return {
    id: 5,
    source: 'denial',
    category: 'authorization',
    claimId: 3,
    accountNumber: 'ACC-2026-5',
    patientName: 'Ana Silva',
    payer: 'Aetna',
    carc: 'CO-197',
    reason: 'Denied CO-197: Precertification/authorization/notification/pre-treatment absent (trace EFT-1)',
    dollarsAtRiskCents: 14_900,
    dueOn: '2026-12-10',
    priority: 'high',
    assigneeId: null,
    assignee: null,
    openedAt: '2026-11-24T15:00:00Z',
    resolvedAt: null,
    outcome: null,
    resolutionNote: null,
    notes: [],
    ...overrides,
  };
}
