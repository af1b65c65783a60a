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
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const mfaRequestSchema = z.object({
  challengeId: z.string().min(1, 'is required').max(200),
  code: z.string().regex(/^\d{6}$/, 'must be 6 digits'),
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
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

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
