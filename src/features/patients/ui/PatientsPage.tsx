import { useMemo, useState } from 'react';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { Eye, Phone, RotateCcw } from 'lucide-react';
import { can, type Role } from '@/shared/access';
import { DataTable } from '@/client/components/data-table/DataTable';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Button } from '@/client/components/ui/button';
import { useCursorPaging } from '@/client/lib/cursor-paging';
import { PATIENT_SORT_KEYS, type Patient, type PatientListQueryInput } from '../patients.schema';
import { AddPatientDialog } from './AddPatientDialog';
import { PatientSnapshotDialog } from './PatientSnapshotDialog';
import { usePatients } from './patients.api';
import { readableDate, telHref } from './patients.format';

const PAGE_SIZE = 25;
const DEFAULT_SORTING: SortingState = [{ id: 'name', desc: false }];

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

/** The server searches, sorts and pages the patient list. */
export default function PatientsPage({ role }: { role: Role }) {
  const [search, setSearch] = useState('');
  const [sorting, setSorting] = useState<SortingState>(DEFAULT_SORTING);
  const paging = useCursorPaging();
  const [viewing, setViewing] = useState<Patient | null>(null);

  const sort = sorting[0];
  const query: PatientListQueryInput = {
    search,
    sort: sort && isSortKey(sort.id) ? sort.id : 'name',
    dir: sort?.desc ? 'desc' : 'asc',
    limit: PAGE_SIZE,
    cursor: paging.cursor,
  };
  const patients = usePatients(query);
  const page = patients.data;
  paging.track(page?.total);

  const resetSearch = () => {
    setSearch('');
    setSorting(DEFAULT_SORTING);
    paging.reset();
  };

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
          onChange: (text) => {
            setSearch(text);
            paging.reset();
          },
        }}
        server={paging.tableProps(page, PAGE_SIZE, sorting, setSorting)}
        emptyMessage={search ? 'No patients found' : 'No patients available'}
        footer={(shown, total) =>
          `Showing ${shown} of ${total} patients${page?.masked ? ' (PHI is masked for your role)' : ''}`
        }
      />
      <PatientSnapshotDialog
        patientId={viewing?.id ?? null}
        patientName={viewing?.name ?? ''}
        onClose={() => setViewing(null)}
      />
    </section>
  );
}
