import Papa from 'papaparse';
import {
  CLAIM_EXPORT_ONLY_COLUMNS,
  CLAIM_IMPORT_COLUMNS,
  CLAIM_IMPORT_MAX_ROWS,
  DENIAL_DESCRIPTIONS,
  OPTIONAL_IMPORT_COLUMNS,
  claimImportRowSchema,
  type ClaimImportColumn,
  type ClaimImportRow,
  type ImportError,
} from '../claims.schema';
import type { claims } from './claims.table';

/** The file's first line is row 1 (the header); claim rows start at 2, as a spreadsheet numbers them. */
const FIRST_DATA_ROW = 2;

export interface ParsedRow {
  row: number;
  /** The row's cells, trimmed, by column. */
  raw: Record<ClaimImportColumn, string>;
  /** The checked row, or null when the schema refused a field. */
  value: ClaimImportRow | null;
  /** Fields the schema refused: the database checks skip them, so each field gets one problem. */
  badFields: ReadonlySet<string>;
}

export interface ParsedImport {
  rows: ParsedRow[];
  errors: ImportError[];
}

/**
 * Parses the CSV text and checks every row with the shared row schema. Header names are matched without
 * regard to case or surrounding spaces; unknown and missing columns are errors of row 1.
 */
export function parseClaimsCsv(csv: string): ParsedImport {
  const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header) => canonicalColumn(header) ?? header.trim(),
  });
  const errors: ImportError[] = [];
  const headers = parsed.meta.fields ?? [];
  for (const header of headers) {
    if (canonicalColumn(header) === null && !isExportOnlyColumn(header)) {
      errors.push({ row: 1, field: header || '(blank)', message: `is not a column of the template` });
    }
  }
  for (const column of CLAIM_IMPORT_COLUMNS) {
    if (!headers.includes(column) && !OPTIONAL_IMPORT_COLUMNS.includes(column)) {
      errors.push({ row: 1, field: column, message: 'column is missing' });
    }
  }
  if (errors.length > 0) return { rows: [], errors };
  if (parsed.data.length === 0) {
    return { rows: [], errors: [{ row: FIRST_DATA_ROW, field: 'csv', message: 'the file has no claim rows' }] };
  }
  if (parsed.data.length > CLAIM_IMPORT_MAX_ROWS) {
    return {
      rows: [],
      errors: [
        {
          row: FIRST_DATA_ROW + CLAIM_IMPORT_MAX_ROWS,
          field: 'csv',
          message: `a file may hold at most ${CLAIM_IMPORT_MAX_ROWS.toLocaleString('en-US')} claims`,
        },
      ],
    };
  }
  for (const problem of parsed.errors) {
    // Papa reports the data row index (0-based, header excluded).
    errors.push({ row: (problem.row ?? 0) + FIRST_DATA_ROW, field: 'csv', message: problem.message });
  }

  const rows: ParsedRow[] = [];
  parsed.data.forEach((record, index) => {
    const row = index + FIRST_DATA_ROW;
    const raw = Object.fromEntries(CLAIM_IMPORT_COLUMNS.map((c) => [c, (record[c] ?? '').trim()])) as Record<
      ClaimImportColumn,
      string
    >;
    const result = claimImportRowSchema.safeParse(raw);
    // One problem per field is enough to fix it (a malformed date would otherwise be reported twice).
    const badFields = new Set<string>();
    for (const issue of result.error?.issues ?? []) {
      const field = String(issue.path[0] ?? 'row');
      if (!badFields.has(field)) errors.push({ row, field, message: issue.message });
      badFields.add(field);
    }
    rows.push({ row, raw, value: result.success ? result.data : null, badFields });
  });
  return { rows, errors };
}

/** A column the export adds (claims.schema.ts): accepted and ignored, so an exported file imports as it is. */
function isExportOnlyColumn(header: string): boolean {
  const key = header.trim().toLowerCase();
  return CLAIM_EXPORT_ONLY_COLUMNS.some((c) => c.toLowerCase() === key);
}

