// The server-data cache (react-query, spec §9) for the routes below it. It is a lazy route of its
// own so that its code (~8 KB gzipped) loads with the first page that reads server data, not with
// the home page, which reads none. Every scope shares the app's one client, so the cache survives
// moving between them; a test that renders the app inside its own provider keeps that one.
import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext } from 'react';
import { Outlet } from 'react-router';
import { queryClient } from './query-client.ts';

export function QueryScope() {
  if (useContext(QueryClientContext)) return <Outlet />;
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
