import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { toast } from '@/client/components/ui/toast';
import { showFieldErrors } from '@/client/lib/form-errors';
import { errorTextFor } from '@/client/lib/error-text';
import {
  clearinghouseUpdateSchema,
  type Clearinghouse,
  type ClearinghouseUpdate,
  type ClearinghouseUpdateInput,
} from '../practice.schema';
import { useClearinghouse, useSaveClearinghouse } from './settings.api';
import { SettingsSkeleton } from './SettingsSkeleton';

type TextField = 'ediReceiverName' | 'ediReceiverId' | 'ediSubmitterId';

const TEXT_FIELDS: { name: TextField; id: string; label: string; hint: string }[] = [
  { name: 'ediReceiverName', id: 'clearinghouse-name', label: 'Clearinghouse', hint: 'Its name, as the file names it' },
  { name: 'ediReceiverId', id: 'clearinghouse-id', label: 'Clearinghouse ID', hint: 'The receiver id it gave you' },
  {
    name: 'ediSubmitterId',
    id: 'clearinghouse-submitter-id',
    label: 'Submitter ID',
    hint: "The id it assigned the practice; empty sends the practice's EIN",
  },
];

function toForm(saved: Clearinghouse): ClearinghouseUpdateInput {
  return {
    ediReceiverName: saved.ediReceiverName ?? '',
    ediReceiverId: saved.ediReceiverId ?? '',
    ediSubmitterId: saved.ediSubmitterId ?? '',
    ediUsage: saved.ediUsage,
  };
}

/**
 * Where the practice's 837P claim files go (docs/x12-837.md); admins only, since a wrong id sends every batch to
 * the wrong partner, and production files are claims the payers act on.
 */
export function PracticeClearinghouseCard() {
  const clearinghouse = useClearinghouse();
  if (clearinghouse.isError) {
    return (
      <Card>
        <CardHeader>
          <CardTitle as="h2">Clearinghouse</CardTitle>
        </CardHeader>
        <CardContent>
          <p role="alert" className="text-destructive">
            The clearinghouse could not be loaded: {errorTextFor(clearinghouse.error)}
          </p>
        </CardContent>
      </Card>
    );
  }
  if (!clearinghouse.data) return <SettingsSkeleton label="clearinghouse" />;
  return <ClearinghouseForm saved={clearinghouse.data} />;
}

function ClearinghouseForm({ saved }: { saved: Clearinghouse }) {
  const save = useSaveClearinghouse();
  const form = useForm<ClearinghouseUpdateInput, unknown, ClearinghouseUpdate>({
    resolver: zodResolver(clearinghouseUpdateSchema),
    defaultValues: toForm(saved),
  });
  const { errors } = form.formState;
  useEffect(() => form.reset(toForm(saved)), [form, saved]);

  const submit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => toast({ title: 'Clearinghouse saved', description: 'New claim batches are sent this way.' }),
      onError: (error) => {
        showFieldErrors(form.setError, error, ['ediUsage', ...TEXT_FIELDS.map(({ name }) => name)]);
        toast({ title: 'Clearinghouse not saved', description: errorTextFor(error), variant: 'destructive' });
      },
    }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Clearinghouse</CardTitle>
        <CardDescription>
          Where the practice&apos;s claim batches (X12 837P files) go, and who it is to them. Files stay test files
          until the clearinghouse has approved the practice for production.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-5 sm:grid-cols-2">
          {TEXT_FIELDS.map(({ name, id, label, hint }) => (
            <FormField key={name} id={id} label={label} hint={hint} error={errors[name]?.message}>
              {(control) => <Input {...control} autoComplete="off" {...form.register(name)} />}
            </FormField>
          ))}
          <FormField id="clearinghouse-usage" label="Files sent as" error={errors.ediUsage?.message}>
            {(control) => (
              <Controller
                control={form.control}
                name="ediUsage"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger {...control}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value="T">Test (ISA15 T)</SelectItem>
                      <SelectItem value="P">Production (ISA15 P)</SelectItem>
                    </SelectContent>
                  </Select>
                )}
              />
            )}
          </FormField>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save clearinghouse'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
