import { format, parseISO } from 'date-fns';
import { Link } from 'react-router';
import { CalendarDays, CreditCard, HeartPulse, Receipt } from 'lucide-react';
import type { ColumnDef } from '@tanstack/react-table';
import { formatDollars, today } from '@/shared/api';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { DataTable } from '@/client/components/data-table/DataTable';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { statusVariant } from '@/client/lib/status-variant';
import { formatTime12 } from '@/features/appointments/appointments.schema';
import { useSession } from '@/features/auth/ui/auth.api';
import type { ClaimStatus } from '@/features/claims/claims.schema';
import type { PortalAppointment, PortalClaim } from '../portal.schema';
import { splitVisits } from '../portal.visits';
import { usePortalAppointments, usePortalClaims } from './portal.api';
import { errorTextFor } from '@/client/lib/error-text';

/** Portal dates read like 'March 4, 2026'. */
export function formatPortalDate(isoDate: string): string {
  return format(parseISO(isoDate), 'MMMM d, yyyy');
}

/**
 * The greeting names the person by the name on their account; only an account without one falls back to
 * the part of its email before the @ (which reads 'patient' or 'maria.lopez', not a name).
 */
export function greetingName(user: { name: string; email: string } | null | undefined): string {
  return user?.name.trim() || (user?.email.split('@')[0] ?? '');
}

function ErrorText({ error }: { error: unknown }) {
  return (
    <p className="text-sm text-destructive" role="alert">
      Could not load this list: {errorTextFor(error)}
    </p>
  );
}

/** A list that scrolls in its box is reached by the keyboard too (WCAG 2.1.1): focusable, with a name. */
const SCROLLABLE_LIST = { tabIndex: 0, role: 'region', 'aria-label': 'Your visits' } as const;

function VisitList({ label, visits }: { label: string; visits: readonly PortalAppointment[] }) {
  return (
    <ul className="divide-y divide-border" aria-label={label}>
      {visits.map((appointment) => (
        <li key={appointment.id} className="flex items-start justify-between gap-3 py-3">
          <div className="grid gap-0.5">
            <p className="font-medium">
              {formatPortalDate(appointment.date)} at {formatTime12(appointment.time)}
            </p>
            <p className="text-sm text-muted-foreground">
              {appointment.provider} · {appointment.reason}
            </p>
          </div>
          <Badge variant={statusVariant(appointment.status)}>{appointment.status}</Badge>
        </li>
      ))}
    </ul>
  );
}

