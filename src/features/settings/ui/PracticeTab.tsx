import { useEffect } from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { toast } from '@/client/components/ui/toast';
import { can, type Role } from '@/shared/access';
import {
  APPOINTMENT_DURATIONS,
  BUFFER_CHOICES,
  WEEKDAYS,
  practiceHoursUpdateSchema,
  type PracticeHours,
  type PracticeHoursUpdate,
  type Weekday,
} from '../practice.schema';
import { usePracticeHours, useSavePracticeHours } from './settings.api';
import { SettingsSkeleton } from './SettingsSkeleton';
import { PracticeTimeZoneCard } from './PracticeTimeZoneCard';
import { PracticeBillingIdentityCard } from './PracticeBillingIdentityCard';
import { PracticeClearinghouseCard } from './PracticeClearinghouseCard';
import { showFieldErrors } from '@/client/lib/form-errors';

const DAY_NAMES: Record<Weekday, string> = {
  Mon: 'Monday',
  Tue: 'Tuesday',
  Wed: 'Wednesday',
  Thu: 'Thursday',
  Fri: 'Friday',
  Sat: 'Saturday',
  Sun: 'Sunday',
};
const FIELDS = ['appointmentMinutes', 'bufferMinutes', 'workdayStart', 'workdayEnd', 'workingDays'] as const;

/** A choice of minutes (appointment length, buffer) bound to the practice form. */
function MinutesField({
  form,
  id,
  label,
  name,
  choices,
}: {
  form: UseFormReturn<PracticeHoursUpdate>;
  id: string;
  label: string;
  name: 'appointmentMinutes' | 'bufferMinutes';
  choices: readonly number[];
}) {
  return (
    <FormField id={id} label={label} error={form.formState.errors[name]?.message}>
      {(control) => (
        <Controller
          control={form.control}
          name={name}
          render={({ field }) => (
            <Select value={String(field.value)} onValueChange={(v) => field.onChange(Number(v))}>
              <SelectTrigger {...control}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {choices.map((m) => (
                  <SelectItem key={m} value={String(m)}>
                    {m} minutes
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      )}
    </FormField>
  );
}

/**
 * The practice's hours and time zone; its billing identity too for a role that may change it (the same
 * permission its route declares, so the card is never built for a role every request of it would refuse).
 */
export function PracticeTab({ role }: { role: Role }) {
  const { data, isLoading, isError } = usePracticeHours();
  if (isError) return <p className="text-destructive">The practice settings could not be loaded.</p>;
  if (isLoading || !data) return <SettingsSkeleton label="practice settings" />;
  return (
    <div className="grid gap-6">
      <PracticeForm saved={data} />
      <PracticeTimeZoneCard />
      {can(role, 'system:admin') && <PracticeBillingIdentityCard />}
      {can(role, 'system:admin') && <PracticeClearinghouseCard />}
    </div>
  );
}

/** Appointment duration, buffer, working hours and days; saved for the whole practice. */
function PracticeForm({ saved }: { saved: PracticeHours }) {
  const save = useSavePracticeHours();
  const form = useForm<PracticeHoursUpdate>({ resolver: zodResolver(practiceHoursUpdateSchema), defaultValues: saved });
  const { errors } = form.formState;
  useEffect(() => form.reset(saved), [form, saved]);

  const submit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => toast({ title: 'Settings saved', description: 'Practice settings have been updated.' }),
      onError: (error) => {
        showFieldErrors(form.setError, error, FIELDS);
        toast({ title: 'Error', description: 'Failed to save the practice settings.', variant: 'destructive' });
      },
    }),
  );

  const daysError = errors.workingDays?.message ?? errors.workingDays?.root?.message;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Practice</CardTitle>
        <CardDescription>
          These apply to the whole practice: new appointments must fit the working days and hours.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-5 sm:grid-cols-2">
          <MinutesField
            form={form}
            id="appointment-duration"
            label="Appointment duration"
            name="appointmentMinutes"
            choices={APPOINTMENT_DURATIONS}
          />
          <MinutesField
            form={form}
            id="buffer-time"
            label="Buffer between appointments"
            name="bufferMinutes"
            choices={BUFFER_CHOICES}
          />
          <FormField id="workday-start" label="Opening time" error={errors.workdayStart?.message}>
            {(control) => <Input {...control} type="time" {...form.register('workdayStart')} />}
          </FormField>
          <FormField id="workday-end" label="Closing time" error={errors.workdayEnd?.message}>
            {(control) => <Input {...control} type="time" {...form.register('workdayEnd')} />}
          </FormField>
          <fieldset
            className="sm:col-span-2"
            aria-describedby={daysError ? 'working-days-error' : undefined}
            aria-invalid={daysError ? true : undefined}
          >
            <legend className="mb-2 text-sm font-medium">Working days</legend>
            <Controller
              control={form.control}
              name="workingDays"
              render={({ field }) => (
                <div className="flex flex-wrap gap-4">
                  {WEEKDAYS.map((day) => (
                    <label key={day} className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        className="size-4 accent-primary"
                        checked={field.value.includes(day)}
                        onChange={(event) =>
                          field.onChange(
                            event.target.checked
                              ? WEEKDAYS.filter((d) => d === day || field.value.includes(d))
                              : field.value.filter((d) => d !== day),
                          )
                        }
                      />
                      {DAY_NAMES[day]}
                    </label>
                  ))}
                </div>
              )}
            />
            {daysError && (
              <p id="working-days-error" role="alert" className="mt-1.5 text-sm font-medium text-destructive">
                Working days {daysError}
              </p>
            )}
          </fieldset>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save practice settings'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
