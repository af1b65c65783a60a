import { useCallback, useState } from 'react';
import type { SortingState } from '@tanstack/react-table';
import type { ServerPaging } from '@/client/components/data-table/DataTable';

/**
 * Keyset paging state for a server-mode table (docs/paging.md): the cursor of each page reached so far, so
 * 'Next' asks for the rows after the current page's last row (a cursor the server issued, `nextCursor`)
 * and 'Previous' goes back to a page already seen. The server counts the matches on a first page only;
 * `total` keeps the latest first page's count while later pages are shown.
 */
export function useCursorPaging() {
  const [pages, setPages] = useState<{ index: number; cursors: (string | undefined)[] }>({
    index: 0,
    cursors: [undefined],
  });
  const [total, setTotal] = useState(0);
  // Already on a fresh first page: keep the same state, so nothing re-renders.
  const reset = useCallback(
    () => setPages((p) => (p.index === 0 && p.cursors.length === 1 ? p : { index: 0, cursors: [undefined] })),
    [],
  );
  const turn = (next: number, nextCursor: string | null | undefined) =>
    setPages((p) => {
      if (next < p.index) return { ...p, index: Math.max(0, next) };
      if (next === p.index + 1 && nextCursor)
        return { index: next, cursors: [...p.cursors.slice(0, next), nextCursor] };
      return p;
    });
  return {
    pageIndex: pages.index,
    /** Send as `cursor`; undefined on the first page. */
    cursor: pages.cursors[pages.index],
    total,
    /** Call while rendering with the shown page's `total` (a number on first pages, null after). */
    track: (pageTotal: number | null | undefined) => {
      if (typeof pageTotal === 'number' && pageTotal !== total) setTotal(pageTotal);
    },
    /** Back to the first page: the filters or the sort changed. */
    reset,
    /** To the next page (with the shown page's nextCursor) or back to an earlier one. */
    turn,
    /** DataTable's server-mode props for the shown page: Next follows its nextCursor; a new sort starts over. */
    tableProps: (
      page: { nextCursor: string | null } | undefined,
      pageSize: number,
      sorting: SortingState,
      setSorting: (sorting: SortingState) => void,
    ): ServerPaging => ({
      total,
      pageIndex: pages.index,
      pageSize,
      onPageChange: (next) => turn(next, page?.nextCursor),
      hasNextPage: Boolean(page?.nextCursor),
      sorting,
      onSortingChange: (next) => {
        setSorting(next);
        reset();
      },
    }),
  };
}
