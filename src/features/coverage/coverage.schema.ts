import { z } from 'zod';
import { isoDateSchema } from '@/shared/api';
import { eligibilityCheckSchema } from './coverage.eligibility.schema';

/**
 * How the patient is related to the policy's subscriber: the relationships X12 names with an individual
 * relationship code (features/x12/x12.837p.ts writes them: SBR02 18 for self, PAT01 otherwise).
 */
export const SUBSCRIBER_RELATIONSHIPS = ['self', 'spouse', 'child', 'other'] as const;
export type SubscriberRelationship = (typeof SUBSCRIBER_RELATIONSHIPS)[number];

/** Which payer pays first: 1 primary, 2 secondary, 3 tertiary (X12 SBR01 P, S, T). */
export const COVERAGE_PRIORITIES = [1, 2, 3] as const;

/**
 * Why Medicare pays after another payer (Medicare Secondary Payer): the X12 insurance type code an 837P sends in
 * SBR05 when Medicare is billed, or reported, as a payer that is not primary (ASC X12 005010X222A1, loops 2000B
 * and 2320). Medicare refuses such a claim without it.
 */
export const MEDICARE_SECONDARY_TYPES = ['12', '13', '14', '15', '16', '41', '42', '43', '47'] as const;
export type MedicareSecondaryType = (typeof MEDICARE_SECONDARY_TYPES)[number];
export const MEDICARE_SECONDARY_TYPE_LABELS: Record<MedicareSecondaryType, string> = {
  '12': 'Working aged: employer group health plan',
  '13': 'End-stage renal disease: employer group health plan',
  '14': 'No-fault insurance, including auto',
  '15': "Workers' compensation",
  '16': 'Public Health Service or other federal agency',
  '41': 'Black lung',
  '42': 'Veterans Affairs',
  '43': 'Disabled, under 65: large group health plan',
  '47': 'Other liability insurance',
};

/** One insurance policy of a patient, as the payer knows the patient. */
export const coverageSchema = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  payer: z.string(),
  priority: z.number().int(),
  memberId: z.string(),
  groupNumber: z.string().nullable(),
  relationship: z.enum(SUBSCRIBER_RELATIONSHIPS),
  /** The policy holder when not the patient. */
  subscriberName: z.string().nullable(),
  subscriberDob: z.string().nullable(),
  effectiveOn: z.string(),
  endOn: z.string().nullable(),
  /** On a Medicare policy that is not primary: why Medicare pays second (SBR05); null otherwise or not yet known. */
  medicareSecondaryType: z.enum(MEDICARE_SECONDARY_TYPES).nullable(),
  /** The latest eligibility check (X12 270/271), null when never asked; on the patient's list only. */
  eligibility: eligibilityCheckSchema.nullable().optional(),
});
export type Coverage = z.infer<typeof coverageSchema>;

/** How staff name a priority: what the claim form and the patient's insurance list show. */
const PRIORITY_LABELS: Record<(typeof COVERAGE_PRIORITIES)[number], string> = {
  1: 'Primary',
  2: 'Secondary',
  3: 'Tertiary',
};

export function priorityLabel(priority: number): string {
  return PRIORITY_LABELS[priority as (typeof COVERAGE_PRIORITIES)[number]] ?? `Priority ${priority}`;
}

export const RELATIONSHIP_LABELS: Record<SubscriberRelationship, string> = {
  self: 'Self',
  spouse: 'Spouse',
  child: 'Child',
  other: 'Other',
};

/** Blank text from a form means "none", as null does from the API. */
const blankAsNull = (value: string | null) => (value === '' ? null : value);

const payerNameSchema = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(80, 'must be at most 80 characters');
const prioritySchema = z
  .number({ error: 'must be 1 (primary), 2 (secondary) or 3 (tertiary)' })
  .int('must be 1 (primary), 2 (secondary) or 3 (tertiary)')
  .min(1, 'must be 1 (primary), 2 (secondary) or 3 (tertiary)')
  .max(3, 'must be 1 (primary), 2 (secondary) or 3 (tertiary)');
const MEMBER_ID_MAX = 40;
/**
 * A member id, or a blank: a form whose role sees the stored id masked leaves it blank to keep it, since a
 * masked id cannot be sent back.
 */
export const memberIdOrBlankSchema = z
  .string({ error: 'is required' })
  .trim()
  .max(MEMBER_ID_MAX, `must be at most ${MEMBER_ID_MAX} characters`)
  // '*' so that a blank is only 'is required'.
  .regex(/^[A-Za-z0-9-]*$/, 'must be letters, digits and dashes');
