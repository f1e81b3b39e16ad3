// Users and groups as the owner sees them, and as the node is told to run them. Hashes never
// leave through the owner's answers; ids are shown once the service has its id block.
import type {
  WorkspaceGroup,
  WorkspaceGroupMember,
  WorkspaceGroupState,
  WorkspaceUser,
  WorkspaceUserState,
} from '@debesis/contract';
import { resourceStatus, type ObservedWorkspace } from '../services/resource-status.ts';
import type { WorkspaceGroupRow, WorkspaceMemberRow, WorkspaceUserRow } from './directory.queries.ts';

/** Everything of one service's directory, read at once: lists are small (plan users, ≤1000 groups). */
export interface DirectorySnapshot {
  users: WorkspaceUserRow[];
  groups: WorkspaceGroupRow[];
  members: WorkspaceMemberRow[];
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function applyFields(
  service: ObservedWorkspace,
  kind: 'user' | 'group',
  row: { name: string; changedGeneration: number },
) {
  const { status, error } = resourceStatus(service, {
    kind,
    name: row.name,
    changedGeneration: row.changedGeneration,
  });
  return { apply_status: status, apply_error: error };
}

export function presentUser(
  service: ObservedWorkspace & { idBase: number | null },
  snapshot: DirectorySnapshot,
  user: WorkspaceUserRow,
): WorkspaceUser {
  const memberships = snapshot.members.filter((member) => member.userId === user.id);
  const groups = snapshot.groups.filter((group) => memberships.some((member) => member.groupId === group.id));
  const primaryId = memberships.find((member) => member.primary)?.groupId;
  return {
    id: user.id,
    name: user.name,
    uid: service.idBase === null ? null : service.idBase + user.idOffset,
    active: user.active,
    primary_group: groups.find((group) => group.id === primaryId)?.name ?? null,
    groups: groups.map((group) => group.name).sort(),
    ...applyFields(service, 'user', user),
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

export function presentMembers(snapshot: DirectorySnapshot, groupId: string): WorkspaceGroupMember[] {
  const members: WorkspaceGroupMember[] = [];
  for (const member of snapshot.members) {
    if (member.groupId !== groupId) continue;
    const user = snapshot.users.find((candidate) => candidate.id === member.userId);
    if (user) members.push({ name: user.name, primary: member.primary, active: user.active });
  }
  return members.sort(byName);
}

export function presentGroup(
  service: ObservedWorkspace & { idBase: number | null },
  snapshot: DirectorySnapshot,
  group: WorkspaceGroupRow,
): WorkspaceGroup {
  return {
    name: group.name,
    description: group.description,
    gid: service.idBase === null ? null : service.idBase + group.idOffset,
    members: presentMembers(snapshot, group.id),
    ...applyFields(service, 'group', group),
    created_at: group.createdAt.toISOString(),
    updated_at: group.updatedAt.toISOString(),
  };
}

/**
 * The node's view: uids and gids in the block, each user's primary gid (their primary group's,
 * else `id_base`, the workspace's `users` group) and every group's members by name.
 */
export function desiredDirectory(
  snapshot: DirectorySnapshot,
  idBase: number,
): { users: WorkspaceUserState[]; groups: WorkspaceGroupState[] } {
  const gidOf = new Map(snapshot.groups.map((group) => [group.id, idBase + group.idOffset]));
  const primaryGid = new Map<string, number>();
  for (const member of snapshot.members) {
    const gid = gidOf.get(member.groupId);
    if (member.primary && gid !== undefined) primaryGid.set(member.userId, gid);
  }
  const users = snapshot.users
    .map((user): WorkspaceUserState => ({
      name: user.name,
      uid: idBase + user.idOffset,
      active: user.active,
      password_crypt: user.passwordCrypt,
      password_nt: user.passwordNt,
      primary_gid: primaryGid.get(user.id) ?? idBase,
    }))
    .sort(byName);
  const groups = snapshot.groups
    .map((group): WorkspaceGroupState => ({
      name: group.name,
      gid: idBase + group.idOffset,
      members: presentMembers(snapshot, group.id).map((member) => member.name),
    }))
    .sort(byName);
  return { users, groups };
}
