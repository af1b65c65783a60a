import { z } from 'zod';
import { ROLES, type Role } from '@/shared/access';
import { roleSchema } from '@/shared/api';

/** The Users tab (admin): real user management, not a static list. */
export const USER_STATUSES = ['Active', 'Deactivated'] as const;

export const managedUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  status: z.enum(USER_STATUSES),
  /** ISO timestamp. */
  createdAt: z.string(),
  /** Has an authenticator app set up (outside demo mode every sign-in needs one). */
  mfaEnrolled: z.boolean(),
});
export type ManagedUser = z.infer<typeof managedUserSchema>;
export const userListSchema = z.object({ items: z.array(managedUserSchema) });

/**
 * A patient account belongs to a patient record, so it is created from the record (Create Patient Account
 * on the guest landing), not here: the roles an admin may give are the staff roles and guest.
 */
export const ASSIGNABLE_ROLES = ROLES.filter((r): r is Exclude<Role, 'patient'> => r !== 'patient');
const assignableRoleSchema = roleSchema.refine(
  (role) => role !== 'patient',
  'cannot be patient: patient accounts are created from a patient record (Create Patient Account)',
);

export const newUserSchema = z
  .object({
    name: z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
    email: z
      .string()
      .trim()
      .min(1, 'is required')
      .max(254, 'must be at most 254 characters')
      .email('must be an email address'),
    role: assignableRoleSchema,
  })
  .strict();
export type NewUser = z.infer<typeof newUserSchema>;

export const createdUserSchema = z.object({
  user: managedUserSchema,
  /** Shown once to the admin who created the account; only its hash is stored. */
  temporaryPassword: z.string(),
});
export type CreatedUser = z.infer<typeof createdUserSchema>;

export const userPatchSchema = z
  .object({ role: assignableRoleSchema, active: z.boolean() })
  .partial()
  .strict()
  .refine((patch) => patch.role !== undefined || patch.active !== undefined, {
    message: 'must change the role or the status',
    path: ['role'],
  });
export type UserPatch = z.infer<typeof userPatchSchema>;

/** Staff link a patient account to a patient record by the record's MRN (Users tab). */
export const patientLinkSchema = z
  .object({
    mrn: z
      .string()
      .trim()
      .min(1, 'is required')
      .max(40, 'must be at most 40 characters')
      .regex(/^[A-Za-z0-9-]+$/, 'may contain only letters, digits and -'),
  })
  .strict();
export type PatientLink = z.infer<typeof patientLinkSchema>;
