import { toCsv, type CsvColumn } from '@/client/lib/csv';
import type { Statement, StatementAmounts } from '../billing.schema';

/** Money in a CSV cell: dollars with 2 decimals and no thousands separator, so spreadsheets read a number. */
function dollars(cents: number): string {
  return (cents / 100).toFixed(2);
}

interface StatementLine extends StatementAmounts {
  line: 'Claim' | 'Other Claims' | 'Total';
  serviceDate: string;
  accountNumber: string;
  procedure: string;
  description: string;
  status: string;
}

/** The money columns, in the order they add up to Billed. */
const AMOUNT_COLUMNS: readonly [string, keyof StatementAmounts][] = [
  ['Billed', 'billedCents'],
  ['Insurance Paid', 'insurancePaidCents'],
  ['Contractual Adjustment', 'contractualAdjustmentCents'],
  ['Other Adjustment', 'otherAdjustmentCents'],
  ['Insurance Pending', 'insurancePendingCents'],
  ['Patient Paid', 'patientPaidCents'],
  ['Amount Due', 'amountDueCents'],
];

const amountsOf = (a: StatementAmounts): StatementAmounts => ({
  billedCents: a.billedCents,
  insurancePaidCents: a.insurancePaidCents,
  contractualAdjustmentCents: a.contractualAdjustmentCents,
  otherAdjustmentCents: a.otherAdjustmentCents,
  insurancePendingCents: a.insurancePendingCents,
  patientPaidCents: a.patientPaidCents,
  amountDueCents: a.amountDueCents,
});

/**
 * The statement as CSV: one line per claim (an Other Claims line sums any claims not listed), then a Total
 * line with the statement's totals, which each money column adds up to. Patient, account and date are on
 * every line so each line stands on its own in a spreadsheet.
 */
export function statementCsv(statement: Statement): string {
  const columns: CsvColumn<StatementLine>[] = [
    { header: 'Patient', value: () => statement.patientName },
    { header: 'Patient Account', value: () => statement.accountNumber },
    { header: 'Statement Date', value: () => statement.statementDate },
    { header: 'Line', value: (l) => l.line },
    { header: 'Service Date', value: (l) => l.serviceDate },
    { header: 'Account Number', value: (l) => l.accountNumber },
    { header: 'Procedure', value: (l) => l.procedure },
    { header: 'Description', value: (l) => l.description },
    { header: 'Status', value: (l) => l.status },
    ...AMOUNT_COLUMNS.map(([header, key]) => ({ header, value: (l: StatementLine) => dollars(l[key]) })),
  ];
  const blank = { serviceDate: '', accountNumber: '', procedure: '', description: '', status: '' };
  const lines: StatementLine[] = [
    ...statement.claims.map((c) => ({
      line: 'Claim' as const,
      serviceDate: c.serviceDate,
      accountNumber: c.accountNumber,
      procedure: c.procedure,
      description: c.procedureDescription ?? '',
      status: c.status,
      ...amountsOf(c),
    })),
    ...(statement.otherClaims.claimCount > 0
      ? [
          {
            line: 'Other Claims' as const,
            ...blank,
            description: `${statement.otherClaims.claimCount} other claims with nothing due`,
            ...amountsOf(statement.otherClaims),
          },
        ]
      : []),
    { line: 'Total', ...blank, ...amountsOf(statement) },
  ];
  return toCsv(lines, columns);
}

/** statement_patient-{id}_{date}.csv: the record's id, not the name, so no PHI sits in the file name. */
export function statementFileName(statement: Statement): string {
  return `statement_patient-${statement.patientId}_${statement.statementDate}.csv`;
}
