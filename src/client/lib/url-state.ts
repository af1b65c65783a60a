import { useState } from 'react';
import type { SortingState } from '@tanstack/react-table';
import { useLocation, useSearchParams } from 'react-router';
import type { ServerPaging } from '@/client/components/data-table/DataTable';

/** The page number and the cursor that loads it: the two query keys the paging writes. */
const PAGE_KEY = 'page';
const CURSOR_KEY = 'cursor';

export interface SetUrlStateOptions {
  /** Replace the current history entry instead of adding one (e.g. while the user types a search). */
  replace?: boolean;
}

/**
 * A list screen's view — its filters, sort, search, date — kept in the address's query string, so a search
 * hit, a reload, Back/Forward and a shared link all show the same view. `defaults` names every key the
 * screen reads and the value it has when the address does not give one; a value set back to its default
 * is left out of the address. Keys the screen does not name are kept as they are. Changing any of them
 * starts the list again at its first page (see `useUrlPaging`).
 */
export function useUrlState<const D extends Record<string, string>>(defaults: D) {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(
    Object.entries(defaults).map(([key, fallback]) => [key, params.get(key) ?? fallback]),
  ) as { [K in keyof D]: string };

  const set = (patch: Partial<{ [K in keyof D]: string }>, options: SetUrlStateOptions = {}) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(patch)) {
          if (value === undefined || value === defaults[key]) next.delete(key);
          else next.set(key, value);
        }
        // Another filter, sort or search lists other rows: the page and its cursor no longer apply.
        next.delete(PAGE_KEY);
        next.delete(CURSOR_KEY);
        return next;
      },
      { replace: options.replace },
    );
  };
  return { values, set };
}

/** What a page turn leaves in its history entry, so Previous and the total survive a reload. */
interface PagingHistory {
  /** The cursor of every page up to the shown one (null for the first page). */
  cursors: (string | null)[];
  total: number;
}

function pagingHistoryOf(state: unknown): PagingHistory | undefined {
  if (typeof state !== 'object' || state === null || !('paging' in state)) return undefined;
  const paging = state.paging;
  if (typeof paging !== 'object' || paging === null) return undefined;
  const { cursors, total } = paging as Partial<PagingHistory>;
  return Array.isArray(cursors) && typeof total === 'number' ? { cursors, total } : undefined;
}

/**
 * Keyset paging (docs/paging.md) kept in the address: `page` (from 1) and the `cursor` that loads it, so a
 * reload, Back/Forward and a shared link open the same page. The cursors of the earlier pages and the
 * first page's total travel in the history entry's state; a shared link to a later page has neither, so
 * its screen asks for the first page's total (`needsTotal`) and Previous goes back to the first page.
 */
export function useUrlPaging() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const history = pagingHistoryOf(location.state);
  const cursorParam = params.get(CURSOR_KEY);
  const pageParam = Number(params.get(PAGE_KEY));
  // A page without its cursor cannot be loaded: show the first page.
  const pageIndex = cursorParam && Number.isInteger(pageParam) && pageParam > 1 ? pageParam - 1 : 0;
  const cursor = pageIndex > 0 ? (cursorParam ?? undefined) : undefined;
  const [trackedTotal, setTrackedTotal] = useState(history?.total ?? 0);
  const total = pageIndex > 0 && history ? history.total : trackedTotal;
  const chain: (string | null)[] =
    history && history.cursors.length === pageIndex + 1 && history.cursors[pageIndex] === (cursor ?? null)
      ? history.cursors
      : [];

  const show = (index: number, cursors: (string | null)[]) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        const pageCursor = cursors[index];
        if (index > 0 && pageCursor) {
          next.set(PAGE_KEY, String(index + 1));
          next.set(CURSOR_KEY, pageCursor);
        } else {
          next.delete(PAGE_KEY);
          next.delete(CURSOR_KEY);
        }
        return next;
      },
      { state: { paging: { cursors: cursors.slice(0, index + 1), total } satisfies PagingHistory } },
    );

  const turn = (next: number, nextCursor: string | null | undefined) => {
    if (next === pageIndex + 1 && nextCursor) {
      const known = chain.length > 0 ? chain : [...Array<null>(pageIndex), cursor ?? null];
      show(next, [...known.slice(0, pageIndex + 1), nextCursor]);
    } else if (next < pageIndex) {
      const target = Math.max(0, next);
      // Without the earlier cursors (a shared link), the first page is the one earlier page we can load.
      show(chain[target] || target === 0 ? target : 0, chain.length > 0 ? chain : [null]);
    }
  };

  return {
    pageIndex,
    /** Send as `cursor`; undefined on the first page. */
    cursor,
    total,
    /** A later page opened without its history: the screen should fetch the first page for its total. */
    needsTotal: pageIndex > 0 && !history,
    /** Call while rendering with a first page's `total` (a number on first pages, null after). */
    track: (pageTotal: number | null | undefined) => {
      if (typeof pageTotal === 'number' && pageTotal !== trackedTotal) setTrackedTotal(pageTotal);
    },
    turn,
    /**
     * DataTable's server-mode props for the shown page: Next follows its nextCursor; a new sort (written by
     * `onSort`, which should also leave the page) starts over.
     */
    tableProps: (
      page: { nextCursor: string | null } | undefined,
      pageSize: number,
      sorting: SortingState,
      onSort: (sorting: SortingState) => void,
    ): ServerPaging => ({
      total,
      pageIndex,
      pageSize,
      onPageChange: (next) => turn(next, page?.nextCursor),
      hasNextPage: Boolean(page?.nextCursor),
      sorting,
      onSortingChange: onSort,
    }),
  };
}

/** A table's sort from its `sort` and `dir` query values. */
export function sortingOf(sort: string, dir: string): SortingState {
  return [{ id: sort, desc: dir === 'desc' }];
}
