import { useEffect, useMemo, useRef, useState } from 'react';
import { Loader2, Play, Search } from 'lucide-react';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Input } from '@/client/components/ui/input';
import { Skeleton } from '@/client/components/ui/skeleton';
import { Spinner } from '@/client/components/ui/spinner';
import { toast } from '@/client/components/ui/toast';
import { cn } from '@/client/lib/cn';
import type { Requirement, Verification } from '../rtm.schema';
import { useRequirements, verifyRequirement } from './rtm.api';
import { errorTextFor } from '@/client/lib/error-text';

/** Items complete one after another, at least 300 ms apart, in list order. */
export const STEP_MS = 300;

const COLUMNS = ['Req ID', 'Description', 'Design module', 'Test ID', 'KPI or metric', 'Result'] as const;

function matches(requirement: Requirement, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (needle === '') return true;
  return [
    requirement.reqId,
    requirement.description,
    requirement.designModule,
    requirement.testId,
    requirement.kpiMetric,
  ].some((value) => value.toLowerCase().includes(needle));
}

function wait(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function ResultCell({ result, running }: { result: Verification | undefined; running: boolean }) {
  if (running) return <Spinner label="Running" />;
  if (!result) {
    return (
      <>
        <span aria-hidden="true">—</span>
        <span className="sr-only">Not run yet</span>
      </>
    );
  }
  if (result.passed) {
    return (
      <Badge variant="default" title={result.detail}>
        {result.result}
      </Badge>
    );
  }
  return (
    <div className="space-y-1">
      <Badge variant="destructive" title={result.detail}>
        FAIL {result.result}
      </Badge>
      <p className="max-w-xs text-xs text-muted-foreground">{result.detail}</p>
    </div>
  );
}

type Phase = 'idle' | 'running' | 'done';

export default function TraceabilityPage() {
  const requirements = useRequirements();
  const [search, setSearch] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [results, setResults] = useState<Record<string, Verification>>({});
  const [completed, setCompleted] = useState(0);
  const [currentIndex, setCurrentIndex] = useState<number | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const all = requirements.data ?? [];
  const shown = useMemo(() => (requirements.data ?? []).filter((r) => matches(r, search)), [requirements.data, search]);
  const current = currentIndex === null ? undefined : all[currentIndex];

  async function runSuite() {
    const list = requirements.data ?? [];
    if (list.length === 0) return;
    // Starting a run clears earlier results.
    setResults({});
    setCompleted(0);
    setPhase('running');
    const outcomes: Verification[] = [];
    for (const [index, requirement] of list.entries()) {
      if (!mounted.current) return;
      setCurrentIndex(index);
      const started = Date.now();
      let outcome: Verification;
      try {
        outcome = await verifyRequirement(requirement.reqId);
      } catch (err) {
        outcome = {
          reqId: requirement.reqId,
          testId: requirement.testId,
          passed: false,
          result: 'ERROR',
          detail: errorTextFor(err),
        };
      }
      const left = STEP_MS - (Date.now() - started);
      if (left > 0) await wait(left);
      if (!mounted.current) return;
      outcomes.push(outcome);
      setResults((previous) => ({ ...previous, [requirement.reqId]: outcome }));
      setCompleted(index + 1);
    }
    setCurrentIndex(null);
    setPhase('done');
    const failed = outcomes.filter((o) => !o.passed);
    if (failed.length === 0) {
      toast({
        title: 'Test Suite Completed',
        description: `All ${outcomes.length} validation tests passed successfully.`,
      });
    } else {
      toast({
        title: 'Test Suite Completed',
        description: `${outcomes.length - failed.length} of ${outcomes.length} validation tests passed; failed: ${failed
          .map((f) => f.reqId)
          .join(', ')}`,
        variant: 'destructive',
      });
    }
  }

  const running = phase === 'running';

  return (
    <div>
      <PageHeader
        title="Requirements Traceability Matrix"
        subtitle="Link between requirement, design, test case, and KPI"
        actions={
          <Button onClick={() => void runSuite()} disabled={running || all.length === 0}>
            {running ? (
              <Loader2 className="mr-2 size-4 animate-spin" aria-hidden="true" />
            ) : (
              <Play className="mr-2 size-4" aria-hidden="true" />
            )}
            {running ? 'Running Tests...' : 'Run Test Suite'}
          </Button>
        }
      />

      {running && current && (
        <div className="mb-4 space-y-2" aria-live="polite">
          <div
            role="progressbar"
            aria-label="Test suite progress"
            aria-valuemin={0}
            aria-valuemax={all.length}
            aria-valuenow={completed}
            className="h-2 w-full overflow-hidden rounded-full bg-secondary"
          >
            <div className="h-full bg-primary transition-all" style={{ width: `${(100 * completed) / all.length}%` }} />
          </div>
          <p className="text-sm text-muted-foreground">
            Running: {current.testId} ({completed}/{all.length})
          </p>
        </div>
      )}
      {phase === 'done' && (
        <p className="mb-4 text-sm font-medium" role="status">
          {completed}/{all.length} tests completed
        </p>
      )}

      <Card>
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-4 space-y-0">
          <CardTitle as="h2" className="text-lg">
            Requirements ({requirements.isPending ? '…' : shown.length})
          </CardTitle>
          <div className="relative w-full max-w-sm">
            <Search
              className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              type="search"
              aria-label="Search requirements"
              placeholder="Search requirements..."
              className="pl-9"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
        </CardHeader>
        <CardContent>
          {requirements.isPending ? (
            <div className="space-y-2" role="status" aria-label="Loading requirements">
              {Array.from({ length: 6 }, (_, i) => (
                <Skeleton key={i} className="h-10 w-full" />
              ))}
            </div>
          ) : requirements.isError ? (
            <p role="alert" className="text-destructive">
              The requirements could not be loaded: {errorTextFor(requirements.error)}
            </p>
          ) : shown.length === 0 ? (
            <p className="py-8 text-center text-muted-foreground">No requirements found matching your search.</p>
          ) : (
            // Relative: absolutely placed parts of a cell stay inside this scroll box instead of widening the page.
            <div className="relative overflow-x-auto">
              <table className="w-full text-sm">
                <caption className="sr-only">Requirements traceability</caption>
                <thead>
                  <tr className="border-b border-border text-left">
                    {COLUMNS.map((column) => (
                      <th key={column} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {shown.map((requirement) => {
                    const isCurrent = running && current?.reqId === requirement.reqId;
                    return (
                      <tr
                        key={requirement.reqId}
                        data-testid={`rtm-row-${requirement.reqId}`}
                        aria-current={isCurrent ? 'step' : undefined}
                        className={cn('border-b border-border align-top', isCurrent && 'bg-accent')}
                      >
                        <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap">
                          {requirement.reqId}
                        </th>
                        <td className="px-3 py-2">{requirement.description}</td>
                        <td className="px-3 py-2">{requirement.designModule}</td>
                        <td className="px-3 py-2 whitespace-nowrap">{requirement.testId}</td>
                        <td className="px-3 py-2">{requirement.kpiMetric}</td>
                        <td className="px-3 py-2">
                          <ResultCell result={results[requirement.reqId]} running={isCurrent} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
