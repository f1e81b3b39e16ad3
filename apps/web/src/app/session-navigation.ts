// Lets the session (401 handler, refresh timer, logout) move through the app's router rather than
// reloading the page.
import type { createBrowserRouter } from 'react-router';
import { setSessionNavigator } from '../auth/navigation.ts';

type AppRouter = Pick<ReturnType<typeof createBrowserRouter>, 'navigate' | 'state'>;

export function connectSessionNavigation(router: AppRouter): void {
  setSessionNavigator(
    (to, { replace, state }) => void router.navigate(to, { replace: replace ?? false, state }),
    () => router.state.location,
  );
}
