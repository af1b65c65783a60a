import { memo, useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type Cell,
  type ColumnDef,
  type Row,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, Search, X } from 'lucide-react';
import { Button } from '@/client/components/ui/button';
import { Input } from '@/client/components/ui/input';
import { Skeleton } from '@/client/components/ui/skeleton';
import { cn } from '@/client/lib/cn';

/** Column metadata the table understands: alignment and a cell class. */
export interface DataTableColumnMeta {
  align?: 'left' | 'right' | 'center';
  className?: string;
  /**
   * Pinned to the right edge, `right` px from it, `width` px wide: it stays in view while a table wider
   * than its container scrolls sideways (e.g. a row's status and its action button).
   */
  pin?: { right: number; width: number };
}

/** The class and style of a pinned column's cells; nothing for the others. */
function pinned(meta: DataTableColumnMeta | undefined, background: string) {
  if (!meta?.pin) return { className: undefined, style: undefined };
  const { right, width } = meta.pin;
  return {
    // The cell's own background hides the columns scrolling beneath it; a line on its left marks the edge.
    className: cn('sticky z-[1] shadow-[inset_1px_0_0_var(--color-border)]', background),
    style: { right, width, minWidth: width, maxWidth: width },
  };
}

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type -- augments TanStack's own type, whose parameters it must repeat
  interface ColumnMeta<TData extends RowData, TValue> extends DataTableColumnMeta {}
}

/**
 * Server mode: the server searches, sorts and pages. The table shows one page and asks for
 * another through the callbacks; `total` is the number of rows matching the search.
 */
export interface ServerPaging {
  total: number;
  pageIndex: number;
  pageSize: number;
  onPageChange: (pageIndex: number) => void;
  /** Keyset paging: whether the server gave a cursor for a next page (Next is offered only then). */
  hasNextPage?: boolean;
  sorting: SortingState;
  onSortingChange: (sorting: SortingState) => void;
}

export interface DataTableProps<T> {
  /** Accessible name of the table (a caption read by screen readers). */
  label: string;
  // `any` is TanStack Table's own type for a list of columns of different value types.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  data: readonly T[];
  getRowId?: (row: T, index: number) => string;
  /** An optional search box with a Clear button. Client mode filters the loaded rows. */
  search?: {
    placeholder: string;
    label?: string;
    /** Controlled value (server mode); the change is reported after a short pause in typing. */
    value?: string;
    onChange?: (value: string) => void;
  };
  /** Default: 'No data found'. */
  emptyMessage?: ReactNode;
  /** Default: 'Showing X of Y rows'. */
  footer?: (shown: number, total: number) => ReactNode;
  server?: ServerPaging;
  loading?: boolean;
  /** Above this many rows, only the rows in view are rendered (TanStack Virtual). */
  virtualizeAbove?: number;
  /** Height of the scroll area when virtualised. */
  maxHeight?: number;
  rowClassName?: (row: T) => string | undefined;
  initialSorting?: SortingState;
}

const SEARCH_PAUSE_MS = 250;
const ROW_HEIGHT = 44;

function SortIcon({ direction }: { direction: false | 'asc' | 'desc' }) {
  if (direction === 'asc') return <ArrowUp className="size-3.5" aria-hidden="true" />;
  if (direction === 'desc') return <ArrowDown className="size-3.5" aria-hidden="true" />;
  return <ArrowUpDown className="size-3.5 opacity-50" aria-hidden="true" />;
}

function alignClass(align: DataTableColumnMeta['align']) {
  return align === 'right' ? 'text-right' : align === 'center' ? 'text-center' : 'text-left';
}

/**
 * One body row. Memoised on its cells, which TanStack Table keeps the same while the data and the columns
 * are the same: a screen that re-renders for something else (its summary or charts arriving, a refetch
 * starting) does not re-render every cell of the page. New data or new columns give new cells.
 */
