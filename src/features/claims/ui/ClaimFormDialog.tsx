import { useEffect, useState, type ReactNode } from 'react';
import {
  Controller,
  get,
  set,
  useFieldArray,
  useForm,
  useWatch,
  type FieldErrors,
  type Path,
  type Resolver,
} from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { dollarsToCents, formatDollars, today } from '@/shared/api';
import { Button } from '@/client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/client/components/ui/dialog';
import { FormField, fieldMessage, type FieldControlProps } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { errorTextFor } from '@/client/lib/error-text';
import { SearchCombobox } from '@/client/components/ui/search-combobox';
import type { Coverage } from '@/features/coverage/coverage.schema';
import { patientOptionDetail, type PatientOption } from '@/features/patients/patients.schema';
import { claimDraftSchema, type ClaimDetail, type ClaimDraft } from '../claims.schema';
import { nativeSelectClass } from './ClaimHistoryDialog';
import { FREQUENCIES, PLACES_OF_SERVICE, priorityText, type FrequencyCode } from './claim-format';
import { useClaimProviders, usePatientCoverages, usePatientOptions, useSaveClaim } from './claims.api';

/** X12 837P: at most 12 diagnoses (HI) and 50 service lines (LX) on one professional claim. */
const MAX_DIAGNOSES = 12;
const MAX_LINES = 50;
/** A line points at 1 to 4 of the claim's diagnoses (SV107). */
const MAX_POINTERS = 4;
const SELF_PAY = 'self';

interface LineValues {
  procedureCode: string;
  /** As typed: '25, 59' or '25 59'. */
  modifiers: string;
  units: string;
  /** Dollars as typed: '149.00'. */
  charge: string;
  diagnosisPointers: number[];
  serviceDate: string;
}

/**
 * What the inputs hold: text as typed, so a half-typed amount or code stays on screen; `draftOf` turns it
 * into the claim body that `claimDraftSchema` checks, here and again on the server.
 */
export interface ClaimFormValues {
  patientId: number | null;
  /** '' until chosen. */
  providerId: string;
  /** '' until chosen, 'self' for self-pay, else the coverage id. */
  coverageId: string;
  placeOfService: string;
  frequencyCode: FrequencyCode;
  originalClaimNumber: string;
  /** Both '' when nobody referred the patient. */
  referringProviderName: string;
  referringProviderNpi: string;
  diagnoses: { code: string }[];
  lines: LineValues[];
}

const LINE_FIELDS = ['procedureCode', 'modifiers', 'units', 'charge', 'diagnosisPointers', 'serviceDate'] as const;
const HEADER_FIELDS = [
  'patientId',
  'providerId',
  'coverageId',
  'placeOfService',
  'frequencyCode',
  'originalClaimNumber',
] as const;
/** The referring provider's two inputs, by the body's path under `referringProvider`. */
const REFERRING_FIELDS: Readonly<Record<string, string>> = {
  name: 'referringProviderName',
  npi: 'referringProviderNpi',
};

/**
 * The form field a claim-body path names ('lines.0.chargeCents' → 'lines.0.charge'), for the schema's
 * issues and the server's 400 fields alike (both use the body's dot paths); null when no field shows it.
 */
export function formFieldOf(path: string): string | null {
  const [head = '', index, field] = path.split('.');
  if (index === undefined && (HEADER_FIELDS as readonly string[]).includes(head)) return head;
  if (head === 'referringProvider') return REFERRING_FIELDS[index ?? 'name'] ?? null;
  if (head !== 'diagnoses' && head !== 'lines') return null;
  if (index === undefined) return `${head}.root`;
  if (!/^\d+$/.test(index)) return null;
  if (head === 'diagnoses') return `diagnoses.${index}.code`;
  const name = field === 'chargeCents' ? 'charge' : field;
  // A modifier's or a pointer's own issue ('lines.0.modifiers.2') belongs to the line's one input for them.
  return name && (LINE_FIELDS as readonly string[]).includes(name) ? `lines.${index}.${name}` : null;
}

