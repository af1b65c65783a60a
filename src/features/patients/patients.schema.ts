import { z } from 'zod';
import { cursorPageShape, dobProblem, errorEnvelopeSchema, isoDateSchema, listQuerySchema } from '@/shared/api';
import { isUsStateCode } from '@/shared/billing-identifiers';
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

/** Administrative sex as payers take it (X12 837P DMG03): female, male or unknown. */
export const PATIENT_SEXES = ['F', 'M', 'U'] as const;
export type PatientSex = (typeof PATIENT_SEXES)[number];
export const SEX_LABELS: Record<PatientSex, string> = { F: 'Female', M: 'Male', U: 'Unknown' };

/**
 * `GET /api/patients/:id/billing-details`: what a claim to a payer says of the patient beyond name and birth
 * date: sex (DMG03) and home address (loop 2010BA/2010CA N3/N4). Null address parts are not known yet. The
 * street and ZIP arrive masked to a role that does not register insurance (docs/access.md).
 */
export const patientBillingDetailsSchema = z.object({
  patientId: z.number().int(),
  sex: z.enum(PATIENT_SEXES),
  addressLine1: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  /** Street, city, state and ZIP are all on file: a claim to a payer can carry them. */
  addressComplete: z.boolean(),
});
export type PatientBillingDetails = z.infer<typeof patientBillingDetailsSchema>;

export const ADDRESS_FIELDS = ['addressLine1', 'city', 'state', 'zip'] as const;

/** Optional text: blank is "not known" (null); the rest is trimmed and held to X12's element lengths. */
function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullable()
    .default(null)
    .transform((v) => (v === null || v === '' ? null : v));
}

/**
 * `PUT /api/patients/:id/billing-details`, the form and the server alike. The address is all or nothing: a
 * claim needs every part (an N3 without its N4 is refused), so a part left out beside others is an error on
 * that part. Lengths are X12's: N301 up to 55 characters, N401 2 to 30. The ZIP may be typed with its dash
 * and is stored as digits, as N403 carries it.
 */
export const patientBillingDetailsUpdateSchema = z
  .object({
    sex: z.enum(PATIENT_SEXES, { error: 'must be F (female), M (male) or U (unknown)' }),
    addressLine1: optionalText(55),
    city: optionalText(30).refine((v) => v === null || v.length >= 2, 'must be at least 2 characters'),
    state: optionalText(30)
      .transform((v) => v?.toUpperCase() ?? null)
      .refine(
        (v) => v === null || isUsStateCode(v),
        'must be the 2-letter code of a US state or territory, such as IL',
      ),
    zip: optionalText(10)
      .refine((v) => v === null || /^\d{5}(-?\d{4})?$/.test(v), 'must be a ZIP code: 5 digits or ZIP+4 (62701-1234)')
      .transform((v) => v?.replace('-', '') ?? null),
  })
  .strict()
  .superRefine((details, ctx) => {
    const given = ADDRESS_FIELDS.filter((f) => details[f] !== null);
    if (given.length === 0 || given.length === ADDRESS_FIELDS.length) return;
    for (const field of ADDRESS_FIELDS) {
      if (details[field] === null) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'is required with the rest of the address' });
      }
    }
  });
export type PatientBillingDetailsInput = z.input<typeof patientBillingDetailsUpdateSchema>;
export type PatientBillingDetailsUpdate = z.output<typeof patientBillingDetailsUpdateSchema>;
