/** Kept apart from search.schema.ts so that the shell's search box brings no zod into the first download. */
export const SEARCH_MIN_LENGTH = 2;
