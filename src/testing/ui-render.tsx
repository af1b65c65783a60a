import type { ReactElement } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
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
