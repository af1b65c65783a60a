import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { zodResolver } from '@hookform/resolvers/zod';
import { roleLabel } from '@/shared/access';
import { Button } from '@/client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/client/components/ui/dialog';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { toast } from '@/client/components/ui/toast';
import { showFieldErrors } from '@/client/lib/form-errors';
import { ASSIGNABLE_ROLES, newUserSchema, type CreatedUser, type NewUser } from '../users.schema';
import { useCreateUser } from './users.api';

/**
 * Creates an account and shows its temporary password once; the person signs in with it (and the MFA
 * step) and changes it on the Security tab.
 */
export function CreateUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateUser();
  const [created, setCreated] = useState<CreatedUser | null>(null);
  const form = useForm<z.input<typeof newUserSchema>, unknown, NewUser>({
    resolver: zodResolver(newUserSchema),
    defaultValues: { name: '', email: '', role: 'nurse_manager' },
  });
  const { errors } = form.formState;
  const close = () => {
    form.reset();
    create.reset();
    setCreated(null);
    onClose();
  };

  const submit = form.handleSubmit((values) =>
    create.mutate(values, {
      onSuccess: (result) => {
        setCreated(result);
        toast({ title: 'User created', description: `${result.user.name} can now sign in.` });
      },
      onError: (error) => {
        if (showFieldErrors(form.setError, error, ['name', 'email', 'role']) === 0) {
          toast({ title: 'Error', description: 'Failed to create the user.', variant: 'destructive' });
        }
      },
    }),
  );

  return (
    <Dialog open={open} onOpenChange={(next) => !next && !create.isPending && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{created ? 'User created' : 'Add user'}</DialogTitle>
          <DialogDescription>
            {created
              ? 'Give this temporary password to the person in a safe way. It is shown only now.'
              : 'Patient accounts are created from a patient record (Create Patient Account), not here.'}
          </DialogDescription>
        </DialogHeader>
        {created ? (
          <div className="space-y-4">
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Name</dt>
              <dd>{created.user.name}</dd>
              <dt className="text-muted-foreground">Email</dt>
              <dd>{created.user.email}</dd>
              <dt className="text-muted-foreground">Role</dt>
              <dd className="capitalize">{roleLabel(created.user.role)}</dd>
              <dt className="text-muted-foreground">Temporary password</dt>
              <dd>
                <code data-testid="temporary-password" className="rounded bg-muted px-2 py-1 font-mono text-base">
                  {created.temporaryPassword}
                </code>
              </dd>
            </dl>
            <DialogFooter>
              <Button onClick={close}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
            <FormField id="new-user-name" label="Name" error={errors.name?.message}>
              {(control) => <Input {...control} autoComplete="off" {...form.register('name')} />}
            </FormField>
            <FormField id="new-user-email" label="Email" error={errors.email?.message}>
              {(control) => <Input {...control} type="email" autoComplete="off" {...form.register('email')} />}
            </FormField>
            <FormField id="new-user-role" label="Role" error={errors.role?.message}>
              {(control) => (
                <Controller
                  control={form.control}
                  name="role"
                  render={({ field }) => (
                    <Select value={field.value} onValueChange={field.onChange}>
                      <SelectTrigger {...control} className="capitalize">
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        {ASSIGNABLE_ROLES.map((role) => (
                          <SelectItem key={role} value={role} className="capitalize">
                            {roleLabel(role)}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  )}
                />
              )}
            </FormField>
            <DialogFooter>
              <Button variant="outline" onClick={close} disabled={create.isPending}>
                Cancel
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? 'Creating…' : 'Create user'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
