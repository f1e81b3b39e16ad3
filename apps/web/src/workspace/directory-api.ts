// Service users and groups (spec §7 "Users and groups", base /api/v1/user-groups/{serviceId}):
// every call the users tab makes, typed by the contract.
import {
  workspaceGroupMembersResponseSchema,
  workspaceGroupSchema,
  workspaceGroupsResponseSchema,
  workspaceUserGroupsResponseSchema,
  workspaceUserSchema,
  workspaceUsersResponseSchema,
  type CreateWorkspaceGroupRequest,
  type CreateWorkspaceUserRequest,
  type UpdateWorkspaceGroupRequest,
} from '@debesis/contract';
import { api, noContent } from '../api/client.ts';
import { segment, workspaceKeys } from './workspace-keys.ts';
import { useAppliedQuery } from './workspace-resource.ts';

const base = (serviceId: string) => `/api/v1/user-groups/${segment(serviceId)}`;
const userPath = (serviceId: string, user: string) => `${base(serviceId)}/users/${segment(user)}`;
const groupPath = (serviceId: string, group: string) => `${base(serviceId)}/groups/${segment(group)}`;

export const directoryApi = {
  users: (serviceId: string) => api.get(`${base(serviceId)}/users`, workspaceUsersResponseSchema),
  createUser: (serviceId: string, body: CreateWorkspaceUserRequest) =>
    api.post(`${base(serviceId)}/users`, body, workspaceUserSchema),
  setPassword: (serviceId: string, user: string, password: string) =>
    api.patch(`${userPath(serviceId, user)}/password`, { password }, workspaceUserSchema),
  setActive: (serviceId: string, user: string, active: boolean) =>
    api.patch(`${userPath(serviceId, user)}/${active ? 'activate' : 'deactivate'}`, {}, workspaceUserSchema),
  deleteUser: (serviceId: string, user: string) => api.delete(userPath(serviceId, user), noContent),
  userGroups: (serviceId: string, user: string) =>
    api.get(`${userPath(serviceId, user)}/groups`, workspaceUserGroupsResponseSchema),

  groups: (serviceId: string) => api.get(`${base(serviceId)}/groups`, workspaceGroupsResponseSchema),
  createGroup: (serviceId: string, body: CreateWorkspaceGroupRequest) =>
    api.post(`${base(serviceId)}/groups`, body, workspaceGroupSchema),
  updateGroup: (serviceId: string, group: string, body: UpdateWorkspaceGroupRequest) =>
    api.patch(groupPath(serviceId, group), body, workspaceGroupSchema),
  deleteGroup: (serviceId: string, group: string) => api.delete(groupPath(serviceId, group), noContent),
  groupMembers: (serviceId: string, group: string) =>
    api.get(`${groupPath(serviceId, group)}/members`, workspaceGroupMembersResponseSchema),
  /** Adds `user` to `group`; primary (spec §5: default false) makes it the user's primary group. */
  addMember: (serviceId: string, group: string, user: string, primary = false) =>
    api.post(`${groupPath(serviceId, group)}/members/${segment(user)}`, {}, workspaceGroupSchema, {
      params: { primary: String(primary) },
    }),
  /** Takes `user` out of `group` (primary=false), or only its primary role (primary=true). */
  removeMember: (serviceId: string, group: string, user: string, primary = false) =>
    api.delete(`${groupPath(serviceId, group)}/members/${segment(user)}`, workspaceGroupSchema, {
      params: { primary: String(primary) },
    }),
};

/** The service's users, asked again while the node applies a change to any of them. */
export function useWorkspaceUsers(serviceId: string) {
  return useAppliedQuery(
    workspaceKeys.users(serviceId),
    () => directoryApi.users(serviceId),
    (data) => data.users,
  );
}

/** The service's groups, asked again while the node applies a change to any of them. */
export function useWorkspaceGroups(serviceId: string) {
  return useAppliedQuery(
    workspaceKeys.groups(serviceId),
    () => directoryApi.groups(serviceId),
    (data) => data.groups,
  );
}
