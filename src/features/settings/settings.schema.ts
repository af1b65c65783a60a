import { z } from 'zod';

export const FONT_SIZES = ['small', 'medium', 'large'] as const;
export const fontSizeSchema = z.enum(FONT_SIZES);
export type FontSize = z.infer<typeof fontSizeSchema>;
/** SPEC 4: small 14px, medium 16px, large 18px. */
export const FONT_SIZE_PX: Record<FontSize, number> = { small: 14, medium: 16, large: 18 };

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
  .strict();
export type UserSettingsPatch = z.infer<typeof userSettingsPatchSchema>;

export const DEFAULT_USER_SETTINGS: Omit<UserSettings, 'id'> = {
  highContrast: false,
  fontSize: 'medium',
  mfaEnabled: false,
};
