/**
 * The work queue's contract (docs/work-queue.md): what needs a person after a remittance, an acknowledgement or a
 * scrub, with its category, dollars at risk, due date, priority, assignee, notes and how it was resolved.
 */
import { z } from 'zod';
import { cursorPageShape, MAX_ROW_ID } from '@/shared/api';

/** A user's id in a JSON body. */
const userIdSchema = z
  .number({ message: 'must be a user id' })
  .int('must be a user id')
  .positive('must be a user id')
  .max(MAX_ROW_ID, 'is not a known user id');

/** Where an item comes from; one open item per (source, key). */
export const WORK_SOURCES = [
  'denial',
  'balancing',
  'unmatched_claim',
  'unmatched_line',
  'review',
  'rejection',
  'scrubber',
  'claim_status',
  'mailbox',
] as const;
export type WorkSource = (typeof WORK_SOURCES)[number];
export const WORK_SOURCE_LABELS: Record<WorkSource, string> = {
  denial: 'Denial',
  balancing: 'Does not balance',
  unmatched_claim: 'Unmatched claim',
  unmatched_line: 'Unmatched line',
  review: 'Needs review',
  rejection: 'Rejected (277CA)',
  scrubber: 'Scrubber hold',
  claim_status: 'Claim status (277)',
  mailbox: 'Clearinghouse mailbox',
};

export const WORK_CATEGORIES = [
  'eligibility',
  'authorization',
  'coding',
  'duplicate',
  'timely_filing',
  'medical_necessity',
  'other',
] as const;
export type WorkCategory = (typeof WORK_CATEGORIES)[number];
export const WORK_CATEGORY_LABELS: Record<WorkCategory, string> = {
  eligibility: 'Eligibility',
  authorization: 'Authorization',
  coding: 'Coding',
  duplicate: 'Duplicate',
  timely_filing: 'Timely filing',
  medical_necessity: 'Medical necessity',
  other: 'Other',
};

/**
 * The category of a CARC (claim adjustment reason code, the X12 external code list maintained by the CARC/RARC
 * committee), e.g. '197' or 'CO-197'.
 */
const CATEGORY_BY_CARC: Record<string, WorkCategory> = {
  '27': 'eligibility',
  '31': 'eligibility',
  '109': 'eligibility',
  '22': 'eligibility',
  '15': 'authorization',
  '197': 'authorization',
  '4': 'coding',
  '11': 'coding',
  '16': 'coding',
  '97': 'coding',
  '18': 'duplicate',
  '29': 'timely_filing',
  '50': 'medical_necessity',
};
export function categoryOfCarc(carc: string | null | undefined): WorkCategory {
  if (!carc) return 'other';
  const code = carc.includes('-') ? carc.slice(carc.indexOf('-') + 1) : carc;
  return CATEGORY_BY_CARC[code] ?? 'other';
}

export const WORK_PRIORITIES = ['high', 'normal', 'low'] as const;
export type WorkPriority = (typeof WORK_PRIORITIES)[number];

/** The outcomes a person chooses when resolving an item. */
export const WORK_RESOLUTIONS = [
  'appealed',
  'corrected_resubmitted',
  'written_off',
  'patient_billed',
  'fixed',
] as const;
export type WorkResolution = (typeof WORK_RESOLUTIONS)[number];
/** …and the one the app writes itself: a claim status item the payer's later 277 answer made moot. */
export const WORK_OUTCOMES = [...WORK_RESOLUTIONS, 'payer_answered'] as const;
export type WorkOutcome = (typeof WORK_OUTCOMES)[number];
export const WORK_OUTCOME_LABELS: Record<WorkOutcome, string> = {
  appealed: 'Appealed',
  corrected_resubmitted: 'Corrected and resubmitted',
  written_off: 'Written off',
  patient_billed: 'Patient billed',
  payer_answered: 'Answered by the payer',
  /** No claim changes: the problem itself went away (the clearinghouse mailbox answers again). */
  fixed: 'Problem fixed',
};

export const workNoteSchema = z.object({
  id: z.number().int(),
  author: z.string(),
  body: z.string(),
  at: z.string(),
});
export type WorkNote = z.infer<typeof workNoteSchema>;

