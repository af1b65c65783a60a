import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { UserPlus } from 'lucide-react';
import { showFieldErrors } from '@/client/lib/form-errors';
import { ApiError } from '@/client/lib/api-client';
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
import { EARLIEST_DOB, today } from '@/shared/api';
import { dobSchemaOn, newPatientSchema, type CreatePatientConflict, type DuplicatePatient } from '../patients.schema';
import { readableDate } from './patients.format';
import { useCreatePatient } from './patients.api';

// The shared contract, with an empty date reported as missing rather than as a bad format.
const addPatientFormSchema = newPatientSchema.extend({
  dob: z.string().min(1, 'is required').pipe(dobSchemaOn(today())),
});
type AddPatientInput = z.input<typeof addPatientFormSchema>;
type AddPatientValues = z.output<typeof addPatientFormSchema>;

const FIELDS = ['name', 'dob', 'phone', 'mrn'] as const;

/** The records a new one likely duplicates, when the server answered with them (409 LIKELY_DUPLICATE). */
function duplicatesIn(error: unknown): CreatePatientConflict | null {
  if (!(error instanceof ApiError) || error.code !== 'LIKELY_DUPLICATE') return null;
  const body = error.body as Partial<CreatePatientConflict> | null;
  return body?.error && body.duplicates ? (body as CreatePatientConflict) : null;
}
const EMPTY: AddPatientInput = { name: '', dob: '', phone: '', mrn: '' };

/** The Add Patient dialog (name, date of birth, phone, MRN; all four required). */
export function AddPatientDialog() {
  const [open, setOpen] = useState(false);
  const create = useCreatePatient();
  const form = useForm<AddPatientInput, unknown, AddPatientValues>({
    resolver: zodResolver(addPatientFormSchema),
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;

  // Likely duplicates the server found: shown in the form until the user edits it or creates anyway.
  const [duplicates, setDuplicates] = useState<{ message: string; matches: DuplicatePatient[] } | null>(null);
  const clearDuplicates = () => setDuplicates(null);

  const submitWith = (confirmDuplicate: boolean) =>
    form.handleSubmit((values) =>
      create.mutate(
        { ...values, confirmDuplicate },
        {
          onSuccess: () => {
            toast({ title: 'Patient created', description: 'New patient has been added successfully' });
            form.reset(EMPTY);
            setDuplicates(null);
            setOpen(false);
          },
          onError: (error) => {
            const conflict = duplicatesIn(error);
            if (conflict) {
              setDuplicates({ message: conflict.error.message, matches: conflict.duplicates ?? [] });
              return;
            }
            // A rule only the server can check (a taken MRN) is shown on its field, as the form's own are.
            showFieldErrors(form.setError, error, FIELDS);
            toast({ title: 'Error', description: 'Failed to create patient', variant: 'destructive' });
          },
        },
      ),
    );
  const submit = submitWith(false);
  const createAnyway = submitWith(true);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          form.reset(EMPTY);
          setDuplicates(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <UserPlus className="size-4" aria-hidden="true" /> Add Patient
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Patient</DialogTitle>
          <DialogDescription>All four fields are required.</DialogDescription>
        </DialogHeader>
        <form className="space-y-4" onSubmit={(e) => void submit(e)} noValidate>
          <FormField id="new-patient-name" label="Name" error={errors.name?.message}>
            {(control) => (
              <Input {...control} autoComplete="off" {...form.register('name', { onChange: clearDuplicates })} />
            )}
          </FormField>
          <FormField id="new-patient-dob" label="Date of birth" error={errors.dob?.message}>
            {(control) => (
              <Input
                {...control}
                type="date"
                min={EARLIEST_DOB}
                {...form.register('dob', { onChange: clearDuplicates })}
              />
            )}
          </FormField>
          <FormField id="new-patient-phone" label="Phone" error={errors.phone?.message}>
            {(control) => (
              <Input
                {...control}
                type="tel"
                autoComplete="off"
                {...form.register('phone', { onChange: clearDuplicates })}
              />
            )}
          </FormField>
          <FormField id="new-patient-mrn" label="MRN" error={errors.mrn?.message}>
            {(control) => (
              <Input {...control} autoComplete="off" {...form.register('mrn', { onChange: clearDuplicates })} />
            )}
          </FormField>
          {duplicates && (
            <section
              role="alert"
              aria-labelledby="new-patient-duplicates-title"
              className="space-y-2 rounded-md border border-amber-500 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50"
            >
              <h3 id="new-patient-duplicates-title" className="font-semibold">
                Possible duplicate patient
              </h3>
              <p>{duplicates.message}</p>
              <ul className="space-y-1">
                {duplicates.matches.map((match) => (
                  <li key={match.id}>
                    <span className="font-medium">{match.name}</span> · DOB {readableDate(match.dob)} · Phone{' '}
                    {match.phone} · MRN {match.mrn}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <DialogFooter>
            {duplicates ? (
              <Button type="button" onClick={() => void createAnyway()} disabled={create.isPending}>
                {create.isPending ? 'Saving…' : 'Create anyway'}
              </Button>
            ) : (
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? 'Saving…' : 'Add Patient'}
              </Button>
            )}
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
