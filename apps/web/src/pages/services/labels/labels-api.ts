// The owner's calls about a workspace's labels (the contract's labels.ts, base
// /api/v1/services/{serviceId}/labels). Its query sits under the service's workspace key, so any
// change to the service asks it again (workspace-keys.ts).
import { labelSchema, labelsResponseSchema, type SetLabelRequest } from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { api, noContent } from '../../../api/client.ts';
import { segment, workspaceKeys } from '../../../workspace/workspace-keys.ts';

const base = (serviceId: string) => `/api/v1/services/${segment(serviceId)}/labels`;
const one = (serviceId: string, key: string) => `${base(serviceId)}/${segment(key)}`;

export const labelsApi = {
  list: (serviceId: string) => api.get(base(serviceId), labelsResponseSchema),
  set: (serviceId: string, key: string, body: SetLabelRequest) =>
    api.put(one(serviceId, key), body, labelSchema),
  remove: (serviceId: string, key: string) => api.delete(one(serviceId, key), noContent),
};

export const labelsKey = (serviceId: string) => [...workspaceKeys.all(serviceId), 'labels'] as const;

export function useLabels(serviceId: string) {
  return useQuery({ queryKey: labelsKey(serviceId), queryFn: () => labelsApi.list(serviceId) });
}
