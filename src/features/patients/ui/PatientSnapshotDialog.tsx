import type { ReactNode } from 'react';
import { RESTRICTED } from '@/shared/access';
import { Badge } from '@/client/components/ui/badge';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/client/components/ui/dialog';
import { Skeleton } from '@/client/components/ui/skeleton';
import { usePatientSnapshot } from './patients.api';
import { readableDate } from './patients.format';

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-2 py-1">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function List({ values, empty }: { values: string[]; empty: string }) {
  if (values.length === 0) return <span className="text-muted-foreground">{empty}</span>;
  if (values.length === 1 && values[0] === RESTRICTED) return <span>{RESTRICTED}</span>;
  return (
    <ul className="flex flex-wrap gap-1.5">
      {values.map((v) => (
        <li key={v}>
          <Badge variant="secondary">{v}</Badge>
        </li>
      ))}
    </ul>
  );
}

/** A patient's snapshot; the server masks it for the role and audits the read. */
export function PatientSnapshotDialog({
  patientId,
  patientName,
  onClose,
  extraSections,
}: {
  patientId: number | null;
  patientName: string;
  onClose: () => void;
  /** Sections other features add below the patient's own (the route assembles them: docs/layout.md). */
  extraSections?: (patientId: number) => ReactNode;
}) {
  const snapshot = usePatientSnapshot(patientId);
  const patient = snapshot.data;
  return (
    <Dialog open={patientId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{patientName}</DialogTitle>
          <DialogDescription>Patient snapshot</DialogDescription>
        </DialogHeader>
        {snapshot.isError ? (
          <p role="alert" className="text-sm text-destructive">
            The snapshot could not be loaded. Please try again.
          </p>
        ) : !patient ? (
          <div className="space-y-2" aria-busy="true" aria-label="Loading snapshot">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} className="h-5 w-full" />
            ))}
          </div>
        ) : (
          <div className="space-y-5">
            <section aria-labelledby="snapshot-demographics">
              <h3 id="snapshot-demographics" className="mb-1 font-semibold">
                Demographics
              </h3>
              <dl>
                <Item term="Date of Birth">{readableDate(patient.dob)}</Item>
                <Item term="Phone">{patient.phone}</Item>
                <Item term="MRN">{patient.mrn}</Item>
                <Item term="Next Visit">{patient.nextVisit ? readableDate(patient.nextVisit) : 'Not scheduled'}</Item>
              </dl>
            </section>
            <section aria-labelledby="snapshot-clinical">
              <h3 id="snapshot-clinical" className="mb-1 font-semibold">
                Clinical Information
              </h3>
              <dl>
                <Item term="Allergies">
                  <List values={patient.allergies} empty="No known allergies" />
                </Item>
                <Item term="Current Medications">
                  <List values={patient.meds} empty="No current medications" />
                </Item>
                {patient.notes && <Item term="Clinical Notes">{patient.notes}</Item>}
              </dl>
            </section>
            {extraSections?.(patient.id)}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
