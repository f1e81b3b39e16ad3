import { RouterProvider } from 'react-router';
import { AppErrorBoundary } from './AppErrorBoundary.tsx';
import { createAppRouter } from './router.tsx';
import { connectSessionNavigation } from './session-navigation.ts';

const router = createAppRouter();
connectSessionNavigation(router);

/** The server-data cache is provided by the routes that use it (QueryScope.tsx). */
export function App() {
  return (
    <AppErrorBoundary>
      <RouterProvider router={router} />
    </AppErrorBoundary>
  );
}
