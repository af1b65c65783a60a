import { z } from 'zod';

export const auditEntrySchema = z.object({
  id: z.number().int(),
  time: z.string(),
  actor: z.string(),
  action: z.string(),
  resource: z.string(),
  detail: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
