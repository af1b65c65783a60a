import type { ReactNode } from 'react';
import { formatDollars } from '@/shared/api';
import { format, parseISO } from 'date-fns';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Skeleton } from '@/client/components/ui/skeleton';
import { countOf } from '@/shared/plural';
import type { Statement, StatementAmounts, StatementClaim, StatementPayment } from '../billing.schema';

/** Statement dates read like 'November 22, 2026' (as in the portal). */
export function longDate(isoDate: string): string {
  return format(parseISO(isoDate), 'MMMM d, yyyy');
}

/** The money columns of a statement, in the order they add up to what was billed. */
export const STATEMENT_COLUMNS: readonly { key: keyof StatementAmounts; label: string }[] = [
  { key: 'billedCents', label: 'Billed' },
  { key: 'insurancePaidCents', label: 'Insurance paid' },
  { key: 'contractualAdjustmentCents', label: 'Contractual adjustment' },
  { key: 'otherAdjustmentCents', label: 'Other adjustment' },
  { key: 'insurancePendingCents', label: 'Insurance pending' },
  { key: 'patientPaidCents', label: 'Patient paid' },
  { key: 'amountDueCents', label: 'Amount due' },
];

function Total({ label, cents, detail, strong }: { label: string; cents: number; detail?: string; strong?: boolean }) {
  const id = `statement-${label.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <div className={strong ? 'rounded-md border border-border bg-muted/40 p-3' : 'p-3'}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className={strong ? 'text-2xl font-bold' : 'text-xl font-semibold'} data-testid={id}>
        {formatDollars(cents)}
      </dd>
      {detail && <dd className="text-xs text-muted-foreground">{detail}</dd>}
    </div>
  );
}

const th = 'px-2 py-2 text-left font-medium text-muted-foreground';
const thMoney = `${th} text-right`;
const td = 'px-2 py-2 align-top';
const tdMoney = `${td} text-right tabular-nums whitespace-nowrap`;

/** The payer's split of the patient's share (deductible, coinsurance, copay), when a remittance gave one. */
function PatientShare({ share }: { share: StatementClaim['patientShare'] }) {
  const parts = [
    ['Deductible', share.deductibleCents],
    ['Coinsurance', share.coinsuranceCents],
    ['Copay', share.copayCents],
  ] as const;
  const shown = parts.filter(([, cents]) => cents !== 0);
  if (shown.length === 0) return null;
  return (
    <span className="block text-xs text-muted-foreground">
      {shown.map(([label, cents]) => `${label} ${formatDollars(cents)}`).join(' · ')}
    </span>
  );
}

function AmountCells({ amounts }: { amounts: StatementAmounts }) {
  return STATEMENT_COLUMNS.map(({ key }) => (
    <td key={key} className={tdMoney}>
      {formatDollars(amounts[key])}
    </td>
  ));
}

/** The claims, then the claims not listed (summed) and the total: every column adds up to its total. */
function ClaimsTable({ statement, label }: { statement: Statement; label: string }) {
  const others = statement.otherClaims;
  return (
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`${label} (scrollable)`}>
      <table aria-label={label} className="w-full border-collapse text-sm">
        <thead>
          <tr className="border-b border-border">
            <th scope="col" className={th}>
              Service date
            </th>
            <th scope="col" className={th}>
              Account
            </th>
            <th scope="col" className={th}>
              Procedure
            </th>
            <th scope="col" className={th}>
              Status
            </th>
            {STATEMENT_COLUMNS.map(({ key, label: header }) => (
              <th key={key} scope="col" className={thMoney}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {statement.claims.map((claim) => (
            <tr key={claim.id} className="border-b border-border">
              <td className={`${td} whitespace-nowrap`}>{longDate(claim.serviceDate)}</td>
              <td className={`${td} whitespace-nowrap`}>{claim.accountNumber}</td>
              <td className={td}>
                {claim.procedureDescription ? `${claim.procedure} ${claim.procedureDescription}` : claim.procedure}
                <PatientShare share={claim.patientShare} />
              </td>
              <td className={td}>{claim.status}</td>
              <AmountCells amounts={claim} />
            </tr>
          ))}
        </tbody>
        <tfoot>
          {others.claimCount > 0 && (
            <tr className="border-b border-border text-muted-foreground">
              <th scope="row" colSpan={4} className={`${td} text-left font-normal`}>
                {countOf(others.claimCount, 'other claim')} with nothing due
              </th>
              <AmountCells amounts={others} />
            </tr>
          )}
          <tr className="font-semibold">
            <th scope="row" colSpan={4} className={`${td} text-left`}>
              Total
            </th>
            <AmountCells amounts={statement} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

const PAID_BY: Record<StatementPayment['source'], string> = { patient: 'Patient', guest: 'Guest payment' };

/** Every payment the patient (or a guest for them) made, newest first, with its receipt number. */
function PaymentHistory({ payments }: { payments: readonly StatementPayment[] }) {
  return (
    <div className="space-y-2">
      <h3 className="font-semibold">Payment history</h3>
      {payments.length === 0 ? (
        <p className="text-muted-foreground">No payments yet</p>
      ) : (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Payment history (scrollable)">
          <table aria-label="Payment history" className="w-full border-collapse text-sm">
            <thead>
              <tr className="border-b border-border">
                <th scope="col" className={th}>
                  Date
                </th>
                <th scope="col" className={th}>
                  Receipt
                </th>
                <th scope="col" className={th}>
                  Account
                </th>
                <th scope="col" className={th}>
                  Paid by
                </th>
                <th scope="col" className={thMoney}>
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {payments.map((payment) => (
                <tr key={payment.id} className="border-b border-border">
                  <td className={`${td} whitespace-nowrap`}>{longDate(payment.receivedOn)}</td>
                  <td className={td}>{payment.receiptNumber}</td>
                  <td className={td}>{payment.accountNumber ?? ''}</td>
                  <td className={td}>{PAID_BY[payment.source]}</td>
                  <td className={tdMoney}>{formatDollars(payment.amountCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/**
 * One patient's statement: the practice's letterhead, who and when, where every billed dollar is (insurance
 * paid, adjustments, insurance pending, patient paid, amount due), per claim and in total, and the
 * patient's payments. It is what prints: the page marks everything else `no-print`; `actions` (buttons)
 * never print.
 */
export function StatementView({
  statement,
  claimsLabel,
  actions,
}: {
  statement: Statement;
  /** The claims table's accessible name and heading, e.g. 'All claims'. */
  claimsLabel: string;
  actions?: ReactNode;
}) {
  const { practice } = statement;
  const adjustments = statement.contractualAdjustmentCents + statement.otherAdjustmentCents;
  return (
    <section aria-labelledby="statement-title">
      <Card className="print-statement">
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
          <div className="space-y-1.5">
            <address className="not-italic text-sm" role="group" aria-label="Practice">
              <span className="block font-semibold">{practice.name}</span>
              <span className="block text-muted-foreground">{practice.address}</span>
              <span className="block text-muted-foreground">Phone {practice.phone}</span>
            </address>
            <CardTitle id="statement-title">Statement for {statement.patientName}</CardTitle>
            <CardDescription>
              Statement date {longDate(statement.statementDate)} · Account {statement.accountNumber} ·{' '}
              {countOf(statement.claimCount, 'claim')}
            </CardDescription>
          </div>
          {actions && <div className="no-print flex flex-wrap gap-2">{actions}</div>}
        </CardHeader>
        <CardContent className="space-y-6">
          <dl className="grid gap-2 sm:grid-cols-3 xl:grid-cols-6" aria-label="Statement totals">
            <Total label="Total billed" cents={statement.totalBilledCents} />
            <Total label="Insurance paid" cents={statement.insurancePaidCents} />
            <Total
              label="Adjustments"
              cents={adjustments}
              detail={`Contractual ${formatDollars(statement.contractualAdjustmentCents)} · Other ${formatDollars(statement.otherAdjustmentCents)}`}
            />
            <Total label="Insurance pending" cents={statement.insurancePendingCents} />
            <Total label="Patient paid" cents={statement.patientPaidCents} />
            <Total label="Amount due" cents={statement.amountDueCents} strong />
          </dl>
          <div className="space-y-2">
            <h3 className="font-semibold">{claimsLabel}</h3>
            {statement.claimCount === 0 ? (
              <p className="text-muted-foreground">No claims found</p>
            ) : (
              <ClaimsTable statement={statement} label={claimsLabel} />
            )}
          </div>
          <PaymentHistory payments={statement.payments} />
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
