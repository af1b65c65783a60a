import { format, parseISO } from 'date-fns';
import type { CsvColumn } from '@/client/lib/csv';
import type { OverdueFollowUp } from '../worklist.schema';

/** Worklist dates look like 'Jan 05, 2025'. */
export function formatEncounterDate(isoDate: string): string {
  return format(parseISO(isoDate), 'MMM dd, yyyy');
}

/** The worklist's export columns; diagnoses joined with '; ', the date as on screen. */
export const WORKLIST_CSV_COLUMNS: CsvColumn<OverdueFollowUp>[] = [
  { header: 'Patient', value: (r) => r.patientName },
  { header: 'Phone', value: (r) => r.phone },
  { header: 'Provider', value: (r) => r.providerName },
  { header: 'Encounter Date', value: (r) => formatEncounterDate(r.encounterDate) },
  { header: 'Type', value: (r) => r.encounterType },
  { header: 'Chief Complaint', value: (r) => r.chiefComplaint },
  { header: 'Diagnosis', value: (r) => r.diagnosis.join('; ') },
  { header: 'Days Overdue', value: (r) => r.daysOverdue },
  { header: 'Priority', value: (r) => r.priority },
  { header: 'Action', value: (r) => r.recommendedAction },
];

export const WORKLIST_CSV_FILE = 'overdue-followups.csv';