const DataTableRow = memo(function DataTableRow({
  cells,
  className,
  height,
}: {
  cells: Cell<unknown, unknown>[];
  className: string | undefined;
  height: number | undefined;
}) {
  return (
    <tr className={cn('border-b border-border hover:bg-muted/40', className)} style={height ? { height } : undefined}>
      {cells.map((cell) => {
        const meta = cell.column.columnDef.meta;
        const pin = pinned(meta, 'bg-card');
        return (
          <td
            key={cell.id}
            className={cn('px-3 py-2', alignClass(meta?.align), meta?.className, pin.className)}
            style={pin.style}
          >
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </td>
        );
      })}
    </tr>
  );
});

export function DataTable<T>({
  label,
  columns,
  data,
  getRowId,
  search,
  emptyMessage = 'No data found',
  footer = (shown, total) => `Showing ${shown} of ${total} rows`,
  server,
  loading = false,
  virtualizeAbove = 100,
  maxHeight = 640,
  rowClassName,
  initialSorting = [],
}: DataTableProps<T>) {
  const [clientSorting, setClientSorting] = useState<SortingState>(initialSorting);
  const [searchText, setSearchText] = useState(search?.value ?? '');
  const [clientFilter, setClientFilter] = useState('');
  const [lastReported, setLastReported] = useState(search?.value ?? '');
  const onSearchChange = search?.onChange;

  // A parent that resets the search (e.g. 'Reset Search') changes the controlled value: show it.
  const externalValue = search?.value;
  const [seenExternal, setSeenExternal] = useState(externalValue);
  if (externalValue !== seenExternal) {
    setSeenExternal(externalValue);
    if (externalValue !== undefined && externalValue !== lastReported) {
      setLastReported(externalValue);
      setSearchText(externalValue);
    }
  }

  const report = useEffectEvent((text: string) => {
    if (text === lastReported) return;
    setLastReported(text);
    if (onSearchChange) onSearchChange(text);
    else setClientFilter(text);
  });
  // Report the search after a pause in typing, so the server is not asked once per key.
  useEffect(() => {
    const handle = setTimeout(() => report(searchText), SEARCH_PAUSE_MS);
    return () => clearTimeout(handle);
  }, [searchText]);

  // We do not use the React Compiler, whose memoisation TanStack Table's returned functions defeat.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: data as T[],
    columns,
    getRowId,
    state: { sorting: server ? server.sorting : clientSorting, globalFilter: clientFilter },
    onSortingChange: (updater) => {
      const current = server ? server.sorting : clientSorting;
      const next = typeof updater === 'function' ? updater(current) : updater;
      if (server) server.onSortingChange(next);
      else setClientSorting(next);
    },
    manualSorting: Boolean(server),
    manualFiltering: Boolean(server),
    enableSortingRemoval: false,
    // The first click sorts ascending, whatever the column's type.
    sortDescFirst: false,
    globalFilterFn: 'includesString',
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: server ? undefined : getSortedRowModel(),
    getFilteredRowModel: server ? undefined : getFilteredRowModel(),
  });

  const rows = table.getRowModel().rows;
  const virtual = rows.length > virtualizeAbove;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const paddingTop = virtual ? (items[0]?.start ?? 0) : 0;
  const paddingBottom = virtual ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  const visibleRows: Row<T>[] = virtual ? items.flatMap((item) => rows[item.index] ?? []) : rows;

  const shown = rows.length;
  const total = server ? server.total : data.length;
  const pageCount = server ? Math.max(1, Math.ceil(server.total / server.pageSize)) : 1;
  const columnCount = table.getVisibleLeafColumns().length;

  return (
    <div className="space-y-3">
      {search && (
        <div className="flex max-w-md items-center gap-2">
          <div className="relative flex-1">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              type="search"
              className="pl-9"
              placeholder={search.placeholder}
              aria-label={search.label ?? search.placeholder}
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
            />
          </div>
          <Button variant="outline" onClick={() => setSearchText('')} disabled={searchText === ''}>
            <X className="size-4" aria-hidden="true" /> Clear
          </Button>
        </div>
      )}

      <div
        ref={scrollRef}
        // Relative: a cell's absolutely placed parts (screen-reader-only text) stay inside this scroll box
        // instead of widening the page.
        className={cn(
          'relative rounded-md border border-border',
          virtual
            ? 'overflow-auto focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none'
            : 'overflow-x-auto',
        )}
        style={virtual ? { maxHeight } : undefined}
        // A scroll area of its own must be reachable by keyboard, so it can be scrolled without a mouse (WCAG 2.1.1).
        {...(virtual ? { tabIndex: 0, role: 'region', 'aria-label': `${label} (scrollable)` } : {})}
      >
        <table className="w-full caption-bottom text-sm" aria-busy={loading}>
          <caption className="sr-only">{label}</caption>
          <thead className={cn('bg-muted/60', virtual && 'sticky top-0 z-10 bg-muted')}>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id} className="border-b border-border">
                {group.headers.map((header) => {
                  const meta = header.column.columnDef.meta;
                  const sorted = header.column.getIsSorted();
                  const canSort = header.column.getCanSort();
                  const title = flexRender(header.column.columnDef.header, header.getContext());
                  const pin = pinned(meta, 'bg-muted');
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className={cn(
                        'h-11 px-3 font-medium text-muted-foreground',
                        alignClass(meta?.align),
                        pin.className,
                      )}
                      style={pin.style}
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    >
                      {header.isPlaceholder ? null : canSort ? (
                        <button
                          type="button"
                          className={cn(
                            '-mx-1 inline-flex items-center gap-1 rounded px-1 py-0.5 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                            meta?.align === 'right' && 'flex-row-reverse',
                          )}
                          onClick={header.column.getToggleSortingHandler()}
                        >
                          {title}
                          <SortIcon direction={sorted} />
                        </button>
                      ) : (
                        title
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {loading && rows.length === 0 ? (
              Array.from({ length: 5 }, (_, i) => (
                <tr key={`skeleton-${i}`} className="border-b border-border">
                  <td colSpan={columnCount} className="px-3 py-2">
                    <Skeleton className="h-6 w-full" />
                  </td>
                </tr>
              ))
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={columnCount} className="px-3 py-10 text-center text-muted-foreground">
                  {emptyMessage}
                </td>
              </tr>
            ) : (
              <>
                {paddingTop > 0 && (
                  <tr aria-hidden="true">
                    <td colSpan={columnCount} style={{ height: paddingTop, padding: 0 }} />
                  </tr>
                )}
                {visibleRows.map((row) => (
                  <DataTableRow
                    key={row.id}
                    cells={row.getVisibleCells() as Cell<unknown, unknown>[]}
                    className={rowClassName?.(row.original)}
                    height={virtual ? ROW_HEIGHT : undefined}
                  />
                ))}
                {paddingBottom > 0 && (
                  <tr aria-hidden="true">
                    <td colSpan={columnCount} style={{ height: paddingBottom, padding: 0 }} />
                  </tr>
                )}
              </>
            )}
          </tbody>
        </table>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
        <p aria-live="polite">{footer(shown, total)}</p>
        {server && (pageCount > 1 || server.pageIndex > 0 || server.hasNextPage) && (
          <nav className="flex items-center gap-2" aria-label={`${label} pages`}>
            <Button
              variant="outline"
              size="sm"
              onClick={() => server.onPageChange(server.pageIndex - 1)}
              disabled={server.pageIndex === 0 || loading}
            >
              <ChevronLeft className="size-4" aria-hidden="true" /> Previous
            </Button>
            <span>
              Page {server.pageIndex + 1} of {pageCount}
            </span>
            <Button
              variant="outline"
              size="sm"
              onClick={() => server.onPageChange(server.pageIndex + 1)}
              disabled={(server.hasNextPage ?? server.pageIndex + 1 < pageCount) === false || loading}
            >
              Next <ChevronRight className="size-4" aria-hidden="true" />
            </Button>
          </nav>
        )}
      </div>
    </div>
  );
}