interface Problem {
  field: string;
  message: string;
}

const WHOLE_NUMBER = /^\d+$/;

/** The claim body the form's text stands for, and what could not be read as the body's types. */
function draftOf(values: ClaimFormValues): { body: unknown; problems: Problem[] } {
  const problems: Problem[] = [];
  if (values.patientId === null) problems.push({ field: 'patientId', message: 'is required: choose a patient' });
  if (values.providerId === '') problems.push({ field: 'providerId', message: 'is required: choose a provider' });
  if (values.coverageId === '')
    problems.push({ field: 'coverageId', message: 'is required: choose a policy or self-pay' });
  const lines = values.lines.map((line, i) => {
    const text = line.charge.trim();
    const cents = text === '' ? null : dollarsToCents(text);
    if (text === '') problems.push({ field: `lines.${i}.charge`, message: 'is required' });
    else if (cents === null)
      problems.push({
        field: `lines.${i}.charge`,
        message: 'must be an amount in dollars such as 149.00, with at most 2 decimals',
      });
    const units = line.units.trim();
    return {
      procedureCode: line.procedureCode,
      modifiers: line.modifiers.split(/[\s,]+/).filter(Boolean),
      // Not a number: the schema then says what a unit count must be.
      units: WHOLE_NUMBER.test(units) ? Number(units) : Number.NaN,
      chargeCents: cents ?? Number.NaN,
      diagnosisPointers: line.diagnosisPointers,
      serviceDate: line.serviceDate,
    };
  });
  return {
    body: {
      patientId: values.patientId ?? 0,
      providerId: Number(values.providerId),
      coverageId: values.coverageId === SELF_PAY ? null : Number(values.coverageId),
      placeOfService: values.placeOfService,
      frequencyCode: values.frequencyCode,
      originalClaimNumber: values.frequencyCode === '1' ? null : values.originalClaimNumber.trim() || null,
      // Both blank: nobody referred the patient; one of the two typed: the schema says what the other must be.
      referringProvider:
        values.referringProviderName.trim() === '' && values.referringProviderNpi.trim() === ''
          ? null
          : { name: values.referringProviderName, npi: values.referringProviderNpi },
      diagnoses: values.diagnoses.map((d) => d.code),
      lines,
    },
    problems,
  };
}

/** The form checked by the claim schema itself, its issues placed on the inputs that hold the values. */
const claimFormResolver: Resolver<ClaimFormValues, unknown, ClaimDraft> = (values) => {
  const { body, problems } = draftOf(values);
  const parsed = claimDraftSchema.safeParse(body);
  if (parsed.success && problems.length === 0) return { values: parsed.data, errors: {} };
  const issues = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({
        field: formFieldOf(issue.path.join('.')) ?? 'root.form',
        message: issue.message,
      }));
  const errors: FieldErrors<ClaimFormValues> = {};
  // The form's own reading of a value comes first: 'is required' rather than the schema's 'must be an amount'.
  for (const { field, message } of [...problems, ...issues]) {
    if (!get(errors, field)) set(errors, field, { type: 'validate', message });
  }
  return { values: {}, errors };
};

function emptyLine(pointers: number[] = [1]): LineValues {
  return {
    procedureCode: '',
    modifiers: '',
    units: '1',
    charge: '',
    diagnosisPointers: pointers,
    serviceDate: today(),
  };
}

