import { Label } from '@/client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { KPI_PERIODS } from '../analytics.schema';
import { PERIOD_LABELS } from './analytics.view';

/** 7, 30, 60 or 90 days (the caller's default is 30). */
export function PeriodSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: number;
  onChange: (periodDays: number) => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>Period</Label>
      <Select value={String(value)} onValueChange={(v) => onChange(Number(v))}>
        <SelectTrigger id={id} className="w-40" aria-label="Period">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {KPI_PERIODS.map((days) => (
            <SelectItem key={days} value={String(days)}>
              {PERIOD_LABELS[days]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
