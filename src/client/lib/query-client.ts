import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { apiFetch } from './api-client';

/** By default the key's segments joined with '/' form the URL of a GET. */
const defaultQueryFn: QueryFunction = ({ queryKey, signal }) => {
  const url = queryKey.filter((k) => typeof k === 'string' || typeof k === 'number').join('/');
  return apiFetch(url, { signal });
};

/** No automatic refetch, no refetch on focus, data never stale, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
