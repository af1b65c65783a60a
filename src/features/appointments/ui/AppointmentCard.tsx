import { practiceNow } from '@/shared/practice-zone';
import { formatDate } from '@/shared/dates';
import { useId, useState } from 'react';
import { CalendarClock, Clock, ShieldCheck, Stethoscope, User } from 'lucide-react';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Label } from '@/client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { toast } from '@/client/components/ui/toast';
import { statusVariant } from '@/client/lib/status-variant';
import {
  APPOINTMENT_STATUSES,
  appointmentStatusSchema,
  clinicNow,
  formatTime12,
  statusProblem,
  type Appointment,
} from '../appointments.schema';
import { useCheckVisitEligibility, useUpdateStatus } from './appointments.api';
import { ELIGIBILITY_STATE_LABELS, type EligibilityBrief } from '@/features/coverage/coverage.eligibility.schema';
import { RescheduleDialog } from './RescheduleDialog';
import { serverMessageOf } from './form-errors';

const ELIGIBILITY_VARIANT: Record<
  EligibilityBrief['state'],
  'info' | 'destructive' | 'warning' | 'secondary' | 'outline'
> = { active: 'info', inactive: 'destructive', rejected: 'warning', awaiting: 'secondary', unknown: 'outline' };

/**
 * One visit of the chosen day: time (12-hour), patient, provider, reason, the primary policy's eligibility for the
 * day, status and its actions.
 */
export function AppointmentCard({
  appointment,
  canCheckEligibility = false,
}: {
  appointment: Appointment;
  /** The role may ask payers about eligibility (eligibility:check). */
  canCheckEligibility?: boolean;
}) {
  const titleId = useId();
  const statusId = useId();
  const [rescheduling, setRescheduling] = useState(false);
  const update = useUpdateStatus();
  const checkEligibility = useCheckVisitEligibility();
  const eligibilityCoverage = appointment.eligibility?.coverageId ?? null;
  const askPayer = () => {
    if (eligibilityCoverage === null) return;
    checkEligibility.mutate(
      { coverageId: eligibilityCoverage, serviceDate: appointment.date },
      {
        onSuccess: () =>
          toast({
            title: 'Eligibility asked',
            description: `A 270 asks the payer about ${appointment.patient}'s policy for ${formatDate(appointment.date)}`,
          }),
        onError: (error) =>
          toast({ title: 'Could not ask the payer', description: serverMessageOf(error), variant: 'destructive' }),
      },
    );
  };
  const time = formatTime12(appointment.time);
  // While a change is on its way the dropdown already shows it.
  const shownStatus = update.isPending ? update.variables.status : appointment.status;
  // Completed and No-Show are offered once the visit has started (the server refuses them before).
  const now = clinicNow(practiceNow());
  const offered = APPOINTMENT_STATUSES.filter(
    (status) => status === shownStatus || !statusProblem(status, appointment, now),
  );

  const changeStatus = (value: string) => {
    const status = appointmentStatusSchema.parse(value);
    if (status === appointment.status) return;
    update.mutate(
      { id: appointment.id, status },
      {
        onSuccess: () => toast({ title: 'Status updated', description: 'Appointment status has been changed' }),
        onError: (error) =>
          toast({ title: 'Could not update the status', description: serverMessageOf(error), variant: 'destructive' }),
      },
    );
  };

  return (
    <Card role="article" aria-labelledby={titleId} data-testid="appointment-card">
      <CardHeader className="flex-row items-start justify-between gap-3 pb-3">
        <div className="grid gap-1">
          <CardTitle as="h3" id={titleId} className="flex items-center gap-2">
            <Clock className="size-4 text-muted-foreground" aria-hidden="true" />
            {time}
            <span className="sr-only">, {appointment.patient}</span>
          </CardTitle>
        </div>
        <Badge variant={statusVariant(shownStatus)}>{shownStatus}</Badge>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-1.5 text-sm">
          <div className="flex items-center gap-2">
            <User className="size-4 text-muted-foreground" aria-hidden="true" />
            <dt className="sr-only">Patient</dt>
            <dd className="font-medium">{appointment.patient}</dd>
          </div>
          <div className="flex items-center gap-2">
            <Stethoscope className="size-4 text-muted-foreground" aria-hidden="true" />
            <dt className="sr-only">Provider</dt>
            <dd>{appointment.provider}</dd>
          </div>
          <div className="flex items-center gap-2">
            <CalendarClock className="size-4 text-muted-foreground" aria-hidden="true" />
            <dt className="sr-only">Reason</dt>
            <dd className="text-muted-foreground">{appointment.reason}</dd>
          </div>
          {appointment.eligibility && (
            <div className="flex items-center gap-2">
              <ShieldCheck className="size-4 text-muted-foreground" aria-hidden="true" />
              <dt className="sr-only">Eligibility</dt>
              <dd className="flex flex-wrap items-center gap-2">
                <Badge variant={ELIGIBILITY_VARIANT[appointment.eligibility.state]}>
                  {`Coverage: ${ELIGIBILITY_STATE_LABELS[appointment.eligibility.state]}`}
                </Badge>
                {appointment.eligibility.detail && (
                  <span className="text-xs text-muted-foreground">{appointment.eligibility.detail}</span>
                )}
                {canCheckEligibility &&
                  eligibilityCoverage !== null &&
                  appointment.eligibility.state !== 'awaiting' &&
                  appointment.status !== 'Cancelled' && (
                    <Button
                      size="sm"
                      variant="outline"
                      className="h-7"
                      aria-label={`Check eligibility for ${appointment.patient}'s visit at ${time}`}
                      disabled={checkEligibility.isPending}
                      onClick={askPayer}
                    >
                      {checkEligibility.isPending ? 'Asking…' : 'Check eligibility'}
                    </Button>
                  )}
              </dd>
            </div>
          )}
        </dl>
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid min-w-40 flex-1 gap-1.5">
            <Label htmlFor={statusId}>Status</Label>
            <Select value={shownStatus} onValueChange={changeStatus} disabled={update.isPending}>
              <SelectTrigger id={statusId} aria-label={`Status for ${appointment.patient} at ${time}`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {offered.map((status) => (
                  <SelectItem key={status} value={status}>
                    {status}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <Button
            variant="outline"
            onClick={() => setRescheduling(true)}
            aria-label={`Reschedule ${appointment.patient} at ${time}`}
          >
            <CalendarClock className="size-4" aria-hidden="true" />
            Reschedule
          </Button>
        </div>
      </CardContent>
      <RescheduleDialog appointment={appointment} open={rescheduling} onOpenChange={setRescheduling} />
    </Card>
  );
}
