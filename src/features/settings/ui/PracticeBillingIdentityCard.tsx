import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { toast } from '@/client/components/ui/toast';
import { showFieldErrors } from '@/client/lib/form-errors';
import { errorTextFor } from '@/client/lib/error-text';
import {
  billingIdentityUpdateSchema,
  type BillingIdentity,
  type BillingIdentityUpdate,
  type BillingIdentityUpdateInput,
} from '../practice.schema';
import { useBillingIdentity, useSaveBillingIdentity } from './settings.api';
import { SettingsSkeleton } from './SettingsSkeleton';

type FieldName = keyof BillingIdentityUpdateInput;

const FIELDS: { name: FieldName; id: string; label: string; hint?: string; autoComplete?: string; wide?: boolean }[] = [
  { name: 'billingName', id: 'billing-name', label: 'Legal name', autoComplete: 'organization', wide: true },
  { name: 'billingNpi', id: 'billing-npi', label: 'Billing NPI', hint: "The practice's group NPI, 10 digits" },
  { name: 'taxId', id: 'billing-tax-id', label: 'Tax ID (EIN)', hint: 'As NN-NNNNNNN or 9 digits' },
  { name: 'taxonomyCode', id: 'billing-taxonomy', label: 'Taxonomy code', hint: 'NUCC code, such as 193200000X' },
  {
    name: 'billingAddressLine1',
    id: 'billing-address',
    label: 'Address',
    autoComplete: 'address-line1',
    wide: true,
  },
  { name: 'billingCity', id: 'billing-city', label: 'City', autoComplete: 'address-level2' },
  {
    name: 'billingState',
    id: 'billing-state',
    label: 'State',
    hint: '2 letters, such as IL',
    autoComplete: 'address-level1',
  },
  { name: 'billingZip', id: 'billing-zip', label: 'ZIP code', hint: '5 digits or ZIP+4', autoComplete: 'postal-code' },
];

/** The stored identity as the form shows it: blanks for what is not entered yet, the EIN and ZIP+4 with their dash. */
function toForm(saved: BillingIdentity): BillingIdentityUpdateInput {
  const taxId = saved.taxId ?? '';
  const zip = saved.billingZip ?? '';
  return {
    billingName: saved.billingName ?? '',
    billingNpi: saved.billingNpi ?? '',
    taxId: taxId.length === 9 ? `${taxId.slice(0, 2)}-${taxId.slice(2)}` : taxId,
    taxonomyCode: saved.taxonomyCode ?? '',
    billingAddressLine1: saved.billingAddressLine1 ?? '',
    billingCity: saved.billingCity ?? '',
    billingState: saved.billingState ?? '',
    billingZip: zip.length === 9 ? `${zip.slice(0, 5)}-${zip.slice(5)}` : zip,
  };
}

/**
 * The practice as the billing provider its claims name; admins only, since a wrong NPI or EIN sends every
 * claim to the payer under the wrong identity.
 */
export function PracticeBillingIdentityCard() {
  const identity = useBillingIdentity();
  if (identity.isError) {
    return (
      <Card>
        <CardHeader>
          <CardTitle as="h2">Billing identity</CardTitle>
        </CardHeader>
        <CardContent>
          <p role="alert" className="text-destructive">
            The billing identity could not be loaded: {errorTextFor(identity.error)}
          </p>
        </CardContent>
      </Card>
    );
  }
  if (!identity.data) return <SettingsSkeleton label="billing identity" />;
  return <BillingIdentityForm saved={identity.data} />;
}

function BillingIdentityForm({ saved }: { saved: BillingIdentity }) {
  const save = useSaveBillingIdentity();
  const form = useForm<BillingIdentityUpdateInput, unknown, BillingIdentityUpdate>({
    resolver: zodResolver(billingIdentityUpdateSchema),
    defaultValues: toForm(saved),
  });
  const { errors } = form.formState;
  useEffect(() => form.reset(toForm(saved)), [form, saved]);

  const submit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () =>
        toast({ title: 'Billing identity saved', description: 'New claims name the practice this way.' }),
      onError: (error) => {
        showFieldErrors(
          form.setError,
          error,
          FIELDS.map(({ name }) => name),
        );
        toast({ title: 'Billing identity not saved', description: errorTextFor(error), variant: 'destructive' });
      },
    }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Billing identity</CardTitle>
        <CardDescription>
          How the practice is named as the billing provider on its insurance claims. Claims are held back until every
          field is entered.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-5 sm:grid-cols-2">
          {FIELDS.map(({ name, id, label, hint, autoComplete, wide }) => (
            <div key={name} className={wide ? 'sm:col-span-2' : undefined}>
              <FormField id={id} label={label} hint={hint} error={errors[name]?.message}>
                {(control) => <Input {...control} autoComplete={autoComplete ?? 'off'} {...form.register(name)} />}
              </FormField>
            </div>
          ))}
          <div className="sm:col-span-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save billing identity'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
