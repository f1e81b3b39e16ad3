// How the VPN checks a password at every connect without a restart and without starting Node:
// the agent renders the users file (`name:enabled:crypt`, one VPN user a line) from the desired
// state, and openvpn runs CHECK_PASSWORD_SCRIPT (auth-user-pass-verify … via-file), which reads
// that file and the traffic counting's over-limit list afresh each time. The script is a
// constant: it finds its files beside itself, and the only inputs are OpenVPN's via-file (the
// username and password the client sent) and `common_name` (the verified certificate's CN).
// Each check runs one `openssl passwd -6` (≈10 ms), the same SHA-512 crypt the API stored.
import { WORKSPACE_NAME_PATTERN, type ResourceFailure, type VpnUserState } from '@debesis/contract';

/** `$6$<salt>$<hash>` as the API makes it (no `rounds=`: `openssl passwd -6 -salt` takes none). */
const SHA512_CRYPT = /^\$6\$[A-Za-z0-9./]{1,16}\$[A-Za-z0-9./]{86}$/;

export const VPN_USER_KIND = 'vpn_user';

export interface RenderedUsers {
  text: string;
  /** Users left out (a name or hash the script could not check safely): refused at connect. */
  failures: ResourceFailure[];
}

/** The users file: every valid user, in the desired order; a disabled one stays, marked 0. */
export function renderUsersFile(users: readonly VpnUserState[]): RenderedUsers {
  const failures: ResourceFailure[] = [];
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const user of users) {
    const fail = (error: string) =>
      failures.push({ kind: VPN_USER_KIND, name: user.name.slice(0, 64), error });
    if (!WORKSPACE_NAME_PATTERN.test(user.name)) fail('the name is not a valid VPN user name');
    else if (seen.has(user.name)) fail('the name appears twice');
    else if (!SHA512_CRYPT.test(user.password_crypt)) fail('the password hash is not a SHA-512 crypt');
    else {
      seen.add(user.name);
      lines.push(`${user.name}:${user.enabled ? 1 : 0}:${user.password_crypt}`);
    }
  }
  return { text: lines.map((line) => `${line}\n`).join(''), failures };
}

/**
 * The check OpenVPN runs: $1 is the via-file (username, password: a line each), `common_name` the
 * client certificate's CN. Exit 0 lets the client in; any other refuses it. A missing over-limit
 * file is an empty one.
 */
export const CHECK_PASSWORD_SCRIPT = `#!/bin/sh
# Rendered by the Debesis agent (vpn/password-check.ts): changes here are overwritten.
PATH=/usr/bin:/bin
export PATH
dir=\${0%/*}
user= password=
{ IFS= read -r user && { IFS= read -r password || [ -n "$password" ]; }; } < "$1" || exit 1
# The name rule of a VPN user (WORKSPACE_NAME_PATTERN); then it is safe in the patterns below.
case $user in
  [a-z]*) ;;
  *) exit 1 ;;
esac
case $user in
  *[!a-z0-9_-]*) exit 1 ;;
esac
[ \${#user} -le 32 ] || exit 1
# Certificate and password belong together: one user's password does not open another's cert.
[ "$user" = "\${common_name-}" ] || exit 1
if [ -f "$dir/over-limit" ] && grep -qxF -e "$user" "$dir/over-limit"; then exit 1; fi
entry=$(grep -m 1 -e "^$user:" "$dir/users") || exit 1
rest=\${entry#"$user":}
enabled=\${rest%%:*}
crypt=\${rest#*:}
[ "$enabled" = 1 ] || exit 1
case $crypt in
  '$6$'*) ;;
  *) exit 1 ;;
esac
salt=\${crypt#'$6$'}
salt=\${salt%%'$'*}
computed=$(printf '%s\\n' "$password" | openssl passwd -6 -salt "$salt" -stdin) || exit 1
[ -n "$computed" ] && [ "$computed" = "$crypt" ] || exit 1
exit 0
`;
