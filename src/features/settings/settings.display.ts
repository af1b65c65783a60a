/**
 * The display settings the shell applies on every screen, kept apart from settings.schema.ts so
 * that the first download (sign-in screen and shell) carries no zod: the schemas come with the screens.
 */
export const FONT_SIZES = ['small', 'medium', 'large'] as const;
export type FontSize = (typeof FONT_SIZES)[number];
/** Small 14px, medium 16px, large 18px. */
export const FONT_SIZE_PX: Record<FontSize, number> = { small: 14, medium: 16, large: 18 };

export interface DisplaySettings {
  highContrast: boolean;
  fontSize: FontSize;
}
export const DEFAULT_DISPLAY_SETTINGS: DisplaySettings = { highContrast: false, fontSize: 'medium' };
