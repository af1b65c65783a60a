/**
 * CSV cell neutralisation (OWASP CSV injection): a spreadsheet treats a cell that starts with
 * = + - @, a tab or a carriage return as a formula. Prefixing a single quote makes it plain text.
 * Every CSV the product produces (browser exports and any server export) passes its cells through this.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A CSV file name part made safe for any file system (dates and plain words pass unchanged). */
export function safeFileNamePart(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_');
}
