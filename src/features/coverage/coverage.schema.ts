import { z } from 'zod';

/**
 * How the patient is related to the policy's subscriber, with the X12 individual relationship code an
 * 837P carries (SBR02 18 when the patient is the subscriber, PAT01 otherwise).
 */
export const SUBSCRIBER_RELATIONSHIPS = ['self', 'spouse', 'child', 'other'] as const;
export type SubscriberRelationship = (typeof SUBSCRIBER_RELATIONSHIPS)[number];
export const X12_RELATIONSHIP_CODES: Record<SubscriberRelationship, string> = {
  self: '18',
  spouse: '01',
  child: '19',
  other: 'G8',
};

/** Which payer pays first: 1 primary, 2 secondary, 3 tertiary (X12 SBR01 P, S, T). */
export const COVERAGE_PRIORITIES = [1, 2, 3] as const;

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
});
export type Coverage = z.infer<typeof coverageSchema>;
