// The light container a workspace's daemons run in (DAEMONS.md): a private mount namespace where
// /etc/passwd, /etc/group and /etc/shadow are the workspace's own. The host and the other
// workspaces never see its account files, and its users resolve to its own ids.
//
// Why symlinks on a small /etc instead of bind-mounting the three files: a bind mount pins the
// file it was made from, and the agent replaces account files atomically (write + rename), so a
// running smbd would keep seeing the old passwd and a new user could not sign in until a restart.
// Here the host's /etc is bound aside, a tmpfs takes /etc's place, every entry links back to the
// host's, and passwd/group/shadow link to the workspace's files: a rename is seen at once.
//
// The workspace's storage is bound at /srv, so its daemons see neutral paths (/srv/home/alice,
// /srv/shares/x) and its users need no way through the agent's private folders to reach them.
//
// The script is a constant; names and paths reach it only as positional arguments ($1, $2, "$@"),
// never spliced into shell text.

export const NAMESPACE_SCRIPT = `set -eu
host_etc=$1 accounts=$2 data=$3
shift 3
mount --rbind "$data" /srv
mount --rbind /etc "$host_etc"
mount -t tmpfs -o mode=0755,size=1m debesis-etc /etc
for entry in "$host_etc"/* "$host_etc"/.[!.]*; do
  [ -e "$entry" ] || [ -L "$entry" ] || continue
  name=\${entry##*/}
  case $name in passwd|group|shadow|gshadow|passwd-|group-|shadow-|gshadow-) continue ;; esac
  ln -s "$entry" "/etc/$name"
done
for name in passwd group shadow; do ln -s "$accounts/$name" "/etc/$name"; done
exec "$@"`;

export interface NamespacePaths {
  /** An empty folder the host's /etc is bound to inside the namespace. */
  hostEtc: string;
  /** The folder holding the workspace's passwd, group and shadow. */
  accountsDir: string;
  /** The workspace's storage root, seen as NAMESPACE_DATA_ROOT inside. */
  dataRoot: string;
}

/** Where the workspace's storage is inside its namespace. */
export const NAMESPACE_DATA_ROOT = '/srv';

/** `unshare … sh -c SCRIPT` running `argv` inside a new private namespace of the workspace. */
export function inWorkspaceNamespace(
  paths: NamespacePaths,
  argv: readonly string[],
): { command: string; args: string[] } {
  return {
    command: 'unshare',
    args: [
      '--mount',
      '--propagation',
      'private',
      '--',
      '/bin/sh',
      '-c',
      NAMESPACE_SCRIPT,
      'debesis-ns',
      paths.hostEtc,
      paths.accountsDir,
      paths.dataRoot,
      ...argv,
    ],
  };
}
