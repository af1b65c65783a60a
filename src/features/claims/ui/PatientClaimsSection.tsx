import { lazy, Suspense, useId, useState } from 'react';
import { formatDollars } from '@/shared/api';
import { Eye } from 'lucide-react';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Skeleton } from '@/client/components/ui/skeleton';
import { errorTextFor } from '@/client/lib/error-text';
import { statusVariant } from '@/client/lib/status-variant';
import { can, type Role } from '@/shared/access';
import { formatDate } from '@/shared/dates';
import { usePatientClaims } from './claims.api';

// The claim view is fetched when first opened, as on the Claims screen.
const ClaimDetailDialog = lazy(() =>
  import('./ClaimDetailDialog').then((module) => ({ default: module.ClaimDetailDialog })),
);

/** A snapshot shows this many of the patient's claims; the Claims screen has them all. */
export const PATIENT_CLAIMS_SHOWN = 20;

/**
 * A patient's most recent claims, each opening its claim view (header, coverage, diagnoses, lines, history),
 * where those who may change claims edit and scrub it. Self-contained like the insurance section, so any
 * screen that shows a patient to someone who may read claims can place it.
 */
export function PatientClaimsSection({ patientId, role }: { patientId: number; role: Role }) {
  const claims = usePatientClaims(patientId, PATIENT_CLAIMS_SHOWN);
  const [viewing, setViewing] = useState<{ id: number; accountNumber: string } | null>(null);
  const headingId = useId();

  let body;
  if (claims.isError) {
    body = (
      <div role="alert" className="flex flex-wrap items-center gap-2 text-sm text-destructive">
        <span>The claims could not be loaded: {errorTextFor(claims.error)}</span>
        <Button size="sm" variant="outline" onClick={() => void claims.refetch()} disabled={claims.isFetching}>
          Try again
        </Button>
      </div>
    );
  } else if (!claims.data) {
    body = (
      <div role="status" aria-label="Loading claims" aria-busy="true" className="space-y-2">
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
      </div>
    );
  } else if (claims.data.items.length === 0) {
    body = <p className="text-sm text-muted-foreground">No claims for this patient</p>;
  } else {
    const { items, total } = claims.data;
    body = (
      <div className="space-y-2">
        <div className="overflow-x-auto">
          <table className="w-full text-sm" aria-labelledby={headingId}>
            <thead className="text-left text-muted-foreground">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Account
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Service date
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Payer
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Status
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  Billed
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  Balance
                </th>
                <th scope="col" className="py-1 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((claim) => (
                <tr key={claim.id} className="border-t border-border">
                  <td className="py-1 pr-3 font-mono text-xs">{claim.accountNumber}</td>
                  <td className="py-1 pr-3 whitespace-nowrap">{formatDate(claim.serviceDate)}</td>
                  <td className="py-1 pr-3">{claim.payer}</td>
                  <td className="py-1 pr-3">
                    <Badge variant={statusVariant(claim.status)}>{claim.status}</Badge>
                  </td>
                  <td className="py-1 pr-3 text-right tabular-nums">{formatDollars(claim.billedCents)}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">{formatDollars(claim.balanceCents)}</td>
                  <td className="py-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`View claim ${claim.accountNumber}`}
                      onClick={() => setViewing({ id: claim.id, accountNumber: claim.accountNumber })}
                    >
                      <Eye aria-hidden="true" className="size-4" /> View
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {total !== null && total > items.length && (
          <p className="text-xs text-muted-foreground">
            The {items.length} most recent of {total.toLocaleString('en-US')} claims; the Claims screen lists them all.
          </p>
        )}
      </div>
    );
  }

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h3 id={headingId} className="text-sm font-semibold">
        Claims
      </h3>
      {body}
      <Suspense fallback={null}>
        {viewing && (
          <ClaimDetailDialog
            key={viewing.id}
            claimId={viewing.id}
            accountNumber={viewing.accountNumber}
            canWrite={can(role, 'claims:write')}
            onClose={() => setViewing(null)}
          />
        )}
      </Suspense>
    </section>
  );
}
