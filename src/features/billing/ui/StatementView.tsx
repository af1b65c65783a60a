import type { ReactNode } from 'react';
import { format, parseISO } from 'date-fns';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/client/components/data-table/DataTable';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Skeleton } from '@/client/components/ui/skeleton';
import type { Statement, StatementClaim } from '../billing.schema';
import { money } from './billing.money';

/** Statement dates read like 'November 22, 2026' (as in the portal). */
export function longDate(isoDate: string): string {
  return format(parseISO(isoDate), 'MMMM d, yyyy');
}

const CLAIM_COLUMNS: ColumnDef<StatementClaim, string | number>[] = [
  {
    id: 'serviceDate',
    header: 'Service date',
    accessorFn: (c) => c.serviceDate,
    cell: ({ row }) => longDate(row.original.serviceDate),
  },
  { id: 'procedure', header: 'Procedure', accessorFn: (c) => c.procedure },
  {
    id: 'billed',
    header: 'Billed',
    accessorFn: (c) => c.billedCents,
    cell: ({ row }) => money(row.original.billedCents),
    meta: { align: 'right' },
  },
  {
    id: 'paid',
    header: 'Paid',
    accessorFn: (c) => c.paidCents,
    cell: ({ row }) => money(row.original.paidCents),
    meta: { align: 'right' },
  },
  {
    id: 'amountDue',
    header: 'Amount due',
    accessorFn: (c) => c.amountDueCents,
    cell: ({ row }) => money(row.original.amountDueCents),
    meta: { align: 'right' },
  },
];

function Total({ label, cents, detail, strong }: { label: string; cents: number; detail?: string; strong?: boolean }) {
  const id = `statement-${label.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <div className={strong ? 'rounded-md border border-border bg-muted/40 p-3' : 'p-3'}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className={strong ? 'text-2xl font-bold' : 'text-xl font-semibold'} data-testid={id}>
        {money(cents)}
      </dd>
      {detail && <dd className="text-xs text-muted-foreground">{detail}</dd>}
    </div>
  );
}

/**
 * One patient's statement: who and when, total billed, total paid (payer and patient), amount due, and
 * claims (the most recent for staff, all for the patient). It is what prints: the page marks everything
 * else `no-print`; `actions` (buttons) never print.
 */
export function StatementView({
  statement,
  claimsLabel,
  actions,
}: {
  statement: Statement;
  /** The claims table's accessible name and heading, e.g. '3 most recent claims'. */
  claimsLabel: string;
  actions?: ReactNode;
}) {
  return (
    <section aria-labelledby="statement-title">
      <Card className="print-statement">
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
          <div className="space-y-1.5">
            <CardTitle id="statement-title">Statement for {statement.patientName}</CardTitle>
            <CardDescription>
              Statement date {longDate(statement.statementDate)} · Patient record {statement.patientId} ·{' '}
              {statement.claimCount} {statement.claimCount === 1 ? 'claim' : 'claims'}
            </CardDescription>
          </div>
          {actions && <div className="no-print flex flex-wrap gap-2">{actions}</div>}
        </CardHeader>
        <CardContent className="space-y-6">
          <dl className="grid gap-2 sm:grid-cols-3" aria-label="Statement totals">
            <Total label="Total billed" cents={statement.totalBilledCents} />
            <Total
              label="Total paid"
              cents={statement.totalPaidCents}
              detail={`Insurance ${money(statement.payerPaidCents)} · Patient ${money(statement.patientPaidCents)}`}
            />
            <Total label="Amount due" cents={statement.amountDueCents} strong />
          </dl>
          <div className="space-y-2">
            <h3 className="font-semibold">{claimsLabel}</h3>
            {statement.claims.length === 0 ? (
              <p className="text-muted-foreground">No claims found</p>
            ) : (
              <DataTable
                label={claimsLabel}
                columns={CLAIM_COLUMNS}
                data={statement.claims}
                getRowId={(claim) => String(claim.id)}
                footer={(shown, total) => `Showing ${shown} of ${total} claims`}
              />
            )}
          </div>
        </CardContent>
      </Card>
    </section>
  );
}

/** The statement's shape while it loads. */
export function StatementSkeleton() {
  return (
    <Card aria-busy="true" aria-label="Loading statement">
      <CardHeader>
        <Skeleton className="h-6 w-64" />
        <Skeleton className="h-4 w-80" />
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="grid gap-2 sm:grid-cols-3">
          <Skeleton className="h-16" />
          <Skeleton className="h-16" />
          <Skeleton className="h-16" />
        </div>
        <Skeleton className="h-40 w-full" />
      </CardContent>
    </Card>
  );
}
