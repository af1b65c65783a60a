import { useState, useSyncExternalStore } from 'react';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SearchCombobox, type NamedOption } from './search-combobox';

const PEOPLE: NamedOption[] = [
  { id: 1, name: 'Anya Adeyemi' },
  { id: 2, name: 'Bruno Costa' },
  { id: 3, name: 'Dana Park' },
];

/**
 * Answers a search as a query hook would, only when the test releases it: until then it keeps the latest
 * answer (as TanStack Query's placeholder data does) and says it is fetching.
 */
function deferredOptions() {
  const answered = new Map<string, NamedOption[]>([['', PEOPLE]]);
  let latest = PEOPLE;
  let version = 0;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const useOptions = (search: string) => {
    useSyncExternalStore(subscribe, () => version);
    const data = answered.get(search);
    return { data: data ?? latest, isFetching: data === undefined };
  };
  const answer = (search: string) => {
    latest = PEOPLE.filter((p) => p.name.toLowerCase().includes(search.toLowerCase()));
    answered.set(search, latest);
    version += 1;
    act(() => listeners.forEach((listener) => listener()));
  };
  return { useOptions, answer };
}

function Picker({
  useOptions,
}: {
  useOptions: (search: string) => { data: NamedOption[] | undefined; isFetching: boolean };
}) {
  const [value, setValue] = useState<NamedOption | null>(null);
  return (
    <>
      <label htmlFor="who">Who</label>
      <SearchCombobox
        id="who"
        value={value}
        onChange={setValue}
        useOptions={useOptions}
        placeholder="Search"
        listLabel="People"
        emptyText="Nobody found"
      />
      <p>chosen: {value?.name ?? 'none'}</p>
    </>
  );
}

describe('SearchCombobox', () => {
  it('marks its list busy until it answers what was typed, then lets an option be chosen', async () => {
    const { useOptions, answer } = deferredOptions();
    const user = userEvent.setup();
    render(<Picker useOptions={useOptions} />);
    await user.type(screen.getByRole('combobox', { name: 'Who' }), 'an');
    // The earlier answer still shows, and says it is not yet the answer to "an".
    const list = screen.getByRole('listbox', { name: 'People' });
    expect(list.getAttribute('aria-busy')).toBe('true');
    expect(within(list).getAllByRole('option')).toHaveLength(3);
    answer('an');
    await expect.poll(() => screen.getByRole('listbox', { name: 'People' }).getAttribute('aria-busy')).toBe('false');
    const options = within(screen.getByRole('listbox', { name: 'People' })).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Anya Adeyemi', 'Dana Park']);
    await user.click(options[1]!);
    expect(screen.getByText('chosen: Dana Park')).toBeTruthy();
  });

  it('says it is searching, not that nobody was found, while the typed text has no answer yet', async () => {
    const { useOptions, answer } = deferredOptions();
    const user = userEvent.setup();
    render(<Picker useOptions={useOptions} />);
    const input = screen.getByRole('combobox', { name: 'Who' });
    await user.type(input, 'zz');
    answer('zz');
    await expect.poll(() => screen.queryByRole('status')?.textContent).toBe('Nobody found');
    // One more letter: the last answer was empty, and the new text has none yet.
    await user.type(input, 'z');
    expect(screen.getByRole('status').textContent).toBe('Searching…');
    answer('zzz');
    await expect.poll(() => screen.queryByRole('status')?.textContent).toBe('Nobody found');
  });
});
