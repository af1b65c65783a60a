import { toCsv, type CsvColumn } from '@/client/lib/csv';
import type { Statement } from '../billing.schema';

/** Money in a CSV cell: dollars with 2 decimals and no thousands separator, so spreadsheets read a number. */
function dollars(cents: number): string {
  return (cents / 100).toFixed(2);
}

interface StatementLine {
  line: 'Claim' | 'Total';
  serviceDate: string;
  accountNumber: string;
  procedure: string;
  status: string;
  billedCents: number;
  paidCents: number;
  amountDueCents: number;
}

/**
 * The statement as CSV: one line per claim, then a Total line with the statement's totals (which the
 * claim lines add up to, as the export carries every claim). Patient and date are on every line so each
 * line stands on its own in a spreadsheet.
 */
export function statementCsv(statement: Statement): string {
  const columns: CsvColumn<StatementLine>[] = [
    { header: 'Patient', value: () => statement.patientName },
    { header: 'Statement Date', value: () => statement.statementDate },
    { header: 'Line', value: (l) => l.line },
    { header: 'Service Date', value: (l) => l.serviceDate },
    { header: 'Account Number', value: (l) => l.accountNumber },
    { header: 'Procedure', value: (l) => l.procedure },
    { header: 'Status', value: (l) => l.status },
    { header: 'Billed', value: (l) => dollars(l.billedCents) },
    { header: 'Paid', value: (l) => dollars(l.paidCents) },
    { header: 'Amount Due', value: (l) => dollars(l.amountDueCents) },
  ];
  const lines: StatementLine[] = [
    ...statement.claims.map((c) => ({ line: 'Claim' as const, ...c })),
    {
      line: 'Total',
      serviceDate: '',
      accountNumber: '',
      procedure: '',
      status: '',
      billedCents: statement.totalBilledCents,
      paidCents: statement.totalPaidCents,
      amountDueCents: statement.amountDueCents,
    },
  ];
  return toCsv(lines, columns);
}

/** statement_patient-{id}_{date}.csv: the record's id, not the name, so no PHI sits in the file name. */
export function statementFileName(statement: Statement): string {
  return `statement_patient-${statement.patientId}_${statement.statementDate}.csv`;
}
