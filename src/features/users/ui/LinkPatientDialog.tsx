import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { zodResolver } from '@hookform/resolvers/zod';
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
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { patientLinkSchema, type ManagedUser, type PatientLink } from '../users.schema';
import { useLinkPatient } from './users.api';

/**
 * Links a patient account to a patient record by the record's MRN: how a self-registered account that lost
 * its record (reset, re-seed) gets one again. The server refuses a record that already has an account.
 */
export function LinkPatientDialog({ user, onClose }: { user: ManagedUser | null; onClose: () => void }) {
  const link = useLinkPatient();
  const form = useForm<z.input<typeof patientLinkSchema>, unknown, PatientLink>({
    resolver: zodResolver(patientLinkSchema),
    defaultValues: { mrn: '' },
  });
  const { errors } = form.formState;
  const close = () => {
    form.reset();
    link.reset();
    onClose();
  };

  const submit = form.handleSubmit((values) => {
    if (!user) return;
    link.mutate(
      { id: user.id, link: values },
      {
        onSuccess: (linked) => {
          toast({ title: 'Patient record linked', description: `${linked.name} is linked to ${values.mrn}.` });
          close();
        },
        onError: (error) => {
          const field = error instanceof ApiError ? error.fields.find((f) => f.field === 'mrn') : undefined;
          if (field) form.setError('mrn', { message: field.message });
          else {
            toast({
              title: 'Patient record not linked',
              description: error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Please try again.',
              variant: 'destructive',
            });
          }
        },
      },
    );
  });

  return (
    <Dialog open={user !== null} onOpenChange={(next) => !next && !link.isPending && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Link {user?.name} to a patient record</DialogTitle>
          <DialogDescription>
            {user?.email} will see this record in the patient portal and is signed out at once. Check the person is the
            patient before linking.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
          <FormField id="link-patient-mrn" label="MRN" error={errors.mrn?.message}>
            {(control) => <Input {...control} autoComplete="off" {...form.register('mrn')} />}
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={link.isPending}>
              Link record
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