const memberIdSchema = memberIdOrBlankSchema.min(1, 'is required');
const groupNumberSchema = z.string().trim().max(30, 'must be at most 30 characters').nullable().transform(blankAsNull);
const relationshipSchema = z.enum(SUBSCRIBER_RELATIONSHIPS, {
  error: `must be one of ${SUBSCRIBER_RELATIONSHIPS.join(', ')}`,
});
const subscriberNameSchema = z
  .string()
  .trim()
  .max(120, 'must be at most 120 characters')
  .nullable()
  .transform(blankAsNull);
const optionalDateSchema = z
  .string({ error: 'must be a date as YYYY-MM-DD' })
  .nullable()
  .transform(blankAsNull)
  .pipe(isoDateSchema.nullable());
const medicareSecondaryTypeSchema = z
  .enum(MEDICARE_SECONDARY_TYPES, {
    error: `must be one of the Medicare secondary payer codes ${MEDICARE_SECONDARY_TYPES.join(', ')}`,
  })
  .or(z.literal(''))
  .nullable()
  .transform((v) => (v === '' ? null : v));
const effectiveOnSchema = z
  .string({ error: 'is required' })
  .refine((v) => v !== '', 'is required')
  .pipe(isoDateSchema);

/** The fields of a coverage as a form or the API sends them, each checked on its own. */
export const coverageFieldsSchema = z.object({
  /** One of the practice's active payers (Settings → Payers): checked by the server. */
  payer: payerNameSchema,
  priority: prioritySchema,
  memberId: memberIdSchema,
  groupNumber: groupNumberSchema,
  relationship: relationshipSchema,
  subscriberName: subscriberNameSchema,
  subscriberDob: optionalDateSchema,
  effectiveOn: effectiveOnSchema,
  /** The last day the policy pays for; null while it is in force. */
  endOn: optionalDateSchema,
  /** Only on a Medicare policy that is not primary (checked by the server, which knows the payer's kind). */
  medicareSecondaryType: medicareSecondaryTypeSchema,
});

/** What the rules across fields need of a coverage. */
export interface CoverageRuleInput {
  relationship?: SubscriberRelationship | undefined;
  subscriberName?: string | null | undefined;
  subscriberDob?: string | null | undefined;
  effectiveOn?: string | undefined;
  endOn?: string | null | undefined;
}

/**
 * The rules across fields, as field errors: a dependent's policy names its holder (the 837P's subscriber
 * loop 2010BA needs their name and birth date), and a policy ends on or after the day it starts. The server
 * applies them again to a stored coverage with a patch laid over it.
 */
export function coverageProblems(c: CoverageRuleInput): { field: keyof CoverageRuleInput; message: string }[] {
  const problems: { field: keyof CoverageRuleInput; message: string }[] = [];
  if (c.relationship !== undefined && c.relationship !== 'self') {
    if (!c.subscriberName) {
      problems.push({ field: 'subscriberName', message: 'is required when the patient is not the subscriber' });
    }
    if (!c.subscriberDob) {
      problems.push({ field: 'subscriberDob', message: 'is required when the patient is not the subscriber' });
    }
  }
  if (c.effectiveOn && c.endOn && c.endOn < c.effectiveOn) {
    problems.push({ field: 'endOn', message: 'cannot be before the effective date' });
  }
  return problems;
}

function addProblems(value: CoverageRuleInput, ctx: z.RefinementCtx) {
  for (const { field, message } of coverageProblems(value)) ctx.addIssue({ code: 'custom', path: [field], message });
}

/** `POST /api/patients/:id/coverages`: a new policy of the patient. */
export const newCoverageSchema = coverageFieldsSchema
  .extend({
    groupNumber: groupNumberSchema.optional().transform((v) => v ?? null),
    subscriberName: subscriberNameSchema.optional().transform((v) => v ?? null),
    subscriberDob: optionalDateSchema.optional().transform((v) => v ?? null),
    endOn: optionalDateSchema.optional().transform((v) => v ?? null),
    medicareSecondaryType: medicareSecondaryTypeSchema.optional().transform((v) => v ?? null),
  })
  .strict()
  .superRefine(addProblems);
export type NewCoverageInput = z.input<typeof newCoverageSchema>;
export type NewCoverage = z.output<typeof newCoverageSchema>;

/**
 * `PATCH /api/coverages/:id`: the fields that change. Ending a policy is a patch of endOn; null clears a
 * group number, a subscriber or an end date.
 */
export const coveragePatchSchema = coverageFieldsSchema
  .partial()
  .strict()
  .superRefine((patch, ctx) => {
    if (Object.keys(patch).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['endOn'], message: 'must change at least one field' });
    }
    // A patch naming both ends of the policy can be checked here; the rest once it meets the stored coverage.
    if (patch.effectiveOn && patch.endOn && patch.endOn < patch.effectiveOn) {
      ctx.addIssue({ code: 'custom', path: ['endOn'], message: 'cannot be before the effective date' });
    }
  });
export type CoveragePatchInput = z.input<typeof coveragePatchSchema>;
export type CoveragePatch = z.output<typeof coveragePatchSchema>;
