import { z } from 'zod';
import { cursorPageShape, isoDateSchema, listQuerySchema } from '@/shared/api';
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
  /** The payer's authorization number, the units it granted and the days it is valid (approved only). */
  authNumber: z.string().nullable(),
  approvedUnits: z.number().int().nullable(),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  /** Why the payer refused (denied only). */
  denialReason: z.string().nullable(),
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

/** Six KPIs over the authorizations matching the filters (all of them when none is set). */
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
  /** Every authorization, whatever the filters ('Showing N of M'): on a first page only, like `total`. */
  overallTotal: z.number().int().nullable(),
});
export type AuthorizationList = z.infer<typeof authorizationListSchema>;

/** Every row matching the filters, for the CSV export (the serving GET is audited as the export). */
export const authorizationExportSchema = z.object({ items: z.array(authorizationSchema) });
export type AuthorizationExport = z.infer<typeof authorizationExportSchema>;

/** An export larger than this asks the user to narrow the filters instead of building a huge file. */
export const AUTHORIZATION_EXPORT_MAX_ROWS = 20_000;

const approvalSchema = z
  .object({
    status: z.literal('Approved'),
    authNumber: z
      .string({ message: 'is required' })
      .trim()
      .min(1, 'is required')
      .max(40, 'must be at most 40 characters')
      .regex(/^[A-Za-z0-9-]+$/, 'may contain only letters, digits and -'),
    units: z
      .number({ message: 'must be a whole number of units' })
      .int('must be a whole number of units')
      .min(1, 'must be at least 1')
      .max(9999, 'must be at most 9999'),
    validFrom: isoDateSchema,
    validTo: isoDateSchema,
  })
  .strict()
  .refine((a) => a.validFrom <= a.validTo, { path: ['validTo'], message: 'must be on or after validFrom' });
const denialSchema = z
  .object({
    status: z.literal('Denied'),
    reason: z
      .string({ message: 'is required' })
      .trim()
      .min(1, 'is required')
      .max(200, 'must be at most 200 characters'),
  })
  .strict();
/** Approving records the payer's authorization number, units and valid dates; denying records a reason. */
export const authorizationDecisionSchema = z.discriminatedUnion('status', [approvalSchema, denialSchema], {
  message: 'status: must be Approved or Denied',
});
export type AuthorizationDecision = z.infer<typeof authorizationDecisionSchema>;
