// The first screen of a landing page (`/`, `/pricing`) as HTML, rendered at build time
// (prerender-pages.ts) for the visitor most first visits are: signed out, no cookie choice yet,
// light theme, English. The build puts it in that page's index.html, so the page paints before
// its JavaScript has arrived; main.tsx hydrates it, or renders afresh for a visitor it does not
// fit (public/preferences.js says who).
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppErrorBoundary } from './app/AppErrorBoundary.tsx';
import { queryClient } from './app/query-client.ts';
import { preloadMatches } from './app/route-tree.tsx';
import { AppRoutes, routes } from './app/router.tsx';

/** The markup of the app at `path`, once every lazy route it renders has loaded. */
export async function renderLandingPage(path: string): Promise<string> {
  await preloadMatches(routes, path);
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <AppErrorBoundary>
      <StaticRouter location={path}>
        <AppRoutes />
      </StaticRouter>
    </AppErrorBoundary>,
    { onError: (error) => void errors.push(error) },
  );
  // The queries the page asked for (none has run: no effects on the server) would each keep a
  // ten-minute garbage-collection timer, and with it the build's process, alive.
  queryClient.clear();
  if (errors.length > 0) throw new AggregateError(errors, `prerendering ${path} failed`);
  return new Response(prelude).text();
}
