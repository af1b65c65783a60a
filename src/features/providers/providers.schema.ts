import { z } from 'zod';

export const providerSchema = z.object({ id: z.number().int(), name: z.string(), specialty: z.string() });
export type Provider = z.infer<typeof providerSchema>;
