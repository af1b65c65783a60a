import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { UserPlus } from 'lucide-react';
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
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { newProviderSchema, type ManagedProvider } from '../providers.schema';
import { useCreateProvider, useManagedProviders, useUpdateProvider } from './providers.api';
import {
  ConfirmDeactivateDialog,
  activeRecordActionsColumn,
  activeStatusColumn,
} from '@/client/components/data-table/active-record';

const FIELDS = ['name', 'specialty', 'npi', 'taxonomyCode'] as const;
type Field = (typeof FIELDS)[number];
type FieldErrors = Partial<Record<Field, string>>;

function collect(issues: readonly { field: string; message: string }[]): FieldErrors {
  const found: FieldErrors = {};
  for (const { field, message } of issues) {
    const known = FIELDS.find((f) => f === field);
    if (known && !found[known]) found[known] = message;
  }
  return found;
}

function failure(error: unknown): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Please try again.';
}

/** Adds a provider (editing is null) or edits one; the server's refusals show under their fields. Mounted while open. */
function ProviderDialog({ editing, onClose }: { editing: ManagedProvider | null; onClose: () => void }) {
  const create = useCreateProvider();
  const update = useUpdateProvider();
  const [name, setName] = useState(editing?.name ?? '');
  const [specialty, setSpecialty] = useState(editing?.specialty ?? '');
  const [npi, setNpi] = useState(editing?.npi ?? '');
  const [taxonomyCode, setTaxonomyCode] = useState(editing?.taxonomyCode ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const pending = create.isPending || update.isPending;

  const submit = () => {
    const checked = newProviderSchema.safeParse({ name, specialty, npi, taxonomyCode });
    if (!checked.success) {
      setErrors(collect(checked.error.issues.map((i) => ({ field: String(i.path[0] ?? ''), message: i.message }))));
      return;
    }
    const onError = (error: unknown) => {
      const found = collect(error instanceof ApiError ? error.fields : []);
      setErrors(found);
      if (Object.keys(found).length === 0) {
        toast({ title: 'Provider not saved', description: failure(error), variant: 'destructive' });
      }
    };
    if (editing) {
      update.mutate(
        { id: editing.id, patch: checked.data },
        {
          onSuccess: (saved) => {
            toast({ title: 'Provider updated', description: `${saved.name} was saved.` });
            onClose();
          },
          onError,
        },
      );
    } else {
      create.mutate(checked.data, {
        onSuccess: (saved) => {
          toast({ title: 'Provider added', description: `${saved.name} can now be booked.` });
          onClose();
        },
        onError,
      });
    }
  };

  return (
    <Dialog open onOpenChange={(next) => !next && !pending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{editing ? `Edit ${editing.name}` : 'Add provider'}</DialogTitle>
          <DialogDescription>
            {editing
              ? 'Past visits and claims show the new name.'
              : 'The provider is offered for new bookings at once.'}
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
          <FormField id="provider-name" label="Name" error={errors.name}>
            {(control) => (
              <Input {...control} autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
            )}
          </FormField>
          <FormField id="provider-specialty" label="Specialty" error={errors.specialty}>
            {(control) => (
              <Input {...control} autoComplete="off" value={specialty} onChange={(e) => setSpecialty(e.target.value)} />
            )}
          </FormField>
          <FormField
            id="provider-npi"
            label="NPI"
            hint="The provider's individual NPI, 10 digits; their claims name it as the rendering provider."
            error={errors.npi}
          >
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                inputMode="numeric"
                maxLength={10}
                value={npi}
                onChange={(e) => setNpi(e.target.value)}
              />
            )}
          </FormField>
          <FormField
            id="provider-taxonomy"
            label="Taxonomy code"
            hint="NUCC code of their specialty, such as 207Q00000X."
            error={errors.taxonomyCode}
          >
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                maxLength={10}
                className="uppercase"
                value={taxonomyCode}
                onChange={(e) => setTaxonomyCode(e.target.value)}
              />
            )}
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Saving…' : editing ? 'Save provider' : 'Add provider'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Settings → Providers (admin): the providers appointments are booked with and claims are billed under. A
 * global reset keeps them; a deactivated provider keeps their past records but is not offered for new bookings.
 */
export function ProvidersTab() {
  const providers = useManagedProviders();
  const update = useUpdateProvider();
  const [dialog, setDialog] = useState<{ editing: ManagedProvider | null } | null>(null);
  const [deactivating, setDeactivating] = useState<ManagedProvider | null>(null);

  const setActive = (provider: ManagedProvider, active: boolean) =>
    update.mutate(
      { id: provider.id, patch: { active } },
      {
        onSuccess: () =>
          toast({
            title: 'Provider updated',
            description: active
              ? `${provider.name} can be booked again.`
              : `${provider.name} is no longer offered for new bookings.`,
          }),
        onError: (error) => toast({ title: 'Provider not saved', description: failure(error), variant: 'destructive' }),
      },
    );

  const columns: ColumnDef<ManagedProvider>[] = [
    { accessorKey: 'name', header: 'Name' },
    { accessorKey: 'specialty', header: 'Specialty' },
    { id: 'npi', accessorFn: (p) => p.npi ?? '', header: 'NPI', cell: ({ row }) => row.original.npi ?? '—' },
    {
      id: 'taxonomyCode',
      accessorFn: (p) => p.taxonomyCode ?? '',
      header: 'Taxonomy',
      cell: ({ row }) => row.original.taxonomyCode ?? '—',
    },
    activeStatusColumn(),
    activeRecordActionsColumn<ManagedProvider>({
      onEdit: (provider) => setDialog({ editing: provider }),
      onDeactivate: setDeactivating,
      onReactivate: (provider) => setActive(provider, true),
      busy: update.isPending,
    }),
  ];

  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-4">
        <div>
          <CardTitle as="h2">Providers</CardTitle>
          <CardDescription>
            Who appointments are booked with and claims are billed under. A global reset keeps them; a deactivated
            provider keeps their past visits and claims but is not offered for new bookings.
          </CardDescription>
        </div>
        <Button onClick={() => setDialog({ editing: null })}>
          <UserPlus aria-hidden="true" className="size-4" /> Add provider
        </Button>
      </CardHeader>
      <CardContent>
        {providers.isError ? (
          <p className="text-sm text-destructive">The providers could not be loaded.</p>
        ) : (
          <DataTable
            label="Providers"
            columns={columns}
            data={providers.data?.items ?? []}
            getRowId={(p) => String(p.id)}
            loading={providers.isLoading}
            search={{ placeholder: 'Name, specialty or NPI', label: 'Search providers' }}
          />
        )}
      </CardContent>
      {dialog && (
        <ProviderDialog key={dialog.editing?.id ?? 'new'} editing={dialog.editing} onClose={() => setDialog(null)} />
      )}
      <ConfirmDeactivateDialog
        record={deactivating}
        consequence="They are no longer offered for new bookings. Their booked visits, past visits and claims stay."
        onCancel={() => setDeactivating(null)}
        onConfirm={(provider) => setActive(provider, false)}
      />
    </Card>
  );
}
