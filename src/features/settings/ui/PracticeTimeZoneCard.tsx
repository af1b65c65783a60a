import { useId, useMemo, useState, type FormEvent } from 'react';
import { format, parseISO } from 'date-fns';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Label } from '@/client/components/ui/label';
import { toast } from '@/client/components/ui/toast';
import { errorTextFor } from '@/client/lib/error-text';
import { knownTimeZones } from '@/shared/practice-zone';
import { usePracticeTimeZone, useSavePracticeTimeZone } from './settings.api';

/** The practice's time zone, whose midnight turns over every "today", due date and age in the app. */
export function PracticeTimeZoneCard() {
  const zone = usePracticeTimeZone();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Time zone</CardTitle>
        <CardDescription>
          Today&apos;s schedule, due dates, ages and every day boundary follow the practice&apos;s time zone, wherever
          the server or a browser is.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {zone.isError ? (
          <p role="alert" className="text-destructive">
            The time zone could not be loaded: {errorTextFor(zone.error)}
          </p>
        ) : zone.data ? (
          <TimeZoneForm
            key={zone.data.timeZone}
            saved={zone.data.timeZone}
            chosen={zone.data.chosen}
            day={zone.data.today}
          />
        ) : (
          <p role="status" className="text-sm text-muted-foreground">
            Loading time zone…
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function TimeZoneForm({ saved, chosen, day }: { saved: string; chosen: boolean; day: string }) {
  const id = useId();
  const [value, setValue] = useState(saved);
  const save = useSavePracticeTimeZone();
  const zones = useMemo(() => knownTimeZones(), []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { timeZone: value },
      {
        onSuccess: (result) =>
          toast({
            title: 'Time zone saved',
            description: `Today in the practice is ${format(parseISO(result.today), 'EEEE, MMMM d, yyyy')}.`,
          }),
        onError: (error) =>
          toast({ title: 'Time zone not saved', description: errorTextFor(error), variant: 'destructive' }),
      },
    );
  };
  return (
    <form className="grid max-w-md gap-3" onSubmit={submit}>
      <div className="grid gap-2">
        <Label htmlFor={id}>Practice time zone</Label>
        <select
          id={id}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          className="h-9 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {zones.map((z) => (
            <option key={z} value={z}>
              {z.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
        <p className="text-sm text-muted-foreground" data-testid="practice-today">
          Today in the practice: {format(parseISO(day), 'EEEE, MMMM d, yyyy')}
          {chosen ? '' : " (the server's time zone, until one is chosen)"}
        </p>
      </div>
      <div>
        <Button type="submit" disabled={save.isPending || (chosen && value === saved)}>
          {save.isPending ? 'Saving…' : 'Save time zone'}
        </Button>
      </div>
    </form>
  );
}
