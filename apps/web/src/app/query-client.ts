// Server data cache settings of spec §9: fresh for 5 minutes, kept 10, one retry, and no
// refetch just because the window regained focus.
import { QUERY_CACHE } from '@debesis/contract';
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: QUERY_CACHE.staleTimeMs,
        gcTime: QUERY_CACHE.gcTimeMs,
        retry: QUERY_CACHE.retry,
        refetchOnWindowFocus: QUERY_CACHE.refetchOnWindowFocus,
      },
    },
  });
}

export const queryClient = createQueryClient();
