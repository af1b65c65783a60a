import { z } from 'zod';
import { PAYERS } from '@/features/claims/claims.schema';

export const AUTHORIZATION_STATUSES = ['Pending', 'Approved', 'Denied'] as const;
export const authorizationStatusSchema = z.enum(AUTHORIZATION_STATUSES);
export type AuthorizationStatus = z.infer<typeof authorizationStatusSchema>;

/** SPEC 4 and 9: a pending authorization older than 5 days is at risk. */
export const AT_RISK_AFTER_DAYS = 5;

export const authorizationSchema = z.object({
  id: z.number().int(),
  patient: z.string(),
  service: z.string(),
  payer: z.string(),
  status: authorizationStatusSchema,
  ageDays: z.number().int(),
  requestedOn: z.string(),
  atRisk: z.boolean(),
});
export type Authorization = z.infer<typeof authorizationSchema>;

export const authorizationQuerySchema = z.object({
  payer: z.enum(PAYERS).optional(),
  status: authorizationStatusSchema.optional(),
});
export type AuthorizationQuery = z.infer<typeof authorizationQuerySchema>;

export const authorizationKpisSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  approved: z.number().int(),
  denied: z.number().int(),
  atRisk: z.number().int(),
  avgAgeDays: z.number(),
});

export const authorizationListSchema = z.object({
  items: z.array(authorizationSchema),
  /** Over every authorization, whatever the filters. */
  kpis: authorizationKpisSchema,
});
export type AuthorizationList = z.infer<typeof authorizationListSchema>;

export const authorizationDecisionSchema = z.object({
  status: z.enum(['Approved', 'Denied'], { message: 'must be Approved or Denied' }),
});
