import { format, parseISO } from 'date-fns';
import type { CsvColumn } from '@/client/lib/csv';
import type { FollowUpPriority, OverdueFollowUp } from '../worklist.schema';

/** SPEC 2.17 tiles, always over the whole (unfiltered) list. */
export interface WorklistSummary {
  total: number;
  high: number;
  medium: number;
  low: number;
  /** Mean days overdue rounded to a whole number; 0 for an empty list. */
  avgDaysOverdue: number;
}

export function summarise(rows: readonly OverdueFollowUp[]): WorklistSummary {
  const count = (priority: FollowUpPriority) => rows.filter((r) => r.priority === priority).length;
  const totalDays = rows.reduce((sum, r) => sum + r.daysOverdue, 0);
  return {
    total: rows.length,
    high: count('High'),
    medium: count('Medium'),
    low: count('Low'),
    avgDaysOverdue: rows.length === 0 ? 0 : Math.round(totalDays / rows.length),
  };
}

/** SPEC 2.17: the distinct provider names, sorted alphabetically. */
export function providerNames(rows: readonly OverdueFollowUp[]): string[] {
  return [...new Set(rows.map((r) => r.providerName))].sort((a, b) => a.localeCompare(b));
}

export interface WorklistFilter {
  /** undefined: all priorities. */
  priority?: FollowUpPriority;
  /** undefined: all providers. */
  provider?: string;
}

export function filterWorklist(rows: readonly OverdueFollowUp[], filter: WorklistFilter): OverdueFollowUp[] {
  return rows.filter(
    (r) =>
      (filter.priority === undefined || r.priority === filter.priority) &&
      (filter.provider === undefined || r.providerName === filter.provider),
  );
}

/** SPEC 9: worklist dates look like 'Jan 05, 2025'. */
export function formatEncounterDate(isoDate: string): string {
  return format(parseISO(isoDate), 'MMM dd, yyyy');
}

/** SPEC 2.17 export columns; diagnoses joined with '; ', the date as on screen. */
export const WORKLIST_CSV_COLUMNS: CsvColumn<OverdueFollowUp>[] = [
  { header: 'Patient', value: (r) => r.patientName },
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
