// Renders the real route table in memory at a given path, with a fresh query cache.
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import {
  MemoryRouter,
  useLocation,
  useNavigate,
  type Location,
  type NavigateFunction,
  type To,
} from 'react-router';
import { createQueryClient } from '../app/query-client.ts';
import { AppRoutes } from '../app/router.tsx';
import { bootSession } from '../auth/session.ts';

/**
 * What a test reads and drives of the router, in the shape of React Router's data router:
 * `state.location` is the location on screen; `navigate` resolves once React has rendered it.
 */
export interface TestRouter {
  state: { location: Location };
  navigate(to: To | number): Promise<void>;
}

/** Hands the location on screen and the router's navigate function to the test, once rendered. */
function ExposeRouter({ onRender }: { onRender: (location: Location, navigate: NavigateFunction) => void }) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => onRender(location, navigate), [onRender, location, navigate]);
  return null;
}

/** `state` is router state for the first page (e.g. `{ from }` or `{ email }`). */
export function renderApp(path: string, state?: unknown) {
  const { pathname, search, hash } = new URL(path, 'http://localhost');
  const router: TestRouter = {
    state: { location: { pathname, search, hash, state, key: 'default' } },
    navigate: () => Promise.reject(new Error('The app has not rendered yet.')),
  };
  const exposeRouter = (location: Location, navigate: NavigateFunction) => {
    router.state.location = location;
    router.navigate = (to) =>
      act(async () => {
        if (typeof to === 'number') await navigate(to);
        else await navigate(to);
      });
  };
  bootSession();
  const view = render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[{ pathname, search, hash, state }]}>
        <AppRoutes />
        <ExposeRouter onRender={exposeRouter} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { router, ...view };
}
