import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { resetPendingPlanGuard } from '../auth/pending-plan.ts';
import { resetRefreshState } from '../auth/refresh.ts';
import { resetSessionRuntime } from '../auth/session-runtime.ts';
import { setSessionState } from '../auth/session.ts';
import { i18n } from '../i18n/i18n.ts';
import { setTheme } from '../theme/theme.ts';
import { server } from './server.ts';

// Pages are lazy routes: the first visit of a test file imports the page's module, which takes
// longer than testing-library's default second on a busy machine (CI runs suites side by side).
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout, so it has no scrolling either: the app's scroll restoration
// (app/scroll-restoration.ts) calls window.scrollTo on every navigation, and jsdom's "not
// implemented" line for each buried the test output. Recorded as a mock, so a test can still
// check where a page scrolled to.
window.scrollTo = vi.fn();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  // The session first: a signed-in session would send the language reset below to the server.
  resetSessionRuntime();
  resetRefreshState();
  resetPendingPlanGuard();
  setSessionState({ status: 'logged_out', user: null, failure: null });
  server.resetHandlers();
  window.localStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  await i18n.changeLanguage('en');
  setTheme('light', 'storage');
});

afterAll(() => server.close());
