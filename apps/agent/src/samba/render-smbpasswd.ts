// The workspace's Samba accounts in smbpasswd format, for `pdbedit -i smbpasswd:FILE -e tdbsam:…`:
// the passdb is filled from the NT hashes of the desired state, and no plaintext password ever
// reaches the node. An inactive user keeps the account but disabled ([D]) and without a hash,
// so neither the old password nor an empty one signs in.
import type { AccountUser } from '../accounts/validate-accounts.ts';

const NO_HASH = 'X'.repeat(32);
// The "last change" time must be set (0 would mean "must change the password at next logon"),
// and constant, so unchanged users render the same line. 2024-01-01T00:00:00Z.
const LAST_CHANGE = 'LCT-65920080';

export function renderSmbpasswd(users: readonly AccountUser[]): string {
  return users
    .map((user) => {
      const nt = user.active ? user.passwordNt : NO_HASH;
      const flags = user.active ? '[U          ]' : '[DU         ]';
      return `${user.name}:${user.uid}:${NO_HASH}:${nt}:${flags}:${LAST_CHANGE}:\n`;
    })
    .join('');
}
