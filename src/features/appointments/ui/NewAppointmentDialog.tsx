import { practiceNow } from '@/shared/practice-zone';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
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
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { toast } from '@/client/components/ui/toast';
import type { PracticeHours } from '@/features/settings/practice.schema';
import { bookingProblem, clinicNow, newAppointmentSchema, type NewAppointment } from '../appointments.schema';
import { useCreateAppointment, usePracticeHours, useProviders, type PatientName } from './appointments.api';
import { FormField, invalidProps } from '@/client/components/ui/form-field';
import { PatientPicker } from './PatientPicker';
import { TimeSelect } from './TimeSelect';
import { showServerErrors } from './form-errors';

const FIELDS = ['patientId', 'providerId', 'reason', 'date', 'time'] as const;

function bookingRules(hours: PracticeHours | undefined) {
  return newAppointmentSchema.superRefine((value, ctx) => {
    const problem = hours && bookingProblem(hours, clinicNow(practiceNow()), value.date, value.time);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
}

type FormValues = z.input<typeof newAppointmentSchema>;

/** 'New Appointment' books a visit; the server re-checks hours and double booking. */
export function NewAppointmentDialog({
  open,
  onOpenChange,
  defaultDate,
  onBooked,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  defaultDate: string;
  onBooked: (date: string) => void;
}) {
  const hours = usePracticeHours();
  const providers = useProviders();
  const create = useCreateAppointment();
  const [patient, setPatient] = useState<PatientName | null>(null);
  const schema = useMemo(() => bookingRules(hours.data), [hours.data]);
  const emptyForm = { reason: '', date: defaultDate, time: '' };
  const form = useForm<FormValues, unknown, NewAppointment>({
    resolver: zodResolver(schema),
    defaultValues: emptyForm,
  });
  const { errors } = form.formState;
  const [chosenProvider, chosenDate] = useWatch({ control: form.control, name: ['providerId', 'date'] });

  const close = () => {
    form.reset(emptyForm);
    setPatient(null);
    onOpenChange(false);
  };

  const submit = form.handleSubmit((values) =>
    create.mutateAsync(values).then(
      (booked) => {
        toast({
          title: 'Appointment booked',
          description: `${booked.patient} with ${booked.provider} on ${formatDateTime(booked.date, booked.time)}`,
        });
        onBooked(booked.date);
        close();
      },
      (error: unknown) => showServerErrors(error, FIELDS, form.setError, 'Appointment not booked'),
    ),
  );

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New Appointment</DialogTitle>
          <DialogDescription>Book a visit with one of the practice's providers.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
          <FormField id="new-appointment-patient" label="Patient" error={errors.patientId?.message}>
            <Controller
              control={form.control}
              name="patientId"
              render={({ field }) => (
                <PatientPicker
                  id="new-appointment-patient"
                  value={patient}
                  onChange={(chosen) => {
                    setPatient(chosen);
                    field.onChange(chosen?.id);
                  }}
                  error={errors.patientId?.message}
                />
              )}
            />
          </FormField>
          <FormField id="new-appointment-provider" label="Provider" error={errors.providerId?.message}>
            <Controller
              control={form.control}
              name="providerId"
              render={({ field }) => (
                <Select
                  value={field.value === undefined ? '' : String(field.value)}
                  onValueChange={(id) => field.onChange(Number(id))}
                  disabled={!providers.data}
                >
                  <SelectTrigger
                    id="new-appointment-provider"
                    {...invalidProps('new-appointment-provider', errors.providerId?.message)}
                  >
                    <SelectValue placeholder={providers.isLoading ? 'Loading providers…' : 'Choose a provider'} />
                  </SelectTrigger>
                  <SelectContent>
                    {(providers.data ?? []).map((provider) => (
                      <SelectItem key={provider.id} value={String(provider.id)}>
                        {provider.name} ({provider.specialty})
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          </FormField>
          <FormField id="new-appointment-reason" label="Reason" error={errors.reason?.message}>
            <Input
              id="new-appointment-reason"
              maxLength={200}
              {...form.register('reason')}
              {...invalidProps('new-appointment-reason', errors.reason?.message)}
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="new-appointment-date" label="Date" error={errors.date?.message}>
              <Input
                id="new-appointment-date"
                type="date"
                {...form.register('date')}
                {...invalidProps('new-appointment-date', errors.date?.message)}
              />
            </FormField>
            <FormField id="new-appointment-time" label="Time" error={errors.time?.message}>
              <Controller
                control={form.control}
                name="time"
                render={({ field }) => (
                  <TimeSelect
                    id="new-appointment-time"
                    value={field.value}
                    onChange={field.onChange}
                    error={errors.time?.message}
                    slotsFor={{ date: chosenDate ?? '', providerId: chosenProvider, patientId: patient?.id }}
                    waitingFor="Choose a provider first"
                  />
                )}
              />
            </FormField>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Booking…' : 'Book Appointment'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
