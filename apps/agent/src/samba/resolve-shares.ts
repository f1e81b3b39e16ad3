// From the desired shares to what smb.conf says, share by share. This is where the spec's share
// permissions become Samba's lists (docs/features/samba.md has the table):
//
//   read only              → the user is in `valid users` and `read list`
//   write (or admin)       → in `valid users` and `write list` (writing implies reading in SMB)
//   admin                  → also in `admin users` (acts as root inside this share)
//   execute                → `acl allow execute always = yes`, but only when everyone who can get
//                            in has execute: Samba has no per-user execute list, so one user
//                            without it turns it off for the share (the safe side)
//   none of the above      → not let in (and in `invalid users`, so a group cannot let them in)
//   group                  → `@group` in `valid users`; members without an entry of their own
//                            read and write (they join `write list`), no execute
//   guest_ok               → `guest ok = yes`, guests (nobody) read only
//
// A share that names an unknown user or group, has a bad name or a path that cannot be used is a
// failure of that share; the other shares are applied.
import { join } from 'node:path';
import type { ResourceFailure, SambaShareState } from '@debesis/contract';
import { nameProblem, type WorkspaceAccounts } from '../accounts/validate-accounts.ts';

export interface ResolvedShare {
  name: string;
  /** Absolute path as smbd sees it (inside the namespace). */
  path: string;
  /** The folder relative to the storage root. */
  relativePath: string;
  comment: string;
  browseable: boolean;
  guestOk: boolean;
  bindPublicIp: boolean;
  validUsers: string[];
  invalidUsers: string[];
  readList: string[];
  writeList: string[];
  adminUsers: string[];
  executeAlways: boolean;
}

const SHARE_PATH = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;
export const GUEST_ACCOUNT = 'nobody';

export function resolveShares(
  shares: readonly SambaShareState[],
  accounts: WorkspaceAccounts,
  /** The storage root as smbd sees it. */
  dataRoot: string,
): { shares: ResolvedShare[]; failures: ResourceFailure[] } {
  const failures: ResourceFailure[] = [];
  const resolved: ResolvedShare[] = [];
  const names = new Set<string>();
  const users = new Set(accounts.users.map((u) => u.name));
  const groups = new Map(accounts.groups.map((g) => [g.name, g]));

  for (const share of shares) {
    const fail = (error: string) => failures.push({ kind: 'share', name: share.name.slice(0, 64), error });
    const problem =
      nameProblem(share.name) ??
      (names.has(share.name) ? 'listed twice' : undefined) ??
      (!SHARE_PATH.test(share.path) || share.path.length > 1024
        ? 'path must be folder names (letters, digits, "-", "_") separated by "/"'
        : undefined);
    if (problem) {
      fail(problem);
      continue;
    }
    names.add(share.name);

    const unknownUsers = share.users.filter((u) => !users.has(u.name)).map((u) => u.name);
    const unknownGroups = share.groups.filter((g) => !groups.has(g));
    if (unknownUsers.length > 0 || unknownGroups.length > 0) {
      // Applied without them (never with more access than asked), and reported.
      const parts = [
        unknownUsers.length ? `unknown users left out: ${unknownUsers.join(', ')}` : '',
        unknownGroups.length ? `unknown groups left out: ${unknownGroups.join(', ')}` : '',
      ];
      fail(parts.filter(Boolean).join('; '));
    }

    const explicit = new Map<string, { rw: boolean; execute: boolean; admin: boolean; access: boolean }>();
    for (const entry of share.users) {
      if (!users.has(entry.name)) continue;
      const access = entry.read || entry.write || entry.admin;
      explicit.set(entry.name, {
        access,
        rw: entry.write || entry.admin,
        execute: entry.execute,
        admin: entry.admin,
      });
    }
    const shareGroups = [...new Set(share.groups.filter((g) => groups.has(g)))].sort();
    const viaGroup = new Set<string>();
    for (const name of shareGroups)
      for (const member of groups.get(name)!.members) if (!explicit.has(member)) viaGroup.add(member);

    const sorted = (list: Iterable<string>) => [...new Set(list)].sort();
    const withAccess = [...explicit].filter(([, p]) => p.access);
    const validUsers = [...sorted(withAccess.map(([n]) => n)), ...shareGroups.map((g) => `@${g}`)];
    if (share.guest_ok) validUsers.push(GUEST_ACCOUNT);
    const groupMembers = new Set(shareGroups.flatMap((g) => groups.get(g)!.members));
    const everyoneExecutes =
      withAccess.length > 0 && viaGroup.size === 0 && withAccess.every(([, p]) => p.execute);

    resolved.push({
      name: share.name,
      path: join(dataRoot, share.path),
      relativePath: share.path,
      comment: share.description,
      browseable: share.browseable,
      guestOk: share.guest_ok,
      bindPublicIp: share.bind_public_ip,
      validUsers,
      invalidUsers: sorted(
        [...explicit].filter(([n, p]) => !p.access && groupMembers.has(n)).map(([n]) => n),
      ),
      readList: sorted(withAccess.filter(([, p]) => !p.rw).map(([n]) => n)),
      writeList: sorted([...withAccess.filter(([, p]) => p.rw).map(([n]) => n), ...viaGroup]),
      adminUsers: sorted(withAccess.filter(([, p]) => p.admin).map(([n]) => n)),
      executeAlways: everyoneExecutes,
    });
  }
  resolved.sort((a, b) => a.name.localeCompare(b.name));
  return { shares: resolved, failures };
}
