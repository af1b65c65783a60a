import { z } from 'zod';
import { roleSchema, type Role } from '@/shared/access';

/** SPEC 2.3: one demo account per role; the password is the lowercase role name. */
export const DEMO_ACCOUNTS: readonly { role: Role; email: string; password: string }[] = (
  ['admin', 'doctor', 'nurse_manager', 'billing_admin', 'patient', 'guest'] as const
).map((role) => ({ role, email: `${role.replace('_', '.')}@healthcare.demo`, password: role }));

export const loginRequestSchema = z.object({
  email: z.string().trim().min(1, 'is required').max(254).email('must be an email address'),
  password: z.string().min(1, 'is required').max(1024),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({
  challengeId: z.string(),
  /** Present only in demo mode: the one-time code, shown on screen as SPEC 2.3 describes. */
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
