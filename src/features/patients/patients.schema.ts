import { z } from 'zod';
import { isoDateSchema } from '@/shared/api';

/** A patient as the API returns it; PHI fields arrive already masked for the caller's role. */
export const patientSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  mrn: z.string(),
  dob: z.string(),
  phone: z.string(),
  allergies: z.array(z.string()),
  meds: z.array(z.string()),
  notes: z.string(),
  nextVisit: z.string(),
});
export type Patient = z.infer<typeof patientSchema>;

export const newPatientSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(200),
  dob: isoDateSchema,
  phone: z.string().trim().min(1, 'is required').max(40),
  mrn: z.string().trim().min(1, 'is required').max(40),
  allergies: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
  meds: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
  notes: z.string().max(5000).default(''),
});
export type NewPatient = z.infer<typeof newPatientSchema>;
