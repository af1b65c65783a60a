import { z } from 'zod';
import { cursorPageShape, listQuerySchema } from '@/shared/api';
import { PAYERS } from '@/features/claims/claims.schema';

export const AUTHORIZATION_STATUSES = ['Pending', 'Approved', 'Denied'] as const;
export const authorizationStatusSchema = z.enum(AUTHORIZATION_STATUSES);
export type AuthorizationStatus = z.infer<typeof authorizationStatusSchema>;

/** Prior authorization is granted by an insurer: a self-pay visit needs none, so Self-Pay is no filter choice. */
const payerMessage = `must be one of: ${PAYERS.filter((p) => p !== 'Self-Pay').join(', ')}`;
export const authorizationPayerSchema = z
  .enum(PAYERS, { message: payerMessage })
  .exclude(['Self-Pay'], { message: payerMessage });
export const AUTHORIZATION_PAYERS = authorizationPayerSchema.options;

/** A pending authorization older than 5 days is at risk. */
export const AT_RISK_AFTER_DAYS = 5;

/**
 * An authorization as the list shows it. `ageDays` counts the days from the request to the decision, or
 * to today while it is still pending: a decided request does not keep ageing.
 */
export const authorizationSchema = z.object({
  id: z.number().int(),
  patient: z.string(),
  service: z.string(),
  payer: z.string(),
  status: authorizationStatusSchema,
  ageDays: z.number().int(),
  requestedOn: z.string(),
  decidedOn: z.string().nullable(),
  atRisk: z.boolean(),
});
export type Authorization = z.infer<typeof authorizationSchema>;

export const AUTHORIZATION_SORT_KEYS = ['patient', 'service', 'payer', 'status', 'ageDays'] as const;
export type AuthorizationSortKey = (typeof AUTHORIZATION_SORT_KEYS)[number];

/** Filters shared by the list and the export. */
export const authorizationFilterSchema = z.object({
  search: z.string().trim().max(100).default(''),
  payer: authorizationPayerSchema.optional(),
  status: z.enum(AUTHORIZATION_STATUSES, { message: 'must be Pending, Approved or Denied' }).optional(),
});
export type AuthorizationFilter = z.infer<typeof authorizationFilterSchema>;

export const authorizationQuerySchema = listQuerySchema(AUTHORIZATION_SORT_KEYS, 'ageDays').extend(
  authorizationFilterSchema.shape,
);
export type AuthorizationQuery = z.infer<typeof authorizationQuerySchema>;
/** What the client sends (every key optional; the server fills in the defaults). */
export type AuthorizationQueryInput = z.input<typeof authorizationQuerySchema>;

export const authorizationExportQuerySchema = authorizationFilterSchema.extend({
  sort: z.enum(AUTHORIZATION_SORT_KEYS).default('ageDays'),
  dir: z.enum(['asc', 'desc']).default('desc'),
});
export type AuthorizationExportQuery = z.infer<typeof authorizationExportQuerySchema>;

/** Six KPIs over every authorization, whatever the filters. */
export const authorizationKpisSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  approved: z.number().int(),
  denied: z.number().int(),
  /** Pending and older than AT_RISK_AFTER_DAYS. */
  atRisk: z.number().int(),
  /** Mean of ageDays over every authorization, in days with one decimal (0 when there are none). */
  avgAgeDays: z.number(),
});
export type AuthorizationKpis = z.infer<typeof authorizationKpisSchema>;

export const authorizationListSchema = z.object({
  /** One page of the rows matching the filters. */
  items: z.array(authorizationSchema),
  /** Pass back as `cursor` for the next page; `total` (how many rows match) on a first page only. */
  ...cursorPageShape,
  /** On a first page only, like `total` (null on later pages and with `count=false`). */
  kpis: authorizationKpisSchema.nullable(),
});
export type AuthorizationList = z.infer<typeof authorizationListSchema>;

/** Every row matching the filters, for the CSV export (the serving GET is audited as the export). */
export const authorizationExportSchema = z.object({ items: z.array(authorizationSchema) });
export type AuthorizationExport = z.infer<typeof authorizationExportSchema>;

/** An export larger than this asks the user to narrow the filters instead of building a huge file. */
export const AUTHORIZATION_EXPORT_MAX_ROWS = 20_000;

export const authorizationDecisionSchema = z
  .object({ status: z.enum(['Approved', 'Denied'], { message: 'must be Approved or Denied' }) })
  .strict();
export type AuthorizationDecision = z.infer<typeof authorizationDecisionSchema>;
