// A workspace's FTP and SFTP (spec §7 "FTP", base /api/v1/ftp/{serviceId}): every call the `ftp`
// and `ftp-advanced` tabs make, typed by the contract (packages/contract/src/features/ftp/ftp.ts).
import {
  ftpSessionsResponseSchema,
  ftpSettingsSchema,
  ftpStatusSchema,
  ftpUserSchema,
  ftpUsersResponseSchema,
  workspaceApplyResponseSchema,
  type FtpSettingsRequest,
  type FtpUserPermissions,
} from '@debesis/contract';
import { api } from '../api/client.ts';
import { segment, workspaceKeys } from './workspace-keys.ts';
import { useAppliedQuery, useAppliedStatus } from './workspace-resource.ts';

const base = (serviceId: string) => `/api/v1/ftp/${segment(serviceId)}`;
const userPath = (serviceId: string, user: string) => `${base(serviceId)}/users/${segment(user)}`;

export const ftpApi = {
  status: (serviceId: string) => api.get(`${base(serviceId)}/status`, ftpStatusSchema),
  users: (serviceId: string) => api.get(`${base(serviceId)}/users`, ftpUsersResponseSchema),
  sessions: (serviceId: string) => api.get(`${base(serviceId)}/sessions`, ftpSessionsResponseSchema),
  setEnabled: (serviceId: string, user: string, enabled: boolean) =>
    api.post(`${userPath(serviceId, user)}/${enabled ? 'enable' : 'disable'}`, {}, ftpUserSchema),
  setPermissions: (serviceId: string, user: string, permissions: FtpUserPermissions) =>
    api.put(`${userPath(serviceId, user)}/permissions`, { permissions }, ftpUserSchema),
  settings: (serviceId: string) => api.get(`${base(serviceId)}/settings`, ftpSettingsSchema),
  updateSettings: (serviceId: string, body: FtpSettingsRequest) =>
    api.put(`${base(serviceId)}/settings`, body, ftpSettingsSchema),
  reload: (serviceId: string) => api.post(`${base(serviceId)}/reload`, {}, workspaceApplyResponseSchema),
};

/** FTP and SFTP of the service, asked again while the node has not reached the latest change. */
export function useFtpStatus(serviceId: string) {
  return useAppliedStatus(workspaceKeys.ftpStatus(serviceId), () => ftpApi.status(serviceId));
}

/** The users' FTP/SFTP access, asked again while the node applies a change to any of them. */
export function useFtpUsers(serviceId: string) {
  return useAppliedQuery(
    workspaceKeys.ftpUsers(serviceId),
    () => ftpApi.users(serviceId),
    (data) => data.users,
  );
}

/** The `ftp-advanced` settings, asked again until the node has applied a change to them. */
export function useFtpSettings(serviceId: string) {
  return useAppliedStatus(workspaceKeys.ftpSettings(serviceId), () => ftpApi.settings(serviceId));
}
