import { useState } from 'react';
import { dollarsToCents, formatDollars } from '@/shared/api';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { CreditCard } from 'lucide-react';
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
import { paymentAmountUpTo } from '../billing.schema';
import { usePayOwnBalance } from './billing.api';
import { centsToDollarsInput } from './billing.money';

/** The amount field in dollars, checked with the server's rule (paymentAmountUpTo) once turned into cents. */
function amountFormSchema(balanceCents: number) {
  const rule = paymentAmountUpTo(balanceCents);
  return z.object({
    amount: z
      .string()
      .min(1, 'is required')
      .transform((text, ctx) => {
        const cents = dollarsToCents(text);
        if (cents === null) {
          ctx.addIssue({ code: 'custom', message: 'must be an amount in dollars, like 25.00' });
          return z.NEVER;
        }
        const checked = rule.safeParse(cents);
        if (!checked.success) {
          const message = checked.error.issues[0]?.message ?? 'is invalid';
          // The shared rule speaks of cents ('more than 0'); the field is in dollars.
          ctx.addIssue({
            code: 'custom',
            message: message === 'must be more than 0' ? 'must be more than $0.00' : message,
          });
          return z.NEVER;
        }
        return checked.data;
      }),
  });
}

function PaymentForm({ balanceCents, onPaid }: { balanceCents: number; onPaid: () => void }) {
  const pay = usePayOwnBalance();
  const form = useForm<{ amount: string }, unknown, { amount: number }>({
    resolver: zodResolver(amountFormSchema(balanceCents)),
    defaultValues: { amount: centsToDollarsInput(balanceCents) },
  });
  const submit = form.handleSubmit(({ amount }) =>
    pay.mutate(
      { amountCents: amount },
      {
        onSuccess: (receipt) => {
          toast({
            title: 'Payment received',
            description: `${formatDollars(amount)} has been applied (receipt ${receipt.receiptReference}). Your balance is now ${formatDollars(receipt.amountDueCents)}.`,
          });
          onPaid();
        },
        onError: (error) => {
          const field = error instanceof ApiError ? error.fields.find((f) => f.field === 'amountCents') : undefined;
          if (field) form.setError('amount', { type: 'server', message: field.message }, { shouldFocus: true });
          toast({ title: 'Error', description: 'Failed to record the payment', variant: 'destructive' });
        },
      },
    ),
  );
  return (
    <form className="space-y-4" onSubmit={(e) => void submit(e)} noValidate>
      <FormField
        id="pay-balance-amount"
        label="Payment amount ($)"
        hint={`Up to your balance of ${formatDollars(balanceCents)}. Oldest charges are paid first.`}
        error={form.formState.errors.amount?.message}
      >
        {(control) => <Input {...control} inputMode="decimal" autoComplete="off" {...form.register('amount')} />}
      </FormField>
      <DialogFooter>
        <Button type="submit" disabled={pay.isPending}>
          {pay.isPending ? 'Paying…' : 'Pay now'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * 'Pay Balance' records a payment against the patient's statement (no real card network).
 * Disabled when the balance is zero or less.
 */
export function PayBalanceDialog({ balanceCents }: { balanceCents: number }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button disabled={balanceCents <= 0}>
          <CreditCard className="size-4" aria-hidden="true" /> Pay Balance
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Pay Balance</DialogTitle>
          <DialogDescription>Your balance is {formatDollars(balanceCents)}. Pay all of it or a part.</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so the amount starts at the current balance every time. */}
        {open && <PaymentForm balanceCents={balanceCents} onPaid={() => setOpen(false)} />}
      </DialogContent>
    </Dialog>
  );
}
