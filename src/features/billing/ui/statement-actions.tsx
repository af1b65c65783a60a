import { Download, Printer } from 'lucide-react';
import { Button } from '@/client/components/ui/button';
import { toast } from '@/client/components/ui/toast';
import { downloadCsv } from '@/client/lib/csv';
import type { Statement } from '../billing.schema';
import { statementCsv, statementFileName } from './statement.csv';

/**
 * Download (or Export) Statement: the server records the export and answers the full statement, which
 * becomes the CSV in the browser.
 */
export function DownloadStatementButton({
  label,
  exportStatement,
  pending,
  disabled,
}: {
  label: 'Export Statement' | 'Download Statement';
  exportStatement: (handlers: { onSuccess: (statement: Statement) => void; onError: () => void }) => void;
  pending: boolean;
  disabled?: boolean;
}) {
  return (
    <Button
      variant="outline"
      disabled={disabled || pending}
      onClick={() =>
        exportStatement({
          onSuccess: (statement) => downloadCsv(statementFileName(statement), statementCsv(statement)),
          onError: () =>
            toast({ title: 'Error', description: 'The statement could not be exported', variant: 'destructive' }),
        })
      }
    >
      <Download className="size-4" aria-hidden="true" /> {label}
    </Button>
  );
}

/** Print: the browser's print dialog; the print stylesheet leaves only the statement on paper. */
export function PrintStatementButton({ disabled }: { disabled?: boolean }) {
  return (
    <Button variant="outline" disabled={disabled} onClick={() => window.print()}>
      <Printer className="size-4" aria-hidden="true" /> Print
    </Button>
  );
}
