import { useId, useState } from 'react';
import { Pencil, Plus } from 'lucide-react';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Skeleton } from '@/client/components/ui/skeleton';
import { errorTextFor } from '@/client/lib/error-text';
import { can, type Role } from '@/shared/access';
import { today } from '@/shared/api';
import { formatDate } from '@/shared/dates';
import { MEDICARE_SECONDARY_TYPE_LABELS, RELATIONSHIP_LABELS, priorityLabel, type Coverage } from '../coverage.schema';
import { CoverageDialog } from './CoverageDialog';
import { CoverageEligibility } from './CoverageEligibility';
import { Upload271Dialog } from './Upload271Dialog';
import { usePatientCoverages } from './coverage.api';

function dates(c: Coverage): string {
  return c.endOn ? `${formatDate(c.effectiveOn)} – ${formatDate(c.endOn)}` : `From ${formatDate(c.effectiveOn)}`;
}

function subscriber(c: Coverage): string {
  if (c.relationship === 'self') return 'The patient';
  const born = c.subscriberDob ? `, born ${formatDate(c.subscriberDob)}` : '';
  return `${c.subscriberName ?? 'Not named'}${born} (patient: ${RELATIONSHIP_LABELS[c.relationship].toLowerCase()})`;
}

function Detail({ term, children }: { term: string; children: string }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] gap-2">
      <dt className="text-muted-foreground">{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * A patient's insurance policies, primary first, each with its latest eligibility check, with adding and
 * correcting them for the roles that register insurance (coverage:write) and checking eligibility and uploading a
 * payer's 271 for those who may (eligibility:check). Self-contained: it loads its own data, so any screen that shows a
 * patient can place it.
 */
export function PatientCoverageSection({ patientId, role }: { patientId: number; role: Role }) {
  const coverages = usePatientCoverages(patientId);
  const writes = can(role, 'coverage:write');
  const checks = can(role, 'eligibility:check');
  const [dialog, setDialog] = useState<{ editing: Coverage | null } | null>(null);
  const headingId = useId();
  const day = today();

  let body;
  if (coverages.isError) {
    body = (
      <p role="alert" className="text-sm text-destructive">
        The insurance could not be loaded: {errorTextFor(coverages.error)}
      </p>
    );
  } else if (!coverages.data) {
    body = (
      <div role="status" aria-label="Loading insurance" aria-busy="true" className="space-y-2">
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  } else if (coverages.data.length === 0) {
    body = <p className="text-sm text-muted-foreground">No insurance on file</p>;
  } else {
    body = (
      <ul className="space-y-2">
        {coverages.data.map((c) => {
          const ended = c.endOn !== null && c.endOn < day;
          return (
            <li key={c.id} className="rounded-md border border-border p-3 text-sm">
              <div className="flex items-start justify-between gap-2">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <span>{c.payer}</span>
                  <Badge variant={c.priority === 1 ? 'info' : 'secondary'}>{priorityLabel(c.priority)}</Badge>
                  {ended && <Badge variant="outline">Ended</Badge>}
                </p>
                {writes && (
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Edit insurance ${c.payer} (${priorityLabel(c.priority)})`}
                    onClick={() => setDialog({ editing: c })}
                  >
                    <Pencil aria-hidden="true" className="size-4" /> Edit
                  </Button>
                )}
              </div>
              <dl className="mt-2 space-y-1">
                <Detail term="Member ID">{c.memberId}</Detail>
                <Detail term="Group">{c.groupNumber ?? '—'}</Detail>
                <Detail term="Subscriber">{subscriber(c)}</Detail>
                <Detail term="In force">{dates(c)}</Detail>
                {c.medicareSecondaryType && (
                  <Detail term="Why Medicare pays second">
                    {`${c.medicareSecondaryType}: ${MEDICARE_SECONDARY_TYPE_LABELS[c.medicareSecondaryType]}`}
                  </Detail>
                )}
              </dl>
              <CoverageEligibility
                patientId={patientId}
                coverageId={c.id}
                title={`${c.payer} (${priorityLabel(c.priority)})`}
                check={c.eligibility ?? null}
                canCheck={checks && !ended}
              />
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold">
          Insurance
        </h3>
        <div className="flex flex-wrap gap-2">
          {checks && <Upload271Dialog />}
          {writes && (
            <Button size="sm" variant="outline" onClick={() => setDialog({ editing: null })}>
              <Plus aria-hidden="true" className="size-4" /> Add insurance
            </Button>
          )}
        </div>
      </div>
      {body}
      {dialog && (
        <CoverageDialog
          key={dialog.editing?.id ?? 'new'}
          patientId={patientId}
          role={role}
          editing={dialog.editing}
          onClose={() => setDialog(null)}
        />
      )}
    </section>
  );
}
