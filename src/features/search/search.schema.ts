import { z } from 'zod';
import { SEARCH_MIN_LENGTH } from './search.limits';

export const SEARCH_GROUP_LIMIT = 3;

export const searchQuerySchema = z.object({
  q: z.string().trim().min(SEARCH_MIN_LENGTH, `must be at least ${SEARCH_MIN_LENGTH} characters`).max(100),
});

export const searchResultSchema = z.object({
  patients: z.array(z.object({ id: z.number().int(), name: z.string(), mrn: z.string() })).nullable(),
  appointments: z
    .array(
      z.object({ id: z.number().int(), patient: z.string(), provider: z.string(), date: z.string(), time: z.string() }),
    )
    .nullable(),
  claims: z
    .array(z.object({ id: z.number().int(), patient: z.string(), accountNumber: z.string(), status: z.string() }))
    .nullable(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
