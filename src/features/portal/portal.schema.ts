import { z } from 'zod';
import { appointmentSchema } from '@/features/appointments/appointments.schema';
import { claimStatusSchema } from '@/features/claims/claims.schema';

/** The portal shows the 5 most recent claims. */
export const PORTAL_CLAIM_LIMIT = 5;

/** One of the signed-in patient's visits (cancelled ones never reach the portal). */
export const portalAppointmentSchema = appointmentSchema.pick({
  id: true,
  provider: true,
  reason: true,
  date: true,
  time: true,
  status: true,
});
export type PortalAppointment = z.infer<typeof portalAppointmentSchema>;

/** One of the signed-in patient's claims; money in integer cents. */
export const portalClaimSchema = z.object({
  id: z.number().int(),
  serviceDate: z.string(),
  /** The procedure (CPT/HCPCS) code billed. */
  procedure: z.string(),
  provider: z.string(),
  billedCents: z.number().int(),
  /** Paid on the claim so far: by the payer and by the patient. */
  paidCents: z.number().int(),
  status: claimStatusSchema,
});
export type PortalClaim = z.infer<typeof portalClaimSchema>;