function MyAppointments() {
  const appointments = usePortalAppointments();
  const list = appointments.data ?? [];
  // The practice's day, from the server's clock (the session answer sets it).
  const { upcoming, past } = splitVisits(list, today());
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CalendarDays className="size-5" aria-hidden="true" /> My Appointments
        </CardTitle>
        <CardDescription>Your upcoming visits, soonest first, then your past visits.</CardDescription>
      </CardHeader>
      {/* One height whatever the card holds (loading, empty or a long list, which scrolls inside): the claims
          card below and its billing link stay where they are while the visits load, so a patient reaching
          for the link does not click what moved into its place. */}
      <CardContent className="h-80 overflow-y-auto" {...(list.length > 0 ? SCROLLABLE_LIST : {})}>
        {appointments.isLoading ? (
          <p className="text-muted-foreground" role="status">
            Loading appointments...
          </p>
        ) : appointments.isError ? (
          <ErrorText error={appointments.error} />
        ) : list.length === 0 ? (
          <p className="text-muted-foreground">No appointments scheduled</p>
        ) : (
          <div className="grid gap-4">
            <section aria-labelledby="visits-upcoming">
              <h3 id="visits-upcoming" className="text-sm font-semibold text-muted-foreground">
                Upcoming
              </h3>
              {upcoming.length === 0 ? (
                <p className="py-3 text-muted-foreground">No appointments scheduled</p>
              ) : (
                <VisitList label="Upcoming appointments" visits={upcoming} />
              )}
            </section>
            {past.length > 0 && (
              <section aria-labelledby="visits-past">
                <h3 id="visits-past" className="text-sm font-semibold text-muted-foreground">
                  Past
                </h3>
                <VisitList label="Past appointments" visits={past} />
              </section>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

const CLAIM_COLUMNS: ColumnDef<PortalClaim, string | number>[] = [
  {
    id: 'serviceDate',
    header: 'Service date',
    accessorFn: (c) => c.serviceDate,
    cell: ({ row }) => formatPortalDate(row.original.serviceDate),
  },
  { id: 'procedure', header: 'Procedure', accessorFn: (c) => c.procedure },
  { id: 'provider', header: 'Provider', accessorFn: (c) => c.provider },
  {
    id: 'billed',
    header: 'Billed',
    accessorFn: (c) => c.billedCents,
    cell: ({ row }) => formatDollars(row.original.billedCents),
    meta: { align: 'right' },
  },
  {
    id: 'paid',
    header: 'Paid',
    accessorFn: (c) => c.paidCents,
    cell: ({ row }) => formatDollars(row.original.paidCents),
    meta: { align: 'right' },
  },
  {
    id: 'status',
    header: 'Status',
    accessorFn: (c) => c.status,
    cell: ({ row }) => <Badge variant={statusVariant(row.original.status)}>{row.original.status}</Badge>,
  },
];

/**
 * What each claim status means for the patient, in their words: the statuses are the billing office's, and
 * "Paid" (the insurer is done, a share may still be the patient's) and "Closed" (nothing is owed) read alike.
 */
const STATUS_MEANINGS: Record<ClaimStatus, string> = {
  Draft: 'The clinic is preparing the claim; it has not been sent to your insurer yet.',
  Ready: 'The clinic has checked the claim; it has not been sent to your insurer yet.',
  Submitted: 'Sent to your insurer, which has not answered yet.',
  Accepted: 'Your insurer has received the claim and is reviewing it.',
  Rejected: 'Your insurer could not process the claim; the clinic will correct it and send it again.',
  Pending: 'Your insurer is reviewing the claim.',
  Paid: 'Your insurer has paid its part; what you owe, if anything, is on your statement.',
  'Partially Paid': 'Your insurer paid part of the claim; the clinic is following up on the rest.',
  Denied: 'Your insurer declined to pay; the clinic is reviewing it and will let you know what happens next.',
  Appealed: 'The clinic has asked your insurer to reconsider the claim.',
  'Written Off': 'The clinic will not collect the unpaid amount of this claim.',
  Closed: 'Settled: nothing is owed on this claim.',
};

/** The meanings of the statuses the patient's claims show, in the order they first appear. */
function StatusMeanings({ claims }: { claims: readonly PortalClaim[] }) {
  const shown = [...new Set(claims.map((c) => c.status))];
  return (
    <div className="mt-4 grid gap-1 text-sm">
      <h3 className="font-semibold">What the statuses mean</h3>
      <dl className="grid gap-1 text-muted-foreground">
        {shown.map((status) => (
          <div key={status} className="flex flex-wrap gap-x-2">
            <dt className="font-medium text-foreground">{status}:</dt>
            <dd>{STATUS_MEANINGS[status]}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function MyClaims() {
  const claims = usePortalClaims();
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="space-y-1.5">
            <CardTitle className="flex items-center gap-2">
              <CreditCard className="size-5" aria-hidden="true" /> My Claims &amp; Billing
            </CardTitle>
            <CardDescription>Your most recent claims, newest first.</CardDescription>
          </div>
          {/* The patient's My Billing (statement, Pay Balance) is a sub-path of the portal. */}
          <Button asChild variant="outline">
            <Link to="/patient-portal/billing">
              <Receipt className="size-4" aria-hidden="true" /> View statement and pay
            </Link>
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {claims.isLoading ? (
          <p className="text-muted-foreground" role="status">
            Loading claims...
          </p>
        ) : claims.isError ? (
          <ErrorText error={claims.error} />
        ) : (claims.data ?? []).length === 0 ? (
          <p className="text-muted-foreground">No claims found</p>
        ) : (
          <>
            <DataTable
              label="My claims"
              columns={CLAIM_COLUMNS}
              data={claims.data ?? []}
              getRowId={(claim) => String(claim.id)}
              footer={(shown) => `Showing your ${shown} most recent claims`}
            />
            <StatusMeanings claims={claims.data ?? []} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The patient's own visits and claims; the server decides whose they are. */
export default function PatientPortalPage() {
  const session = useSession();
  const name = greetingName(session.data?.user);
  return (
    <section>
      <PageHeader title="My Health Portal" subtitle="View your appointments and billing information" />
      <Card className="mb-6">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <HeartPulse className="size-5" aria-hidden="true" /> Welcome, {name}
          </CardTitle>
          <CardDescription>Your visits and your most recent claims are below.</CardDescription>
        </CardHeader>
      </Card>
      {/* One column that may shrink below its tables' width: they scroll inside their own box. */}
      <div className="grid grid-cols-1 gap-6">
        <MyAppointments />
        <MyClaims />
      </div>
    </section>
  );
}
