import { startTransition, StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { i18nReady } from './i18n/i18n.ts';
import './styles/index.css';
import { App } from './app/App.tsx';
import { preloadMatches } from './app/route-tree.tsx';
import { routes } from './app/router.tsx';
import { bootSession, getSessionState } from './auth/session.ts';
import { startTheme } from './theme/theme.ts';

startTheme();
bootSession();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render into.');

/** Once the app has rendered a prerendered page, the page is the app's (styles/prerender.css). */
function TakeOver({ children }: { children: ReactNode }) {
  useEffect(() => {
    container?.removeAttribute('data-prerendered');
  }, []);
  return children;
}

const app = (
  <StrictMode>
    <TakeOver>
      <App />
    </TakeOver>
  </StrictMode>
);

// A landing page arrives with its first screen prerendered (vite.config.ts landingPage): it is
// hydrated when it was rendered for a visitor like this one, else rendered afresh over it. Either
// way in a transition, which React renders in slices the browser can paint and answer input
// between, and once the page's route code is here, so it renders whole.
if (container.hasAttribute('data-prerendered')) {
  // preferences.js judged the visitor at the first paint; a sign-in in another tab may have
  // stored tokens since, which bootSession (later, with the app's code) has seen: the build
  // rendered the page signed out, so a session now means rendering afresh too.
  const fits =
    !document.documentElement.hasAttribute('data-prerender-differs') &&
    getSessionState().status === 'logged_out';
  void Promise.all([i18nReady, preloadMatches(routes, window.location.pathname).catch(() => undefined)]).then(
    () =>
      startTransition(() => {
        if (fits) hydrateRoot(container, app);
        else createRoot(container).render(app);
      }),
  );
} else {
  const root = createRoot(container);
  // A visitor in Lithuanian first gets its texts (English is bundled): no flash of English.
  void i18nReady.then(() => root.render(app));
}
