// The owner's calls about a service's subusers (the contract's subusers.ts): the list, each change,
// the two-factor set-up and the sessions. The list is asked again every 30 s: sign-ins change its
// last-login times and session counts.
import {
  backupCodesResponseSchema,
  subuserSchema,
  subuserSessionsResponseSchema,
  subusersResponseSchema,
  twoFactorSetupResponseSchema,
  type CreateSubuserRequest,
  type UpdateSubuserRequest,
} from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { api, noContent } from '../api/client.ts';
import { segment, workspaceKeys } from './workspace-keys.ts';

const base = (serviceId: string) => `/api/v1/subusers/${segment(serviceId)}`;
const one = (serviceId: string, id: string) => `${base(serviceId)}/${segment(id)}`;

export const SUBUSERS_POLL_MS = 30_000;

export const subusersApi = {
  list: (serviceId: string) => api.get(base(serviceId), subusersResponseSchema),
  create: (serviceId: string, body: CreateSubuserRequest) => api.post(base(serviceId), body, subuserSchema),
  update: (serviceId: string, id: string, body: UpdateSubuserRequest) =>
    api.patch(one(serviceId, id), body, subuserSchema),
  setEnabled: (serviceId: string, id: string, enabled: boolean) =>
    api.post(`${one(serviceId, id)}/${enabled ? 'enable' : 'disable'}`, {}, subuserSchema),
  remove: (serviceId: string, id: string) => api.delete(one(serviceId, id), noContent),
  startTwoFactor: (serviceId: string, id: string) =>
    api.post(`${one(serviceId, id)}/2fa/setup`, {}, twoFactorSetupResponseSchema),
  verifyTwoFactor: (serviceId: string, id: string, code: string) =>
    api.post(`${one(serviceId, id)}/2fa/verify`, { code }, backupCodesResponseSchema),
  disableTwoFactor: (serviceId: string, id: string) => api.delete(`${one(serviceId, id)}/2fa`, subuserSchema),
  renewBackupCodes: (serviceId: string, id: string) =>
    api.post(`${one(serviceId, id)}/2fa/backup-codes`, {}, backupCodesResponseSchema),
  sessions: (serviceId: string, id: string) =>
    api.get(`${one(serviceId, id)}/sessions`, subuserSessionsResponseSchema),
  endSession: (serviceId: string, id: string, sessionId: string) =>
    api.delete(`${one(serviceId, id)}/sessions/${segment(sessionId)}`, noContent),
  endSessions: (serviceId: string, id: string) => api.delete(`${one(serviceId, id)}/sessions`, noContent),
};

export function useSubusers(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.subusers(serviceId),
    queryFn: () => subusersApi.list(serviceId),
    refetchInterval: SUBUSERS_POLL_MS,
  });
}

export function useSubuserSessions(serviceId: string, id: string) {
  return useQuery({
    queryKey: [...workspaceKeys.subusers(serviceId), 'sessions', id] as const,
    queryFn: () => subusersApi.sessions(serviceId, id),
  });
}
