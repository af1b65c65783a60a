import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
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
import { seesField, seesMemberId, type Role } from '@/shared/access';
import {
  COVERAGE_PRIORITIES,
  MEDICARE_SECONDARY_TYPES,
  MEDICARE_SECONDARY_TYPE_LABELS,
  RELATIONSHIP_LABELS,
  SUBSCRIBER_RELATIONSHIPS,
  coverageFieldsSchema,
  coverageProblems,
  memberIdOrBlankSchema,
  newCoverageSchema,
  priorityLabel,
  type Coverage,
  type CoveragePatchInput,
} from '../coverage.schema';
import { useActivePayers, useSaveCoverage } from './coverage.api';

type FormInput = z.input<typeof coverageFieldsSchema>;
type FormOutput = z.output<typeof coverageFieldsSchema>;
type FieldName = keyof FormInput;
const FIELD_NAMES = Object.keys(coverageFieldsSchema.shape) as FieldName[];

/** The select's choice for no reason on file (a select item cannot have an empty value). */
const NOT_KNOWN = 'none';

/** What a role cannot send back because it sees it masked: left blank, the stored value stays. */
interface Kept {
  memberId: boolean;
  subscriberDob: boolean;
}

/**
 * The edit form's checks: the shared ones, except that a blank member id or subscriber's birth date keeps
 * the stored one when the role sees it masked.
 */
function editSchema(kept: Kept) {
  return coverageFieldsSchema
    .extend(kept.memberId ? { memberId: memberIdOrBlankSchema } : {})
    .superRefine((value, ctx) => {
      const subscriberDob = kept.subscriberDob && !value.subscriberDob ? 'on file' : value.subscriberDob;
      for (const { field, message } of coverageProblems({ ...value, subscriberDob })) {
        ctx.addIssue({ code: 'custom', path: [field], message });
      }
    });
}

function formValues(editing: Coverage | null, kept: Kept): FormInput {
  if (!editing) {
    return {
      payer: '',
      priority: 1,
      memberId: '',
      groupNumber: '',
      relationship: 'self',
      subscriberName: '',
      subscriberDob: '',
      effectiveOn: '',
      endOn: '',
      medicareSecondaryType: '',
    };
  }
  return {
    payer: editing.payer,
    priority: editing.priority,
    memberId: kept.memberId ? '' : editing.memberId,
    groupNumber: editing.groupNumber ?? '',
    relationship: editing.relationship,
    subscriberName: editing.subscriberName ?? '',
    subscriberDob: kept.subscriberDob ? '' : (editing.subscriberDob ?? ''),
    effectiveOn: editing.effectiveOn,
    endOn: editing.endOn ?? '',
    medicareSecondaryType: editing.medicareSecondaryType ?? '',
  };
}

/** Only what changed is sent, so that a masked value the form could not show is never written back. */
function patchOf(editing: Coverage, values: FormOutput, kept: Kept): CoveragePatchInput {
  const patch: CoveragePatchInput = {};
  const set = <K extends FieldName>(field: K, value: FormOutput[K]) => {
    if (value !== editing[field]) Object.assign(patch, { [field]: value });
  };
  set('payer', values.payer);
  set('priority', values.priority);
  if (!(kept.memberId && values.memberId === '')) set('memberId', values.memberId);
  set('groupNumber', values.groupNumber);
  set('relationship', values.relationship);
  // The server forgets the subscriber of a policy the patient holds; nothing to send for it.
  if (values.relationship !== 'self') {
    set('subscriberName', values.subscriberName);
    if (!(kept.subscriberDob && values.subscriberDob === null)) set('subscriberDob', values.subscriberDob);
  }
  set('effectiveOn', values.effectiveOn);
  set('endOn', values.endOn);
  set('medicareSecondaryType', values.medicareSecondaryType);
  return patch;
}

/**
 * Adds a policy to the patient (editing null) or corrects or ends one. The form checks what it can with the
 * shared schema; the server's refusals (an inactive payer, a Medicare id that is no MBI, a priority already
 * taken on those dates) are shown under their fields. Mounted while open.
 */
