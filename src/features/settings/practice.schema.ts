import { z } from 'zod';
import { timeSchema } from '@/shared/api';
import { formatTime12 } from '@/shared/dates';
import { TAXONOMY_PATTERN, isUsStateCode, isValidEin } from '@/shared/billing-identifiers';
import { npiValueSchema } from '@/shared/billing-identifiers.schema';

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The choices the Practice tab offers. */
export const APPOINTMENT_DURATIONS = [15, 30, 45, 60] as const;
export const BUFFER_CHOICES = [0, 5, 10, 15] as const;

export const practiceHoursSchema = z.object({
  appointmentMinutes: z.number().int(),
  bufferMinutes: z.number().int(),
  workdayStart: timeSchema,
  workdayEnd: timeSchema,
  workingDays: z.array(z.enum(WEEKDAYS)),
});
export type PracticeHours = z.infer<typeof practiceHoursSchema>;

function oneOfNumbers(choices: readonly number[], unit: string) {
  return z
    .number({ error: 'is required' })
    .int()
    .refine((v) => choices.includes(v), `must be one of ${choices.join(', ')} ${unit}`);
}

/** `PUT /api/settings/practice`: the Practice tab's form, checked the same way in the browser and on the server. */
export const practiceHoursUpdateSchema = z
  .object({
    appointmentMinutes: oneOfNumbers(APPOINTMENT_DURATIONS, 'minutes'),
    bufferMinutes: oneOfNumbers(BUFFER_CHOICES, 'minutes'),
    workdayStart: timeSchema,
    workdayEnd: timeSchema,
    workingDays: z
      .array(z.enum(WEEKDAYS))
      .min(1, 'must include at least one day')
      .refine((days) => new Set(days).size === days.length, 'must not list a day twice'),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.workdayStart >= value.workdayEnd) {
      ctx.addIssue({ code: 'custom', path: ['workdayEnd'], message: 'must be later than the opening time' });
    }
  });
export type PracticeHoursUpdate = z.infer<typeof practiceHoursUpdateSchema>;

/** The practice's defaults. */
export const DEFAULT_PRACTICE_HOURS: PracticeHours = {
  appointmentMinutes: 30,
  bufferMinutes: 10,
  workdayStart: '08:00',
  workdayEnd: '17:00',
  workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
};

/** The practice's name, address and phone, as printed at the top of a statement. */
export const practiceLetterheadSchema = z.object({ name: z.string(), address: z.string(), phone: z.string() });
export type PracticeLetterhead = z.infer<typeof practiceLetterheadSchema>;

/** The demo practice's letterhead (555-01xx is a number reserved for fiction). */
export const DEFAULT_PRACTICE_LETTERHEAD: PracticeLetterhead = {
  name: 'Riverside Family Practice',
  address: '1200 Main Street, Suite 200, Springfield, IL 62701',
  phone: '(217) 555-0142',
};

/** Days in week order, whatever order they were ticked in. */
export function sortWeekdays(days: readonly Weekday[]): Weekday[] {
  return WEEKDAYS.filter((d) => days.includes(d));
}

/** Why a slot is outside the practice's hours, or null when it fits. */
export function slotProblem(hours: PracticeHours, date: string, time: string): string | null {
  const weekday = WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7];
  if (!weekday || !hours.workingDays.includes(weekday)) {
    return `the practice is closed on ${weekday ?? 'that day'} (open ${hours.workingDays.join(', ')})`;
  }
  const toMinutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const start = toMinutes(time);
  if (start < toMinutes(hours.workdayStart) || start + hours.appointmentMinutes > toMinutes(hours.workdayEnd)) {
    return `must start between ${formatTime12(hours.workdayStart)} and ${formatTime12(hours.workdayEnd)} with ${hours.appointmentMinutes} minutes before closing`;
  }
  return null;
}

/**
 * The practice as the billing provider of its claims (X12 837P loop 2010AA), as stored: every field is null
 * until an admin enters it. The tax id and ZIP code are kept as digits only.
 */
