// passwd, group and shadow of one workspace, as its daemons see them at /etc/… (see
// system/namespace.ts). Besides the workspace's own accounts they hold only what daemons need:
// root (smbd runs as root), nobody/nogroup (Samba's guest account) and sshd (the SFTP server's
// privilege separation, as nobody). Every user is a member of `users`, the group the share
// folders belong to: SFTP sessions get the groups listed here (smbd forces it). Deterministic: the same
// desired state renders the same bytes, so an unchanged workspace rewrites nothing.
import { join } from 'node:path';
import type { WorkspaceAccounts } from './validate-accounts.ts';

/** Workspace users never get a shell: their way in is a daemon (smbd, sftp, ftp), not a login. */
export const NO_SHELL = '/usr/sbin/nologin';
export const DEFAULT_GROUP_NAME = 'users';
const NOBODY_ID = 65534;

export interface RenderedAccounts {
  passwd: string;
  group: string;
  shadow: string;
}

export function homeDir(homesRoot: string, name: string): string {
  return join(homesRoot, name);
}

export function renderAccounts(accounts: WorkspaceAccounts, homesRoot: string): RenderedAccounts {
  const passwd = [
    `root:x:0:0:root:/root:${NO_SHELL}`,
    `nobody:x:${NOBODY_ID}:${NOBODY_ID}:nobody:/nonexistent:${NO_SHELL}`,
    `sshd:x:${NOBODY_ID}:${NOBODY_ID}:sshd privilege separation:/run/sshd:${NO_SHELL}`,
    ...accounts.users.map(
      (user) => `${user.name}:x:${user.uid}:${user.gid}::${homeDir(homesRoot, user.name)}:${NO_SHELL}`,
    ),
  ];
  const group = [
    'root:x:0:',
    `nogroup:x:${NOBODY_ID}:`,
    `${DEFAULT_GROUP_NAME}:x:${accounts.defaultGid}:${accounts.users.map((user) => user.name).join(',')}`,
    ...accounts.groups.map((g) => `${g.name}:x:${g.gid}:${g.members.join(',')}`),
  ];
  // An inactive user's password is "!": locked, and without even the hash (reactivating brings
  // the hash back from the desired state). Aging fields stay empty: the API owns password policy.
  const shadow = [
    'root:*:::::::',
    'nobody:*:::::::',
    ...accounts.users.map((user) => `${user.name}:${user.active ? user.passwordCrypt : '!'}:::::::`),
  ];
  return {
    passwd: passwd.join('\n') + '\n',
    group: group.join('\n') + '\n',
    shadow: shadow.join('\n') + '\n',
  };
}
