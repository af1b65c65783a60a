import { useState } from 'react';
import { format, parseISO } from 'date-fns';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client';
import { Button } from '@/client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/client/components/ui/dialog';
import { Skeleton } from '@/client/components/ui/skeleton';
import { countOf } from '@/shared/plural';
import { MISSED_CHARGE_VISITS_LIMIT, type MissedChargeVisits } from '../analytics.schema';
import { ANALYTICS_PATH } from './analytics.api';

/** '14:30' → '2:30 PM'. */
function twelveHour(time: string): string {
  return format(parseISO(`2000-01-01T${time}`), 'h:mm a');
}

const th = 'px-2 py-2 text-left font-medium text-muted-foreground';
const td = 'px-2 py-2 align-top';

function MissedVisits({ periodDays }: { periodDays: number }) {
  const missed = useQuery({
    queryKey: [ANALYTICS_PATH, 'kpis', 'charge-capture', 'missed', periodDays],
    queryFn: ({ signal }) =>
      apiFetch<MissedChargeVisits>(`${ANALYTICS_PATH}/kpis/charge-capture/missed?periodDays=${periodDays}`, {
        signal,
      }),
  });
  if (missed.isPending) return <Skeleton className="h-32 w-full" aria-label="Loading missed visits" />;
  if (missed.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        The visits could not be loaded: {missed.error.message}
      </p>
    );
  const { visits } = missed.data;
  if (visits.length === 0) return <p className="text-muted-foreground">Every completed visit has a claim</p>;
  return (
    <div className="max-h-[60vh] overflow-auto" tabIndex={0} role="region" aria-label="Missed visits (scrollable)">
      <table aria-label="Completed visits without a claim" className="w-full border-collapse text-sm">
        <thead>
          <tr className="border-b border-border">
            {['Date', 'Time', 'Patient', 'Provider', 'Reason'].map((header) => (
              <th key={header} scope="col" className={th}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {visits.map((visit) => (
            <tr key={visit.appointmentId} className="border-b border-border">
              <td className={`${td} whitespace-nowrap`}>{format(parseISO(visit.date), 'MMM d, yyyy')}</td>
              <td className={`${td} whitespace-nowrap`}>{twelveHour(visit.time)}</td>
              <td className={td}>{visit.patientName}</td>
              <td className={td}>{visit.provider}</td>
              <td className={td}>{visit.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-sm text-muted-foreground">
        {visits.length === MISSED_CHARGE_VISITS_LIMIT
          ? `The ${MISSED_CHARGE_VISITS_LIMIT} most recent are shown`
          : countOf(visits.length, 'visit')}
      </p>
    </div>
  );
}

/**
 * Charge Capture Accuracy's drill-down: the completed visits of the period that no claim bills (missed
 * charges), loaded when opened. The server audits the read: it names patients.
 */
export function MissedChargesDialog({ periodDays }: { periodDays: number }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="link" className="h-auto self-start p-0 text-xs">
          Show missed visits
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Completed visits without a claim</DialogTitle>
          <DialogDescription>
            Visits of the last {periodDays} days whose charges were never billed, newest first.
          </DialogDescription>
        </DialogHeader>
        {open && <MissedVisits periodDays={periodDays} />}
      </DialogContent>
    </Dialog>
  );
}
