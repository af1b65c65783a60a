import { practiceNow } from '@/shared/practice-zone';
import { useMemo } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { formatDateTime } from '@/shared/dates';
import { Button } from '@/client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/client/components/ui/dialog';
import { Input } from '@/client/components/ui/input';
import { toast } from '@/client/components/ui/toast';
import type { PracticeHours } from '@/features/settings/practice.schema';
import { bookingProblem, clinicNow, rescheduleSchema, type Appointment, type Reschedule } from '../appointments.schema';
import { usePracticeHours, useReschedule } from './appointments.api';
import { FormField, invalidProps } from '@/client/components/ui/form-field';
import { TimeSelect } from './TimeSelect';
import { showServerErrors } from './form-errors';

function rescheduleRules(hours: PracticeHours | undefined) {
  return rescheduleSchema.superRefine((value, ctx) => {
    const problem = hours && bookingProblem(hours, clinicNow(practiceNow()), value.date, value.time);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
}

/** A new date and a new time, both required; the status stays as it is. */
export function RescheduleDialog({
  appointment,
  open,
  onOpenChange,
}: {
  appointment: Appointment;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const hours = usePracticeHours();
  const reschedule = useReschedule();
  const schema = useMemo(() => rescheduleRules(hours.data), [hours.data]);
  const form = useForm<Reschedule>({ resolver: zodResolver(schema), defaultValues: { date: '', time: '' } });
  const { errors } = form.formState;
  const chosenDate = useWatch({ control: form.control, name: 'date' });
  const idPrefix = `reschedule-${appointment.id}`;
  const close = () => {
    form.reset();
    onOpenChange(false);
  };

  const submit = form.handleSubmit((values) =>
    reschedule.mutateAsync({ id: appointment.id, ...values }).then(
      () => {
        toast({ title: 'Appointment rescheduled', description: 'Appointment date and time have been updated' });
        close();
      },
      (error: unknown) => showServerErrors(error, ['date', 'time'], form.setError, 'Could not reschedule'),
    ),
  );

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reschedule Appointment</DialogTitle>
          <DialogDescription>
            {appointment.patient} with {appointment.provider}, now on{' '}
            {formatDateTime(appointment.date, appointment.time)}.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
          <FormField id={`${idPrefix}-date`} label="New date" error={errors.date?.message}>
            <Input
              id={`${idPrefix}-date`}
              type="date"
              {...form.register('date')}
              {...invalidProps(`${idPrefix}-date`, errors.date?.message)}
            />
          </FormField>
          <FormField id={`${idPrefix}-time`} label="New time" error={errors.time?.message}>
            <Controller
              control={form.control}
              name="time"
              render={({ field }) => (
                <TimeSelect
                  id={`${idPrefix}-time`}
                  value={field.value}
                  onChange={field.onChange}
                  error={errors.time?.message}
                  slotsFor={{ date: chosenDate, appointmentId: appointment.id }}
                  waitingFor="Choose a date first"
                />
              )}
            />
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={reschedule.isPending}>
              {reschedule.isPending ? 'Saving…' : 'Reschedule'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
