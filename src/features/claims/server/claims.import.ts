import Papa from 'papaparse';
import { format, parseISO, subDays } from 'date-fns';
import { formatDollars } from '@/shared/api';
import {
  CLAIM_EXPORT_ONLY_COLUMNS,
  CLAIM_IMPORT_COLUMNS,
  CLAIM_IMPORT_MAX_ROWS,
  DEFAULT_CHARGE_CEILING_CENTS,
  DENIAL_DESCRIPTIONS,
  OPTIONAL_IMPORT_COLUMNS,
  claimImportFieldsSchema,
  reasonCodeProblem,
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
  /** The fields that passed their own check, so the database checks still run on them in a bad row. */
  fields: Partial<ClaimImportRow>;
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
    // Each column is checked on its own, then the reason code against the status, so one pass reports
    // every problem of the row (a row-level check would wait for every field to be right first).
    const fields: Partial<Record<ClaimImportColumn, unknown>> = {};
    const badFields = new Set<string>();
    for (const column of CLAIM_IMPORT_COLUMNS) {
      const result = claimImportFieldsSchema.shape[column].safeParse(raw[column]);
      if (result.success) {
        fields[column] = result.data;
      } else {
        // One problem per field is enough to fix it (a malformed date would otherwise be reported twice).
        errors.push({ row, field: column, message: result.error.issues[0]?.message ?? 'is not valid' });
        badFields.add(column);
      }
    }
    const checked = fields as Partial<ClaimImportRow>;
    if (checked.status !== undefined && checked.reasonCode !== undefined) {
      const problem = reasonCodeProblem(checked.status, checked.reasonCode);
      if (problem) {
        errors.push({ row, field: 'reasonCode', message: problem });
        badFields.add('reasonCode');
      }
    }
    const value = badFields.size === 0 ? (checked as ClaimImportRow) : null;
    rows.push({ row, raw, value, fields: checked, badFields });
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

export interface ImportPayer {
  name: string;
  timelyFilingDays: number;
}

export interface ImportReferences {
  patientIdByMrn: Map<string, number>;
  /** Keys are lower-case provider names. */
  providerIdByName: Map<string, number>;
  /** The practice's active payers; keys are lower-case names. */
  payerByName: Map<string, ImportPayer>;
  /** The ceiling of each procedure code that has its own; others use DEFAULT_CHARGE_CEILING_CENTS. */
  ceilingByCode: Map<string, number>;
  takenAccounts: Set<string>;
}

/** The timely-filing limit of a payer the import does not know (docs/payers.md). */
export const DEFAULT_TIMELY_FILING_DAYS = 365;

const displayDate = (day: string) => format(parseISO(day), 'MMM d, yyyy');

/**
 * One answer for every reference the database does not accept (an unknown MRN or provider, an account number
 * already stored), with the row and field but neither the value nor the reason: a role that sees MRNs masked
 * must not learn from an import which MRNs or account numbers exist.
 */
export const UNKNOWN_REFERENCE = 'does not match a record this import can use';

/**
 * What a role that sees MRNs masked is told instead, once for the whole file and only when nothing else is
 * wrong with it: which row's MRN (or account number) matched nothing would tell which MRNs exist, since a row
 * whose MRN is a patient's gets no such answer.
 */
export const UNKNOWN_REFERENCES_IN_FILE =
  'names a patient MRN or an account number that this import cannot use: MRNs are masked for your role, so someone who sees them must check the file';

/**
 * The checks that need the database's answers: the MRN and provider exist, the payer is one of the
 * practice's active payers, the account number is new (in the database and earlier in the file), the
 * service date is neither in the future nor older than the payer's timely-filing limit. They run on every
 * field that passed its own check, so all problems of a row come in one answer. Returns the rows ready to
 * insert, the problems, and the warnings (charges above their code's ceiling: imported, but flagged).
 */
export function resolveImportRows(
  rows: readonly ParsedRow[],
  refs: ImportReferences,
  day: string,
  /** False for a role that sees MRNs masked: unknown MRNs and taken account numbers are counted, not listed. */
  namesReferenceRows = true,
): {
  values: (typeof claims.$inferInsert)[];
  errors: ImportError[];
  warnings: ImportError[];
  /** Rows whose MRN or account number matched nothing usable, when they are not listed in `errors`. */
  unlistedReferenceRows: number;
} {
  const errors: ImportError[] = [];
  const warnings: ImportError[] = [];
  const values: (typeof claims.$inferInsert)[] = [];
  const firstRowOfAccount = new Map<string, number>();
  let unlistedReferenceRows = 0;
  for (const { row, raw, value, fields, badFields } of rows) {
    const problems: ImportError[] = [];
    const unlisted: ImportError[] = [];
    const references = namesReferenceRows ? problems : unlisted;
    const checks = (field: ClaimImportColumn) => !badFields.has(field) && raw[field] !== '';
    const patientId = refs.patientIdByMrn.get(raw.patientMrn);
    if (checks('patientMrn') && patientId === undefined) {
      references.push({ row, field: 'patientMrn', message: UNKNOWN_REFERENCE });
    }
    const providerId = refs.providerIdByName.get(raw.provider.toLowerCase());
    if (checks('provider') && providerId === undefined) {
      problems.push({ row, field: 'provider', message: UNKNOWN_REFERENCE });
    }
    const payer = refs.payerByName.get(raw.payer.toLowerCase());
    if (checks('payer') && payer === undefined) {
      const names = [...refs.payerByName.values()].map((p) => p.name);
      problems.push({ row, field: 'payer', message: `must be one of the practice's payers: ${names.join(', ')}` });
    }
    if (checks('accountNumber')) {
      const earlier = firstRowOfAccount.get(raw.accountNumber);
      if (earlier !== undefined) {
        problems.push({ row, field: 'accountNumber', message: `repeats the account number of row ${earlier}` });
      } else {
        firstRowOfAccount.set(raw.accountNumber, row);
        if (refs.takenAccounts.has(raw.accountNumber)) {
          references.push({ row, field: 'accountNumber', message: UNKNOWN_REFERENCE });
        }
      }
    }
    if (fields.serviceDate !== undefined) {
      const limitDays = payer?.timelyFilingDays ?? DEFAULT_TIMELY_FILING_DAYS;
      const earliest = format(subDays(parseISO(day), limitDays), 'yyyy-MM-dd');
      if (fields.serviceDate > day) {
        problems.push({ row, field: 'serviceDate', message: 'cannot be in the future' });
      } else if (fields.serviceDate < earliest) {
        const whose = payer ? `${payer.name}'s timely-filing limit` : 'the timely-filing limit';
        problems.push({
          row,
          field: 'serviceDate',
          message: `is older than ${whose} of ${limitDays} days: it must be on or after ${displayDate(earliest)}`,
        });
      }
    }
    if (fields.billedAmount !== undefined && fields.procedureCode !== undefined) {
      const ceiling = refs.ceilingByCode.get(fields.procedureCode) ?? DEFAULT_CHARGE_CEILING_CENTS;
      if (fields.billedAmount > ceiling) {
        warnings.push({
          row,
          field: 'billedAmount',
          message: `${formatDollars(fields.billedAmount)} is above the usual ceiling of ${formatDollars(ceiling)} for ${fields.procedureCode}: check the amount`,
        });
      }
    }
    errors.push(...problems);
    if (unlisted.length > 0) unlistedReferenceRows += 1;
    if (!value || problems.length > 0 || unlisted.length > 0) continue;
    if (patientId === undefined || providerId === undefined || !payer) continue;
    const denied = value.status === 'Denied';
    values.push({
      patientId,
      providerId,
      accountNumber: value.accountNumber,
      procedureCode: value.procedureCode,
      payer: payer.name,
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
  return { values, errors, warnings, unlistedReferenceRows };
}

/** Problems in file order: by row, then in the template's column order. */
export function sortImportErrors(errors: ImportError[]): ImportError[] {
  const columnOrder = (field: string) => {
    const index = (CLAIM_IMPORT_COLUMNS as readonly string[]).indexOf(field);
    return index === -1 ? CLAIM_IMPORT_COLUMNS.length : index;
  };
  return [...errors].sort((a, b) => a.row - b.row || columnOrder(a.field) - columnOrder(b.field));
}
