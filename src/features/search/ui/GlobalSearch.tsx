import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { Search } from 'lucide-react';
import { Input } from '@/client/components/ui/input';
import { SEARCH_MIN_LENGTH } from '../search.limits';
import { useSearchResults } from './search.api';

function useDebounced(value: string, ms: number) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

/** Starts past 1 character, at most 3 results per group, only the groups the role may open. */
export function GlobalSearch() {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const q = useDebounced(text.trim(), 250);
  const listId = useId();
  const enabled = q.length >= SEARCH_MIN_LENGTH;
  const { data, isFetching } = useSearchResults(q, enabled);

  const groups = data
    ? [
        {
          label: 'Patients',
          items: (data.patients ?? []).map((p) => ({
            key: `p${p.id}`,
            text: p.name,
            sub: p.mrn,
            to: `/patients?search=${encodeURIComponent(p.name)}`,
          })),
        },
        {
          label: 'Appointments',
          items: (data.appointments ?? []).map((a) => ({
            key: `a${a.id}`,
            text: a.patient,
            sub: `${a.date} ${a.time} · ${a.provider}`,
            to: `/appointments?date=${a.date}`,
          })),
        },
        {
          label: 'Claims',
          items: (data.claims ?? []).map((c) => ({
            key: `c${c.id}`,
            text: c.patient,
            sub: `${c.accountNumber} · ${c.status}`,
            to: `/claims?search=${encodeURIComponent(c.accountNumber)}`,
          })),
        },
      ].filter((g) => g.items.length > 0)
    : [];

  const close = () => {
    setOpen(false);
    setText('');
  };

  return (
    <div className="relative w-full max-w-md" onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <Search
        className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground"
        aria-hidden="true"
      />
      <Input
        type="search"
        aria-label="Global search"
        aria-controls={listId}
        aria-expanded={open && enabled}
        role="combobox"
        placeholder="Search patients, appointments, claims..."
        className="pl-8"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
      />
      {open && enabled && (
        <div
          id={listId}
          className="absolute z-50 mt-1 w-full rounded-md border bg-card p-2 text-sm shadow-lg"
          aria-live="polite"
        >
          {isFetching && !data ? (
            <p className="p-2 text-muted-foreground">Searching…</p>
          ) : groups.length === 0 ? (
            <p className="p-2 text-muted-foreground">No results found for &quot;{q}&quot;</p>
          ) : (
            groups.map((group) => (
              <section key={group.label} aria-label={group.label} className="py-1">
                <h2 className="px-2 text-xs font-medium text-muted-foreground">{group.label}</h2>
                <ul>
                  {group.items.map((item) => (
                    <li key={item.key}>
                      <Link
                        to={item.to}
                        onClick={close}
                        className="block rounded px-2 py-1 hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                      >
                        <span className="font-medium">{item.text}</span>
                        <span className="ml-2 text-muted-foreground">{item.sub}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              </section>
            ))
          )}
        </div>
      )}
    </div>
  );
}
