import { z } from 'zod';
import { isTimeZone } from '@/shared/practice-zone';

/** `PUT /api/settings/practice/time-zone`: the zone the practice's calendar day is kept in. */
export const practiceTimeZoneUpdateSchema = z
  .object({
    timeZone: z
      .string({ error: 'is required' })
      .max(64)
      .refine(isTimeZone, 'must be a time zone name such as America/Los_Angeles'),
  })
  .strict();
export type PracticeTimeZoneUpdate = z.infer<typeof practiceTimeZoneUpdateSchema>;

export const practiceTimeZoneSchema = z.object({
  timeZone: z.string(),
  /** Chosen in Settings (false: the server's own zone, the default). */
  chosen: z.boolean(),
  /** The practice's calendar day now, for the screen to show what the choice means. */
  today: z.string(),
});
export type PracticeTimeZone = z.infer<typeof practiceTimeZoneSchema>;
