import { z } from 'zod';
import { isoDateSchema } from '@/shared/api';
import { formatDate } from '@/shared/dates';

/**
 * Eligibility and benefits as stored with a coverage (ASC X12 005010X279A1, docs/x12-eligibility.md "In the
 * product"): a check is one policy asked about for one day of service in a 270, answered by a 271.
 */
export const ELIGIBILITY_STATUSES = ['Awaiting', 'Active', 'Inactive', 'Rejected'] as const;
export type EligibilityStatus = (typeof ELIGIBILITY_STATUSES)[number];

/** Why a 270 was written: a person asked for it, or the evening batch asked about the next working day's visits. */
export const ELIGIBILITY_REASONS = ['manual', 'evening'] as const;
export type EligibilityReason = (typeof ELIGIBILITY_REASONS)[number];

/** EB12: in the plan's network, out of it, either (W: not applicable) or not said. */
export const NETWORKS = ['in', 'out', 'both', 'unknown'] as const;
export type Network = (typeof NETWORKS)[number];

const shareBase = {
  serviceTypes: z.array(z.string()),
  coverageLevel: z.string().nullable(),
  network: z.enum(NETWORKS),
  /** EB06 in words (per visit, calendar year…), null when not given. */
  period: z.string().nullable(),
};

const accumulatorSchema = z.object({
  serviceTypes: z.array(z.string()),
  coverageLevel: z.string().nullable(),
  network: z.enum(NETWORKS),
  lifetime: z.boolean(),
  totalCents: z.number().int().nullable(),
  /** EB06 of the total in words, null when not given. */
  period: z.string().nullable(),
  remainingCents: z.number().int().nullable(),
  metCents: z.number().int().nullable(),
});
export type EligibilityAccumulator = z.infer<typeof accumulatorSchema>;

/** What the front desk reads of one 271 answer: kept as jsonb on the check. */
export const eligibilitySummarySchema = z.object({
  /** The member id as the payer has it (NM109 MI), null when the payer gave none. */
  memberId: z.string().nullable(),
  planName: z.string().nullable(),
  insuranceType: z.string().nullable(),
  groupNumber: z.string().nullable(),
  coverageBegin: z.string().nullable(),
  coverageEnd: z.string().nullable(),
  copays: z.array(z.object({ ...shareBase, amountCents: z.number().int() })),
  /** A fraction from 0 to 1, as X12 sends it (.2 is 20%). */
  coinsurance: z.array(z.object({ ...shareBase, percent: z.number() })),
  deductibles: z.array(accumulatorSchema),
  outOfPocket: z.array(accumulatorSchema),
  /** MSG01 texts of every benefit, in order, without repeats. */
  messages: z.array(z.string()),
  /** Each AAA in plain words. */
  rejections: z.array(
    z.object({ code: z.string(), reason: z.string(), followUp: z.string().nullable(), loop: z.string() }),
  ),
});
export type EligibilitySummary = z.infer<typeof eligibilitySummarySchema>;

export const eligibilityCheckSchema = z.object({
  id: z.number().int(),
  coverageId: z.number().int(),
  inquiryId: z.number().int(),
  serviceDate: z.string(),
  traceNumber: z.string(),
  status: z.enum(ELIGIBILITY_STATUSES),
  /** When the 270 was written (the inquiry's creation). */
  requestedAt: z.string(),
  answeredAt: z.string().nullable(),
  summary: eligibilitySummarySchema.nullable(),
  responseId: z.number().int().nullable(),
});
export type EligibilityCheck = z.infer<typeof eligibilityCheckSchema>;

/** `GET /api/coverages/:id/eligibility`: the latest check and the earlier ones, newest first. */
export const coverageEligibilitySchema = z.object({
  coverageId: z.number().int(),
  latest: eligibilityCheckSchema.nullable(),
  history: z.array(eligibilityCheckSchema),
});
export type CoverageEligibility = z.infer<typeof coverageEligibilitySchema>;

const serviceTypeCodeSchema = z
  .string()
  .regex(/^[A-Z0-9]{1,2}$/, 'must be an X12 service type code: 1–2 capital letters or digits');

/** `POST /api/coverages/:id/eligibility`: the day asked about (default the practice's today) and more service types. */
export const newEligibilityCheckSchema = z
  .object({
    serviceDate: isoDateSchema.optional(),
    /** Asked besides 30 (health benefit plan coverage), which every 270 asks. */
    serviceTypes: z.array(serviceTypeCodeSchema).max(20, 'must list at most 20 service types').optional(),
  })
  .strict();
