// Samba shares of a service (spec §7 "Samba", base /api/v1/samba/{serviceId}): every call the
// Samba tab makes, typed by the contract.
import {
  sambaShareSchema,
  sambaSharesResponseSchema,
  sambaSettingsSchema,
  sambaShareUserSchema,
  sambaStatusSchema,
  workspaceApplyResponseSchema,
  type CreateSambaShareRequest,
  type SambaSettingsRequest,
  type SambaSharePermissionsRequest,
  type SambaShareUserRequest,
  type UpdateSambaShareRequest,
} from '@debesis/contract';
import { api, noContent } from '../api/client.ts';
import { segment, workspaceKeys } from './workspace-keys.ts';
import { useAppliedQuery, useAppliedStatus } from './workspace-resource.ts';

const base = (serviceId: string) => `/api/v1/samba/${segment(serviceId)}`;
const sharePath = (serviceId: string, share: string) => `${base(serviceId)}/shares/${segment(share)}`;

export const sambaApi = {
  shares: (serviceId: string) => api.get(`${base(serviceId)}/shares`, sambaSharesResponseSchema),
  createShare: (serviceId: string, body: CreateSambaShareRequest) =>
    api.post(`${base(serviceId)}/shares`, body, sambaShareSchema),
  updateShare: (serviceId: string, share: string, body: UpdateSambaShareRequest) =>
    api.patch(sharePath(serviceId, share), body, sambaShareSchema),
  deleteShare: (serviceId: string, share: string) => api.delete(sharePath(serviceId, share), noContent),
  addShareUser: (serviceId: string, share: string, body: SambaShareUserRequest) =>
    api.post(`${sharePath(serviceId, share)}/users`, body, sambaShareUserSchema),
  removeShareUser: (serviceId: string, share: string, user: string) =>
    api.delete(`${sharePath(serviceId, share)}/users/${segment(user)}`, noContent),
  setPermissions: (serviceId: string, share: string, user: string, body: SambaSharePermissionsRequest) =>
    api.patch(`${sharePath(serviceId, share)}/permissions/${segment(user)}`, body, sambaShareUserSchema),
  status: (serviceId: string) => api.get(`${base(serviceId)}/status`, sambaStatusSchema),
  reload: (serviceId: string) => api.post(`${base(serviceId)}/reload`, {}, workspaceApplyResponseSchema),
  updateSettings: (serviceId: string, body: SambaSettingsRequest) =>
    api.post(`${base(serviceId)}/settings`, body, sambaSettingsSchema),
};

/** The service's shares, asked again while the node applies a change to any of them. */
export function useSambaShares(serviceId: string) {
  return useAppliedQuery(
    workspaceKeys.shares(serviceId),
    () => sambaApi.shares(serviceId),
    (data) => data.shares,
  );
}

/** The service's Samba server, asked again while the node has not reached the latest change. */
export function useSambaStatus(serviceId: string) {
  return useAppliedStatus(workspaceKeys.sambaStatus(serviceId), () => sambaApi.status(serviceId));
}
