import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/client/components/data-table/DataTable';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { toast } from '@/client/components/ui/toast';
import type { RunTestsResponse, TestOutcome, TestType } from '@/features/selftest/selftest.schema';
import { useRunTests } from './compliance.api';

const LABEL: Record<TestType, string> = { unit: 'Unit', integration: 'Integration' };

const COLUMNS: ColumnDef<TestOutcome>[] = [
  { accessorKey: 'testId', header: 'Test' },
  { accessorKey: 'module', header: 'Module' },
  { accessorKey: 'description', header: 'Description' },
  {
    accessorKey: 'status',
    header: 'Status',
    cell: ({ row }) => (
      <Badge variant={row.original.status === 'PASS' ? 'default' : 'destructive'}>{row.original.status}</Badge>
    ),
  },
  { accessorKey: 'message', header: 'Message', cell: ({ row }) => row.original.message ?? '' },
];

/** The runner's toasts. */
function announce(testType: TestType, answer: RunTestsResponse) {
  const { passed, total } = answer.summary;
  toast({
    title: answer.success ? `${LABEL[testType]} tests passed!` : `${LABEL[testType]} tests failed`,
    description: `${passed}/${total} tests passed`,
    variant: answer.success ? 'default' : 'destructive',
  });
}

function announceError(testType: TestType) {
  toast({ title: 'Error running tests', description: `Failed to execute ${testType} tests`, variant: 'destructive' });
}

function TestRunner({ testType }: { testType: TestType }) {
  const run = useRunTests();
  const [answer, setAnswer] = useState<RunTestsResponse | null>(null);

  const start = () =>
    run.mutate(testType, {
      onSuccess: (result) => {
        setAnswer(result);
        // The runner itself could not run: that is an error, not a result.
        if (result.error !== null && result.tests.length === 0) announceError(testType);
        else announce(testType, result);
      },
      onError: () => {
        setAnswer(null);
        announceError(testType);
      },
    });

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
        <div>
          <CardTitle as="h2">{LABEL[testType]} tests</CardTitle>
          <CardDescription>Runs the {testType} checks in the running server and shows each result.</CardDescription>
        </div>
        <Button onClick={start} disabled={run.isPending}>
          {run.isPending ? `Running ${testType} tests…` : `Run ${LABEL[testType]} Tests`}
        </Button>
      </CardHeader>
      <CardContent>
        {answer ? (
          <>
            <p role="status" className="mb-2 text-sm">
              {answer.summary.passed}/{answer.summary.total} tests passed
              {answer.error ? ` — ${answer.error}` : ''}
            </p>
            <DataTable
              label={`${LABEL[testType]} test results`}
              columns={COLUMNS}
              data={answer.tests}
              getRowId={(t) => t.testId}
              emptyMessage="No tests were run"
            />
          </>
        ) : (
          <p className="text-sm text-muted-foreground">
            {run.isPending ? 'Running…' : run.isError ? 'The last run could not be executed.' : 'Not run yet.'}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

export function TestRunners() {
  return (
    <div className="grid gap-4 xl:grid-cols-2">
      <TestRunner testType="unit" />
      <TestRunner testType="integration" />
    </div>
  );
}
