import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { procedureCodeSchema, type ChargeCeiling } from '../claims.schema';
import { dollarsToCents, formatCents, formatDollars } from '@/shared/api';
import { DataTable } from '@/client/components/data-table/DataTable';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { useChargeCeilings, useSetChargeCeiling } from './claims.api';

/**
 * Settings → Charge ceilings (admin): per procedure code, the charge above which an imported claim is
 * flagged for a second look (imported all the same; docs/payers.md).
 */
export function ChargeCeilingsTab() {
  const ceilings = useChargeCeilings();
  const save = useSetChargeCeiling();
  const [code, setCode] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<{ code?: string; amount?: string }>({});
  const defaultCents = ceilings.data?.defaultCeilingCents;

  const submit = () => {
    const parsedCode = procedureCodeSchema.safeParse(code);
    const cents = dollarsToCents(amount);
    const found = {
      code: parsedCode.success ? undefined : parsedCode.error.issues[0]?.message,
      amount: cents === null || cents <= 0 ? 'must be an amount in dollars such as 170.00' : undefined,
    };
    setErrors(found);
    if (!parsedCode.success || cents === null || found.amount) return;
    save.mutate(
      { procedureCode: parsedCode.data, ceilingCents: cents },
      {
        onSuccess: (saved) => {
          toast({
            title: 'Charge ceiling saved',
            description: `Imported ${saved.procedureCode} charges above ${formatDollars(saved.ceilingCents)} are flagged.`,
          });
          setCode('');
          setAmount('');
        },
        onError: (error) => {
          const message = error instanceof ApiError ? error.fields[0]?.message : undefined;
          if (message) setErrors({ amount: message });
          else toast({ title: 'Charge ceiling not saved', description: 'Please try again.', variant: 'destructive' });
        },
      },
    );
  };

  const columns: ColumnDef<ChargeCeiling>[] = [
    { accessorKey: 'procedureCode', header: 'Procedure code', meta: { className: 'font-mono text-xs' } },
    {
      accessorKey: 'ceilingCents',
      header: 'Ceiling',
      meta: { align: 'right', className: 'tabular-nums' },
      cell: ({ row }) => formatDollars(row.original.ceilingCents),
    },
    {
      id: 'actions',
      header: 'Actions',
      enableSorting: false,
      cell: ({ row }) => (
        <Button
          size="sm"
          variant="outline"
          onClick={() => {
            setCode(row.original.procedureCode);
            setAmount(formatCents(row.original.ceilingCents).replace(/,/g, ''));
            setErrors({});
          }}
        >
          Edit<span className="sr-only"> {row.original.procedureCode}</span>
        </Button>
      ),
    },
  ];

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Charge ceilings</CardTitle>
        <CardDescription>
          An imported claim whose charge is above its code&apos;s ceiling is imported with a warning to check it.
          {defaultCents !== undefined && ` Codes not listed use ${formatDollars(defaultCents)}.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <form
          noValidate
          className="flex flex-wrap items-end gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <FormField id="ceiling-code" label="Procedure code" error={errors.code}>
            {(control) => (
              <Input {...control} className="w-40" value={code} onChange={(e) => setCode(e.target.value)} />
            )}
          </FormField>
          <FormField id="ceiling-amount" label="Ceiling ($)" error={errors.amount}>
            {(control) => (
              <Input
                {...control}
                className="w-40"
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
              />
            )}
          </FormField>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save ceiling'}
          </Button>
        </form>
        {ceilings.isError ? (
          <p className="text-sm text-destructive">The charge ceilings could not be loaded.</p>
        ) : (
          <DataTable
            label="Charge ceilings"
            columns={columns}
            data={ceilings.data?.items ?? []}
            getRowId={(c) => c.procedureCode}
            loading={ceilings.isLoading}
            search={{ placeholder: 'Procedure code', label: 'Search charge ceilings' }}
          />
        )}
      </CardContent>
    </Card>
  );
}