function valuesOf(claim: ClaimDetail | null): ClaimFormValues {
  if (!claim) {
    return {
      patientId: null,
      providerId: '',
      coverageId: '',
      placeOfService: '11',
      frequencyCode: '1',
      originalClaimNumber: '',
      referringProviderName: '',
      referringProviderNpi: '',
      diagnoses: [{ code: '' }],
      lines: [emptyLine()],
    };
  }
  const frequency = FREQUENCIES.find((f) => f.code === claim.frequencyCode)?.code ?? '1';
  return {
    patientId: claim.patient.id,
    providerId: String(claim.provider.id),
    coverageId: claim.coverage ? String(claim.coverage.id) : SELF_PAY,
    placeOfService: claim.placeOfService,
    frequencyCode: frequency,
    originalClaimNumber: claim.originalClaimNumber ?? '',
    referringProviderName: claim.referringProvider?.name ?? '',
    referringProviderNpi: claim.referringProvider?.npi ?? '',
    diagnoses: claim.diagnoses.map((code) => ({ code })),
    lines: claim.lines.map((line) => ({
      procedureCode: line.procedureCode,
      modifiers: line.modifiers.join(', '),
      units: String(line.units),
      charge: (line.chargeCents / 100).toFixed(2),
      diagnosisPointers: [...line.diagnosisPointers],
      serviceDate: line.serviceDate,
    })),
  };
}

/** The patient's policy the claim bills. */
function coverageOfClaim(claim: ClaimDetail, coverages: Coverage[]): Coverage | undefined {
  const billed = claim.coverage;
  return billed ? coverages.find((c) => c.id === billed.id) : undefined;
}

function coverageLabel(coverage: Coverage): string {
  return `${coverage.payer} (${priorityText(coverage.priority)}) · member ${coverage.memberId}`;
}

/** A line's input: a short visible label, the line's number for screen readers, its error under it. */
function LineField({
  id,
  line,
  label,
  error,
  className,
  children,
}: {
  id: string;
  line: number;
  label: string;
  error: string | undefined;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium">
        {/* The space outside the hidden text: accessible names are built from trimmed pieces. */}
        <span className="sr-only">Line {line}</span> {label}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined })}
      {error && (
        <p id={errorId} role="alert" className="mt-1 text-sm font-medium text-destructive">
          {fieldMessage(label, error)}
        </p>
      )}
    </div>
  );
}

/**
 * The claim form: a new Draft claim (claim null) or the claim being edited (Draft or Ready). Mounted while
 * open. The claim schema checks it before it is sent; the server's refusals land on the same fields.
 */
