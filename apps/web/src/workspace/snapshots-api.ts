// A workspace's snapshots (issue 37, base /api/v1/snapshots/{serviceId}): the list the storage
// node reports, and one taken now. Typed by the contract (packages/contract/src/snapshots.ts).
import { snapshotsListResponseSchema, snapshotTakeResponseSchema } from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { segment, workspaceKeys } from './workspace-keys.ts';

const base = (serviceId: string) => `/api/v1/snapshots/${segment(serviceId)}`;

export const snapshotsApi = {
  list: (serviceId: string) => api.get(base(serviceId), snapshotsListResponseSchema),
  /** Taken now by the storage node (202): the snapshot. At most one a minute. */
  take: (serviceId: string) => api.post(base(serviceId), {}, snapshotTakeResponseSchema),
};

export function useSnapshots(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.snapshots(serviceId),
    queryFn: () => snapshotsApi.list(serviceId),
  });
}
