import { BrowserRouter } from 'react-router';
import { AppErrorBoundary } from './AppErrorBoundary.tsx';
import { AppRoutes } from './router.tsx';

/** The server-data cache is provided by the routes that use it (QueryScope.tsx). */
export function App() {
  return (
    <AppErrorBoundary>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppErrorBoundary>
  );
}
