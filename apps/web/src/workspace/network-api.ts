// A workspace's network link (base /api/v1/network/{serviceId}, contract network.ts): who can
// reach its address and its bandwidth this month, read by the overview, the daemon tabs and the
// monitoring tab (one query for all of them).
import { serviceNetworkSchema } from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { segment, workspaceKeys } from './workspace-keys.ts';

/** Traffic moves all the time; the figure is asked again this often while a page shows it. */
export const NETWORK_POLL_MS = 30_000;

export const networkKey = (serviceId: string) => [...workspaceKeys.all(serviceId), 'network'] as const;

export const networkApi = {
  get: (serviceId: string) => api.get(`/api/v1/network/${segment(serviceId)}`, serviceNetworkSchema),
};

/** `enabled` false: not asked (a daemon card shown outside a service's page). */
export function useServiceNetwork(serviceId: string, enabled = true) {
  return useQuery({
    queryKey: networkKey(serviceId),
    queryFn: () => networkApi.get(serviceId),
    refetchInterval: NETWORK_POLL_MS,
    enabled,
  });
}
