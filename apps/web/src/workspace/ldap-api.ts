// A workspace's LDAP directory (spec §7 "LDAP", base /api/v1/ldap/services/{id}/ldap): every call
// the LDAP tab makes, typed by the contract (packages/contract/src/features/ldap/ldap.ts).
import {
  ldapAliasResponseSchema,
  ldapBindSettingsResponseSchema,
  ldapBulkUpdateResponseSchema,
  ldapConfigSchema,
  ldapStatusSchema,
  ldapUserStatusSchema,
  ldapUsersResponseSchema,
  type LdapBindSettingsRequest,
  type LdapBulkUpdateRequest,
} from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { segment, workspaceKeys } from './workspace-keys.ts';
import { useAppliedQuery, useAppliedStatus } from './workspace-resource.ts';

const base = (serviceId: string) => `/api/v1/ldap/services/${segment(serviceId)}/ldap`;
const userPath = (serviceId: string, username: string) => `${base(serviceId)}/users/${segment(username)}`;

export const ldapApi = {
  status: (serviceId: string) => api.get(`${base(serviceId)}/status`, ldapStatusSchema),
  config: (serviceId: string) => api.get(`${base(serviceId)}/config`, ldapConfigSchema),
  users: (serviceId: string) => api.get(`${base(serviceId)}/users`, ldapUsersResponseSchema),
  bindSettings: (serviceId: string, body: LdapBindSettingsRequest) =>
    api.post(`${base(serviceId)}/bind-settings`, body, ldapBindSettingsResponseSchema),
  alias: (serviceId: string, alias: string | null) =>
    api.post(`${base(serviceId)}/alias`, { alias }, ldapAliasResponseSchema),
  suspend: (serviceId: string, username: string, suspend: boolean) =>
    api.post(`${userPath(serviceId, username)}/suspend`, { suspend }, ldapUserStatusSchema),
  expiry: (serviceId: string, username: string, expiryDate: string | null) =>
    api.post(`${userPath(serviceId, username)}/expiry`, { expiry_date: expiryDate }, ldapUserStatusSchema),
  bulkUpdate: (serviceId: string, body: LdapBulkUpdateRequest) =>
    api.post(`${base(serviceId)}/bulk-update`, body, ldapBulkUpdateResponseSchema),
};

export function useLdapStatus(serviceId: string) {
  return useAppliedStatus(workspaceKeys.ldapStatus(serviceId), () => ldapApi.status(serviceId));
}

export function useLdapConfig(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.ldapConfig(serviceId),
    queryFn: () => ldapApi.config(serviceId),
  });
}

/** The users with their flags, asked again while the node applies a change to any of them. */
export function useLdapUsers(serviceId: string) {
  return useAppliedQuery(
    workspaceKeys.ldapUsers(serviceId),
    () => ldapApi.users(serviceId),
    (data) => data.users,
  );
}
