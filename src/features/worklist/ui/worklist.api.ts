import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { OverdueFollowUp, WorklistExportAudit } from '../worklist.schema';

export const OVERDUE_FOLLOWUPS_PATH = '/api/worklist/overdue-followups';

export function useOverdueFollowUps() {
  return useQuery({
    queryKey: [OVERDUE_FOLLOWUPS_PATH],
    queryFn: ({ signal }) => apiFetch<OverdueFollowUp[]>(OVERDUE_FOLLOWUPS_PATH, { signal }),
  });
}

/** Records the export in the audit log; the CSV is downloaded only once this has succeeded. */
export function recordWorklistExport(report: WorklistExportAudit): Promise<void> {
  return apiFetch<void>(`${OVERDUE_FOLLOWUPS_PATH}/exports`, { method: 'POST', body: report });
}
