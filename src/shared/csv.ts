/**
 * CSV cell neutralisation (OWASP CSV injection): a spreadsheet treats a cell that starts with
 * = + - @, a tab or a carriage return as a formula. Prefixing a single quote makes it plain text.
 * Every CSV the product produces (browser exports and any server export) passes its cells through this.
 *
 * Choices (docs: OWASP "CSV Injection"):
 * - A cell whose first non-blank character is one of = + - @ is neutralised too (' =1+1', '\n@SUM(…)'):
 *   importers that trim leading whitespace (Google Sheets' default, LibreOffice "trim spaces") would
 *   otherwise see a formula.
 * - Negative numbers are neutralised like any other cell starting with '-' ('-12.50' becomes "'-12.50"):
 *   OWASP names '-' without exception, and '-1+cmd|…' is a classic payload. A spreadsheet shows the
 *   value as text; the exported files are for reading, not for summing.
 */
const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@])/;

/** Whether a cell's text would be read as a formula by a spreadsheet. */
export function startsLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

export function neutraliseCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return startsLikeFormula(text) ? `'${text}` : text;
}

/** Whether a cell is the output of `neutraliseCell` for a formula-like value (the CSV writer quotes those). */
export function isNeutralisedCell(cell: string): boolean {
  return cell.startsWith("'") && startsLikeFormula(cell.slice(1));
}

/** A CSV file name part made safe for any file system (dates and plain words pass unchanged). */
export function safeFileNamePart(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_');
}
