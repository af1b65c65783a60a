import type { CsvColumn } from '@/client/lib/csv';
import { KPI_DEFINITIONS, kpiStatus, type KpiDefinition, type KpiResult, type KpiStatus } from '../analytics.schema';

export const PERIOD_LABELS: Record<number, string> = {
  7: 'Last 7 days',
  30: 'Last 30 days',
  60: 'Last 60 days',
  90: 'Last 90 days',
};

/** '$12k' style, for chart axes (the AR axis is in thousands). */
export function formatThousands(dollars: number): string {
  const thousands = dollars / 1000;
  return `$${Number.isInteger(thousands) ? thousands : thousands.toFixed(1)}k`;
}

function formatNumber(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

export function formatPercent(value: number | null): string {
  return value === null ? 'No data' : `${formatNumber(value)}%`;
}

/** A KPI value and its unit, for showing the unit smaller: '28.4' + ' days', '96.1' + '%'. */
export function kpiValueParts(definition: KpiDefinition, value: number | null): { number: string; unit: string } {
  if (value === null) return { number: 'No data', unit: '' };
  return { number: formatNumber(value), unit: definition.unit === '%' ? '%' : ` ${definition.unit}` };
}

/** A KPI value with its unit ('28.4 days', '96.1%', '24.3 claims/hour'), or 'No data'. */
export function formatKpi(definition: KpiDefinition, value: number | null): string {
  const { number, unit } = kpiValueParts(definition, value);
  return number + unit;
}

export function formatTarget(definition: KpiDefinition): string {
  const bound = definition.lowerIsBetter ? '≤' : '≥';
  const value = definition.unit === '%' ? `${definition.target}%` : `${definition.target} ${definition.unit}`;
  return `${bound} ${value}`;
}

/**
 * How far the value goes toward its target, 0–100 (the progress bar). Higher-is-better: value ÷ target;
 * lower-is-better: target ÷ value (at or under the target is 100). Null has no progress.
 */
export function progressTowardTarget(definition: KpiDefinition, value: number | null): number | null {
  if (value === null) return null;
  const ratio = definition.lowerIsBetter ? (value <= 0 ? 1 : definition.target / value) : value / definition.target;
  return Math.max(0, Math.min(100, Math.round(ratio * 100)));
}

export interface KpiRow {
  definition: KpiDefinition;
  value: number | null;
  status: KpiStatus;
}

/** The ten KPIs in card order with the one status rule (kpiStatus) the cards and the CSV share. */
export function kpiRows(kpis: KpiResult): KpiRow[] {
  return KPI_DEFINITIONS.map((definition) => {
    const value = kpis[definition.key];
    return { definition, value, status: kpiStatus(definition, value) };
  });
}

export const KPI_CSV_COLUMNS: CsvColumn<KpiRow>[] = [
  { header: 'KPI', value: (r) => r.definition.label },
  { header: 'Value', value: (r) => r.value },
  { header: 'Unit', value: (r) => r.definition.unit },
  { header: 'Target', value: (r) => r.definition.target },
  { header: 'Direction', value: (r) => (r.definition.lowerIsBetter ? 'lower is better' : 'higher is better') },
  { header: 'Status', value: (r) => r.status },
];

export function kpiCsvFileName(kpis: KpiResult): string {
  return `kpis_${kpis.periodDays}d_${kpis.periodEnd}.csv`;
}
