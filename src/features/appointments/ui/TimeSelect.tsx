import { useEffect } from 'react';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { formatTime12 } from '../appointments.schema';
import { useFreeSlots, type SlotsFor } from './appointments.api';
import { invalidProps } from '@/client/components/ui/form-field';

/**
 * The start times still free on the chosen day (Settings → Practice: hours, visit length, buffer; the
 * provider's and the patient's other visits), shown in 12-hour form (R 012).
 */
export function TimeSelect({
  id,
  value,
  onChange,
  error,
  slotsFor,
  waitingFor,
}: {
  id: string;
  value: string;
  onChange: (time: string) => void;
  error?: string;
  slotsFor: SlotsFor;
  /** What to choose first, while the picker cannot ask yet (e.g. 'Choose a provider first'). */
  waitingFor: string;
}) {
  const slots = useFreeSlots(slotsFor);
  const times = slots.data?.times ?? [];
  const gone = slots.data !== undefined && value !== '' && !times.includes(value);
  // A time chosen for another day or provider, or taken meanwhile, is not kept as if it were still free.
  useEffect(() => {
    if (gone) onChange('');
  }, [gone, onChange]);
  const placeholder = slots.isLoading
    ? 'Loading times…'
    : !slots.data
      ? waitingFor
      : times.length === 0
        ? 'No free times that day'
        : 'Choose a time';
  return (
    <Select value={gone ? '' : value} onValueChange={onChange} disabled={times.length === 0}>
      <SelectTrigger id={id} {...invalidProps(id, error)}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent className="max-h-64 overflow-y-auto">
        {times.map((time) => (
          <SelectItem key={time} value={time}>
            {formatTime12(time)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
