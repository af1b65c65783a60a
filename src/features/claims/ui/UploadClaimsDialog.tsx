import { useState, type FormEvent } from 'react';
import { Download, Upload } from 'lucide-react';
import { Button } from '@/client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/client/components/ui/dialog';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { downloadCsv, toCsv } from '@/client/lib/csv';
import {
  CLAIM_IMPORT_COLUMNS,
  CLAIM_IMPORT_MAX_BYTES,
  CLAIM_IMPORT_MAX_ROWS,
  IMPORT_STATUSES,
  type ClaimImportColumn,
  type ImportError,
  type ImportRejected,
} from '../claims.schema';
import { importReportOf, useImportClaims } from './claims.api';

/** What each template column holds, shown in the dialog. */
const COLUMN_HELP: Record<ClaimImportColumn, string> = {
  accountNumber: 'new, unique account number (letters, digits, -)',
  patientMrn: "the patient's MRN",
  procedureCode: 'CPT or HCPCS code, e.g. 99213',
  provider: "the provider's name as the clinic lists it",
  payer: "one of the practice's payers (Settings → Payers), e.g. Medicare, Aetna, Self-Pay",
  serviceDate: "YYYY-MM-DD, not in the future nor older than the payer's timely-filing limit",
  billedAmount: "dollars, e.g. 149.00; a charge above the code's usual ceiling is imported with a warning",
  status: `${IMPORT_STATUSES.join(', ')} (empty: Submitted)`,
  reasonCode: 'denial code for a Denied claim, e.g. CO-197',
};

type TemplateRow = Record<ClaimImportColumn, string>;
const TEMPLATE_ROWS: TemplateRow[] = [
  {
    accountNumber: 'ACC-2026-900001',
    patientMrn: 'MRN-000000',
    procedureCode: '99213',
    provider: 'Dr. Sarah Mitchell',
    payer: 'Aetna',
    serviceDate: '2026-01-15',
    billedAmount: '149.00',
    status: 'Submitted',
    reasonCode: '',
  },
  {
    accountNumber: 'ACC-2026-900002',
    patientMrn: 'MRN-000000',
    procedureCode: '80053',
    provider: 'Dr. Sarah Mitchell',
    payer: 'Medicare',
    serviceDate: '2026-01-15',
    billedAmount: '116.00',
    status: 'Denied',
    reasonCode: 'CO-197',
  },
];

/** The import template: the columns the server expects and two example rows to overwrite. */
export function claimsTemplateCsv(): string {
  return toCsv(
    TEMPLATE_ROWS,
    CLAIM_IMPORT_COLUMNS.map((column) => ({ header: column, value: (row: TemplateRow) => row[column] })),
  );
}

