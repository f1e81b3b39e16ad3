// The routes rendered from a route table with React Router's declarative mode (`useRoutes` inside
// <BrowserRouter>), and what its data router (`createBrowserRouter`) used to do for us: a route's
// code arriving on demand (lazyRoute), an error screen that a navigation clears, and a loading
// screen while the first page's code arrives. Why not the data router: it weighs ~30 KiB gzipped
// against ~14 KiB, which kept the home page above its 120 KiB budget (issue 13), and the app uses
// none of its data APIs (loaders, actions, fetchers, blockers). Scroll restoration is RootShell's
// (scroll-restoration.ts).
import { lazy, startTransition, Suspense, useEffect, useState, type ComponentType } from 'react';
import { matchRoutes, useLocation, useParams, useRoutes, type RouteObject } from 'react-router';
import { AppErrorBoundary } from './AppErrorBoundary.tsx';
import { PageLoading } from './PageLoading.tsx';

interface RouteCode {
  /** Starts the import (once) and resolves when the code is here. */
  start: () => Promise<unknown>;
  loaded: () => boolean;
}

/** The code behind each lazy route component. */
const routeCode = new WeakMap<ComponentType, RouteCode>();

/**
 * A route component whose code is imported the first time its route matches. Use it as a route's
 * `Component`: RouteTree starts the import of every matched route at once, so a page nested in
 * lazy layouts does not wait for each layout to render before its own code is asked for.
 */
export function lazyRoute(load: () => Promise<ComponentType>): ComponentType {
  let module: { default: ComponentType } | undefined;
  let loading: Promise<{ default: ComponentType }> | undefined;
  const start = () => (loading ??= withRetries(load).then((Component) => (module = { default: Component })));
  // React's lazy reads a thenable that settles as it is subscribed to at once, so a route whose
  // code is already here renders in its first render instead of suspending for a tick: a
  // prerendered page hydrates with its content (main.tsx loads the matched routes first).
  const Component = lazy(() => (module ? settled(module) : start()));
  routeCode.set(Component, { start, loaded: () => module !== undefined });
  return Component;
}

/**
 * Pauses before each new try of a route's code (ms). A chunk's fetch fails on a passing glitch: a
 * dropped connection, or the machine's network changing under the browser (Chromium drops the
 * requests in flight with ERR_NETWORK_CHANGED: a laptop changing Wi-Fi, or a storage node's test
 * adding its workspaces' links). Chromium keeps no failed import, so asking again fetches again;
 * the error screen shows only when every try failed (a deploy that removed the chunk, offline).
 */
export const ROUTE_CODE_RETRY_PAUSES = [250, 1000];

async function withRetries<T>(load: () => Promise<T>): Promise<T> {
  for (const pause of ROUTE_CODE_RETRY_PAUSES) {
    try {
      return await load();
    } catch {
      await new Promise((resume) => setTimeout(resume, pause));
    }
  }
  return load();
}

/** A thenable that calls back as it is subscribed to; only React's lazy reads it. */
function settled<T>(value: T): Promise<T> {
  return { then: (resolve: (value: T) => unknown) => resolve(value) } as unknown as Promise<T>;
}

function matchedCode(routes: RouteObject[], pathname: string): RouteCode[] {
  return (matchRoutes(routes, pathname) ?? []).flatMap(({ route }) => {
    const code = route.Component ? routeCode.get(route.Component) : undefined;
    return code ? [code] : [];
  });
}

/** Loads the code of every route that matches `pathname`, each module once. */
export function preloadMatches(routes: RouteObject[], pathname: string): Promise<unknown> {
  return Promise.all(matchedCode(routes, pathname).map((code) => code.start()));
}

export function RouteTree({ routes }: { routes: RouteObject[] }) {
  const location = useLocation();
  // During render, not in an effect: the page suspends in this same render, and an effect would
  // run only once it has arrived, one layout's round trip after another. A failure shows when the
  // route renders (the error screen); a route left unrendered (a redirect) must not turn it into
  // an unhandled rejection.
  preloadMatches(routes, location.pathname).catch(() => undefined);
  // The first page waits for its code behind a loading screen that is the boundary's content,
  // not its fallback, and appears in a transition, which keeps that screen until the page can
  // render: React holds back content that replaces a shown fallback until 300 ms after the
  // fallback appeared, which would delay the home page's first paint.
  const [firstPageHere, setFirstPageHere] = useState(() =>
    matchedCode(routes, location.pathname).every((code) => code.loaded()),
  );
  useEffect(() => {
    if (firstPageHere) return;
    let waiting = true;
    const show = () => {
      if (waiting) startTransition(() => setFirstPageHere(true));
    };
    preloadMatches(routes, location.pathname).then(show, show);
    return () => {
      waiting = false;
    };
  }, [firstPageHere, routes, location.pathname]);
  const element = useRoutes(routes);
  // Every navigation (a new location key, "Try Again" included) gives the page a fresh start.
  // Navigations are transitions (BrowserRouter's default), so the current page stays on screen
  // while the next one's code arrives.
  return (
    <AppErrorBoundary resetKey={location.key}>
      <Suspense fallback={<PageLoading />}>{firstPageHere ? element : <PageLoading />}</Suspense>
    </AppErrorBoundary>
  );
}

/**
 * The routes under a `path/*` route whose own table is lazy code (the dashboard's). Its pages
 * suspend and fail into the RouteTree around it, so a navigation keeps the current page on
 * screen until they are here, and their code is asked for at once, as RouteTree does.
 */
export function DescendantRoutes({ routes }: { routes: RouteObject[] }) {
  const rest = useParams()['*'] ?? '';
  preloadMatches(routes, `/${rest}`).catch(() => undefined);
  return useRoutes(routes);
}
