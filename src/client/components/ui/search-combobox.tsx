import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { cn } from '@/client/lib/cn';
import { Input } from './input';
import { invalidProps } from './form-field';

const SEARCH_PAUSE_MS = 250;

function useSettledValue(value: string, pauseMs: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), pauseMs);
    return () => clearTimeout(timer);
  }, [value, pauseMs]);
  return settled;
}

export interface NamedOption {
  id: number;
  name: string;
}

/**
 * A searchable picker (WAI-ARIA combobox with a listbox popup): type part of a name, choose with the mouse
 * or with the arrow keys and Enter. `useOptions` is the caller's query hook for the typed text (asked after
 * a short pause in typing), so each screen searches through an endpoint its roles may call.
 */
export function SearchCombobox<T extends NamedOption>({
  id,
  value,
  onChange,
  useOptions,
  placeholder,
  listLabel,
  emptyText,
  error,
  describe,
}: {
  id: string;
  value: T | null;
  onChange: (option: T | null) => void;
  useOptions: (search: string) => { data: T[] | undefined; isFetching: boolean };
  placeholder: string;
  /** Accessible name of the popup list. */
  listLabel: string;
  /** Shown when nothing matches the typed text. */
  emptyText: string;
  error?: string;
  /** A second line under each option's name (e.g. a patient's date of birth and MRN, to tell namesakes apart). */
  describe?: (option: T) => string;
}) {
  const listId = useId();
  const [text, setText] = useState(value?.name ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useSettledValue(text.trim(), SEARCH_PAUSE_MS);
  const found = useOptions(search);
  const options = found.data ?? [];
  // The list shows the last answer while the typed text waits for its pause or its search: it is not yet the
  // answer to what was typed (aria-busy), and an option can still move under the pointer.
  const searching = search !== text.trim() || found.isFetching;
  const activeOption = open ? options[Math.min(active, options.length - 1)] : undefined;

  const choose = (option: T) => {
    onChange(option);
    setText(option.name);
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) return setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (options.length === 0 ? 0 : (i + step + options.length) % options.length));
    } else if (event.key === 'Enter' && open && activeOption) {
      event.preventDefault();
      choose(activeOption);
    } else if (event.key === 'Escape' && open) {
      // Close the list, not a dialog around it.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <div className="relative">
      <Input
        id={id}
        role="combobox"
        autoComplete="off"
        placeholder={placeholder}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={activeOption ? `${listId}-${activeOption.id}` : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          setOpen(true);
          if (value) onChange(null);
        }}
        onClick={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        {...invalidProps(id, error)}
      />
      {open && (
        <div className="absolute z-50 mt-1 w-full rounded-md border border-border bg-card shadow-md">
          {options.length > 0 && (
            <ul
              id={listId}
              role="listbox"
              aria-label={listLabel}
              aria-busy={searching}
              className="max-h-56 overflow-y-auto p-1"
            >
              {options.map((option) => (
                <li
                  key={option.id}
                  id={`${listId}-${option.id}`}
                  role="option"
                  aria-selected={option.id === activeOption?.id}
                  className={cn(
                    'cursor-pointer rounded-sm px-2 py-1.5 text-sm',
                    option.id === activeOption?.id && 'bg-accent',
                  )}
                  // Keep focus in the input so the list does not close before the click lands.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(option)}
                >
                  {option.name}
                  {/* The space keeps the name and its detail apart in the option's accessible name. */}
                  {describe && ' '}
                  {describe && <span className="block text-xs text-muted-foreground">{describe(option)}</span>}
                </li>
              ))}
            </ul>
          )}
          {options.length === 0 && (
            <p className="px-3 py-2 text-sm text-muted-foreground" role="status">
              {searching ? 'Searching…' : emptyText}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
