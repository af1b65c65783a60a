import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { Plus } from 'lucide-react';
import { DataTable } from '@/client/components/data-table/DataTable';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
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
import { ApiError } from '@/client/lib/api-client';
import {
  CLAIM_FILING_INDICATORS,
  DEFAULT_CLAIM_STATUS_AFTER_DAYS,
  claimFilingIndicatorLabel,
  newPayerSchema,
  payerPatchSchema,
  type ClaimFilingIndicator,
  type PayerRecord,
} from '../payers.schema';
import { useCreatePayer, usePayers, useUpdatePayer } from './payers.api';
import {
  ConfirmDeactivateDialog,
  activeRecordActionsColumn,
  activeStatusColumn,
} from '@/client/components/data-table/active-record';

type Field = 'name' | 'payerId' | 'timelyFilingDays' | 'claimStatusAfterDays' | 'claimFilingIndicator';
type FieldErrors = Partial<Record<Field, string>>;
const FIELDS: readonly string[] = [
  'name',
  'payerId',
  'timelyFilingDays',
  'claimStatusAfterDays',
  'claimFilingIndicator',
];

/** The status field's text as the schema takes it: empty means never ask. */
function statusDaysOf(text: string): number | null {
  return text.trim() === '' ? null : Number(text);
}

function failure(error: unknown): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Please try again.';
}

function collect(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const found: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (FIELDS.includes(field) && !found[field as Field]) found[field as Field] = issue.message;
  }
  return found;
}

