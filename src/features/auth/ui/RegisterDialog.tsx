import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { UserPlus } from 'lucide-react';
import { showFieldErrors } from '@/client/lib/form-errors';
import { Button } from '@/client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/client/components/ui/dialog';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { toast } from '@/client/components/ui/toast';
import { today } from '@/shared/api';
import { dobSchemaOn } from '@/features/patients/patients.schema';
import { MIN_PASSWORD_LENGTH, registrationSchema } from '../auth.schema';
import { rememberEmailForSignIn, useLogout, useRegister } from './auth.api';

const registerFormSchema = registrationSchema
  .extend({
    dob: z.string().min(1, 'is required').pipe(dobSchemaOn(today())),
    confirmPassword: z.string().min(1, 'is required'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'must match the password',
  });
type RegisterInput = z.input<typeof registerFormSchema>;
type RegisterValues = z.output<typeof registerFormSchema>;

const FIELDS = ['name', 'dob', 'phone', 'email', 'password'] as const;
const EMPTY: RegisterInput = { name: '', dob: '', phone: '', email: '', password: '', confirmPassword: '' };

/**
 * 'Create Patient Account' on the guest landing. The server creates the patient record and
 * its user; the guest is then signed out so the new account can sign in (both steps) on its own.
 */
export function RegisterDialog() {
  const [open, setOpen] = useState(false);
  const register = useRegister();
  const logout = useLogout();
  const form = useForm<RegisterInput, unknown, RegisterValues>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(({ confirmPassword: _confirm, ...body }) =>
    register.mutate(body, {
      onSuccess: (created) => {
        rememberEmailForSignIn(created.email);
        toast({ title: 'Account created', description: 'Sign in with your new email and password.' });
        setOpen(false);
        logout.mutate();
      },
      onError: (error) => {
        showFieldErrors(form.setError, error, FIELDS);
        toast({ title: 'Error', description: 'Failed to create account', variant: 'destructive' });
      },
    }),
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset(EMPTY);
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <UserPlus className="size-4" aria-hidden="true" /> Create Patient Account
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create Patient Account</DialogTitle>
          <DialogDescription>Register to see your visits and bills. All fields are required.</DialogDescription>
        </DialogHeader>
        <form className="space-y-4" onSubmit={(e) => void submit(e)} noValidate>
          <FormField id="register-name" label="Full name" error={errors.name?.message}>
            {(control) => <Input {...control} autoComplete="name" {...form.register('name')} />}
          </FormField>
          <FormField id="register-dob" label="Date of birth" error={errors.dob?.message}>
            {(control) => <Input {...control} type="date" autoComplete="bday" {...form.register('dob')} />}
          </FormField>
          <FormField id="register-phone" label="Phone" error={errors.phone?.message}>
            {(control) => <Input {...control} type="tel" autoComplete="tel" {...form.register('phone')} />}
          </FormField>
          <FormField id="register-email" label="Email" error={errors.email?.message}>
            {(control) => <Input {...control} type="email" autoComplete="email" {...form.register('email')} />}
          </FormField>
          <FormField
            id="register-password"
            label="Password"
            hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
            error={errors.password?.message}
          >
            {(control) => (
              <Input {...control} type="password" autoComplete="new-password" {...form.register('password')} />
            )}
          </FormField>
          <FormField id="register-confirm" label="Confirm password" error={errors.confirmPassword?.message}>
            {(control) => (
              <Input {...control} type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
            )}
          </FormField>
          <DialogFooter>
            <Button type="submit" disabled={register.isPending || logout.isPending}>
              {register.isPending ? 'Creating account…' : 'Create account'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
