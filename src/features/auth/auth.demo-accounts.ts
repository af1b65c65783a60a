import type { Role } from '@/shared/access';

/**
 * One demo account per role; the password is the lowercase role name. Kept apart from
 * auth.schema.ts so that the sign-in screen, which lists them, brings no zod into the first download.
 */
export const DEMO_ACCOUNTS: readonly { role: Role; email: string; password: string }[] = (
  ['admin', 'doctor', 'nurse_manager', 'billing_admin', 'patient', 'guest'] as const
).map((role) => ({ role, email: `${role.replace('_', '.')}@healthcare.demo`, password: role }));
