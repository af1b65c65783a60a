import { useId } from 'react';
import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { Button } from '@/client/components/ui/button';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { can, type Role } from '@/shared/access';
import { formatDate } from '@/shared/dates';
import { ELIGIBILITY_STATE_LABELS } from '@/features/coverage/coverage.eligibility.schema';
import { formatTime12 } from '../appointments.schema';
import { useCheckNextDay, useUncoveredNextDay } from './appointments.api';
import { serverMessageOf } from './form-errors';

/** Shown at most; the rest are counted (the front desk opens the day for all of them). */
const SHOWN = 8;

/**
 * The front desk's notice: the next working day's visits whose primary policy is inactive, rejected, awaiting the
 * payer's answer, never checked, or missing, so the patient can be called before they come.
 */
export function UncoveredVisitsNotice({ role, onOpenDay }: { role: Role; onOpenDay: (day: string) => void }) {
  const headingId = useId();
  const uncovered = useUncoveredNextDay();
  const check = useCheckNextDay();

  if (uncovered.isLoading) {
    return <Skeleton className="mb-6 h-20 w-full" aria-label="Loading tomorrow's coverage" aria-busy="true" />;
  }
  if (uncovered.isError) {
    return (
      <p role="alert" className="mb-6 text-sm text-destructive">
        The next day&apos;s coverage could not be loaded: {serverMessageOf(uncovered.error)}
      </p>
    );
  }
  const data = uncovered.data;
  if (!data?.date) return null;
  const day = data.date;
  const list = data.appointments;

  const runCheck = () =>
    check.mutate(undefined, {
      onSuccess: (result) =>
        toast({
          title: 'Eligibility asked',
          description:
            result.coverages === 0
              ? `Every policy of ${formatDate(result.serviceDate)}'s visits is asked about already`
              : `A 270 asks the payers about ${result.coverages} ${result.coverages === 1 ? 'policy' : 'policies'} of ${formatDate(result.serviceDate)}'s visits`,
        }),
      onError: (error) =>
        toast({ title: 'Could not ask the payers', description: serverMessageOf(error), variant: 'destructive' }),
    });

  return (
    <section
      aria-labelledby={headingId}
      className={`mb-6 rounded-md border p-4 ${list.length > 0 ? 'border-amber-300 bg-amber-50' : 'border-border'}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="flex items-center gap-2 font-medium">
          {list.length > 0 ? (
            <ShieldAlert className="size-4 text-amber-700" aria-hidden="true" />
          ) : (
            <ShieldCheck className="size-4 text-muted-foreground" aria-hidden="true" />
          )}
          {list.length > 0
            ? `${list.length} ${list.length === 1 ? 'visit' : 'visits'} on ${formatDate(day)} not known to be covered`
            : `Every visit on ${formatDate(day)} is covered by an active policy`}
        </h2>
        <div className="flex flex-wrap gap-2">
          {list.length > 0 && (
            <Button size="sm" variant="outline" onClick={() => onOpenDay(day)}>
              Open {formatDate(day)}
            </Button>
          )}
          {can(role, 'eligibility:check') && (
            <Button size="sm" variant="outline" onClick={runCheck} disabled={check.isPending}>
              {check.isPending ? 'Asking…' : `Check eligibility for ${formatDate(day)}`}
            </Button>
          )}
        </div>
      </div>
      {list.length > 0 && (
        <ul className="mt-2 grid gap-1 text-sm">
          {list.slice(0, SHOWN).map((a) => (
            <li key={a.appointmentId}>
              <span className="font-medium">{formatTime12(a.time)}</span> {a.patient} with {a.provider}:{' '}
              <span className="font-medium">{ELIGIBILITY_STATE_LABELS[a.eligibility.state]}</span>
              {a.payer ? ` (${a.payer})` : ''}
              {a.eligibility.detail ? ` — ${a.eligibility.detail}` : ''}
            </li>
          ))}
          {list.length > SHOWN && <li className="text-muted-foreground">and {list.length - SHOWN} more</li>}
        </ul>
      )}
    </section>
  );
}
