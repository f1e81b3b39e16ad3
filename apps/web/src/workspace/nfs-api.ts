// A workspace's NFS exports (spec §7 "NFS", base /api/v1/nfs/{serviceId}): every call the NFS tab
// makes, typed by the contract (packages/contract/src/features/nfs/nfs.ts). An export is named in URLs by its
// path, encoded as one segment (`shares%2Fdata`), a client by its address.
import {
  nfsClientsResponseSchema,
  nfsDisconnectResponseSchema,
  nfsExportSchema,
  nfsExportsResponseSchema,
  nfsStatsSchema,
  nfsStatusSchema,
  type CreateNfsExportRequest,
  type UpdateNfsExportRequest,
} from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { api, noContent } from '../api/client.ts';
import { segment, workspaceKeys } from './workspace-keys.ts';
import { useAppliedQuery, useAppliedStatus } from './workspace-resource.ts';

const base = (serviceId: string) => `/api/v1/nfs/${segment(serviceId)}`;
const exportPath = (serviceId: string, path: string) => `${base(serviceId)}/shares/${segment(path)}`;

/** How often the clients and stats are asked again while the tab is open. */
export const NFS_CLIENTS_POLL_MS = 10_000;

export const nfsApi = {
  exports: (serviceId: string) => api.get(`${base(serviceId)}/shares`, nfsExportsResponseSchema),
  createExport: (serviceId: string, body: CreateNfsExportRequest) =>
    api.post(`${base(serviceId)}/shares`, body, nfsExportSchema),
  updateExport: (serviceId: string, path: string, body: UpdateNfsExportRequest) =>
    api.patch(exportPath(serviceId, path), body, nfsExportSchema),
  deleteExport: (serviceId: string, path: string) => api.delete(exportPath(serviceId, path), noContent),
  clients: (serviceId: string) => api.get(`${base(serviceId)}/clients`, nfsClientsResponseSchema),
  disconnect: (serviceId: string, address: string) =>
    api.post(`${base(serviceId)}/clients/${segment(address)}/disconnect`, {}, nfsDisconnectResponseSchema),
  status: (serviceId: string) => api.get(`${base(serviceId)}/status`, nfsStatusSchema),
  stats: (serviceId: string) => api.get(`${base(serviceId)}/stats`, nfsStatsSchema),
  reload: (serviceId: string) => api.post(`${base(serviceId)}/reload`, {}, noContent),
  sync: (serviceId: string) => api.post(`${base(serviceId)}/sync`, {}, noContent),
};

/** The exports, asked again while the node applies a change to any of them. */
export function useNfsExports(serviceId: string) {
  return useAppliedQuery(
    workspaceKeys.nfsExports(serviceId),
    () => nfsApi.exports(serviceId),
    (data) => data.exports,
  );
}

export function useNfsStatus(serviceId: string) {
  return useAppliedStatus(workspaceKeys.nfsStatus(serviceId), () => nfsApi.status(serviceId));
}

export function useNfsClients(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.nfsClients(serviceId),
    queryFn: () => nfsApi.clients(serviceId),
    refetchInterval: NFS_CLIENTS_POLL_MS,
  });
}

export function useNfsStats(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.nfsStats(serviceId),
    queryFn: () => nfsApi.stats(serviceId),
    refetchInterval: NFS_CLIENTS_POLL_MS,
  });
}
