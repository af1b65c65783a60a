import { z } from 'zod';
import { cursorPageShape, dobProblem, errorEnvelopeSchema, isoDateSchema, listQuerySchema } from '@/shared/api';
import { formatDate } from '@/shared/dates';

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
  /** Date of the next booked visit, or '' when none is scheduled. */
  nextVisit: z.string(),
});
export type Patient = z.infer<typeof patientSchema>;

export const PATIENT_SORT_KEYS = ['name', 'dob', 'mrn', 'nextVisit'] as const;
export const patientListQuerySchema = listQuerySchema(PATIENT_SORT_KEYS, 'name');
export type PatientListQuery = z.infer<typeof patientListQuerySchema>;
/** What the client sends: the list's keys with the sort chosen; the server fills in the rest. */
export type PatientListQueryInput = Pick<PatientListQuery, 'search' | 'sort' | 'dir' | 'limit' | 'cursor'>;

export const patientPageSchema = z.object({
  items: z.array(patientSchema),
  ...cursorPageShape,
  /** Whether the caller's role sees some PHI masked (the Patients screen's footer note). */
  masked: z.boolean(),
});
export type PatientPage = z.infer<typeof patientPageSchema>;

export const newPatientSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  // The format only: how far back or ahead depends on "today", which the server takes from its request
  // clock (dobProblem in patients.queries.ts) and a form from the browser (dobSchemaOn).
  dob: isoDateSchema,
  phone: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(40, 'must be at most 40 characters')
    .regex(/^[0-9()+\-.\s]+$/, 'may contain only digits, spaces and ( ) + - .')
    // Punctuation alone ('---') or a fragment is no number to call; 15 digits is the longest (E.164).
    .refine((phone) => {
      const digits = phone.replace(/\D/g, '').length;
      return digits >= 7 && digits <= 15;
    }, 'must have 7 to 15 digits'),
  mrn: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(40, 'must be at most 40 characters')
    .regex(/^[A-Za-z0-9-]+$/, 'may contain only letters, digits and -'),
  allergies: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
  meds: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
  notes: z.string().max(5000).default(''),
  /** Sent after the form showed the likely duplicates and the user chose to create the record anyway. */
  confirmDuplicate: z.boolean().default(false),
});
export type NewPatient = z.input<typeof newPatientSchema>;

/** A record already on file that a new one may duplicate (same name and date of birth, or same phone), masked. */
export const duplicatePatientSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  dob: z.string(),
  phone: z.string(),
  mrn: z.string(),
});
export type DuplicatePatient = z.infer<typeof duplicatePatientSchema>;

/** POST /api/patients 409: a taken MRN, or (code LIKELY_DUPLICATE) the records the new one may duplicate. */
export const createPatientConflictSchema = errorEnvelopeSchema.extend({
  duplicates: z.array(duplicatePatientSchema).optional(),
});
export type CreatePatientConflict = z.infer<typeof createPatientConflictSchema>;

/** A patient as the pickers list one: the name with date of birth and MRN (masked for the role) to tell namesakes apart. */
export const patientOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  dob: z.string(),
  mrn: z.string(),
});
export type PatientOption = z.infer<typeof patientOptionSchema>;

/** A picker's second line for a patient: 'DOB Mar 4, 1984 · MRN MRN-100001', each as the role may see it. */
export function patientOptionDetail(option: { dob: string; mrn: string }): string {
  // A masked date of birth ('XX-XX-1984') is shown as it came.
  return `DOB ${formatDate(option.dob)} · MRN ${option.mrn}`;
}

/** A date of birth as a form checks it on the day `today` (the server checks again on its own clock). */
export function dobSchemaOn(today: string) {
  return isoDateSchema.superRefine((dob, ctx) => {
    const problem = dobProblem(dob, today);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}
