import { useState, type ReactNode } from 'react';
import { dollarsToCents, formatDollars } from '@/shared/api';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { formatDate } from '@/shared/dates';
import { CheckCircle2, CreditCard } from 'lucide-react';
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
import {
  guestStatementRequestSchema,
  type GuestPaymentReceipt,
  type GuestStatement,
  type GuestStatementRequest,
} from '../billing.schema';
import { useGuestPayment, useGuestStatementLookup } from './billing.api';
import { centsToDollarsInput } from './billing.money';

const lookupFormSchema = guestStatementRequestSchema.extend({
  dob: z.string().min(1, 'is required').pipe(guestStatementRequestSchema.shape.dob),
});
type LookupInput = z.input<typeof lookupFormSchema>;
type LookupValues = z.output<typeof lookupFormSchema>;

function Row({ term, children, strong }: { term: string; children: ReactNode; strong?: boolean }) {
  return (
    <div
      className={`flex justify-between gap-4 py-1 text-sm ${strong ? 'border-t border-border pt-2 font-semibold' : ''}`}
    >
      <dt className={strong ? '' : 'text-muted-foreground'}>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function StatementDetails({ statement }: { statement: GuestStatement }) {
  return (
    <dl aria-label={`Statement for account ${statement.accountNumber}`}>
      <Row term="Account number">{statement.accountNumber}</Row>
      <Row term="Service date">{formatDate(statement.serviceDate)}</Row>
      <Row term="Procedure">{statement.procedureCode}</Row>
      <Row term="Billed">{formatDollars(statement.billedCents)}</Row>
      <Row term="Insurance paid">{formatDollars(statement.insurancePaidCents)}</Row>
      <Row term="Adjustments">{formatDollars(statement.adjustmentsCents)}</Row>
      <Row term="Patient paid">{formatDollars(statement.patientPaidCents)}</Row>
      <Row term="Amount due" strong>
        {formatDollars(statement.amountDueCents)}
      </Row>
    </dl>
  );
}

function LookupForm({ onFound }: { onFound: (request: LookupValues, statement: GuestStatement) => void }) {
  const lookup = useGuestStatementLookup();
  const form = useForm<LookupInput, unknown, LookupValues>({
    resolver: zodResolver(lookupFormSchema),
    defaultValues: { accountNumber: '', dob: '' },
  });
  const { errors } = form.formState;
  const notFound = lookup.error instanceof ApiError && lookup.error.status === 404;
  const submit = form.handleSubmit((values) =>
    lookup.mutate(values, { onSuccess: (statement) => onFound(values, statement) }),
  );
  return (
    <form className="space-y-4" onSubmit={(e) => void submit(e)} noValidate>
      <FormField
        id="guest-account"
        label="Account number"
        hint="As printed on your statement, e.g. ACC-2026-100123."
        error={errors.accountNumber?.message}
      >
        {(control) => <Input {...control} autoComplete="off" {...form.register('accountNumber')} />}
      </FormField>
      <FormField id="guest-dob" label="Patient's date of birth" error={errors.dob?.message}>
        {(control) => <Input {...control} type="date" {...form.register('dob')} />}
      </FormField>
      {lookup.isError && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {notFound && lookup.error instanceof ApiError
            ? lookup.error.serverMessage
            : 'The statement could not be looked up. Please try again.'}
        </p>
      )}
      <DialogFooter>
        <Button type="submit" disabled={lookup.isPending}>
          {lookup.isPending ? 'Looking up…' : 'Find statement'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function PaymentForm({
  request,
  statement,
  onPaid,
}: {
  request: GuestStatementRequest;
  statement: GuestStatement;
  onPaid: (receipt: GuestPaymentReceipt) => void;
}) {
  const pay = useGuestPayment();
  const due = statement.amountDueCents;
  const amountSchema = z.object({
    amount: z
      .string()
      .min(1, 'is required')
      .transform((text, ctx) => {
        const cents = dollarsToCents(text);
        if (cents === null) ctx.addIssue({ code: 'custom', message: 'must be an amount in dollars, like 25.00' });
        else if (cents <= 0) ctx.addIssue({ code: 'custom', message: 'must be more than $0.00' });
        else if (cents > due)
          ctx.addIssue({ code: 'custom', message: `must be at most the amount due, ${formatDollars(due)}` });
        return cents ?? 0;
      }),
  });
  const form = useForm<{ amount: string }, unknown, { amount: number }>({
    resolver: zodResolver(amountSchema),
    defaultValues: { amount: centsToDollarsInput(due) },
  });
  const submit = form.handleSubmit(({ amount }) =>
    pay.mutate(
      { ...request, amountCents: amount },
      {
        onSuccess: (receipt) => {
          toast({ title: 'Payment received', description: `Receipt ${receipt.receiptReference}` });
          onPaid(receipt);
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
        id="guest-amount"
        label="Payment amount ($)"
        hint={`Up to ${formatDollars(due)}.`}
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

type Step =
  | { kind: 'lookup' }
  | { kind: 'statement'; request: GuestStatementRequest; statement: GuestStatement }
  | { kind: 'paid'; receipt: GuestPaymentReceipt; statement: GuestStatement };

/**
 * 'Pay Bill as Guest'. The account number and date of birth find one claim account's
 * statement; the guest then pays part or all of the amount due (no real card network is involved).
 */
export function GuestPayDialog() {
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<Step>({ kind: 'lookup' });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        // Nothing about the statement stays in memory once the dialog closes.
        if (!next) setStep({ kind: 'lookup' });
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <CreditCard className="size-4" aria-hidden="true" /> Pay Bill as Guest
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Pay Bill as Guest</DialogTitle>
          <DialogDescription>
            {step.kind === 'lookup'
              ? 'Find your statement with its account number and the patient’s date of birth.'
              : step.kind === 'statement'
                ? 'Check the statement, then enter the amount to pay.'
                : 'Thank you. Your payment has been recorded.'}
          </DialogDescription>
        </DialogHeader>
        {step.kind === 'lookup' && (
          <LookupForm onFound={(request, statement) => setStep({ kind: 'statement', request, statement })} />
        )}
        {step.kind === 'statement' && (
          <div className="space-y-4">
            <StatementDetails statement={step.statement} />
            {step.statement.amountDueCents > 0 ? (
              <PaymentForm
                request={step.request}
                statement={step.statement}
                onPaid={(receipt) => setStep({ kind: 'paid', receipt, statement: step.statement })}
              />
            ) : (
              <p className="text-sm font-medium">Nothing is due on this account.</p>
            )}
          </div>
        )}
        {step.kind === 'paid' && (
          <div className="space-y-3" role="status">
            <p className="flex items-center gap-2 font-medium">
              <CheckCircle2 className="size-5 text-primary" aria-hidden="true" />
              Paid {formatDollars(step.receipt.amountPaidCents)} on account {step.statement.accountNumber}
            </p>
            <dl>
              <Row term="Receipt reference">
                <span className="font-mono">{step.receipt.receiptReference}</span>
              </Row>
              <Row term="Remaining amount due" strong>
                {formatDollars(step.receipt.amountDueCents)}
              </Row>
            </dl>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
