import { useState } from 'react';
import { CheckCircle2, Loader2, ShieldCheck, XCircle } from 'lucide-react';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { overallCheckMessage, type SecurityCheck, type SecurityCheckResult } from '../compliance.schema';
import { runSecurityCheck, useSecurityChecks } from './compliance.api';
import { errorTextFor } from '@/client/lib/error-text';

/** The checks run one after the other, this far apart, so each result can be read as it lands. */
export const CHECK_INTERVAL_MS = 500;

type CheckState =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; result: SecurityCheckResult }
  | { state: 'error'; message: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function StateIcon({ s }: { s: CheckState }) {
  if (s.state === 'running') return <Loader2 aria-hidden className="size-4 animate-spin" />;
  if (s.state === 'done' && s.result.status === 'pass')
    return <CheckCircle2 aria-hidden className="size-4 text-green-700" />;
  if (s.state === 'done' || s.state === 'error') return <XCircle aria-hidden className="size-4 text-destructive" />;
  return <ShieldCheck aria-hidden className="size-4 text-muted-foreground" />;
}

function stateText(s: CheckState): string {
  switch (s.state) {
    case 'idle':
      return 'Not run';
    case 'running':
      return 'Running…';
    case 'done':
      return `${s.result.status === 'pass' ? 'Pass' : 'Fail'}: ${s.result.message}`;
    case 'error':
      return `Fail: ${s.message}`;
  }
}

export function SecurityCheckRunner() {
  const checks = useSecurityChecks(true);
  const [states, setStates] = useState<Record<string, CheckState>>({});
  const [running, setRunning] = useState(false);
  const [overall, setOverall] = useState<string | null>(null);

  async function runAll(list: readonly SecurityCheck[]) {
    setRunning(true);
    setOverall(null);
    setStates(Object.fromEntries(list.map((c) => [c.checkId, { state: 'idle' }])));
    const outcomes: { status: 'pass' | 'fail' }[] = [];
    for (const [index, check] of list.entries()) {
      if (index > 0) await sleep(CHECK_INTERVAL_MS);
      setStates((prev) => ({ ...prev, [check.checkId]: { state: 'running' } }));
      try {
        const result = await runSecurityCheck(check.checkId);
        outcomes.push(result);
        setStates((prev) => ({ ...prev, [check.checkId]: { state: 'done', result } }));
      } catch (error) {
        // A check that could not run is not a pass.
        outcomes.push({ status: 'fail' });
        const message = errorTextFor(error);
        setStates((prev) => ({ ...prev, [check.checkId]: { state: 'error', message } }));
      }
    }
    const message = overallCheckMessage(outcomes);
    setOverall(message);
    setRunning(false);
    const passed = outcomes.filter((o) => o.status === 'pass').length;
    toast({
      title: message,
      description: `${passed}/${outcomes.length} security checks passed`,
      variant: passed === outcomes.length ? 'default' : 'destructive',
    });
  }

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
        <div>
          <CardTitle as="h2">Security checks</CardTitle>
          <CardDescription>Each check tests the running system and reports what it finds.</CardDescription>
        </div>
        <Button onClick={() => checks.data && void runAll(checks.data)} disabled={running || !checks.data}>
          {running ? 'Running security checks…' : 'Run security checks'}
        </Button>
      </CardHeader>
      <CardContent>
        {checks.isLoading ? (
          <div className="space-y-2" aria-busy="true" aria-label="Loading security checks">
            <Skeleton className="h-6 w-full" />
            <Skeleton className="h-6 w-full" />
            <Skeleton className="h-6 w-full" />
          </div>
        ) : checks.isError ? (
          <p role="alert">The security checks could not be loaded.</p>
        ) : (
          <ul className="divide-y" aria-label="Security check results">
            {(checks.data ?? []).map((check) => {
              const s = states[check.checkId] ?? { state: 'idle' };
              return (
                <li
                  key={check.checkId}
                  className="py-3"
                  data-testid={`check-${check.checkId}`}
                  data-state={s.state === 'done' ? s.result.status : s.state === 'error' ? 'fail' : s.state}
                >
                  <div className="flex flex-wrap items-center gap-2">
                    <StateIcon s={s} />
                    <span className="font-medium">{check.name}</span>
                    <span className="text-sm" aria-live="polite">
                      {stateText(s)}
                    </span>
                  </div>
                  <p className="text-sm text-muted-foreground">{check.description}</p>
                  {s.state === 'done' && s.result.details.length > 0 && (
                    <ul className="mt-1 list-disc pl-6 text-sm text-muted-foreground">
                      {s.result.details.map((d) => (
                        <li key={d}>{d}</li>
                      ))}
                    </ul>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {overall && (
          <p role="status" className="mt-4 font-semibold">
            {overall}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
