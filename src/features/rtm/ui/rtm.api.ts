import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { Requirement, Verification } from '../rtm.schema';

export const REQUIREMENTS_PATH = '/api/rtm/requirements';

export const rtmKeys = {
  requirements: [REQUIREMENTS_PATH] as const,
};

export function useRequirements() {
  return useQuery({
    queryKey: rtmKeys.requirements,
    queryFn: ({ signal }) => apiFetch<Requirement[]>(REQUIREMENTS_PATH, { signal }),
  });
}

/** Verifies one requirement against the live system (the server audits each verification). */
export function verifyRequirement(reqId: string): Promise<Verification> {
  return apiFetch<Verification>(`/api/rtm/verify/${encodeURIComponent(reqId)}`, { method: 'POST' });
}
