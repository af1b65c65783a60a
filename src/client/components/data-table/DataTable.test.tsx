import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { describe, expect, it, vi } from 'vitest';
import { DataTable } from './DataTable';

interface Person {
  name: string;
  age: number;
}

const columns: ColumnDef<Person, unknown>[] = [
  { accessorKey: 'name', header: 'Name' },
  { accessorKey: 'age', header: 'Age', meta: { align: 'right' } },
];

const people: Person[] = [
  { name: 'Carla', age: 41 },
  { name: 'Ana', age: 29 },
  { name: 'Ben', age: 35 },
];

function bodyNames() {
  const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
  return rows.map((r) => within(r).getAllByRole('cell')[0]?.textContent);
}

describe('DataTable', () => {
  it('shows every row, the default footer, and toggles sorting ascending then descending', async () => {
    const user = userEvent.setup();
    render(<DataTable label="People" columns={columns} data={people} />);
    expect(bodyNames()).toEqual(['Carla', 'Ana', 'Ben']);
    expect(screen.getByText('Showing 3 of 3 rows')).toBeTruthy();

    const header = screen.getByRole('columnheader', { name: /Name/ });
    await user.click(within(header).getByRole('button'));
    expect(bodyNames()).toEqual(['Ana', 'Ben', 'Carla']);
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    await user.click(within(header).getByRole('button'));
    expect(bodyNames()).toEqual(['Carla', 'Ben', 'Ana']);
    expect(header.getAttribute('aria-sort')).toBe('descending');
  });

  it('sorts from the keyboard', async () => {
    const user = userEvent.setup();
    render(<DataTable label="People" columns={columns} data={people} />);
    const button = within(screen.getByRole('columnheader', { name: /Age/ })).getByRole('button');
    button.focus();
    await user.keyboard('{Enter}');
    expect(bodyNames()).toEqual(['Ana', 'Ben', 'Carla']);
  });

  it('filters with the search box, and Clear brings every row back', async () => {
    const user = userEvent.setup();
    render(<DataTable label="People" columns={columns} data={people} search={{ placeholder: 'Search people' }} />);
    await user.type(screen.getByRole('searchbox', { name: 'Search people' }), 'an');
    expect(await screen.findByText('Showing 1 of 3 rows')).toBeTruthy();
    expect(bodyNames()).toEqual(['Ana']);
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('Showing 3 of 3 rows')).toBeTruthy();
  });

  it("says 'No data found' by default when there are no rows, or the screen's own text", () => {
    const { rerender } = render(<DataTable label="People" columns={columns} data={[]} />);
    expect(screen.getByText('No data found')).toBeTruthy();
    rerender(<DataTable label="People" columns={columns} data={[]} emptyMessage="No patients available" />);
    expect(screen.getByText('No patients available')).toBeTruthy();
  });

  it('renders only the rows in view when the list is long', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ name: `Person ${i}`, age: i }));
    render(<DataTable label="People" columns={columns} data={many} />);
    expect(screen.getByText('Showing 5000 of 5000 rows')).toBeTruthy();
    // The test DOM has no layout, so the virtualiser renders its overscan only: far fewer rows than 5000.
    expect(within(screen.getByRole('table')).getAllByRole('row').length).toBeLessThan(100);
    // Its own scroll area is a named region a keyboard user can focus and scroll.
    const region = screen.getByRole('region', { name: 'People (scrollable)' });
    expect(region.tabIndex).toBe(0);
  });

  it('a short table has no scroll area of its own to focus', () => {
    render(<DataTable label="People" columns={columns} data={people} />);
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('in server mode, reports sorting, paging and the search instead of doing them', async () => {
    const user = userEvent.setup();
    const onPageChange = vi.fn();
    const onSearch = vi.fn();
    function Server() {
      const [sorting, setSorting] = useState<SortingState>([{ id: 'name', desc: false }]);
      return (
        <>
          <p data-testid="sorting">{JSON.stringify(sorting)}</p>
          <DataTable
            label="People"
            columns={columns}
            data={people}
            search={{ placeholder: 'Search people', value: '', onChange: onSearch }}
            server={{ total: 120, pageIndex: 0, pageSize: 50, onPageChange, sorting, onSortingChange: setSorting }}
          />
        </>
      );
    }
    render(<Server />);
    // The server's order is kept as it came.
    expect(bodyNames()).toEqual(['Carla', 'Ana', 'Ben']);
    expect(screen.getByText('Showing 3 of 120 rows')).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    await user.click(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button'));
    expect(screen.getByTestId('sorting').textContent).toBe('[{"id":"name","desc":true}]');
    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(onPageChange).toHaveBeenCalledWith(1);
    await user.type(screen.getByRole('searchbox'), 'zz');
    await vi.waitFor(() => expect(onSearch).toHaveBeenCalledWith('zz'));
    expect(onSearch).toHaveBeenCalledTimes(1);
  });
});
