// The rules the users' and the groups' changes share: the plan's users count, names resolved to
// rows with every unknown or repeated one reported together, a user's memberships (at most one
// primary group), and the answer as the web app shows it, read in the change's transaction.
import type { WorkspaceGroup, WorkspaceUser } from '@debesis/contract';
import { AppError, type AppFieldError } from '../../http/app-error.ts';
import type { ServiceRow } from '../services/workspace-rows.ts';
import type { WorkspaceChanges } from '../workspace/workspace-change.ts';
import type { DirectoryDependent } from '../workspace/workspace-feature.ts';
import { presentGroup, presentUser, type DirectorySnapshot } from './directory.presenter.ts';
import type { DirectoryQueries, WorkspaceGroupRow, WorkspaceUserRow } from './directory.queries.ts';

/** What the users' and the groups' halves of the service are built from. */
export interface DirectoryParts {
  changes: WorkspaceChanges;
  /** Reads outside a change (lists, the desired state); a change reads in its transaction. */
  queries: DirectoryQueries;
  /** What the other features hold that names a user or group (the registry's, read per deletion). */
  dependents: () => readonly DirectoryDependent[];
}

export async function snapshotOf(queries: DirectoryQueries, serviceId: string): Promise<DirectorySnapshot> {
  return {
    users: await queries.listUsers(serviceId),
    groups: await queries.listGroups(serviceId),
    members: await queries.membersOfService(serviceId),
  };
}

/** Refuses one more active user when the active users already fill the plan's users count. */
export async function refuseOverLimit(queries: DirectoryQueries, service: ServiceRow): Promise<void> {
  if ((await queries.countActiveUsers(service.id)) >= service.usersCount) {
    throw new AppError('workspace_user_limit', { extra: { limit: service.usersCount } });
  }
}

export function requireUser(user: WorkspaceUserRow | undefined): WorkspaceUserRow {
  if (!user) throw new AppError('workspace_user_not_found');
  return user;
}

export function requireGroup(group: WorkspaceGroupRow | undefined): WorkspaceGroupRow {
  if (!group) throw new AppError('workspace_group_not_found');
  return group;
}

export function throwFieldErrors(errors: AppFieldError[]): void {
  if (errors.length > 0) throw new AppError('validation_error', { fieldErrors: errors });
}

/**
 * Resolves names the request lists under `field` to rows of the service, collecting a field
 * error for each unknown or repeated one.
 */
export function resolveNames<Row extends { name: string }>(
  field: string,
  names: string[],
  rows: Row[],
  unknownCode: 'workspace_user_unknown' | 'workspace_group_unknown',
  errors: AppFieldError[],
): Row[] {
  const seen = new Set<string>();
  const resolved: Row[] = [];
  names.forEach((name, index) => {
    if (seen.has(name)) {
      errors.push({ field: `${field}.${index}`, code: 'listed_twice' });
      return;
    }
    seen.add(name);
    const row = rows.find((candidate) => candidate.name === name);
    if (row) resolved.push(row);
    else errors.push({ field: `${field}.${index}`, code: unknownCode });
  });
  return resolved;
}

/** Sets a user's groups to `groupIds` with `primaryId` as the primary one; ids of groups whose membership changed. */
export async function setMemberships(
  q: DirectoryQueries,
  serviceId: string,
  userId: string,
  groupIds: string[],
  primaryId: string | null,
): Promise<{ groups: string[]; primaryChanged: boolean }> {
  const current = await q.membershipsOfUser(userId);
  const wanted = new Set(groupIds);
  if (primaryId) wanted.add(primaryId);
  const changed = new Set<string>();
  const currentPrimary = current.find((member) => member.primary)?.groupId ?? null;
  // The primary role leaves first: one user holds it in at most one group at any moment.
  if (currentPrimary !== primaryId) await q.clearPrimary(userId, null);
  for (const member of current) {
    if (!wanted.has(member.groupId)) {
      await q.removeMember(member.groupId, userId);
      changed.add(member.groupId);
    }
  }
  const missing = [...wanted].filter((groupId) => !current.some((member) => member.groupId === groupId));
  await q.insertMembers(
    missing.map((groupId) => ({ groupId, userId, serviceId, primary: groupId === primaryId })),
  );
  for (const groupId of missing) changed.add(groupId);
  if (primaryId && currentPrimary !== primaryId && !missing.includes(primaryId)) {
    await q.setPrimary(primaryId, userId, true);
  }
  if (currentPrimary !== primaryId) {
    if (currentPrimary) changed.add(currentPrimary);
    if (primaryId) changed.add(primaryId);
  }
  return { groups: [...changed], primaryChanged: currentPrimary !== primaryId };
}

export async function presentedUser(
  q: DirectoryQueries,
  service: ServiceRow,
  userId: string,
): Promise<WorkspaceUser> {
  const snapshot = await snapshotOf(q, service.id);
  return presentUser(service, snapshot, requireUser(snapshot.users.find((user) => user.id === userId)));
}

export async function presentedGroup(
  q: DirectoryQueries,
  service: ServiceRow,
  groupId: string,
): Promise<WorkspaceGroup> {
  const snapshot = await snapshotOf(q, service.id);
  return presentGroup(service, snapshot, requireGroup(snapshot.groups.find((group) => group.id === groupId)));
}
