import { useId, useState, type ReactNode } from 'react';
import { Pencil } from 'lucide-react';
import { Button } from '@/client/components/ui/button';
import { Skeleton } from '@/client/components/ui/skeleton';
import { errorTextFor } from '@/client/lib/error-text';
import { can, type Role } from '@/shared/access';
import { SEX_LABELS, type PatientBillingDetails } from '../patients.schema';
import { PatientBillingDetailsDialog } from './PatientBillingDetailsDialog';
import { usePatientBillingDetails } from './billing-details.api';
import { readableZip } from './patients.format';

/** 'City, ST 62701' of the parts on file ('' when none is), the line under the street. */
function localityLine(details: PatientBillingDetails): string {
  const stateAndZip = [details.state, details.zip === null ? null : readableZip(details.zip)]
    .filter((part) => part !== null)
    .join(' ');
  return [details.city, stateAndZip].filter(Boolean).join(', ');
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] gap-2">
      <dt className="text-muted-foreground">{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * What a claim to a payer says of the patient beyond name and birth date: sex and home address, with
 * correcting them for the roles that register insurance (coverage:write). Self-contained, as the insurance
 * section is, so any screen that shows a patient can place it.
 */
export function PatientBillingDetailsSection({ patientId, role }: { patientId: number; role: Role }) {
  const billingDetails = usePatientBillingDetails(patientId);
  // The roles that may edit are the ones that see the street and ZIP whole (seesHomeAddress), so the form
  // never starts from a masked value.
  const writes = can(role, 'coverage:write');
  const [editing, setEditing] = useState(false);
  const headingId = useId();
  const details = billingDetails.data;

  let body;
  if (billingDetails.isError) {
    body = (
      <p role="alert" className="text-sm text-destructive">
        The billing details could not be loaded: {errorTextFor(billingDetails.error)}
      </p>
    );
  } else if (!details) {
    body = (
      <div role="status" aria-label="Loading billing details" aria-busy="true" className="space-y-2">
        <Skeleton className="h-5 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    );
  } else {
    const locality = localityLine(details);
    body = (
      <div className="space-y-2 text-sm">
        <dl className="space-y-1">
          <Detail term="Sex">{SEX_LABELS[details.sex]}</Detail>
          <Detail term="Address">
            {details.addressLine1 === null && locality === '' ? (
              <span className="text-muted-foreground">No address on file</span>
            ) : (
              <>
                {details.addressLine1 !== null && <span className="block">{details.addressLine1}</span>}
                {locality !== '' && <span className="block">{locality}</span>}
              </>
            )}
          </Detail>
        </dl>
        {/* Only those who can complete the address are told of the gap; to the others it is no task. */}
        {writes && !details.addressComplete && (
          <p className="text-amber-700 dark:text-amber-400">A claim to an insurer needs the full address.</p>
        )}
      </div>
    );
  }

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold">
          Billing details
        </h3>
        {writes && details && (
          <Button size="sm" variant="ghost" aria-label="Edit billing details" onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" className="size-4" /> Edit
          </Button>
        )}
      </div>
      {body}
      {editing && details && (
        <PatientBillingDetailsDialog patientId={patientId} details={details} onClose={() => setEditing(false)} />
      )}
    </section>
  );
}
