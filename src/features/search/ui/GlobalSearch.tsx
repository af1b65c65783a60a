import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { Search } from 'lucide-react';
import { formatDate, formatTime12 } from '@/shared/dates';
import { Input } from '@/client/components/ui/input';
import { cn } from '@/client/lib/cn';
import { SEARCH_MIN_LENGTH } from '../search.limits';
import type { SearchResult } from '../search.schema';
import { useSearchResults } from './search.api';

function useDebounced(value: string, ms: number) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

interface Hit {
  key: string;
  text: string;
  sub: string;
  /** The list screen filtered to this hit: each list reads its view from the address. */
  to: string;
}

function groupsOf(data: SearchResult | undefined): { label: string; items: Hit[] }[] {
  if (!data) return [];
  return [
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
        sub: `${formatDate(a.date)}, ${formatTime12(a.time)} · ${a.provider}`,
        to: `/appointments?date=${encodeURIComponent(a.date)}`,
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
  ].filter((g) => g.items.length > 0);
}

/**
 * Starts past 1 character, at most 3 results per group, only the groups the role may open. A WAI-ARIA
 * combobox: the arrow keys move through the hits of every group, Enter opens the active one, Escape closes
 * the list (a second Escape clears the text), and a click opens a hit as well.
 */
export function GlobalSearch() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const q = useDebounced(text.trim(), 250);
  const listId = useId();
  const enabled = q.length >= SEARCH_MIN_LENGTH;
  const { data, isFetching } = useSearchResults(q, enabled);

  const groups = groupsOf(data);
  const hits = groups.flatMap((g) => g.items);
  const expanded = open && enabled;
  const activeHit = expanded ? hits[active] : undefined;
  const optionId = (hit: Hit) => `${listId}-${hit.key}`;

  const go = (hit: Hit) => {
    setOpen(false);
    setText('');
    setActive(-1);
    void navigate(hit.to);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!expanded) {
        setOpen(true);
        return;
      }
      if (hits.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // From the text box, Up goes to the last hit; both ends wrap round.
      setActive((i) => (i < 0 ? (step > 0 ? 0 : hits.length - 1) : (i + step + hits.length) % hits.length));
    } else if (event.key === 'Enter' && activeHit) {
      event.preventDefault();
      go(activeHit);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      if (expanded) setOpen(false);
      else setText('');
      setActive(-1);
    }
  };

  return (
    <div className="relative w-full max-w-md">
      <Search
        className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground"
        aria-hidden="true"
      />
      <Input
        type="search"
        aria-label="Global search"
        role="combobox"
        aria-autocomplete="list"
        aria-haspopup="listbox"
        // The list exists only while it has hits; "Searching…" and "No results" are announced as a status.
        aria-controls={expanded && hits.length > 0 ? listId : undefined}
        aria-expanded={expanded && hits.length > 0}
        aria-activedescendant={activeHit ? optionId(activeHit) : undefined}
        autoComplete="off"
        placeholder="Search patients, appointments, claims..."
        className="pl-8"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(-1);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {expanded && (
        <div className="absolute z-50 mt-1 w-full rounded-md border bg-card p-2 text-sm shadow-lg">
          {groups.length === 0 ? (
            <p className="p-2 text-muted-foreground" role="status">
              {isFetching ? 'Searching…' : `No results found for "${q}"`}
            </p>
          ) : (
            <div id={listId} role="listbox" aria-label="Search results">
              {groups.map((group) => (
                <div key={group.label} role="group" aria-labelledby={`${listId}-${group.label}`} className="py-1">
                  <div
                    id={`${listId}-${group.label}`}
                    role="presentation"
                    className="px-2 text-xs font-medium text-muted-foreground"
                  >
                    {group.label}
                  </div>
                  {group.items.map((item) => (
                    <div
                      key={item.key}
                      id={optionId(item)}
                      role="option"
                      aria-selected={item === activeHit}
                      className={cn(
                        'cursor-pointer rounded px-2 py-1 hover:bg-accent',
                        item === activeHit && 'bg-accent ring-2 ring-ring',
                      )}
                      // Keep focus in the text box, so the list does not close before the click lands.
                      onMouseDown={(event) => event.preventDefault()}
                      onClick={() => go(item)}
                    >
                      <span className="font-medium">{item.text}</span>
                      <span className="ml-2 text-muted-foreground">{item.sub}</span>
                    </div>
                  ))}
                </div>
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