export const workItemSchema = z.object({
  id: z.number().int(),
  source: z.enum(WORK_SOURCES),
  category: z.enum(WORK_CATEGORIES),
  claimId: z.number().int().nullable(),
  accountNumber: z.string(),
  patientName: z.string(),
  payer: z.string(),
  carc: z.string().nullable(),
  reason: z.string(),
  dollarsAtRiskCents: z.number().int(),
  dueOn: z.string(),
  priority: z.enum(WORK_PRIORITIES),
  assigneeId: z.number().int().nullable(),
  assignee: z.string().nullable(),
  openedAt: z.string(),
  resolvedAt: z.string().nullable(),
  outcome: z.enum(WORK_OUTCOMES).nullable(),
  resolutionNote: z.string().nullable(),
  notes: z.array(workNoteSchema),
});
export type WorkItem = z.infer<typeof workItemSchema>;

export const WORK_SORTS = ['due', 'dollars'] as const;
export const workQueueQuerySchema = z
  .object({
    category: z.enum(WORK_CATEGORIES, { message: `must be one of: ${WORK_CATEGORIES.join(', ')}` }).optional(),
    payer: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
    assignee: z.enum(['me', 'others', 'unassigned'], { message: 'must be one of: me, others, unassigned' }).optional(),
    status: z.enum(['open', 'resolved'], { message: 'must be one of: open, resolved' }).default('open'),
    sort: z.enum(WORK_SORTS, { message: 'must be one of: due, dollars' }).default('due'),
    limit: z.coerce
      .number({ message: 'must be a number from 1 to 200' })
      .int('must be a number from 1 to 200')
      .min(1, 'must be a number from 1 to 200')
      .max(200, 'must be a number from 1 to 200')
      .default(50),
    cursor: z.string().max(500, 'is not a cursor this list issued').optional(),
  })
  .strict();
export type WorkQueueQuery = z.infer<typeof workQueueQuerySchema>;

export const workQueuePageSchema = z.object({ items: z.array(workItemSchema), ...cursorPageShape });
export type WorkQueuePage = z.infer<typeof workQueuePageSchema>;

/** `POST /api/work-items/:id/assign`: null unassigns. */
export const assignWorkItemSchema = z.object({ assigneeId: userIdSchema.nullable() }).strict();
export type AssignWorkItem = z.infer<typeof assignWorkItemSchema>;

export const workNoteInputSchema = z
  .object({ body: z.string().trim().min(1, 'is required').max(2000, 'must be at most 2000 characters') })
  .strict();
export type WorkNoteInput = z.infer<typeof workNoteInputSchema>;

export const resolveWorkItemSchema = z
  .object({
    outcome: z.enum(WORK_RESOLUTIONS, { message: `must be one of: ${WORK_RESOLUTIONS.join(', ')}` }),
    note: z.string().trim().max(2000, 'must be at most 2000 characters').default(''),
  })
  .strict()
  .refine((r) => r.outcome !== 'written_off' || r.note !== '', {
    message: 'is required when the balance is written off: say why',
    path: ['note'],
  });
export type ResolveWorkItem = z.input<typeof resolveWorkItemSchema>;

export const assignmentRuleSchema = z.object({
  id: z.number().int(),
  payer: z.string().nullable(),
  category: z.enum(WORK_CATEGORIES).nullable(),
  assigneeId: z.number().int(),
  assignee: z.string(),
});
export type AssignmentRule = z.infer<typeof assignmentRuleSchema>;

export const newAssignmentRuleSchema = z
  .object({
    payer: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').nullable(),
    category: z.enum(WORK_CATEGORIES, { message: `must be one of: ${WORK_CATEGORIES.join(', ')}` }).nullable(),
    assigneeId: userIdSchema,
  })
  .strict();
export type NewAssignmentRule = z.infer<typeof newAssignmentRuleSchema>;

export const assigneeSchema = z.object({ id: z.number().int(), name: z.string(), email: z.string() });
export type Assignee = z.infer<typeof assigneeSchema>;
