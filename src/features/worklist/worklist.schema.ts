import { z } from 'zod';
import { cursorPageShape } from '@/shared/api';

export const ENCOUNTER_TYPES = [
  'Office Visit',
  'New Patient',
  'Annual Wellness',
  'Telehealth',
  'Urgent Visit',
] as const;
export const encounterTypeSchema = z.enum(ENCOUNTER_TYPES);

export const FOLLOW_UP_PRIORITIES = ['High', 'Medium', 'Low'] as const;
export const followUpPrioritySchema = z.enum(FOLLOW_UP_PRIORITIES);
export type FollowUpPriority = z.infer<typeof followUpPrioritySchema>;

/** One row of the overdue follow-up worklist, computed by the server. */
export const overdueFollowUpSchema = z.object({
  encounterId: z.number().int(),
  patientName: z.string(),
  /** The patient's phone, to call them back; masked as the caller's role requires. */
  phone: z.string(),
  providerName: z.string(),
  encounterDate: z.string(),
  encounterType: z.string(),
  chiefComplaint: z.string(),
  diagnosis: z.array(z.string()),
  /** Whole days from the follow-up due date to today. */
  daysOverdue: z.number().int(),
  priority: followUpPrioritySchema,
  recommendedAction: z.string(),
});
export type OverdueFollowUp = z.infer<typeof overdueFollowUpSchema>;

export const overdueFollowUpListSchema = z.array(overdueFollowUpSchema);

/**
 * The screen's filters (priority, provider by name); absent means all. Shared by a page of the
 * list and the export, which serves every row the filters select.
 */
export const worklistFilterSchema = z
  .object({
    priority: followUpPrioritySchema.optional(),
    provider: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
export type WorklistFilterInput = z.infer<typeof worklistFilterSchema>;

/**
 * Sorts the server pages by (docs/paging.md): `priority` is the worklist's order (High, Medium, Low, then
 * the longest overdue, then encounter id); `daysOverdue` is the follow-up due date's order. Both walk the
 * stored open follow-ups' indexes (docs/paging.md).
 */
export const WORKLIST_SORT_KEYS = ['priority', 'daysOverdue'] as const;
export type WorklistSortKey = (typeof WORKLIST_SORT_KEYS)[number];

export const worklistPageQuerySchema = z.object({
  priority: followUpPrioritySchema.optional(),
  provider: z.string().trim().min(1).max(200).optional(),
  sort: z.enum(WORKLIST_SORT_KEYS).default('priority'),
  /** `asc` on priority is High first; on daysOverdue, the fewest days first. */
  dir: z.enum(['asc', 'desc']).default('asc'),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().max(2000).optional(),
  /** `false` skips counting the matches on a first page (`total` is then null). */
  count: z.enum(['true', 'false']).default('true'),
});
export type WorklistPageQuery = z.infer<typeof worklistPageQuerySchema>;
/** What the client sends; the server fills in the rest. */
export type WorklistPageQueryInput = Partial<Omit<WorklistPageQuery, 'count'>>;

export const overdueFollowUpPageSchema = z.object({ items: z.array(overdueFollowUpSchema), ...cursorPageShape });
export type OverdueFollowUpPage = z.infer<typeof overdueFollowUpPageSchema>;

/** The worklist's tiles, over the whole unfiltered list, and the provider filter's choices. */
export const worklistSummarySchema = z.object({
  total: z.number().int(),
  high: z.number().int(),
  medium: z.number().int(),
  low: z.number().int(),
  /** Mean days overdue rounded to a whole number; 0 for an empty list. */
  avgDaysOverdue: z.number().int(),
  /** The distinct provider names of the list, sorted alphabetically. */
  providers: z.array(z.string()),
});
export type WorklistSummary = z.infer<typeof worklistSummarySchema>;