/** Adds a payer (editing is null) or edits one; the name of an existing payer is fixed (claims store it). */
function PayerDialog({ editing, onClose }: { editing: PayerRecord | null; onClose: () => void }) {
  const create = useCreatePayer();
  const update = useUpdatePayer();
  const [name, setName] = useState(editing?.name ?? '');
  const [payerId, setPayerId] = useState(editing?.payerId ?? '');
  const [days, setDays] = useState(String(editing?.timelyFilingDays ?? 365));
  const [statusDays, setStatusDays] = useState(
    editing
      ? editing.claimStatusAfterDays === null
        ? ''
        : String(editing.claimStatusAfterDays)
      : String(DEFAULT_CLAIM_STATUS_AFTER_DAYS),
  );
  const [indicator, setIndicator] = useState<ClaimFilingIndicator>(editing?.claimFilingIndicator ?? 'CI');
  const [errors, setErrors] = useState<FieldErrors>({});
  const pending = create.isPending || update.isPending;

  const onError = (error: unknown) => {
    const found = collect((error instanceof ApiError ? error.fields : []).map((f) => ({ ...f, path: [f.field] })));
    setErrors(found);
    if (Object.keys(found).length === 0) {
      toast({ title: 'Payer not saved', description: failure(error), variant: 'destructive' });
    }
  };
  const done = (title: string) => (saved: PayerRecord) => {
    toast({ title, description: `${saved.name}: timely filing ${saved.timelyFilingDays} days.` });
    onClose();
  };

  const submit = () => {
    const timelyFilingDays = days.trim() === '' ? Number.NaN : Number(days);
    const claimStatusAfterDays = statusDaysOf(statusDays);
    if (editing) {
      const checked = payerPatchSchema.safeParse({
        payerId,
        timelyFilingDays,
        claimStatusAfterDays,
        claimFilingIndicator: indicator,
      });
      if (!checked.success) return setErrors(collect(checked.error.issues));
      update.mutate({ id: editing.id, patch: checked.data }, { onSuccess: done('Payer updated'), onError });
    } else {
      const checked = newPayerSchema.safeParse({
        name,
        payerId,
        timelyFilingDays,
        claimStatusAfterDays,
        claimFilingIndicator: indicator,
      });
      if (!checked.success) return setErrors(collect(checked.error.issues));
      create.mutate(checked.data, { onSuccess: done('Payer added'), onError });
    }
  };

  return (
    <Dialog open onOpenChange={(next) => !next && !pending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{editing ? `Edit ${editing.name}` : 'Add payer'}</DialogTitle>
          <DialogDescription>
            The import refuses claims whose service date is older than the payer&apos;s timely-filing limit.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          {!editing && (
            <FormField id="payer-name" label="Name" error={errors.name}>
              {(control) => (
                <Input {...control} autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
              )}
            </FormField>
          )}
          <FormField
            id="payer-id"
            label="Payer ID"
            hint="The electronic payer id; leave empty if none."
            error={errors.payerId}
          >
            {(control) => (
              <Input {...control} autoComplete="off" value={payerId} onChange={(e) => setPayerId(e.target.value)} />
            )}
          </FormField>
          <FormField id="payer-days" label="Timely filing (days)" error={errors.timelyFilingDays}>
            {(control) => (
              <Input
                {...control}
                type="number"
                inputMode="numeric"
                min={1}
                max={3650}
                value={days}
                onChange={(e) => setDays(e.target.value)}
              />
            )}
          </FormField>
          <FormField
            id="payer-status-days"
            label="Ask for claim status after (days)"
            hint="Days after sending with no payment or denial before the payer is asked where the claim stands; leave empty to never ask."
            error={errors.claimStatusAfterDays}
          >
            {(control) => (
              <Input
                {...control}
                type="number"
                inputMode="numeric"
                min={1}
                max={365}
                value={statusDays}
                onChange={(e) => setStatusDays(e.target.value)}
              />
            )}
          </FormField>
          <FormField
            id="payer-filing-indicator"
            label="Claim filing indicator"
            hint="The kind of plan, as the payer's claims name it (X12 837P SBR09)."
            error={errors.claimFilingIndicator}
          >
            {(control) => (
              <Select value={indicator} onValueChange={(value) => setIndicator(value as ClaimFilingIndicator)}>
                <SelectTrigger {...control}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {CLAIM_FILING_INDICATORS.map((code) => (
                    <SelectItem key={code} value={code}>
                      {claimFilingIndicatorLabel(code)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Saving…' : editing ? 'Save payer' : 'Add payer'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Settings → Payers (admin): the payers claims are imported for, with their electronic payer id and
 * timely-filing limit. A global reset keeps them; a deactivated payer is refused by new imports.
 */
export function PayersTab() {
  const payers = usePayers();
  const update = useUpdatePayer();
  const [dialog, setDialog] = useState<{ editing: PayerRecord | null } | null>(null);
  const [deactivating, setDeactivating] = useState<PayerRecord | null>(null);

  const setActive = (payer: PayerRecord, active: boolean) =>
    update.mutate(
      { id: payer.id, patch: { active } },
      {
        onSuccess: () =>
          toast({
            title: 'Payer updated',
            description: active ? `${payer.name} can be billed again.` : `New imports refuse ${payer.name}.`,
          }),
        onError: (error) => toast({ title: 'Payer not saved', description: failure(error), variant: 'destructive' }),
      },
    );

  const columns: ColumnDef<PayerRecord>[] = [
    { accessorKey: 'name', header: 'Name' },
    {
      id: 'payerId',
      accessorFn: (p) => p.payerId ?? '',
      header: 'Payer ID',
      cell: ({ row }) => row.original.payerId ?? '—',
    },
    { accessorKey: 'timelyFilingDays', header: 'Timely filing (days)' },
    {
      id: 'claimStatusAfterDays',
      accessorFn: (p) => p.claimStatusAfterDays ?? '',
      header: 'Status request after (days)',
      cell: ({ row }) => row.original.claimStatusAfterDays ?? 'Never',
    },
    {
      id: 'claimFilingIndicator',
      accessorFn: (p) => claimFilingIndicatorLabel(p.claimFilingIndicator),
      header: 'Claim filing indicator',
    },
    activeStatusColumn(),
    activeRecordActionsColumn<PayerRecord>({
      onEdit: (payer) => setDialog({ editing: payer }),
      onDeactivate: setDeactivating,
      onReactivate: (payer) => setActive(payer, true),
      busy: update.isPending,
    }),
  ];

  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-4">
        <div>
          <CardTitle as="h2">Payers</CardTitle>
          <CardDescription>
            The payers claims are billed to. A global reset keeps them; a deactivated payer keeps its claims, and new
            imports refuse it.
          </CardDescription>
        </div>
        <Button onClick={() => setDialog({ editing: null })}>
          <Plus aria-hidden="true" className="size-4" /> Add payer
        </Button>
      </CardHeader>
      <CardContent>
        {payers.isError ? (
          <p className="text-sm text-destructive">The payers could not be loaded.</p>
        ) : (
          <DataTable
            label="Payers"
            columns={columns}
            data={payers.data?.items ?? []}
            getRowId={(p) => String(p.id)}
            loading={payers.isLoading}
            search={{ placeholder: 'Name or payer ID', label: 'Search payers' }}
          />
        )}
      </CardContent>
      {dialog && (
        <PayerDialog key={dialog.editing?.id ?? 'new'} editing={dialog.editing} onClose={() => setDialog(null)} />
      )}
      <ConfirmDeactivateDialog
        record={deactivating}
        consequence="Its claims stay; new imports naming it are refused until it is reactivated."
        onCancel={() => setDeactivating(null)}
        onConfirm={(payer) => setActive(payer, false)}
      />
    </Card>
  );
}
