/**
 * A service line as read from claim_lines (procedure code, modifiers, units, charge, diagnosis pointers, service
 * date, in the columns' own names), as the scrubber, the 837P writer and a new claim's draft take it.
 */
import { rowText, type RawRow } from '@/server/db/sql-helpers';

export interface ServiceLineFields {
  procedureCode: string;
  modifiers: string[];
  units: number;
  chargeCents: number;
  diagnosisPointers: number[];
  /** YYYY-MM-DD: read it as `service_date::text`. */
  serviceDate: string;
}

export function serviceLineOf(row: RawRow): ServiceLineFields {
  return {
    procedureCode: rowText(row.procedure_code),
    modifiers: (row.modifiers as string[] | null) ?? [],
    units: Number(row.units),
    chargeCents: Number(row.charge_cents),
    diagnosisPointers: ((row.diagnosis_pointers as number[] | null) ?? []).map(Number),
    serviceDate: rowText(row.service_date),
  };
}
