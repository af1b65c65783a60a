import { z } from 'zod';
import { DEFAULT_DISPLAY_SETTINGS, FONT_SIZES } from './settings.display';

export const fontSizeSchema = z.enum(FONT_SIZES);

export const userSettingsSchema = z.object({
  id: z.number().int(),
  highContrast: z.boolean(),
  fontSize: fontSizeSchema,
  mfaEnabled: z.boolean(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

export const userSettingsPatchSchema = z
  .object({ highContrast: z.boolean(), fontSize: fontSizeSchema, mfaEnabled: z.boolean() })
  .partial()
  .strict()
  // An empty patch has nothing to save (and an upsert with nothing to set is not valid SQL).
  .refine((patch) => Object.keys(patch).length > 0, 'must change at least one setting');
export type UserSettingsPatch = z.infer<typeof userSettingsPatchSchema>;

export const DEFAULT_USER_SETTINGS: Omit<UserSettings, 'id'> = { ...DEFAULT_DISPLAY_SETTINGS, mfaEnabled: false };

// ---------------------------------------------------------------------------------------------
// Notifications. Staff who may change practice settings edit the practice's notification
// settings; a patient or guest (who sees the tab too) edits their own preferences, kept with their user.

export const EMAIL_REMINDER_HOURS = [24, 48, 168] as const;
export const SMS_REMINDER_HOURS = [1, 2, 24] as const;

function oneOfHours(choices: readonly number[]) {
  return z
    .number({ error: 'is required' })
    .int()
    .refine((v) => choices.includes(v), `must be one of ${choices.join(', ')} hours`);
}

export const notificationSettingsSchema = z
  .object({
    email: z.boolean(),
    sms: z.boolean(),
    push: z.boolean(),
    emailReminderHours: oneOfHours(EMAIL_REMINDER_HOURS),
    smsReminderHours: oneOfHours(SMS_REMINDER_HOURS),
  })
  .strict();
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** Email on, SMS on, push off; email reminders 24 h before, SMS 1 h before. */
export const DEFAULT_NOTIFICATIONS: NotificationSettings = {
  email: true,
  sms: true,
  push: false,
  emailReminderHours: 24,
  smsReminderHours: 1,
};

export const NOTIFICATION_SCOPES = ['practice', 'personal'] as const;
export const notificationsResponseSchema = z.object({
  /** Whose settings these are: the practice's (staff) or the caller's own (patient, guest). */
  scope: z.enum(NOTIFICATION_SCOPES),
  settings: notificationSettingsSchema,
});
export type NotificationsResponse = z.infer<typeof notificationsResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Integrations: per practice, each Connected or Disconnected.

export const INTEGRATIONS = [
  { key: 'paymentGateway', name: 'Payment Gateway', description: 'Card and ACH payments for patient balances' },
  { key: 'accounting', name: 'Accounting', description: 'Posts payments and adjustments to the ledger' },
  { key: 'sms', name: 'SMS', description: 'Text message reminders to patients' },
  { key: 'calendar', name: 'Calendar', description: "Syncs appointments with providers' calendars" },
  { key: 'chat', name: 'Chat', description: 'Secure messaging between staff' },
  { key: 'crm', name: 'CRM', description: 'Patient relationship and outreach campaigns' },
] as const;
export type IntegrationKey = (typeof INTEGRATIONS)[number]['key'];
export const INTEGRATION_KEYS = INTEGRATIONS.map((i) => i.key) as [IntegrationKey, ...IntegrationKey[]];
export const integrationKeySchema = z.enum(INTEGRATION_KEYS);

export const integrationsSchema = z.object(
  Object.fromEntries(INTEGRATION_KEYS.map((k) => [k, z.boolean()])) as Record<IntegrationKey, z.ZodBoolean>,
);
export type Integrations = Record<IntegrationKey, boolean>;

/** Payment gateway, accounting and chat start connected; the others disconnected. */
export const DEFAULT_INTEGRATIONS: Integrations = {
  paymentGateway: true,
  accounting: true,
  sms: false,
  calendar: false,
  chat: true,
  crm: false,
};

export const integrationParamsSchema = z.object({ key: integrationKeySchema });
export const integrationUpdateSchema = z.object({ connected: z.boolean({ error: 'must be true or false' }) }).strict();
export type IntegrationUpdate = z.infer<typeof integrationUpdateSchema>;

export function integrationName(key: IntegrationKey): string {
  return INTEGRATIONS.find((i) => i.key === key)?.name ?? key;
}
