import { useMemo, useState, type ReactNode } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { Eye, Phone, RotateCcw } from 'lucide-react';
import { can, type Role } from '@/shared/access';
import { DataTable } from '@/client/components/data-table/DataTable';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Button } from '@/client/components/ui/button';
import { sortingOf, useUrlPaging, useUrlState } from '@/client/lib/url-state';
import { PATIENT_SORT_KEYS, type Patient, type PatientListQueryInput } from '../patients.schema';
import { AddPatientDialog } from './AddPatientDialog';
import { PatientSnapshotDialog } from './PatientSnapshotDialog';
import { usePatients } from './patients.api';
import { readableDate, telHref } from './patients.format';

const PAGE_SIZE = 25;
/** The view when the address names none: every patient by name, A to Z. */
const DEFAULT_VIEW = { search: '', sort: 'name', dir: 'asc' } as const;

function isSortKey(id: string): id is PatientListQueryInput['sort'] {
  return (PATIENT_SORT_KEYS as readonly string[]).includes(id);
}

function columns(onView: (patient: Patient) => void): ColumnDef<Patient>[] {
  return [
    { id: 'name', accessorKey: 'name', header: 'Name', meta: { className: 'font-medium' } },
    { id: 'dob', accessorKey: 'dob', header: 'DOB', cell: ({ row }) => readableDate(row.original.dob) },
    { id: 'phone', accessorKey: 'phone', header: 'Phone', enableSorting: false },
    { id: 'mrn', accessorKey: 'mrn', header: 'MRN', meta: { className: 'font-mono text-xs' } },
    {
      id: 'nextVisit',
      accessorKey: 'nextVisit',
      header: 'Next Visit',
      cell: ({ row }) =>
        row.original.nextVisit ? (
          readableDate(row.original.nextVisit)
        ) : (
          <span className="text-muted-foreground">Not scheduled</span>
        ),
    },
    {
      id: 'actions',
      header: 'Actions',
      enableSorting: false,
      meta: { align: 'right' },
      cell: ({ row }) => {
        const patient = row.original;
        const href = telHref(patient.phone);
        return (
          <div className="flex justify-end gap-1">
            <Button
              variant="ghost"
              size="icon"
              aria-label={`View snapshot for ${patient.name}`}
              title="View snapshot"
              onClick={() => onView(patient)}
            >
              <Eye className="size-4" aria-hidden="true" />
            </Button>
            {href ? (
              <Button variant="ghost" size="icon" asChild>
                <a href={href} aria-label={`Call ${patient.name}`} title="Call">
                  <Phone className="size-4" aria-hidden="true" />
                </a>
              </Button>
            ) : (
              <Button variant="ghost" size="icon" disabled aria-label={`Call ${patient.name} (number hidden)`}>
                <Phone className="size-4" aria-hidden="true" />
              </Button>
            )}
          </div>
        );
      },
    },
  ];
}

/**
 * The server searches, sorts and pages the patient list. The search, sort and page live in the address
 * (`?search=…&sort=…&dir=…&page=…`), so a global search hit, a reload or Back shows the same list.
 */
export default function PatientsPage({
  role,
  snapshotSections,
}: {
  role: Role;
  /** What other features show in a patient's snapshot (the route assembles it). */
  snapshotSections?: (patientId: number) => ReactNode;
}) {
  const view = useUrlState(DEFAULT_VIEW);
  const paging = useUrlPaging();
  const [viewing, setViewing] = useState<Patient | null>(null);

  const search = view.values.search;
  const query: PatientListQueryInput = {
    search,
    sort: isSortKey(view.values.sort) ? view.values.sort : DEFAULT_VIEW.sort,
    dir: view.values.dir === 'desc' ? 'desc' : 'asc',
    limit: PAGE_SIZE,
    cursor: paging.cursor,
  };
  const sorting = sortingOf(query.sort, query.dir);
  const patients = usePatients(query);
  const page = patients.data;
  paging.track(page?.total);
  // A shared link to a later page carries no total: the first page (counted) gives it.
  const firstPage = usePatients({ ...query, cursor: undefined }, paging.needsTotal);
  paging.track(firstPage.data?.total);

  const resetSearch = () => view.set({ search: undefined, sort: undefined, dir: undefined });

  // The same columns from one render to the next, so the table's rows re-render only for new data.
  const tableColumns = useMemo(() => columns(setViewing), []);

  return (
    <section>
      <PageHeader
        title="Patients"
        subtitle="Find a patient, open their snapshot, or add a new one."
        actions={
          <>
            <Button variant="outline" onClick={resetSearch}>
              <RotateCcw className="size-4" aria-hidden="true" /> Reset Search
            </Button>
            {can(role, 'patients:write') && <AddPatientDialog />}
          </>
        }
      />
      {patients.isError && (
        <div role="alert" className="mb-4 flex items-center justify-between rounded-md border border-destructive p-3">
          <p className="text-sm text-destructive">The patient list could not be loaded.</p>
          <Button variant="outline" size="sm" onClick={() => void patients.refetch()}>
            Try again
          </Button>
        </div>
      )}
      <DataTable
        label="Patients"
        columns={tableColumns}
        data={page?.items ?? []}
        getRowId={(p) => String(p.id)}
        loading={patients.isFetching}
        search={{
          placeholder: 'Name, phone, or MRN',
          label: 'Search patients by name, phone, or MRN',
          value: search,
          // Typing refines the one view rather than adding a history entry per pause.
          onChange: (text) => view.set({ search: text }, { replace: true }),
        }}
        server={paging.tableProps(page, PAGE_SIZE, sorting, ([next]) =>
          view.set({ sort: next?.id, dir: next?.desc ? 'desc' : 'asc' }),
        )}
        emptyMessage={search ? 'No patients found' : 'No patients available'}
        footer={(shown, total) =>
          `Showing ${shown} of ${total} patients${page?.masked ? ' (PHI is masked for your role)' : ''}`
        }
      />
      <PatientSnapshotDialog
        patientId={viewing?.id ?? null}
        patientName={viewing?.name ?? ''}
        onClose={() => setViewing(null)}
        extraSections={snapshotSections}
      />
    </section>
  );
}
