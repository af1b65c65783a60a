import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { isoDateSchema } from '@/shared/api';
import {
  CLAIM_SORT_KEYS,
  claimStatusSchema,
  payerSchema,
  reasonFilterSchema,
  type ClaimSortKey,
  type ClaimStatus,
  type Payer,
} from '../claims.schema';

/**
 * What the Claims list shows, kept in the address (`/claims?search=Maria&status=Denied&page=2`), so a link
 * opens the same view and reload, Back and Forward restore it. `page` is 0-based here and 1-based in the
 * address; `cursor` is the server's cursor of that page when it was reached with Next.
 */
export interface ClaimsView {
  search: string;
  payer: Payer | undefined;
  reason: string;
  status: ClaimStatus | undefined;
  providerId: number | undefined;
  from: string | undefined;
  to: string | undefined;
  sort: ClaimSortKey;
  dir: 'asc' | 'desc';
  page: number;
  cursor: string | undefined;
}

export const DEFAULT_CLAIMS_VIEW: ClaimsView = {
  search: '',
  payer: undefined,
  reason: '',
  status: undefined,
  providerId: undefined,
  from: undefined,
  to: undefined,
  sort: 'serviceDate',
  dir: 'desc',
  page: 0,
  cursor: undefined,
};

/** A value the address carries that is not a valid one is ignored (the default applies), never an error. */
function valid<T>(schema: { safeParse: (value: unknown) => { success: boolean; data?: T } }, text: string | null) {
  if (text === null || text === '') return undefined;
  const parsed = schema.safeParse(text);
  return parsed.success ? parsed.data : undefined;
}

export function parseClaimsView(params: URLSearchParams): ClaimsView {
  const sortText = params.get('sort') ?? '';
  const providerId = Number(params.get('provider'));
  const page = Number(params.get('page'));
  return {
    search: (params.get('search') ?? '').slice(0, 100),
    payer: valid<Payer>(payerSchema, params.get('payer')),
    reason: valid<string>(reasonFilterSchema, params.get('reason')) ?? '',
    status: valid<ClaimStatus>(claimStatusSchema, params.get('status')),
    providerId: Number.isSafeInteger(providerId) && providerId > 0 ? providerId : undefined,
    from: valid<string>(isoDateSchema, params.get('from')),
    to: valid<string>(isoDateSchema, params.get('to')),
    sort: (CLAIM_SORT_KEYS as readonly string[]).includes(sortText)
      ? (sortText as ClaimSortKey)
      : DEFAULT_CLAIMS_VIEW.sort,
    dir: params.get('dir') === 'asc' ? 'asc' : params.get('dir') === 'desc' ? 'desc' : DEFAULT_CLAIMS_VIEW.dir,
    page: Number.isSafeInteger(page) && page > 1 ? page - 1 : 0,
    cursor: params.get('after') || undefined,
  };
}

/** The address's query for a view: only what differs from the defaults, in a fixed order. */
export function claimsViewParams(view: ClaimsView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.search) params.set('search', view.search);
  if (view.payer) params.set('payer', view.payer);
  if (view.reason) params.set('reason', view.reason);
  if (view.status) params.set('status', view.status);
  if (view.providerId !== undefined) params.set('provider', String(view.providerId));
  if (view.from) params.set('from', view.from);
  if (view.to) params.set('to', view.to);
  if (view.sort !== DEFAULT_CLAIMS_VIEW.sort || view.dir !== DEFAULT_CLAIMS_VIEW.dir) {
    params.set('sort', view.sort);
    params.set('dir', view.dir);
  }
  if (view.page > 0) {
    params.set('page', String(view.page + 1));
    if (view.cursor) params.set('after', view.cursor);
  }
  return params;
}

/**
 * The Claims view from the address, and a setter that writes a change into it as a new history entry
 * (so Back undoes it). A change of anything but the page starts again at the first page.
 */
export function useClaimsView(): [ClaimsView, (change: Partial<ClaimsView>) => void] {
  const [params, setParams] = useSearchParams();
  const text = params.toString();
  const view = useMemo(() => parseClaimsView(new URLSearchParams(text)), [text]);
  const change = useCallback(
    (next: Partial<ClaimsView>) => {
      setParams((current) => {
        const base = parseClaimsView(current);
        const paging = 'page' in next ? {} : { page: 0, cursor: undefined };
        return claimsViewParams({ ...base, ...paging, ...next });
      });
    },
    [setParams],
  );
  return [view, change];
}
