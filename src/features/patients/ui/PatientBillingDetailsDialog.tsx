import { Controller, useForm } from 'react-hook-form';
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
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { toast } from '@/client/components/ui/toast';
import { showFieldErrors } from '@/client/lib/form-errors';
import { errorTextFor } from '@/client/lib/error-text';
import {
  ADDRESS_FIELDS,
  PATIENT_SEXES,
  SEX_LABELS,
  patientBillingDetailsUpdateSchema,
  type PatientBillingDetails,
  type PatientBillingDetailsInput,
  type PatientBillingDetailsUpdate,
} from '../patients.schema';
import { useSavePatientBillingDetails } from './billing-details.api';
import { readableZip } from './patients.format';

type FieldName = keyof PatientBillingDetailsInput;
const FIELD_NAMES: readonly FieldName[] = ['sex', ...ADDRESS_FIELDS];

function formValues(details: PatientBillingDetails): PatientBillingDetailsInput {
  return {
    sex: details.sex,
    addressLine1: details.addressLine1 ?? '',
    city: details.city ?? '',
    state: details.state ?? '',
    zip: details.zip === null ? '' : readableZip(details.zip),
  };
}

/**
 * Corrects the patient's sex and home address. The form checks with the schema the server checks with, so
 * a partial address is refused before it is sent; what only the server knows comes back under its field.
 * Mounted while open, and only for roles that see the street and ZIP whole, so no masked value is in it.
 */
export function PatientBillingDetailsDialog({
  patientId,
  details,
  onClose,
}: {
  patientId: number;
  details: PatientBillingDetails;
  onClose: () => void;
}) {
  const save = useSavePatientBillingDetails(patientId);
  const form = useForm<PatientBillingDetailsInput, unknown, PatientBillingDetailsUpdate>({
    resolver: zodResolver(patientBillingDetailsUpdateSchema),
    defaultValues: formValues(details),
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((values) => {
    save.mutate(values, {
      onSuccess: () => {
        toast({ title: 'Billing details saved' });
        onClose();
      },
      onError: (error) => {
        showFieldErrors(form.setError, error, FIELD_NAMES);
        toast({ title: 'Billing details not saved', description: errorTextFor(error), variant: 'destructive' });
      },
    });
  });

  return (
    <Dialog open onOpenChange={(next) => !next && !save.isPending && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Billing details</DialogTitle>
          <DialogDescription>
            What a claim to an insurer says of the patient. Leave the address empty while it is not known.
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4 sm:grid-cols-2" onSubmit={(event) => void submit(event)}>
          <FormField id="billing-details-sex" label="Sex" error={errors.sex?.message}>
            {(control) => (
              <Controller
                control={form.control}
                name="sex"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger {...control} onBlur={field.onBlur}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {PATIENT_SEXES.map((sex) => (
                        <SelectItem key={sex} value={sex}>
                          {SEX_LABELS[sex]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            )}
          </FormField>
          <div className="sm:col-span-2">
            {/* Staff type another person's address: the browser's autofill would offer their own. */}
            <FormField id="billing-details-street" label="Street address" error={errors.addressLine1?.message}>
              {(control) => <Input {...control} autoComplete="off" {...form.register('addressLine1')} />}
            </FormField>
          </div>
          <FormField id="billing-details-city" label="City" error={errors.city?.message}>
            {(control) => <Input {...control} autoComplete="off" {...form.register('city')} />}
          </FormField>
          <FormField
            id="billing-details-state"
            label="State"
            hint="Two letters, such as IL."
            error={errors.state?.message}
          >
            {(control) => <Input {...control} autoComplete="off" className="uppercase" {...form.register('state')} />}
          </FormField>
          <FormField
            id="billing-details-zip"
            label="ZIP code"
            hint="5 digits, or ZIP+4 such as 62701-1234."
            error={errors.zip?.message}
          >
            {(control) => <Input {...control} autoComplete="off" {...form.register('zip')} />}
          </FormField>
          <DialogFooter className="sm:col-span-2">
            <Button type="button" variant="outline" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save billing details'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
