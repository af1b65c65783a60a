import { z } from 'zod';

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

/** SPEC 3: one row of the overdue follow-up worklist, computed by the server (DECISIONS 4). */
export const overdueFollowUpSchema = z.object({
  encounterId: z.number().int(),
  patientName: z.string(),
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

/** What the browser reports after it built the CSV of the filtered worklist (the export is audited). */
export const worklistExportAuditSchema = z
  .object({
    rows: z.number().int().min(0).max(1_000_000),
    priority: followUpPrioritySchema.optional(),
    provider: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
export type WorklistExportAudit = z.infer<typeof worklistExportAuditSchema>;
