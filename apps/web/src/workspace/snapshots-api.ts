// A workspace's snapshots (issue 37, base /api/v1/snapshots/{serviceId}): the list the storage
// node reports, one taken now, and one snapshot's folders and files for the backup browser. Typed
// by the contract (packages/contract/src/features/snapshots/snapshots.ts).
import {
  backupBrowseResponseSchema,
  snapshotsListResponseSchema,
  snapshotTakeResponseSchema,
} from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { downloadNodeFile } from './backups-api.ts';
import { segment, snapshotFolderKey, workspaceKeys } from './workspace-keys.ts';

const base = (serviceId: string) => `/api/v1/snapshots/${segment(serviceId)}`;

export const snapshotsApi = {
  list: (serviceId: string) => api.get(base(serviceId), snapshotsListResponseSchema),
  /** Taken now by the storage node (202): the snapshot. At most one a minute. */
  take: (serviceId: string) => api.post(base(serviceId), {}, snapshotTakeResponseSchema),
  /** One folder of one snapshot (`path` from the storage's root). */
  browse: (serviceId: string, name: string, path: string) =>
    api.get(`${base(serviceId)}/${segment(name)}/browse`, backupBrowseResponseSchema, { params: { path } }),
};

/** Fetches one file of a snapshot and hands it to the browser as a download. */
export function downloadSnapshotFile(serviceId: string, snapshot: string, path: string, name: string) {
  return downloadNodeFile(`${base(serviceId)}/${segment(snapshot)}/download`, path, name);
}

/** A folder of a snapshot; a snapshot is read-only, so it never changes once listed. */
export function useSnapshotFolder(serviceId: string, name: string, path: string) {
  return useQuery({
    queryKey: snapshotFolderKey(serviceId, name, path),
    queryFn: () => snapshotsApi.browse(serviceId, name, path),
    staleTime: Infinity,
  });
}

export function useSnapshots(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.snapshots(serviceId),
    queryFn: () => snapshotsApi.list(serviceId),
  });
}
