import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { AppErrorBoundary } from './AppErrorBoundary.tsx';
import { queryClient } from './query-client.ts';
import { createAppRouter } from './router.tsx';
import { connectSessionNavigation } from './session-navigation.ts';

const router = createAppRouter();
connectSessionNavigation(router);

export function App() {
  return (
    <AppErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AppErrorBoundary>
  );
}
