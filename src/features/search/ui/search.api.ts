import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import type { SearchResult } from '../search.schema';

export const searchKeys = {
  results: (q: string) => ['/api/search', q] as const,
};

export function useSearchResults(q: string, enabled: boolean) {
  return useQuery({
    queryKey: searchKeys.results(q),
    queryFn: ({ signal }) => apiFetch<SearchResult>(`/api/search?q=${encodeURIComponent(q)}`, { signal }),
    enabled,
  });
}
