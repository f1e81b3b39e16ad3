// The light container a workspace's daemons run in (docs/operations/storage-nodes.md): the
// workspace's own network namespace (system/netns.ts, made by the network driver: its address and
// nothing of the node's or another workspace's network), and in it a private mount namespace that
// holds the workspace's own storage and nothing of any other workspace, where /etc/passwd,
// /etc/group and /etc/shadow are the workspace's own. `nsenter --net` joins the network namespace,
// then `unshare --mount` makes the mount namespace; both exec, so the daemon keeps the pid the
// agent started.
//
// A new mount namespace starts as a copy of every mount of the node, so before anything else the
// script detaches every mount under the agent's data folder: the other workspaces' storage (a
// copy held here would keep their loop devices busy, so their offline resize could not release
// the image, and would show their files to this daemon) and this workspace's own original mount
// (its storage is kept at /srv). Then the agent's data folder itself is covered by a small tmpfs
// that holds only this workspace's folders its daemons use, bound back at the same paths: the
// node's token (node.json) and the other workspaces' accounts, passdbs and configs are not there.
// The script checks that nothing under the data folder is left mounted and refuses to start the
// daemon otherwise. The data folder's own parents are hidden too, up to the highest one that is not
// a system folder (hiddenAncestor: `/work/debesis` of `/work/debesis/data/nodes/local`, nothing
// more of `/var/lib/debesis-agent`): a tmpfs there holds only the path down to the small tree, so
// in the embedded layout the API's PGlite files, its mail (with live reset links) and its
// secrets.json are not in any daemon's view. The daemon also gets a clean environment (`env -i`): in the embedded mode
// the agent runs inside the API, whose environment holds its secrets.
//
// Why symlinks on a small /etc instead of bind-mounting the three files: a bind mount pins the
// file it was made from, and the agent replaces account files atomically (write + rename), so a
// running smbd would keep seeing the old passwd and a new user could not sign in until a restart.
// Here the host's /etc is bound aside, a tmpfs takes /etc's place, every entry links back to the
// host's, and passwd/group/shadow link to the workspace's files: a rename is seen at once.
//
// The workspace's storage is moved to /srv, so its daemons see neutral paths (/srv/home/alice,
// /srv/shares/x). /srv is also where the new tree is put together, so the agent's data folder
// must not be under /srv (checked below).
//
// The script is a constant; names and paths reach it only as positional arguments ($1, $2, "$@"),
// never spliced into shell text.
import { realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { netnsPath, networkNames } from './netns.ts';

/** A shell (its argv up to the script) in a mount namespace of its own: its mounts reach no one else. */
export const PRIVATE_MOUNT_SHELL = ['unshare', '--mount', '--propagation', 'private', '--', '/bin/sh', '-c'];

export const NAMESPACE_SCRIPT = `set -eu
agent_data=$1 agent_data_seen=$2 data=$3 accounts=$4 host_etc=$5 hide=$6 keep_count=$7
shift 7

# mountinfo writes space, tab, newline and backslash as \\ooo: the path as umount needs it.
unescape() {
  rest=$1 path=
  while :; do
    case $rest in *\\\\[0-7][0-7][0-7]*) ;; *) break ;; esac
    path=$path\${rest%%\\\\[0-7][0-7][0-7]*}
    rest=\${rest#*\\\\}
    char=$(printf "\\\\\${rest%"\${rest#???}"}x")
    path=$path\${char%x}
    rest=\${rest#???}
  done
  path=$path$rest
}
# The mount points to detach, as mountinfo writes them: everything under the agent's data folder,
# and any other loop-device filesystem outside /srv (a workspace storage of another data folder, an
# image some other program mounted): the daemon sees one disk image, its own.
mounted_under_data() {
  while read -r _ _ _ _ point rest; do
    case $point in
      "$agent_data_seen"/*) printf '%s\\n' "$point" ;;
      /srv | /srv/*) ;;
      *)
        source=\${rest#*" - "}
        source=\${source#* }
        case \${source%% *} in /dev/loop*) printf '%s\\n' "$point" ;; esac
        ;;
    esac
  done < /proc/self/mountinfo
}
# Where a path of the data folder is while the new tree is put together at /srv.
inner() { printf '/srv/%s' "\${1#"$agent_data"/}"; }

# 1. What this workspace's daemons need, put together on a tmpfs at /srv: its storage, its
# accounts, the folders named after the count (its feature's own folder), an empty place for /etc.
mount -t tmpfs -o mode=0755,size=1m debesis-ns /srv
for dir in "$data" "$accounts"; do
  mkdir -p "$(inner "$dir")"
  mount --bind "$dir" "$(inner "$dir")"
done
while [ "$keep_count" -gt 0 ]; do
  mkdir -p "$(inner "$1")"
  mount --bind "$1" "$(inner "$1")"
  shift
  keep_count=$((keep_count - 1))
done
mkdir -p "$(inner "$host_etc")"

# 2. Detach every mount under the agent's data folder (other workspaces' storage and our own
# original mount) and every other loop-device filesystem. A lazy unmount of a parent takes its children along, hence the re-reads.
for attempt in 1 2 3; do
  points=$(mounted_under_data)
  [ -n "$points" ] || break
  printf '%s\\n' "$points" | while IFS= read -r point; do
    unescape "$point"
    umount -l -- "$path" 2>/dev/null || :
  done
done
if [ -n "$(mounted_under_data)" ]; then
  echo "debesis-ns: mounts of the agent's data folder or disk images are still present: $(mounted_under_data | tr '\\n' ' ')" >&2
  exit 1
fi

# 3. The data folder's parents up to $hide are hidden (only the path down is made again), the
# data folder becomes the small tree; the storage goes to /srv.
if [ "$hide" != "$agent_data" ]; then
  mount -t tmpfs -o mode=0755,size=1m debesis-hide "$hide"
  mkdir -p "$agent_data"
fi
mount --move /srv "$agent_data"
mount --move "$data" /srv

mount --rbind /etc "$host_etc"
mount -t tmpfs -o mode=0755,size=1m debesis-etc /etc
# Every entry of the host's /etc but the accounts, in one ln and one cp: a process per entry
# (~170 of them) took 2-5 s on a busy host, on every program run in the namespace. A link is
# copied as it is (cp -P): a relative one (mtab -> ../proc/self/mounts) would point elsewhere
# from the bound copy. ganesha reads /etc/mtab to find an export's file system.
etc_entries() {
  find "$host_etc" -mindepth 1 -maxdepth 1 ! -name passwd ! -name group ! -name shadow \\
    ! -name gshadow ! -name passwd- ! -name group- ! -name shadow- ! -name gshadow- "$@"
}
etc_entries ! -type l -exec ln -s -t /etc -- {} +
etc_entries -type l -exec cp -P -t /etc -- {} +
for name in passwd group shadow; do ln -s "$accounts/$name" "/etc/$name"; done
exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"`;

export interface NamespacePaths {
  /** `<agent data>/workspaces/<id>`: the agent's data folder is two levels up. */
  root: string;
  /** An empty folder the host's /etc is bound to inside the namespace. */
  hostEtc: string;
  /** The folder holding the workspace's passwd, group and shadow. */
  accountsDir: string;
  /** The workspace's storage root, seen as NAMESPACE_DATA_ROOT inside. */
  dataRoot: string;
}

/** Where the workspace's storage is inside its namespace. */
export const NAMESPACE_DATA_ROOT = '/srv';

// Folders a data folder's parents are hidden below, never themselves: what daemons and the system
// need (/var/lib, /var/log, /usr, /run…) stays as it is.
const SYSTEM_FOLDERS = new Set([
  '/',
  '/home',
  '/mnt',
  '/media',
  '/opt',
  '/root',
  '/run',
  '/srv',
  '/tmp',
  '/usr',
  '/usr/local',
  '/var',
  '/var/lib',
  '/var/opt',
  '/var/tmp',
]);

/**
 * The highest folder of `agentData`'s path (itself included) below a system folder: what a
 * daemon's namespace covers with a tmpfs, so nothing beside the agent's data folder there (the
 * API's database, mail and secrets in the embedded layout) is in its view.
 */
export function hiddenAncestor(agentData: string): string {
  let hide = agentData;
  while (!SYSTEM_FOLDERS.has(dirname(hide)) && dirname(hide) !== hide) hide = dirname(hide);
  return hide;
}

/** A path as /proc/self/mountinfo writes it (space, tab, newline and backslash as \ooo). */
export function mountInfoPath(path: string): string {
  return path.replace(/[ \t\n\\]/g, (char) => `\\${char.charCodeAt(0).toString(8).padStart(3, '0')}`);
}

function isUnder(path: string, parent: string): boolean {
  const rel = relative(parent, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
}

/**
 * `nsenter --net=… unshare … sh -c SCRIPT` running `argv` inside the workspace's network namespace
 * (named after the service id, the last part of `paths.root`) and a new private mount namespace.
 * `keep`: the folders of the workspace's folder the program needs besides its storage and accounts
 * (the feature's own folder: smbd its Samba folder, openvpn its VPN folder), bound back at their
 * own paths; no daemon sees another feature's folder (openvpn never sees the Samba passdb, smbd
 * never the VPN's keys).
 */
export function inWorkspaceNamespace(
  paths: NamespacePaths,
  argv: readonly string[],
  keep: readonly string[],
): { command: string; args: string[] } {
  // mountinfo lists real paths: through a symlink in the data folder's path, no mount under it
  // would be recognised (and none detached), so every path is taken through the real one.
  const given = dirname(dirname(resolve(paths.root)));
  let agentData = given;
  try {
    agentData = realpathSync(given);
  } catch {
    // not there yet: nothing is mounted under it either
  }
  const real = (path: string) => join(agentData, relative(given, resolve(path)));
  if (agentData === NAMESPACE_DATA_ROOT || isUnder(agentData, NAMESPACE_DATA_ROOT))
    throw new Error(`the agent's data folder ${agentData} must not be under ${NAMESPACE_DATA_ROOT}`);
  const kept = keep.map(real);
  const dataRoot = real(paths.dataRoot);
  const accountsDir = real(paths.accountsDir);
  const hostEtc = real(paths.hostEtc);
  for (const path of [dataRoot, accountsDir, hostEtc, ...kept])
    if (!isUnder(path, agentData)) throw new Error(`${path} is not inside the agent's data folder`);
  return {
    command: 'nsenter',
    args: [
      `--net=${netnsPath(networkNames(basename(resolve(paths.root))).netns)}`,
      '--',
      ...PRIVATE_MOUNT_SHELL,
      NAMESPACE_SCRIPT,
      'debesis-ns',
      agentData,
      mountInfoPath(agentData),
      dataRoot,
      accountsDir,
      hostEtc,
      hiddenAncestor(agentData),
      String(kept.length),
      ...kept,
      ...argv,
    ],
  };
}