function ProblemTable({ caption, problems }: { caption: string; problems: readonly ImportError[] }) {
  return (
    <div className="max-h-64 overflow-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-border text-left">
            <th scope="col" className="py-1 pr-2">
              Row
            </th>
            <th scope="col" className="py-1 pr-2">
              Column
            </th>
            <th scope="col" className="py-1">
              Problem
            </th>
          </tr>
        </thead>
        <tbody>
          {problems.map((e, i) => (
            <tr key={i} className="border-b border-border/60 align-top">
              <td className="py-1 pr-2 tabular-nums">{e.row}</td>
              <td className="py-1 pr-2 font-mono text-xs">{e.field}</td>
              <td className="py-1">{e.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Charges above their code's ceiling: imported (or not refused for it), listed so they are checked. */
function ChargeWarnings({ warnings, imported }: { warnings: readonly ImportError[]; imported: boolean }) {
  if (warnings.length === 0) return null;
  return (
    <div role="status" className="grid gap-2 rounded-md border border-amber-500 p-3">
      <p className="text-sm font-medium">
        {warnings.length} charge{warnings.length === 1 ? '' : 's'} to check
        {imported ? ': imported. Void a claim on the Claims list if its amount was a mistake.' : '.'}
      </p>
      <ProblemTable caption="Charges to check" problems={warnings} />
    </div>
  );
}

function ImportReport({ report }: { report: ImportRejected }) {
  return (
    <>
      <div role="alert" className="grid gap-2 rounded-md border border-destructive p-3">
        <p className="text-sm font-medium text-destructive">{report.error.message}</p>
        {report.errorCount > report.errors.length && (
          <p className="text-xs text-muted-foreground">
            Showing the first {report.errors.length} of {report.errorCount} problems.
          </p>
        )}
        <ProblemTable caption="Problems in the file" problems={report.errors} />
      </div>
      <ChargeWarnings warnings={report.warnings} imported={false} />
    </>
  );
}

/** Upload File: a CSV of claims, all imported or none, with a row-by-row report of problems. */
export function UploadClaimsDialog() {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  // An import with charges to check stays open on its warnings until closed.
  const [flagged, setFlagged] = useState<readonly ImportError[]>([]);
  const importClaims = useImportClaims();
  const report = importReportOf(importClaims.error);

  const reset = () => {
    setFile(null);
    setFileError(undefined);
    setFlagged([]);
    importClaims.reset();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    importClaims.reset();
    setFlagged([]);
    if (!file) return setFileError('is required: choose a CSV file');
    if (file.size > CLAIM_IMPORT_MAX_BYTES) return setFileError('must be at most 5 MB');
    setFileError(undefined);
    const csv = await file.text();
    importClaims.mutate(csv, {
      onSuccess: ({ imported, warnings }) => {
        toast({ title: 'Claims imported', description: `${imported} claim${imported === 1 ? '' : 's'} added` });
        reset();
        if (warnings.length > 0) setFlagged(warnings);
        else setOpen(false);
      },
      onError: (error) => {
        if (importReportOf(error)) return;
        setFileError(
          error instanceof ApiError && error.serverMessage ? error.serverMessage : 'could not be imported; try again',
        );
      },
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (importClaims.isPending) return;
        if (!next) reset();
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <Upload className="size-4" aria-hidden="true" /> Upload File
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Upload claims</DialogTitle>
          <DialogDescription>
            A CSV file with one claim per row (at most {CLAIM_IMPORT_MAX_ROWS.toLocaleString('en-US')}). Every row is
            checked first: if any row has a problem, nothing is imported and the problems are listed here. Submitted and
            denied claims are recorded as submitted (and denied) today.
          </DialogDescription>
        </DialogHeader>
        <details className="text-sm">
          <summary className="cursor-pointer font-medium">Columns</summary>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            {CLAIM_IMPORT_COLUMNS.map((column) => (
              <div key={column} className="contents">
                <dt className="font-mono text-xs leading-5">{column}</dt>
                <dd className="text-muted-foreground">{COLUMN_HELP[column]}</dd>
              </div>
            ))}
          </dl>
        </details>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
          <FormField id="claims-file" label="CSV file" error={fileError}>
            {(control) => (
              <Input
                {...control}
                type="file"
                accept=".csv,text/csv"
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setFileError(undefined);
                  importClaims.reset();
                }}
              />
            )}
          </FormField>
          {report && <ImportReport report={report} />}
          <ChargeWarnings warnings={flagged} imported />
          <DialogFooter className="sm:justify-between">
            <Button
              variant="link"
              className="px-0"
              onClick={() => downloadCsv('claims_template.csv', claimsTemplateCsv())}
            >
              <Download className="size-4" aria-hidden="true" /> Download template
            </Button>
            <div className="flex gap-2">
              <Button
                variant="outline"
                onClick={() => {
                  reset();
                  setOpen(false);
                }}
                disabled={importClaims.isPending}
              >
                {flagged.length > 0 ? 'Done' : 'Cancel'}
              </Button>
              <Button type="submit" disabled={importClaims.isPending}>
                {importClaims.isPending ? 'Importing…' : 'Import'}
              </Button>
            </div>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
