import { useState } from 'react';
import { CalendarPlus, Download } from 'lucide-react';
import { can, type Role } from '@/shared/access';
import { today } from '@/shared/api';
import { formatDate } from '@/shared/dates';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Button } from '@/client/components/ui/button';
import { Input } from '@/client/components/ui/input';
import { Label } from '@/client/components/ui/label';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { downloadCsv, toCsv, type CsvColumn } from '@/client/lib/csv';
import { useUrlState } from '@/client/lib/url-state';
import { formatTime12, type CallListRow } from '../appointments.schema';
import { fetchCallList, useAppointments } from './appointments.api';
import { AppointmentCard } from './AppointmentCard';
import { UncoveredVisitsNotice } from './UncoveredVisitsNotice';
import { NewAppointmentDialog } from './NewAppointmentDialog';
import { serverMessageOf } from './form-errors';

/** The call list's columns; times as on screen (12-hour, R 012). */
const CALL_LIST: CsvColumn<CallListRow>[] = [
  { header: 'Date', value: (a) => a.date },
  { header: 'Time', value: (a) => formatTime12(a.time) },
  { header: 'Patient', value: (a) => a.patient },
  // As the server sent it: masked for a role that may not see it.
  { header: 'Phone', value: (a) => a.phone },
  { header: 'Provider', value: (a) => a.provider },
  { header: 'Reason', value: (a) => a.reason },
  { header: 'Status', value: (a) => a.status },
];

function CardSkeletons() {
  return (
    <div className="grid gap-4 md:grid-cols-2" aria-busy="true" aria-label="Loading appointments">
      {Array.from({ length: 4 }, (_, i) => (
        <Skeleton key={i} className="h-48 w-full" />
      ))}
    </div>
  );
}

/**
 * One day's appointments as cards, with booking, status, reschedule and the call list, under the notice of the
 * next working day's visits not known to be covered. The day lives in the
 * address (`?date=YYYY-MM-DD`, today when absent), so a search hit, a reload or Back shows that day.
 */
export default function AppointmentsPage({ role }: { role: Role }) {
  const view = useUrlState({ date: today() });
  const date = view.values.date;
  const setDate = (day: string) => view.set({ date: day });
  const [booking, setBooking] = useState(false);
  const [exporting, setExporting] = useState(false);
  const appointments = useAppointments(date);
  const list = appointments.data?.pages.flatMap((page) => page.items) ?? [];
  const dayTotal = appointments.data?.pages[0]?.total ?? list.length;

  const exportCallList = async () => {
    setExporting(true);
    try {
      const rows = await fetchCallList(date);
      downloadCsv(`call_list_${date}.csv`, toCsv(rows, CALL_LIST));
    } catch (error) {
      toast({ title: 'Export failed', description: serverMessageOf(error), variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };

  return (
    <section>
      <PageHeader
        title="Appointments"
        subtitle="Schedule and manage patient appointments"
        actions={
          <>
            <Button onClick={() => setBooking(true)}>
              <CalendarPlus className="size-4" aria-hidden="true" />
              New Appointment
            </Button>
            <Button variant="outline" onClick={() => void exportCallList()} disabled={exporting || date === ''}>
              <Download className="size-4" aria-hidden="true" />
              {exporting ? 'Exporting…' : 'Export Call List'}
            </Button>
          </>
        }
      />
      <UncoveredVisitsNotice role={role} onOpenDay={setDate} />
      <div className="mb-6 grid max-w-xs gap-1.5">
        <Label htmlFor="appointments-date">Date</Label>
        <Input id="appointments-date" type="date" value={date} onChange={(event) => setDate(event.target.value)} />
      </div>

      {date === '' ? (
        <p className="text-muted-foreground">Choose a date to see its appointments.</p>
      ) : appointments.isLoading ? (
        <CardSkeletons />
      ) : appointments.isError ? (
        <div className="rounded-md border border-destructive p-4" role="alert">
          <p className="font-medium">Could not load the appointments.</p>
          <p className="text-sm text-muted-foreground">{serverMessageOf(appointments.error)}</p>
          <Button variant="outline" className="mt-3" onClick={() => void appointments.refetch()}>
            Try again
          </Button>
        </div>
      ) : list.length === 0 ? (
        <p className="rounded-md border border-dashed p-8 text-center text-muted-foreground">
          No appointments scheduled for {formatDate(date)}
        </p>
      ) : (
        <>
          <div className="grid gap-4 md:grid-cols-2">
            {list.map((appointment) => (
              <AppointmentCard
                key={appointment.id}
                appointment={appointment}
                canCheckEligibility={can(role, 'eligibility:check')}
              />
            ))}
          </div>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <p className="text-sm text-muted-foreground" role="status">
              Showing {list.length} appointments for {formatDate(date)}
            </p>
            {appointments.hasNextPage ? (
              <Button
                variant="outline"
                onClick={() => void appointments.fetchNextPage()}
                disabled={appointments.isFetchingNextPage}
              >
                {appointments.isFetchingNextPage
                  ? 'Loading more appointments…'
                  : `Load more appointments (${dayTotal - list.length} more)`}
              </Button>
            ) : null}
          </div>
        </>
      )}

      <NewAppointmentDialog
        key={date}
        open={booking}
        onOpenChange={setBooking}
        defaultDate={date !== '' && date >= today() ? date : today()}
        onBooked={setDate}
      />
    </section>
  );
}
