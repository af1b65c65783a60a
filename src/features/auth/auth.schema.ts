import { z } from 'zod';
import { roleSchema } from '@/shared/api';
import { newPatientSchema } from '@/features/patients/patients.schema';

export const loginRequestSchema = z.object({
  email: z.string().trim().min(1, 'is required').max(254).email('must be an email address'),
  password: z.string().min(1, 'is required').max(1024),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({
  challengeId: z.string(),
  /** Present only in demo mode: the one-time code, shown on the sign-in screen. */
  demoCode: z.string().optional(),
  expiresAt: z.string(),
  /** No authenticator yet (demo mode off): the next step is enrolment, not a code. */
  enrolmentRequired: z.boolean().optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

const totpCodeSchema = z.string().regex(/^\d{6}$/, 'must be 6 digits');

export const mfaRequestSchema = z
  .object({
    challengeId: z.string().min(1, 'is required').max(200),
    code: totpCodeSchema.optional(),
    /** Instead of the code: a recovery code given at enrolment (case, spaces and dashes ignored). */
    recoveryCode: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{10,20}[A-Za-z0-9]$/, 'must be a recovery code like ABCD-EFGH-JKMN')
      .optional(),
  })
  .refine((v) => (v.code === undefined) !== (v.recoveryCode === undefined), {
    message: 'is required (or a recoveryCode instead, not both)',
    path: ['code'],
  });
export type MfaRequest = z.infer<typeof mfaRequestSchema>;

export const sessionUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  patientId: z.number().int().nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionResponseSchema = z.object({
  user: sessionUserSchema.nullable(),
  mfa: z.boolean(),
  csrfToken: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** Signed in with a temporary password: a new one must be set before anything else. */
  passwordChangeRequired: z.boolean().optional(),
  /** The practice's time zone: the browser keeps its "today" in it too (shared/practice-zone.ts). */
  timeZone: z.string().optional(),
  /** The server's clock when it answered: the browser reads "now" from it (shared/practice-zone.ts). */
  serverTime: z.string().optional(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** TOTP enrolment at first sign-in, on the attempt whose password was right. */
export const enrolmentStartRequestSchema = z.object({ challengeId: z.string().min(1, 'is required').max(200) });
export const enrolmentStartResponseSchema = z.object({
  /** Base32, for typing into the app by hand; shown this once. */
  secret: z.string(),
  otpauthUri: z.string(),
  /** The otpauth URI as a QR code (SVG markup). */
  qrSvg: z.string(),
});
export type EnrolmentStart = z.infer<typeof enrolmentStartResponseSchema>;
export const enrolmentConfirmRequestSchema = z.object({
  challengeId: z.string().min(1, 'is required').max(200),
  code: totpCodeSchema,
});
export type EnrolmentConfirmRequest = z.infer<typeof enrolmentConfirmRequestSchema>;
export const enrolmentConfirmResponseSchema = sessionResponseSchema.extend({
  /** Shown once; each works once in place of a code. Only their hashes are stored. */
  recoveryCodes: z.array(z.string()),
});
export type EnrolmentConfirmResponse = z.infer<typeof enrolmentConfirmResponseSchema>;

/** A password policy of at least 12 characters. */
export const MIN_PASSWORD_LENGTH = 12;

/** POST /api/auth/register: a guest creates a patient account (a patient record and its user). */
export const registrationSchema = newPatientSchema.pick({ name: true, dob: true, phone: true }).extend({
  email: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(254, 'must be at most 254 characters')
    .email('must be an email address'),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(1024, 'must be at most 1024 characters'),
});
export type Registration = z.infer<typeof registrationSchema>;

export const registrationResponseSchema = z.object({ email: z.string() });

/** Changing one's own password (Security tab): at least MIN_PASSWORD_LENGTH characters, not the current one. */
export const passwordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, 'is required').max(1024, 'must be at most 1024 characters'),
    newPassword: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(1024, 'must be at most 1024 characters'),
  })
  .strict()
  .refine((v) => v.newPassword !== v.currentPassword, {
    message: 'must differ from the current password',
    path: ['newPassword'],
  });
export type PasswordChange = z.infer<typeof passwordChangeSchema>;
export const passwordChangeResponseSchema = z.object({
  /** How many other sessions of the account were signed out. */
  endedSessions: z.number().int(),
});
