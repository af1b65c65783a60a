import Papa from 'papaparse';
import { isNeutralisedCell, neutraliseCell } from '@/shared/csv';

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

/**
 * Builds an RFC 4180 CSV text from rows; every cell is neutralised against formula injection, and a
 * neutralised cell is always quoted as OWASP advises (other cells are quoted when they need it).
 */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  return Papa.unparse(
    {
      fields: columns.map((c) => c.header),
      data: rows.map((row) => columns.map((c) => neutraliseCell(c.value(row)))),
    },
    { quotes: (value: unknown) => typeof value === 'string' && isNeutralisedCell(value) },
  );
}

/** Starts a browser download of a CSV text (exports are generated in the browser). */
export function downloadCsv(fileName: string, csv: string): void {
  const blob = new Blob([csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled, so the download has started.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