export function CoverageDialog({
  patientId,
  role,
  editing,
  onClose,
}: {
  patientId: number;
  role: Role;
  editing: Coverage | null;
  onClose: () => void;
}) {
  const payers = useActivePayers();
  const save = useSaveCoverage(patientId);
  const kept: Kept = {
    memberId: editing !== null && !seesMemberId(role),
    subscriberDob: editing?.subscriberDob != null && !seesField(role, 'dob'),
  };
  const resolver = zodResolver(editing ? editSchema(kept) : newCoverageSchema) as Resolver<
    FormInput,
    unknown,
    FormOutput
  >;
  const form = useForm<FormInput, unknown, FormOutput>({ resolver, defaultValues: formValues(editing, kept) });
  const { errors } = form.formState;
  const [relationship, payerName, priority] = useWatch({
    control: form.control,
    name: ['relationship', 'payer', 'priority'],
  });
  const medicare = payers.data?.find((p) => p.name === payerName)?.claimFilingIndicator === 'MB';
  // Why Medicare pays second is asked only where an 837P sends it (SBR05): Medicare, not primary.
  const medicareSecondary = medicare && priority > 1;
  // A policy of a payer since deactivated keeps its payer, though no new policy may name it.
  const payerChoices = [...(payers.data ?? []).map((p) => p.name)];
  if (editing && !payerChoices.includes(editing.payer)) payerChoices.unshift(editing.payer);

  const submit = form.handleSubmit((entered) => {
    // A reason chosen before the payer or priority changed is not Medicare's any more: not sent.
    const values = medicareSecondary ? entered : { ...entered, medicareSecondaryType: null };
    const onError = (error: unknown) => {
      showFieldErrors(form.setError, error, FIELD_NAMES);
      toast({ title: 'Insurance not saved', description: errorTextFor(error), variant: 'destructive' });
    };
    const onSuccess = (saved: Coverage) => {
      toast({ title: 'Insurance saved', description: `${saved.payer} (${priorityLabel(saved.priority)})` });
      onClose();
    };
    if (!editing) {
      save.mutate({ id: null, body: values }, { onSuccess, onError });
      return;
    }
    const patch = patchOf(editing, values, kept);
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    save.mutate({ id: editing.id, body: patch }, { onSuccess, onError });
  });

  const memberIdHint = [
    medicare ? "Medicare's MBI: 11 letters and digits, such as 1EG4TE5MK73." : null,
    kept.memberId && editing ? `On file: ${editing.memberId}. Leave empty to keep it.` : null,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <Dialog open onOpenChange={(next) => !next && !save.isPending && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit insurance' : 'Add insurance'}</DialogTitle>
          <DialogDescription>
            {editing
              ? `${editing.payer} (${priorityLabel(editing.priority)}). To end the policy, enter its end date.`
              : 'A policy of the patient, as the payer knows the patient.'}
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4 sm:grid-cols-2" onSubmit={(event) => void submit(event)}>
          <div className="sm:col-span-2">
            <FormField
              id="coverage-payer"
              label="Payer"
              error={
                errors.payer?.message ??
                (payers.isError ? 'The payers could not be loaded. Close and reopen to try again.' : undefined)
              }
            >
              {(control) => (
                <Controller
                  control={form.control}
                  name="payer"
                  render={({ field }) => (
                    <Select value={field.value || undefined} onValueChange={field.onChange} disabled={payers.isLoading}>
                      <SelectTrigger {...control} onBlur={field.onBlur}>
                        <SelectValue placeholder={payers.isLoading ? 'Loading payers…' : 'Choose a payer'} />
                      </SelectTrigger>
                      <SelectContent>
                        {payerChoices.map((name) => (
                          <SelectItem key={name} value={name}>
                            {name}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  )}
                />
              )}
            </FormField>
          </div>
          <FormField id="coverage-priority" label="Priority" error={errors.priority?.message}>
            {(control) => (
              <Controller
                control={form.control}
                name="priority"
                render={({ field }) => (
                  <Select value={String(field.value)} onValueChange={(value) => field.onChange(Number(value))}>
                    <SelectTrigger {...control} onBlur={field.onBlur}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {COVERAGE_PRIORITIES.map((priority) => (
                        <SelectItem key={priority} value={String(priority)}>
                          {priorityLabel(priority)}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            )}
          </FormField>
          <FormField
            id="coverage-member-id"
            label="Member ID"
            hint={memberIdHint || undefined}
            error={errors.memberId?.message}
          >
            {(control) => <Input {...control} autoComplete="off" {...form.register('memberId')} />}
          </FormField>
          <FormField
            id="coverage-group"
            label="Group number"
            hint="Employer plans have one; leave empty if none."
            error={errors.groupNumber?.message}
          >
            {(control) => <Input {...control} autoComplete="off" {...form.register('groupNumber')} />}
          </FormField>
          <FormField
            id="coverage-relationship"
            label="Patient's relationship to subscriber"
            error={errors.relationship?.message}
          >
            {(control) => (
              <Controller
                control={form.control}
                name="relationship"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger {...control} onBlur={field.onBlur}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {SUBSCRIBER_RELATIONSHIPS.map((r) => (
                        <SelectItem key={r} value={r}>
                          {r === 'self' ? 'Self (the patient holds the policy)' : RELATIONSHIP_LABELS[r]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            )}
          </FormField>
          {relationship !== 'self' && (
            <>
              <FormField id="coverage-subscriber-name" label="Subscriber name" error={errors.subscriberName?.message}>
                {(control) => <Input {...control} autoComplete="off" {...form.register('subscriberName')} />}
              </FormField>
              <FormField
                id="coverage-subscriber-dob"
                label="Subscriber date of birth"
                hint={
                  kept.subscriberDob && editing
                    ? `On file: ${editing.subscriberDob}. Leave empty to keep it.`
                    : undefined
                }
                error={errors.subscriberDob?.message}
              >
                {(control) => <Input {...control} type="date" {...form.register('subscriberDob')} />}
              </FormField>
            </>
          )}
          {medicareSecondary && (
            <div className="sm:col-span-2">
              <FormField
                id="coverage-medicare-secondary-type"
                label="Why Medicare pays second"
                hint="Medicare refuses a claim as secondary payer without it (the plan or insurance that pays first)."
                error={errors.medicareSecondaryType?.message}
              >
                {(control) => (
                  <Controller
                    control={form.control}
                    name="medicareSecondaryType"
                    render={({ field }) => (
                      <Select
                        value={field.value || NOT_KNOWN}
                        onValueChange={(value) => field.onChange(value === NOT_KNOWN ? '' : value)}
                      >
                        <SelectTrigger {...control} onBlur={field.onBlur}>
                          <SelectValue />
                        </SelectTrigger>
                        <SelectContent>
                          <SelectItem value={NOT_KNOWN}>Not known yet</SelectItem>
                          {MEDICARE_SECONDARY_TYPES.map((code) => (
                            <SelectItem key={code} value={code}>
                              {`${code}: ${MEDICARE_SECONDARY_TYPE_LABELS[code]}`}
                            </SelectItem>
                          ))}
                        </SelectContent>
                      </Select>
                    )}
                  />
                )}
              </FormField>
            </div>
          )}
          <FormField id="coverage-effective" label="Effective date" error={errors.effectiveOn?.message}>
            {(control) => <Input {...control} type="date" {...form.register('effectiveOn')} />}
          </FormField>
          <FormField
            id="coverage-end"
            label="End date"
            hint="The last day the policy pays; empty while in force."
            error={errors.endOn?.message}
          >
            {(control) => <Input {...control} type="date" {...form.register('endOn')} />}
          </FormField>
          <DialogFooter className="sm:col-span-2">
            <Button type="button" variant="outline" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save insurance'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
