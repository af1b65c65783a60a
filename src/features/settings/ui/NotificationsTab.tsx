import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { FormField } from '@/client/components/ui/form-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { Switch } from '@/client/components/ui/switch';
import { toast } from '@/client/components/ui/toast';
import {
  EMAIL_REMINDER_HOURS,
  SMS_REMINDER_HOURS,
  notificationSettingsSchema,
  type NotificationSettings,
  type NotificationsResponse,
} from '../settings.schema';
import { useNotificationSettings, useSaveNotificationSettings } from './settings.api';
import { SettingsSkeleton } from './SettingsSkeleton';
import { showFieldErrors } from '@/client/lib/form-errors';

const FIELDS = ['email', 'sms', 'push', 'emailReminderHours', 'smsReminderHours'] as const;

function hoursLabel(hours: number): string {
  if (hours === 168) return '1 week before';
  return `${hours} hour${hours === 1 ? '' : 's'} before`;
}

export function NotificationsTab() {
  const { data, isLoading, isError } = useNotificationSettings();
  if (isError) return <p className="text-destructive">The notification settings could not be loaded.</p>;
  if (isLoading || !data) return <SettingsSkeleton label="notification settings" />;
  return <NotificationsForm saved={data} />;
}

/**
 * Email, SMS and push toggles and reminder timings. Staff edit the practice's settings; a
 * patient or guest edits their own preferences (the server decides which from the session).
 */
function NotificationsForm({ saved }: { saved: NotificationsResponse }) {
  const save = useSaveNotificationSettings();
  const form = useForm<NotificationSettings>({
    resolver: zodResolver(notificationSettingsSchema),
    defaultValues: saved.settings,
  });
  const { errors } = form.formState;
  useEffect(() => form.reset(saved.settings), [form, saved]);

  const submit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => toast({ title: 'Settings saved', description: 'Notification settings have been updated.' }),
      onError: (error) => {
        showFieldErrors(form.setError, error, FIELDS);
        toast({ title: 'Error', description: 'Failed to save the notification settings.', variant: 'destructive' });
      },
    }),
  );

  const toggle = (name: 'email' | 'sms' | 'push', id: string, label: string, hint: string) => (
    <FormField id={id} label={label} hint={hint} error={errors[name]?.message}>
      {(control) => (
        <Controller
          control={form.control}
          name={name}
          render={({ field }) => <Switch {...control} checked={field.value} onCheckedChange={field.onChange} />}
        />
      )}
    </FormField>
  );
  const timing = (
    name: 'emailReminderHours' | 'smsReminderHours',
    id: string,
    label: string,
    choices: readonly number[],
  ) => (
    <FormField id={id} label={label} error={errors[name]?.message}>
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
                {choices.map((h) => (
                  <SelectItem key={h} value={String(h)}>
                    {hoursLabel(h)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      )}
    </FormField>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Notifications</CardTitle>
        <CardDescription>
          {saved.scope === 'practice'
            ? 'How the practice reminds patients of their appointments. This applies to the whole practice.'
            : 'How you would like to be reminded of your appointments. Only your own preferences change.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-5 sm:grid-cols-2">
          {toggle('email', 'notify-email', 'Email notifications', 'Appointment reminders and statements by email')}
          {toggle('sms', 'notify-sms', 'SMS notifications', 'Text message reminders')}
          {toggle('push', 'notify-push', 'Push notifications', 'Notifications in the browser or app')}
          <div className="hidden sm:block" />
          {timing('emailReminderHours', 'email-reminder', 'Email reminder', EMAIL_REMINDER_HOURS)}
          {timing('smsReminderHours', 'sms-reminder', 'SMS reminder', SMS_REMINDER_HOURS)}
          <div className="sm:col-span-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save notification settings'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