export const billingIdentitySchema = z.object({
  billingName: z.string().nullable(),
  billingNpi: z.string().nullable(),
  taxId: z.string().nullable(),
  taxonomyCode: z.string().nullable(),
  billingAddressLine1: z.string().nullable(),
  billingCity: z.string().nullable(),
  billingState: z.string().nullable(),
  billingZip: z.string().nullable(),
});
export type BillingIdentity = z.infer<typeof billingIdentitySchema>;

/**
 * Trimmed text that must be entered. A blank stops at 'is required' (abort), so the rules after it do not
 * pile their own messages onto the same empty field.
 */
function required() {
  return z.string({ error: 'is required' }).trim().min(1, { error: 'is required', abort: true });
}

function requiredText(max: number) {
  return required().max(max, `must be at most ${max} characters`);
}

/**
 * `PUT /api/settings/practice/billing-identity`: the Billing identity card's form, checked the same way in
 * the browser and on the server. The tax id and ZIP code may be typed with their dash; they are stored as
 * digits only, as the X12 837P REF*EI and N4 segments carry them.
 */
export const billingIdentityUpdateSchema = z
  .object({
    billingName: requiredText(120),
    billingNpi: required().pipe(npiValueSchema),
    taxId: required()
      .regex(/^\d{2}-?\d{7}$/, {
        error: 'must be an EIN: 9 digits, written NN-NNNNNNN or without the dash',
        abort: true,
      })
      .refine(isValidEin, 'must be a valid EIN: its first 2 digits are not a prefix the IRS assigns')
      .transform((ein) => ein.replace('-', '')),
    taxonomyCode: required()
      .toUpperCase()
      .regex(TAXONOMY_PATTERN, 'must be a NUCC taxonomy code: 10 characters ending in X, such as 193200000X'),
    billingAddressLine1: requiredText(120),
    billingCity: requiredText(60),
    billingState: required()
      .toUpperCase()
      .refine(isUsStateCode, 'must be the 2-letter code of a US state or territory, such as IL'),
    billingZip: required()
      .regex(/^\d{5}(-?\d{4})?$/, 'must be a ZIP code: 5 digits or ZIP+4 (62701-1234)')
      .transform((zip) => zip.replace('-', '')),
  })
  .strict();
export type BillingIdentityUpdateInput = z.input<typeof billingIdentityUpdateSchema>;
export type BillingIdentityUpdate = z.output<typeof billingIdentityUpdateSchema>;

/**
 * The clearinghouse the practice sends its 837P files to (docs/x12-837.md), as stored: its name and id (loop 1000B,
 * ISA08, GS03), the submitter id it assigned the practice (null: the practice's EIN), and whether files are test
 * (T) or production (P) interchanges (ISA15).
 */
export const clearinghouseSchema = z.object({
  ediReceiverName: z.string().nullable(),
  ediReceiverId: z.string().nullable(),
  ediSubmitterId: z.string().nullable(),
  ediUsage: z.enum(['T', 'P']),
});
export type Clearinghouse = z.infer<typeof clearinghouseSchema>;

/** An X12 envelope id: 2 to 15 letters or digits (ISA06/ISA08 are 15 wide, GS02/GS03 2 to 15). */
const X12_ID = /^[A-Za-z0-9]{2,15}$/;

/** `PUT /api/settings/practice/clearinghouse`: the Clearinghouse card's form. */
export const clearinghouseUpdateSchema = z
  .object({
    ediReceiverName: requiredText(60),
    ediReceiverId: required().regex(X12_ID, 'must be 2 to 15 letters or digits, as the clearinghouse gives it'),
    ediSubmitterId: z
      .string({ error: 'must be text' })
      .trim()
      .refine((id) => id === '' || X12_ID.test(id), 'must be 2 to 15 letters or digits, or empty to send the EIN')
      .transform((id) => (id === '' ? null : id)),
    ediUsage: z.enum(['T', 'P'], { error: 'must be T (test files) or P (production)' }),
  })
  .strict();
export type ClearinghouseUpdateInput = z.input<typeof clearinghouseUpdateSchema>;
export type ClearinghouseUpdate = z.output<typeof clearinghouseUpdateSchema>;
