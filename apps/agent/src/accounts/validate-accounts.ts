// The workspace's users and groups as the agent will render them, checked again here although the
// API validated them (defence in depth: these names and ids become Unix accounts on the node).
// A bad user or group is left out and reported as a failure of that resource; the rest goes on.
// Pure and deterministic, so the users driver and the samba driver compute the same accounts.
import {
  RESERVED_WORKSPACE_NAMES,
  WORKSPACE_ID_BLOCK,
  WORKSPACE_NAME_PATTERN,
  type ResourceFailure,
  type WorkspaceDesiredState,
} from '@debesis/contract';

export interface AccountUser {
  name: string;
  uid: number;
  gid: number;
  active: boolean;
  passwordCrypt: string;
  passwordNt: string;
}

export interface AccountGroup {
  name: string;
  gid: number;
  /** Valid users only, sorted. */
  members: string[];
}

export interface WorkspaceAccounts {
  /** The workspace's default group (`users`). */
  defaultGid: number;
  /** Sorted by uid. */
  users: AccountUser[];
  /** Sorted by gid. */
  groups: AccountGroup[];
  failures: ResourceFailure[];
}

const RESERVED = new Set<string>(RESERVED_WORKSPACE_NAMES);
const CRYPT_SHA512 = /^\$6\$[./A-Za-z0-9$=,]+$/;
const NT_HASH = /^[0-9A-F]{32}$/;

/** Why `name` cannot be a workspace user, group or share name, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (!WORKSPACE_NAME_PATTERN.test(name))
    return 'name must be lower-case letters, digits, "-" and "_", start with a letter, at most 32 characters';
  if (RESERVED.has(name)) return `"${name}" is reserved`;
  return undefined;
}

export function validateAccounts(desired: WorkspaceDesiredState): WorkspaceAccounts {
  const failures: ResourceFailure[] = [];
  const first = desired.id_base + 1;
  const last = desired.id_base + WORKSPACE_ID_BLOCK - 1;
  const inBlock = (id: number) => Number.isInteger(id) && id >= first && id <= last;
  const fail = (kind: ResourceFailure['kind'], name: string, error: string) =>
    failures.push({ kind, name: name.slice(0, 64), error });

  const groups: AccountGroup[] = [];
  const groupNames = new Set<string>();
  const gids = new Set<number>();
  for (const group of desired.groups) {
    const problem =
      nameProblem(group.name) ??
      (groupNames.has(group.name) ? 'listed twice' : undefined) ??
      (!inBlock(group.gid)
        ? `gid ${group.gid} is outside the workspace's ids ${first}–${last}`
        : undefined) ??
      (gids.has(group.gid) ? `gid ${group.gid} is taken by another group` : undefined);
    if (problem) {
      fail('group', group.name, problem);
      continue;
    }
    groupNames.add(group.name);
    gids.add(group.gid);
    groups.push({ name: group.name, gid: group.gid, members: [...new Set(group.members)].sort() });
  }

  const users: AccountUser[] = [];
  const userNames = new Set<string>();
  const uids = new Set<number>();
  for (const user of desired.users) {
    const problem =
      nameProblem(user.name) ??
      (userNames.has(user.name) ? 'listed twice' : undefined) ??
      (!inBlock(user.uid) ? `uid ${user.uid} is outside the workspace's ids ${first}–${last}` : undefined) ??
      (uids.has(user.uid) ? `uid ${user.uid} is taken by another user` : undefined) ??
      (!CRYPT_SHA512.test(user.password_crypt) ? 'password_crypt is not a SHA-512 crypt hash' : undefined) ??
      (!NT_HASH.test(user.password_nt) ? 'password_nt is not an NT hash' : undefined);
    if (problem) {
      fail('user', user.name, problem);
      continue;
    }
    let gid = user.primary_gid;
    if (gid !== desired.id_base && !gids.has(gid)) {
      // Still let the user in, in the default group, and say what was wrong.
      fail('user', user.name, `primary group ${gid} is not a group of this workspace; using "users"`);
      gid = desired.id_base;
    }
    userNames.add(user.name);
    uids.add(user.uid);
    users.push({
      name: user.name,
      uid: user.uid,
      gid,
      active: user.active,
      passwordCrypt: user.password_crypt,
      passwordNt: user.password_nt,
    });
  }

  for (const group of groups) {
    const unknown = group.members.filter((member) => !userNames.has(member));
    if (unknown.length > 0) {
      fail('group', group.name, `not users of this workspace, left out: ${unknown.join(', ')}`);
      group.members = group.members.filter((member) => userNames.has(member));
    }
  }

  users.sort((a, b) => a.uid - b.uid);
  groups.sort((a, b) => a.gid - b.gid);
  return { defaultGid: desired.id_base, users, groups, failures };
}