export function ClaimFormDialog({
  claim,
  onClose,
  onSaved,
}: {
  claim: ClaimDetail | null;
  onClose: () => void;
  onSaved?: (saved: ClaimDetail) => void;
}) {
  const save = useSaveClaim();
  const providers = useClaimProviders();
  const [patient, setPatient] = useState<PatientOption | null>(claim ? claim.patient : null);
  const [unplaced, setUnplaced] = useState<string | null>(null);
  const form = useForm<ClaimFormValues, unknown, ClaimDraft>({
    resolver: claimFormResolver,
    defaultValues: valuesOf(claim),
  });
  const { control, register, getValues, setValue, setError } = form;
  const { errors } = form.formState;
  const diagnosisRows = useFieldArray({ control, name: 'diagnoses' });
  const lineRows = useFieldArray({ control, name: 'lines' });
  const [patientId, frequency, diagnoses, lines] = useWatch({
    control,
    name: ['patientId', 'frequencyCode', 'diagnoses', 'lines'],
  });
  const coverages = usePatientCoverages(patientId);

  // Once the patient's policies arrive, a new claim bills the primary one (self-pay when there is none) and
  // an edited claim keeps the one it bills; the user can change either.
  useEffect(() => {
    if (!coverages.data || getValues('coverageId') !== '') return;
    const chosen = claim ? coverageOfClaim(claim, coverages.data) : coverages.data[0];
    if (chosen) setValue('coverageId', String(chosen.id));
    else if (!claim) setValue('coverageId', SELF_PAY);
  }, [coverages.data, claim, getValues, setValue]);

  const removeDiagnosis = (index: number) => {
    const removed = index + 1;
    diagnosisRows.remove(index);
    // Pointers are positions: those after the removed diagnosis move up one, those at it go.
    getValues('lines').forEach((line, i) => {
      const next = line.diagnosisPointers.filter((p) => p !== removed).map((p) => (p > removed ? p - 1 : p));
      setValue(`lines.${i}.diagnosisPointers`, next);
    });
  };

  const totalCents = (lines ?? []).reduce((sum, line) => sum + (dollarsToCents(line.charge) ?? 0), 0);

  const submit = form.handleSubmit((draft) => {
    setUnplaced(null);
    return save.mutateAsync({ id: claim?.id ?? null, body: draft }).then(
      (saved) => {
        toast({
          title: 'Claim saved',
          description: `Claim ${saved.accountNumber} for ${saved.patient.name} is ${saved.status}.`,
        });
        onSaved?.(saved);
        onClose();
      },
      (error: unknown) => {
        const elsewhere: string[] = [];
        if (error instanceof ApiError) {
          let first = true;
          for (const f of error.fields) {
            const field = formFieldOf(f.field);
            if (field === null) {
              elsewhere.push(f.message);
              continue;
            }
            setError(field as Path<ClaimFormValues>, { type: 'server', message: f.message }, { shouldFocus: first });
            first = false;
          }
        }
        if (elsewhere.length > 0) setUnplaced(elsewhere.join('; '));
        const refused = error instanceof ApiError && error.status === 409;
        toast({
          title: refused ? 'Claim cannot be edited' : 'Claim not saved',
          description: errorTextFor(error),
          variant: 'destructive',
        });
      },
    );
  });

  const close = () => {
    if (!save.isPending) onClose();
  };
  const coverageError = errors.coverageId?.message;
  const providerListed = providers.data?.some((p) => p.id === claim?.provider.id) ?? false;
  const diagnosesError = errors.diagnoses?.root?.message ?? errors.diagnoses?.message;
  const linesError = errors.lines?.root?.message ?? errors.lines?.message;
  const formError = errors.root?.form?.message ?? unplaced;

  return (
    <Dialog open onOpenChange={(open) => !open && close()}>
      <DialogContent className="max-w-4xl">
        <DialogHeader>
          <DialogTitle>{claim ? `Edit claim ${claim.accountNumber}` : 'New claim'}</DialogTitle>
          <DialogDescription>
            {claim
              ? `${claim.patient.name}'s claim, ${claim.status}. Saved changes make it Draft again until it is scrubbed.`
              : 'A Draft claim: scrub it to make it Ready to submit.'}
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-5">
          {formError && (
            <p role="alert" className="rounded-md border border-destructive p-3 text-sm text-destructive">
              {formError}
            </p>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            {claim ? (
              <FormField id="claim-patient" label="Patient" hint="A claim stays with its patient.">
                {(field) => (
                  <Input {...field} value={`${claim.patient.name} · MRN ${claim.patient.mrn}`} disabled readOnly />
                )}
              </FormField>
            ) : (
              <FormField id="claim-patient" label="Patient" error={errors.patientId?.message}>
                <Controller
                  control={control}
                  name="patientId"
                  render={({ field }) => (
                    // The New Appointment dialog's picker, rebuilt here: a feature's screens never import
                    // another feature's (docs/layout.md).
                    <SearchCombobox
                      id="claim-patient"
                      value={patient}
                      onChange={(chosen) => {
                        setPatient(chosen);
                        field.onChange(chosen?.id ?? null);
                        setValue('coverageId', '');
                      }}
                      useOptions={usePatientOptions}
                      placeholder="Search patients by name"
                      listLabel="Patients"
                      emptyText="No patients found"
                      error={errors.patientId?.message}
                      describe={patientOptionDetail}
                    />
                  )}
                />
              </FormField>
            )}
            <FormField id="claim-provider" label="Rendering provider" error={errors.providerId?.message}>
              {(field) => (
                <Controller
                  control={control}
                  name="providerId"
                  render={({ field: { ref, ...value } }) => (
                    <select {...field} {...value} ref={ref} className={nativeSelectClass}>
                      <option value="">{providers.isPending ? 'Loading providers…' : 'Choose a provider'}</option>
                      {(providers.data ?? []).map((provider) => (
                        <option key={provider.id} value={String(provider.id)}>
                          {provider.name}
                        </option>
                      ))}
                      {/* The edited claim's provider, when the list does not (or not yet) hold it. */}
                      {claim && !providerListed && (
                        <option value={String(claim.provider.id)}>{claim.provider.name}</option>
                      )}
                    </select>
                  )}
                />
              )}
            </FormField>
            <FormField
              id="claim-coverage"
              label="Coverage"
              error={coverageError}
              hint={patientId === null ? 'Choose a patient first.' : undefined}
            >
              {(field) => (
                <Controller
                  control={control}
                  name="coverageId"
                  render={({ field: { ref, ...value } }) => (
                    <select
                      {...field}
                      {...value}
                      ref={ref}
                      className={nativeSelectClass}
                      disabled={patientId === null || coverages.isPending}
                    >
                      <option value="">
                        {patientId !== null && coverages.isPending ? 'Loading coverages…' : 'Choose a policy'}
                      </option>
                      {(coverages.data ?? []).map((coverage) => (
                        <option key={coverage.id} value={String(coverage.id)}>
                          {coverageLabel(coverage)}
                        </option>
                      ))}
                      <option value={SELF_PAY}>Self-pay (no insurance)</option>
                    </select>
                  )}
                />
              )}
            </FormField>
            <FormField id="claim-place" label="Place of service" error={errors.placeOfService?.message}>
              {(field) => (
                <Controller
                  control={control}
                  name="placeOfService"
                  render={({ field: { ref, ...value } }) => (
                    <select {...field} {...value} ref={ref} className={nativeSelectClass}>
                      {PLACES_OF_SERVICE.map((place) => (
                        <option key={place.code} value={place.code}>
                          {place.code} {place.label}
                        </option>
                      ))}
                      {/* An edited claim's less common code stays choosable as it is. */}
                      {claim && !PLACES_OF_SERVICE.some((p) => p.code === claim.placeOfService) && (
                        <option value={claim.placeOfService}>{claim.placeOfService}</option>
                      )}
                    </select>
                  )}
                />
              )}
            </FormField>
            <FormField id="claim-frequency" label="Frequency" error={errors.frequencyCode?.message}>
              {(field) => (
                <Controller
                  control={control}
                  name="frequencyCode"
                  render={({ field: { ref, ...value } }) => (
                    <select {...field} {...value} ref={ref} className={nativeSelectClass}>
                      {FREQUENCIES.map((f) => (
                        <option key={f.code} value={f.code}>
                          {f.code} {f.label}
                        </option>
                      ))}
                    </select>
                  )}
                />
              )}
            </FormField>
            {frequency !== '1' && (
              <FormField
                id="claim-original-number"
                label="Original claim number"
                error={errors.originalClaimNumber?.message}
                hint="The payer's number of the claim this one replaces or voids."
              >
                {(field) => <Input {...field} autoComplete="off" maxLength={50} {...register('originalClaimNumber')} />}
              </FormField>
            )}
            <FormField
              id="claim-referring-name"
              label="Referring provider"
              error={errors.referringProviderName?.message}
              hint="Who referred the patient for this service, if anyone: a name and an NPI."
            >
              {(field) => (
                <Input {...field} autoComplete="off" maxLength={120} {...register('referringProviderName')} />
              )}
            </FormField>
            <FormField
              id="claim-referring-npi"
              label="Referring provider NPI"
              error={errors.referringProviderNpi?.message}
            >
              {(field) => (
                <Input
                  {...field}
                  autoComplete="off"
                  inputMode="numeric"
                  maxLength={10}
                  {...register('referringProviderNpi')}
                />
              )}
            </FormField>
          </div>

          <fieldset className="grid gap-2" aria-describedby={diagnosesError ? 'claim-diagnoses-error' : undefined}>
            <legend className="mb-1 font-semibold">Diagnoses (ICD-10-CM)</legend>
            <p className="text-xs text-muted-foreground">
              In order, the principal first; each line points at them by number.
            </p>
            <ol className="grid gap-2 sm:grid-cols-2">
              {diagnosisRows.fields.map((row, index) => (
                <li key={row.id} className="flex items-start gap-2">
                  <div className="flex-1">
                    <FormField
                      id={`claim-diagnosis-${index}`}
                      label={`Diagnosis ${index + 1}`}
                      error={errors.diagnoses?.[index]?.code?.message}
                    >
                      {(field) => (
                        <Input
                          {...field}
                          autoComplete="off"
                          placeholder="E11.9"
                          className="font-mono uppercase"
                          {...register(`diagnoses.${index}.code`)}
                        />
                      )}
                    </FormField>
                  </div>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="mt-7"
                    aria-label={`Remove diagnosis ${index + 1}`}
                    title="Remove diagnosis"
                    disabled={diagnosisRows.fields.length === 1}
                    onClick={() => removeDiagnosis(index)}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </Button>
                </li>
              ))}
            </ol>
            {diagnosesError && (
              <p id="claim-diagnoses-error" role="alert" className="text-sm font-medium text-destructive">
                {fieldMessage('Diagnoses', diagnosesError)}
              </p>
            )}
            <div>
              <Button
                variant="outline"
                size="sm"
                disabled={diagnosisRows.fields.length >= MAX_DIAGNOSES}
                onClick={() => diagnosisRows.append({ code: '' })}
              >
                <Plus className="size-4" aria-hidden="true" /> Add diagnosis
              </Button>
            </div>
          </fieldset>

          <fieldset className="grid gap-3" aria-describedby={linesError ? 'claim-lines-error' : undefined}>
            <legend className="mb-1 font-semibold">Service lines</legend>
            {lineRows.fields.map((row, index) => {
              const n = index + 1;
              const lineErrors = errors.lines?.[index];
              const pointerError = lineErrors?.diagnosisPointers?.message;
              const pointerErrorId = `claim-line-${index}-pointers-error`;
              const id = (name: string) => `claim-line-${index}-${name}`;
              return (
                <fieldset key={row.id} className="grid gap-3 rounded-md border border-border p-3">
                  <legend className="px-1 text-sm font-semibold">Line {n}</legend>
                  <div className="flex flex-wrap items-start gap-3">
                    <LineField
                      id={id('code')}
                      line={n}
                      label="Procedure code"
                      error={lineErrors?.procedureCode?.message}
                      className="w-36"
                    >
                      {(field) => (
                        <Input
                          {...field}
                          autoComplete="off"
                          placeholder="99213"
                          className="font-mono uppercase"
                          {...register(`lines.${index}.procedureCode`)}
                        />
                      )}
                    </LineField>
                    <LineField
                      id={id('modifiers')}
                      line={n}
                      label="Modifiers"
                      error={lineErrors?.modifiers?.message}
                      className="w-36"
                    >
                      {(field) => (
                        <Input
                          {...field}
                          autoComplete="off"
                          placeholder="25, 59"
                          className="font-mono uppercase"
                          {...register(`lines.${index}.modifiers`)}
                        />
                      )}
                    </LineField>
                    <LineField
                      id={id('units')}
                      line={n}
                      label="Units"
                      error={lineErrors?.units?.message}
                      className="w-24"
                    >
                      {(field) => (
                        <Input
                          {...field}
                          inputMode="numeric"
                          autoComplete="off"
                          {...register(`lines.${index}.units`)}
                        />
                      )}
                    </LineField>
                    <LineField
                      id={id('charge')}
                      line={n}
                      label="Charge ($)"
                      error={lineErrors?.charge?.message}
                      className="w-36"
                    >
                      {(field) => (
                        <Input
                          {...field}
                          inputMode="decimal"
                          autoComplete="off"
                          placeholder="149.00"
                          className="tabular-nums"
                          {...register(`lines.${index}.charge`)}
                        />
                      )}
                    </LineField>
                    <LineField
                      id={id('date')}
                      line={n}
                      label="Service date"
                      error={lineErrors?.serviceDate?.message}
                      className="w-44"
                    >
                      {(field) => <Input {...field} type="date" {...register(`lines.${index}.serviceDate`)} />}
                    </LineField>
                    <Button
                      variant="ghost"
                      size="icon"
                      className="mt-7 ml-auto"
                      aria-label={`Remove line ${n}`}
                      title="Remove line"
                      disabled={lineRows.fields.length === 1}
                      onClick={() => lineRows.remove(index)}
                    >
                      <Trash2 className="size-4" aria-hidden="true" />
                    </Button>
                  </div>
                  <Controller
                    control={control}
                    name={`lines.${index}.diagnosisPointers`}
                    render={({ field }) => {
                      const chosen = field.value;
                      // A pointer past the diagnoses (an edited claim's) is listed too, so it can be unticked.
                      const count = Math.max(diagnoses?.length ?? 0, ...chosen);
                      const toggle = (pointer: number) =>
                        field.onChange(
                          chosen.includes(pointer) ? chosen.filter((p) => p !== pointer) : [...chosen, pointer],
                        );
                      return (
                        <fieldset aria-describedby={pointerError ? pointerErrorId : undefined}>
                          <legend className="mb-1.5 text-sm font-medium">
                            <span className="sr-only">Line {n}</span> Diagnosis pointers
                          </legend>
                          <div className="flex flex-wrap gap-x-4 gap-y-1">
                            {Array.from({ length: count }, (_, k) => {
                              const pointer = k + 1;
                              const code = diagnoses?.[k]?.code.trim().toUpperCase();
                              const checked = chosen.includes(pointer);
                              return (
                                <label key={pointer} className="inline-flex items-center gap-1.5 text-sm">
                                  <input
                                    type="checkbox"
                                    className="size-4"
                                    checked={checked}
                                    disabled={!checked && chosen.length >= MAX_POINTERS}
                                    aria-invalid={pointerError ? true : undefined}
                                    aria-describedby={pointerError ? pointerErrorId : undefined}
                                    onChange={() => toggle(pointer)}
                                    onBlur={field.onBlur}
                                  />
                                  <span>
                                    {pointer} ·{' '}
                                    {code || (k < (diagnoses?.length ?? 0) ? 'no code yet' : 'no diagnosis')}
                                  </span>
                                </label>
                              );
                            })}
                          </div>
                          {pointerError && (
                            <p id={pointerErrorId} role="alert" className="mt-1 text-sm font-medium text-destructive">
                              {fieldMessage('Diagnosis pointers', pointerError)}
                            </p>
                          )}
                        </fieldset>
                      );
                    }}
                  />
                </fieldset>
              );
            })}
            {linesError && (
              <p id="claim-lines-error" role="alert" className="text-sm font-medium text-destructive">
                {fieldMessage('Lines', linesError)}
              </p>
            )}
            <div className="flex flex-wrap items-center justify-between gap-3">
              <Button
                variant="outline"
                size="sm"
                disabled={lineRows.fields.length >= MAX_LINES}
                onClick={() => lineRows.append(emptyLine(diagnoses && diagnoses.length > 0 ? [1] : []))}
              >
                <Plus className="size-4" aria-hidden="true" /> Add line
              </Button>
              <p className="text-sm">
                Total charge{' '}
                <output className="font-semibold tabular-nums" aria-live="polite">
                  {formatDollars(totalCents)}
                </output>
              </p>
            </div>
          </fieldset>

          <DialogFooter>
            <Button variant="outline" onClick={close} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
