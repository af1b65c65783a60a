import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { useExportOwnStatement, useOwnStatement } from './billing.api';
import { PayBalanceDialog } from './PayBalanceDialog';
import { DownloadStatementButton, PrintStatementButton } from './statement-actions';
import { StatementSkeleton, StatementView } from './StatementView';
import { errorTextFor } from '@/client/lib/error-text';

/**
 * The patient's 'My Billing' at /patient-portal/billing: their own statement with
 * every claim, Pay Balance, Download Statement and Print. The server decides whose statement it is.
 */
export default function MyBillingPage() {
  const statement = useOwnStatement();
  const exporter = useExportOwnStatement();
  const balance = statement.data?.amountDueCents ?? 0;
  return (
    <section>
      <div className="no-print">
        <Link
          to="/patient-portal"
          className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground underline-offset-4 hover:underline"
        >
          <ArrowLeft className="size-4" aria-hidden="true" /> Back to My Health Portal
        </Link>
        <PageHeader
          title="My Billing"
          subtitle="View statements and pay"
          actions={
            <>
              <PayBalanceDialog balanceCents={balance} />
              <DownloadStatementButton
                label="Download Statement"
                exportStatement={(handlers) => exporter.mutate(undefined, handlers)}
                pending={exporter.isPending}
                disabled={!statement.data}
              />
              <PrintStatementButton disabled={!statement.data} />
            </>
          }
        />
      </div>
      {statement.isLoading ? (
        <StatementSkeleton />
      ) : statement.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load your statement: {errorTextFor(statement.error)}
        </p>
      ) : statement.data ? (
        <StatementView statement={statement.data} claimsLabel="All claims" />
      ) : null}
    </section>
  );
}
