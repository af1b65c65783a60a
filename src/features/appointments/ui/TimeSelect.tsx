import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { formatTime12, practiceSlots } from '../appointments.schema';
import { usePracticeHours } from './appointments.api';
import { invalidProps } from '@/client/components/ui/form-field';

/** The practice's bookable start times (Settings → Practice), shown in 12-hour form (R 012). */
export function TimeSelect({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string;
  onChange: (time: string) => void;
  error?: string;
}) {
  const hours = usePracticeHours();
  const slots = hours.data ? practiceSlots(hours.data) : [];
  return (
    <Select value={value} onValueChange={onChange} disabled={!hours.data}>
      <SelectTrigger id={id} {...invalidProps(id, error)}>
        <SelectValue placeholder={hours.isLoading ? 'Loading times…' : 'Choose a time'} />
      </SelectTrigger>
      <SelectContent className="max-h-64 overflow-y-auto">
        {slots.map((time) => (
          <SelectItem key={time} value={time}>
            {formatTime12(time)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