function canonicalColumn(header: string): ClaimImportColumn | null {
  const key = header.trim().toLowerCase();
  return CLAIM_IMPORT_COLUMNS.find((c) => c.toLowerCase() === key) ?? null;
}

export interface ImportReferences {
  patientIdByMrn: Map<string, number>;
  /** Keys are lower-case provider names. */
  providerIdByName: Map<string, number>;
  takenAccounts: Set<string>;
}

/**
 * One answer for every reference the database does not accept (an unknown MRN or provider, an account number
 * already stored), with the row and field but neither the value nor the reason: a role that sees MRNs masked
 * must not learn from an import which MRNs or account numbers exist.
 */
export const UNKNOWN_REFERENCE = 'does not match a record this import can use';

/**
 * The checks that need the database's answers: the MRN and provider exist, the account number is new
 * (in the database and earlier in the file), the service date is not in the future. Returns the rows
 * ready to insert, or the problems.
 */
export function resolveImportRows(
  rows: readonly ParsedRow[],
  refs: ImportReferences,
  day: string,
): { values: (typeof claims.$inferInsert)[]; errors: ImportError[] } {
  const errors: ImportError[] = [];
  const values: (typeof claims.$inferInsert)[] = [];
  const firstRowOfAccount = new Map<string, number>();
  for (const { row, raw, value, badFields } of rows) {
    const problems: ImportError[] = [];
    const checks = (field: ClaimImportColumn) => !badFields.has(field) && raw[field] !== '';
    const patientId = refs.patientIdByMrn.get(raw.patientMrn);
    if (checks('patientMrn') && patientId === undefined) {
      problems.push({ row, field: 'patientMrn', message: UNKNOWN_REFERENCE });
    }
    const providerId = refs.providerIdByName.get(raw.provider.toLowerCase());
    if (checks('provider') && providerId === undefined) {
      problems.push({ row, field: 'provider', message: UNKNOWN_REFERENCE });
    }
    if (checks('accountNumber')) {
      const earlier = firstRowOfAccount.get(raw.accountNumber);
      if (earlier !== undefined) {
        problems.push({ row, field: 'accountNumber', message: `repeats the account number of row ${earlier}` });
      } else {
        firstRowOfAccount.set(raw.accountNumber, row);
        if (refs.takenAccounts.has(raw.accountNumber)) {
          problems.push({ row, field: 'accountNumber', message: UNKNOWN_REFERENCE });
        }
      }
    }
    if (value && value.serviceDate > day) {
      problems.push({ row, field: 'serviceDate', message: 'cannot be in the future' });
    }
    errors.push(...problems);
    if (!value || problems.length > 0 || patientId === undefined || providerId === undefined) continue;
    const denied = value.status === 'Denied';
    values.push({
      patientId,
      providerId,
      accountNumber: value.accountNumber,
      procedureCode: value.procedureCode,
      payer: value.payer,
      serviceDate: value.serviceDate,
      billedCents: value.billedAmount,
      status: value.status,
      // A file does not say when a claim went out: a submitted claim counts as submitted on the import
      // day, and a denied one as denied that day too.
      submittedOn: value.status === 'Draft' ? null : day,
      adjudicatedOn: denied ? day : null,
      reasonCode: denied ? value.reasonCode : null,
      denialDescription: denied ? (DENIAL_DESCRIPTIONS[value.reasonCode] ?? null) : null,
      deniedOnFirstAdjudication: denied,
    });
  }
  return { values, errors };
}

/** Problems in file order: by row, then in the template's column order. */
export function sortImportErrors(errors: ImportError[]): ImportError[] {
  const columnOrder = (field: string) => {
    const index = (CLAIM_IMPORT_COLUMNS as readonly string[]).indexOf(field);
    return index === -1 ? CLAIM_IMPORT_COLUMNS.length : index;
  };
  return [...errors].sort((a, b) => a.row - b.row || columnOrder(a.field) - columnOrder(b.field));
}
