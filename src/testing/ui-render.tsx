import type { ReactElement } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { Toaster } from '@/client/components/ui/toast';
import { createQueryClient } from '@/client/lib/query-client';

export interface AppRenderOptions {
  /** The address the screen is shown at (links and routes read it). */
  route?: string;
  /** A client of the test's own, to look into the cache; by default a fresh one as the app creates it. */
  queryClient?: QueryClient;
}

/** Renders a screen inside what the app gives every screen (src/client/App.tsx): queries, a router, toasts. */
export function renderWithApp(
  ui: ReactElement,
  { route = '/', queryClient = createQueryClient() }: AppRenderOptions = {},
): RenderResult & { queryClient: QueryClient } {
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

/** Shows the router's current address (path and query) as text, for tests of screens that keep their view in it. */
export function ShowLocation() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <div>
      <output data-testid="location">{`${location.pathname}${location.search}`}</output>
      {/* The browser's own Back and Forward, which a screen cannot tell from any other change of address. */}
      <button type="button" onClick={() => void navigate(-1)}>
        History back
      </button>
      <button type="button" onClick={() => void navigate(1)}>
        History forward
      </button>
    </div>
  );
}
