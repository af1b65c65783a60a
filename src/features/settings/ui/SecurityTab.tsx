import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { toast } from '@/client/components/ui/toast';
import { MIN_PASSWORD_LENGTH, passwordChangeSchema } from '@/features/auth/auth.schema';
import { useChangePassword } from './settings.api';
import { showFieldErrors } from '@/client/lib/form-errors';

/** The server's rules plus a confirmation typed twice, checked only here. */
const securityFormSchema = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirmPassword: z.string() })
  .superRefine((value, ctx) => {
    const checked = passwordChangeSchema.safeParse({
      currentPassword: value.currentPassword,
      newPassword: value.newPassword,
    });
    if (!checked.success) {
      for (const issue of checked.error.issues)
        ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
    if (value.confirmPassword !== value.newPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'must match the new password' });
    }
  });
type SecurityForm = z.infer<typeof securityFormSchema>;

/** `onChanged`: what else to do once the password is changed (the first-sign-in screen lets the user in). */
export function SecurityTab({ onChanged }: { onChanged?: () => void } = {}) {
  const change = useChangePassword();
  const form = useForm<SecurityForm>({
    resolver: zodResolver(securityFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: ({ endedSessions }) => {
          form.reset();
          onChanged?.();
          toast({
            title: 'Password changed',
            description:
              endedSessions > 0
                ? `Your other sessions (${endedSessions}) have been signed out.`
                : 'Use your new password the next time you sign in.',
          });
        },
        onError: (error) => {
          if (showFieldErrors(form.setError, error, ['currentPassword', 'newPassword']) === 0) {
            toast({ title: 'Error', description: 'Failed to change the password.', variant: 'destructive' });
          }
        },
      },
    ),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Security</CardTitle>
        <CardDescription>
          Change your password. It must be at least {MIN_PASSWORD_LENGTH} characters and differ from the current one;
          your other sessions are signed out.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid max-w-md gap-4">
          <FormField id="current-password" label="Current password" error={errors.currentPassword?.message}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="current-password"
                {...form.register('currentPassword')}
              />
            )}
          </FormField>
          <FormField
            id="new-password"
            label="New password"
            error={errors.newPassword?.message}
            hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
          >
            {(control) => (
              <Input {...control} type="password" autoComplete="new-password" {...form.register('newPassword')} />
            )}
          </FormField>
          <FormField id="confirm-password" label="Confirm new password" error={errors.confirmPassword?.message}>
            {(control) => (
              <Input {...control} type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
            )}
          </FormField>
          <div>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Changing…' : 'Change password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