export type NewEligibilityCheck = z.infer<typeof newEligibilityCheckSchema>;

export const requestedEligibilitySchema = z.object({
  inquiryId: z.number().int(),
  checks: z.array(eligibilityCheckSchema),
});
export type RequestedEligibility = z.infer<typeof requestedEligibilitySchema>;

/** `POST /api/eligibility/responses`: what a 271 file answered. */
export const postedEligibilityResponseSchema = z.object({
  responseId: z.number().int(),
  answered: z.number().int(),
  summary: z.string(),
});
export type PostedEligibilityResponse = z.infer<typeof postedEligibilityResponseSchema>;

/** `POST /api/appointments/eligibility/next-day`: the evening batch's result. */
export const nextDayEligibilitySchema = z.object({
  inquiryId: z.number().int().nullable(),
  appointments: z.number().int(),
  coverages: z.number().int(),
  serviceDate: z.string(),
});
export type NextDayEligibility = z.infer<typeof nextDayEligibilitySchema>;

/** What a list row carries of a coverage's eligibility for a day (appointments, the claim form). */
export const eligibilityBriefSchema = z.object({
  /** The policy the brief is of (the one a check from the schedule or the claim asks about); null: none in force. */
  coverageId: z.number().int().nullable(),
  state: z.enum(['active', 'inactive', 'rejected', 'awaiting', 'unknown']),
  checkedAt: z.string().nullable(),
  detail: z.string().nullable(),
});
export type EligibilityBrief = z.infer<typeof eligibilityBriefSchema>;

export type EligibilityState = 'active' | 'inactive' | 'rejected' | 'unknown';

/**
 * AAA03 codes by which the payer says it does not know the patient under the policy asked about (the subscriber,
 * the patient or the member id not found, or not in the group): a claim to it would be denied like one for an
 * inactive policy. Other rejections (the payer's system down, a provider problem) say nothing of the policy.
 */
export const NOT_FOUND_REJECTIONS: ReadonlySet<string> = new Set(['67', '72', '75', '77', '78']);

/** Whether a Rejected answer is one of NOT_FOUND_REJECTIONS. */
export function rejectedAsNotFound(summary: EligibilitySummary | null): boolean {
  return (summary?.rejections ?? []).some((r) => NOT_FOUND_REJECTIONS.has(r.code));
}

/** The rejection in words: the first AAA's reason and what to do. */
export function rejectionText(summary: EligibilitySummary | null): string | null {
  const first = summary?.rejections[0];
  if (!first) return null;
  return first.followUp ? `${first.reason} (${first.followUp})` : first.reason;
}

/**
 * What an answered check says of one day of service: an Active answer whose plan dates leave the day out counts
 * as inactive (the payer answers for the day asked, but gives the plan's dates too); an Awaiting check says nothing.
 */
export function eligibilityStateOf(
  check: { status: EligibilityStatus; summary: EligibilitySummary | null } | null,
  serviceDate: string,
): { state: EligibilityState; detail: string | null } {
  if (!check || check.status === 'Awaiting') return { state: 'unknown', detail: null };
  if (check.status === 'Rejected') return { state: 'rejected', detail: rejectionText(check.summary) };
  if (check.status === 'Inactive') return { state: 'inactive', detail: 'The payer says the policy is not active' };
  const begin = check.summary?.coverageBegin ?? null;
  const end = check.summary?.coverageEnd ?? null;
  if (begin !== null && serviceDate < begin) {
    return { state: 'inactive', detail: `The plan starts on ${formatDate(begin)}, after the day of service` };
  }
  if (end !== null && serviceDate > end) {
    return { state: 'inactive', detail: `The plan ended on ${formatDate(end)}, before the day of service` };
  }
  return { state: 'active', detail: check.summary?.planName ?? null };
}

/** How staff name a check's status. */
export function eligibilityStatusLabel(status: EligibilityStatus | null): string {
  if (status === null) return 'Not checked';
  return status === 'Awaiting' ? 'Awaiting answer' : status;
}

/** How staff name what a check says of a day (the schedule, the claim view). */
export const ELIGIBILITY_STATE_LABELS: Record<EligibilityBrief['state'], string> = {
  active: 'Active',
  inactive: 'Inactive',
  rejected: 'Rejected',
  awaiting: 'Awaiting answer',
  unknown: 'Not checked',
};

/** The largest 271 a hand upload takes (the route's body limit). */
export const ELIGIBILITY_RESPONSE_MAX_BYTES = 10 * 1024 * 1024;
