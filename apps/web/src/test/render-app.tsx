// Renders the real route table in memory at a given path, with a fresh query cache.
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '../app/query-client.ts';
import { routes } from '../app/router.tsx';
import { connectSessionNavigation } from '../app/session-navigation.ts';
import { bootSession } from '../auth/session.ts';

/** `state` is router state for the first page (e.g. `{ from }` or `{ email }`). */
export function renderApp(path: string, state?: unknown) {
  const { pathname, search, hash } = new URL(path, 'http://localhost');
  const router = createMemoryRouter(routes, { initialEntries: [{ pathname, search, hash, state }] });
  connectSessionNavigation(router);
  bootSession();
  const view = render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, ...view };
}
