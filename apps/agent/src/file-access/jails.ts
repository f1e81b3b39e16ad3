// Who may sign in over FTP and SFTP, and the jail each is shut in: shared by the FTP (pure-ftpd)
// and SFTP (sshd) definitions, which each keep their own copy of the jails in their own namespace.
//
// A user may sign in when listed in the FTP section, enabled there, and an active workspace user;
// the password is the workspace user's (its SHA-512 crypt), the one SMB uses too.
//
// The jail: inside the daemon's namespace a small tmpfs is mounted over /run (system/namespace.ts
// leaves the host's /run there otherwise), and /run/jails/<user> is a root-owned folder holding
//
//   home/       a bind mount of the user's home (/srv/home/<user>)
//   <share>/    a bind mount of each Samba share the user may use (read list, write list, or a
//               member of a group the share lets in), as the share's path in the storage
//
// and nothing else: the server chroots the session there (pure-ftpd: a real chroot(), the
// virtual-chroot build is not used, so a symlink someone made in a share cannot lead out; sshd:
// ChrootDirectory, which wants the folder and its parents root-owned, hence /run and not the
// agent's data folder, which may be under /tmp). Read-only is the kernel's: a share the user may
// only read, and everything of a read_only FTP user, is a read-only bind mount (EROFS), so every
// write, delete, rename or mkdir is refused whatever the protocol's commands; nothing depends on a
// quota or a ratio. Every jail mount is noexec,nosuid,nodev: a remount of a bind mount sets its
// flags to exactly those given (the storage's own noexec is not inherited), so they are all named.
//
// The mounts live in the daemon's namespace only. At start the daemon's setup (JAIL_SCRIPT
// `start`, run in its namespace just before the exec) mounts the /run tmpfs and every jail. When
// the jails change while it runs, the agent enters its namespace (nsenter) and rebuilds the jails
// of the users that changed, after ending those users' sessions (a session whose folder was
// detached would otherwise keep writing to the old mount). Users whose jail is unchanged keep
// their sessions. A marker beside the spec (`<pid>` then the spec it applied) tells the agent what
// the running daemon holds, so an unchanged workspace runs no program.
//
// A source that is not a plain folder of the storage (missing, or a symlink someone put there) is
// not mounted; the script never follows a symlink into the node's tree, never removes anything but
// empty mount points.
import { readFile, readdir, readlink } from 'node:fs/promises';
import { endianness } from 'node:os';
import { join } from 'node:path';
import type { ResourceFailure, WorkspaceDesiredState } from '@debesis/contract';
import { validateAccounts } from '../accounts/validate-accounts.ts';
import type { CommandRunner } from '../exec/run-command.ts';
import { resolveShares } from '../samba/resolve-shares.ts';
import { NAMESPACE_DATA_ROOT } from '../system/namespace.ts';

/** The resource kind of FTP/SFTP users in failures (the API's FTP feature claims it). */
export const FTP_USER_KIND = 'ftp_user';
/** Where the jails are inside a daemon's namespace. */
export const JAILS_ROOT = '/run/jails';
/** The folder a session starts in, inside its jail. */
export const HOME_ENTRY = 'home';

export interface FileAccessUser {
  name: string;
  uid: number;
  passwordCrypt: string;
  readOnly: boolean;
}

export interface JailEntry {
  /** Its name in the jail (`home`, a share's name). */
  name: string;
  /** The folder it shows, as the daemon sees it (`/srv/home/alice`). */
  source: string;
  readOnly: boolean;
}

export interface Jail {
  user: FileAccessUser;
  entries: JailEntry[];
}

export interface FileAccess {
  /** Users who may sign in, sorted by name, each with their jail. */
  jails: Jail[];
  /** The workspace's default group (`users`): the group of FTP sessions, as smbd forces it. */
  gid: number;
  failures: ResourceFailure[];
}

/** FTP's and SFTP's drivers both ask, in the same pass, of the same desired state. */
const resolved = new WeakMap<WorkspaceDesiredState, FileAccess>();

/**
 * Who may sign in over FTP/SFTP and what each jail holds. Pure: the same state, the same answer,
 * hence worked out once per desired state (drivers never change the state they are given).
 */
export function resolveFileAccess(desired: WorkspaceDesiredState): FileAccess {
  let access = resolved.get(desired);
  if (!access) {
    access = fileAccessOf(desired);
    resolved.set(desired, access);
  }
  return access;
}

function fileAccessOf(desired: WorkspaceDesiredState): FileAccess {
  const accounts = validateAccounts(desired);
  const failures: ResourceFailure[] = [];
  const byName = new Map(accounts.users.map((user) => [user.name, user]));
  const seen = new Set<string>();
  const users: FileAccessUser[] = [];
  for (const entry of desired.ftp?.users ?? []) {
    const fail = (error: string) =>
      failures.push({ kind: FTP_USER_KIND, name: entry.name.slice(0, 64), error });
    if (seen.has(entry.name)) {
      fail('listed twice');
      continue;
    }
    seen.add(entry.name);
    const account = byName.get(entry.name);
    if (!account) {
      fail('not a user of the workspace');
      continue;
    }
    if (!entry.enabled || !account.active) continue;
    users.push({
      name: account.name,
      uid: account.uid,
      passwordCrypt: account.passwordCrypt,
      readOnly: entry.permissions === 'read_only',
    });
  }
  users.sort((a, b) => a.name.localeCompare(b.name));

  // The shares as Samba resolves them (its failures are Samba's to report).
  const { shares } = resolveShares(desired.samba?.shares ?? [], accounts, NAMESPACE_DATA_ROOT);
  const jails = users.map((user): Jail => {
    const entries: JailEntry[] = [
      { name: HOME_ENTRY, source: join(NAMESPACE_DATA_ROOT, 'home', user.name), readOnly: user.readOnly },
    ];
    for (const share of shares) {
      const writes = share.writeList.includes(user.name);
      if (!writes && !share.readList.includes(user.name)) continue;
      if (share.name === HOME_ENTRY) {
        failures.push({
          kind: FTP_USER_KIND,
          name: user.name,
          error: `share "${HOME_ENTRY}" is not in the FTP/SFTP folder: the name is the user's home`,
        });
        continue;
      }
      entries.push({ name: share.name, source: share.path, readOnly: user.readOnly || !writes });
    }
    return { user, entries };
  });
  return { jails, gid: desired.id_base, failures };
}

/**
 * The jails as the script reads them: `user uid entry source ro|rw`, one mount a line (names and
 * paths are checked patterns without spaces), by user then entry.
 */
export function renderJailSpec(jails: readonly Jail[]): string {
  return jails
    .flatMap((jail) =>
      jail.entries.map((entry) =>
        [jail.user.name, jail.user.uid, entry.name, entry.source, entry.readOnly ? 'ro' : 'rw'].join(' '),
      ),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/**
 * Builds jails inside a daemon's namespace. `start`: mounts the /run tmpfs, builds every jail,
 * then execs the daemon (its pid is this shell's). `update`: rebuilds the jails of the users
 * named after the pid. Either way it records the pid and the spec it applied in the marker.
 */
/**
 * The kernel's numbers of mount(2) and umount2(2) on the node's architecture: the jail script calls
 * them directly (Perl's syscall), one process for every mount of every jail.
 */
const MOUNT_SYSCALLS: Partial<Record<NodeJS.Architecture, { mount: number; umount2: number }>> = {
  x64: { mount: 165, umount2: 166 },
  arm64: { mount: 40, umount2: 39 },
};

function mountSyscalls(): string[] {
  const numbers = MOUNT_SYSCALLS[process.arch];
  if (!numbers) throw new Error(`FTP/SFTP jails: no mount(2) number known for ${process.arch}`);
  return [String(numbers.mount), String(numbers.umount2)];
}

// Perl (perl-base is Essential in Debian: always there) rather than sh: a shell spends a `mount`
// process per bind and per remount (~4 ms each, libmount reading the whole mount table every
// time), so 200 users with 10 shares each kept a daemon from starting for tens of seconds; one
// Perl process makes the same mounts with the syscalls themselves in milliseconds.
// Arguments: mount's and umount2's numbers, the mode (`start`, `update`), the spec, the marker, the
// daemon's pid (start: its own, it becomes the daemon), then the users to rebuild (update) or the
// daemon's argv to exec (start).
export const JAIL_SCRIPT = String.raw`use strict; use warnings; use Cwd qw(abs_path);
my ($mount, $umount2, $mode, $spec, $marker, $pid, @rest) = @ARGV;
my ($root, $data) = ('${JAILS_ROOT}', '${NAMESPACE_DATA_ROOT}');
my ($RDONLY, $NOSUID, $NODEV, $NOEXEC, $REMOUNT, $BIND, $DETACH) = (1, 2, 4, 8, 32, 4096, 2);
sub say_err { print STDERR "debesis-jails: @_\n" }
sub sys_mount {
  my ($source, $target, $type, $flags, $options) = @_;
  syscall($mount, $source, $target, $type, $flags, $options) == 0 or die "debesis-jails: mount $target: $!\n";
}
sub dir_0755 { my ($dir) = @_; mkdir $dir or die "debesis-jails: mkdir $dir: $!\n"; chmod 0755, $dir; }
open my $in, '<', $spec or die "debesis-jails: $spec: $!\n";
my (%lines, @users);
while (my $line = <$in>) {
  chomp $line;
  next if $line eq '';
  my ($user) = split / /, $line;
  push @users, $user unless exists $lines{$user};
  push @{ $lines{$user} }, $line;
}
close $in;
sub rebuild {
  my ($user) = @_;
  my $dir = "$root/$user";
  if (-d $dir) {
    opendir my $list, $dir or die "debesis-jails: $dir: $!\n";
    my @entries = map { "$dir/$_" } grep { $_ ne '.' && $_ ne '..' } readdir $list;
    closedir $list;
    for my $entry (@entries) {
      next unless -d $entry && !-l $entry;
      1 while syscall($umount2, $entry, $DETACH) == 0;
      rmdir $entry or die "debesis-jails: rmdir $entry: $!\n";
    }
    rmdir $dir or die "debesis-jails: rmdir $dir: $!\n";
  }
  for my $line (@{ $lines{$user} // [] }) {
    my (undef, undef, $entry, $source, $access) = split / /, $line;
    if (index($source, "$data/") != 0) { say_err "$source is not in the storage"; next; }
    if (!-d $source || -l $source || (abs_path($source) // '') ne $source) {
      say_err "$source is not a folder of the storage: left out of the jail of $user";
      next;
    }
    dir_0755($dir) unless -d $dir;
    dir_0755("$dir/$entry");
    sys_mount($source, "$dir/$entry", 0, $BIND, 0);
    sys_mount(0, "$dir/$entry", 0, $REMOUNT | $BIND | $NOEXEC | $NOSUID | $NODEV | ($access eq 'ro' ? $RDONLY : 0), 0);
  }
}
if ($mode eq 'start') {
  $pid = $$;
  sys_mount('debesis-run', '/run', 'tmpfs', $NOSUID | $NODEV, 'mode=0755,size=4m');
  (my $folder = $marker) =~ s{/[^/]*$}{};
  -d $folder or die "debesis-jails: the agent's data folder must not be under /run\n";
  dir_0755('/run/sshd');
  dir_0755($root);
  rebuild($_) for @users;
} else {
  rebuild($_) for @rest;
}
open my $out, '>', "$marker.new" or die "debesis-jails: $marker.new: $!\n";
open my $again, '<', $spec or die "debesis-jails: $spec: $!\n";
print $out "$pid\n", <$again>;
close $out or die "debesis-jails: $marker.new: $!\n";
rename "$marker.new", $marker or die "debesis-jails: $marker: $!\n";
exit 0 unless $mode eq 'start';
exec { $rest[0] } @rest or die "debesis-jails: exec $rest[0]: $!\n";`;

export interface JailFiles {
  /** The spec (renderJailSpec), in the feature's folder. */
  spec: string;
  /** What the running daemon's namespace holds: its pid, then the spec it applied. */
  marker: string;
}

export function jailFiles(dir: string): JailFiles {
  return { spec: join(dir, 'jails'), marker: join(dir, 'jails.applied') };
}

/** The daemon's setup (DaemonDefinition.setup): its jails, then `exec` of its argv. */
export function jailSetup(files: JailFiles): string[] {
  return ['perl', '-e', JAIL_SCRIPT, ...mountSyscalls(), 'start', files.spec, files.marker, '0'];
}

/** Users whose lines differ between two specs (added, removed or changed). */
export function changedJailUsers(before: string, after: string): string[] {
  const byUser = (spec: string) => {
    const map = new Map<string, string[]>();
    for (const line of spec.split('\n').filter(Boolean)) {
      const user = line.split(' ')[0]!;
      map.set(user, [...(map.get(user) ?? []), line]);
    }
    return map;
  };
  const a = byUser(before);
  const b = byUser(after);
  return [...new Set([...a.keys(), ...b.keys()])]
    .filter((user) => (a.get(user) ?? []).join('\n') !== (b.get(user) ?? []).join('\n'))
    .sort();
}

/** The uids a spec names, by user. */
function uidsOf(spec: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of spec.split('\n').filter(Boolean)) {
    const [user, uid] = line.split(' ');
    if (user && uid) map.set(user, Number(uid));
  }
  return map;
}

/**
 * Makes the running daemon's jails match the spec on disk: nothing when its marker says it holds
 * them (no program runs), else the changed users' sessions are ended and their jails rebuilt in
 * its namespace. Returns what it did.
 */
export async function syncJails(
  files: JailFiles,
  pid: number,
  run: CommandRunner,
  /** Ends these users' sessions (the daemon's way); resolves with how many it ended. */
  endSessions: (users: ReadonlyArray<{ name: string; uid: number }>) => Promise<number>,
): Promise<string[]> {
  const spec = await readFile(files.spec, 'utf8');
  const marker = await readFile(files.marker, 'utf8').catch(() => '');
  const newline = marker.indexOf('\n');
  const markerPid = Number(newline < 0 ? marker : marker.slice(0, newline));
  // A marker of another pid: the namespace was made by a start that failed before writing it, or
  // by an older daemon; every user is rebuilt.
  const applied = markerPid === pid ? marker.slice(newline + 1) : undefined;
  if (applied === spec) return [];
  const changed = applied === undefined ? [...uidsOf(spec).keys()] : changedJailUsers(applied, spec);
  const uids = new Map([...uidsOf(applied ?? ''), ...uidsOf(spec)]);
  const ended = await endSessions(
    changed.flatMap((name) => {
      const uid = uids.get(name);
      return uid === undefined ? [] : [{ name, uid }];
    }),
  );
  await run(
    'nsenter',
    [
      `--target=${pid}`,
      '--mount',
      '--',
      'perl',
      '-e',
      JAIL_SCRIPT,
      ...mountSyscalls(),
      'update',
      files.spec,
      files.marker,
      String(pid),
      ...changed,
    ],
    { check: true },
  );
  return [
    `rebuilt the jails of ${changed.join(', ') || 'nobody'}${ended ? ` (ended ${ended} sessions)` : ''}`,
  ];
}

/** A session process of a daemon: a child of its pid (pure-ftpd, sshd fork one per connection). */
export interface SessionProcess {
  pid: number;
  uid: number;
  /** Its command line, as the daemon titles it (`sshd: alice [priv]`, `pure-ftpd (IDLE)`). */
  title: string;
  /** Seconds since boot it started (/proc/<pid>/stat's starttime over the clock's ticks). */
  startedAt: Date;
}

const CLOCK_TICKS = 100;

async function bootTime(): Promise<number> {
  const stat = await readFile('/proc/stat', 'utf8');
  return Number(/^btime (\d+)$/m.exec(stat)?.[1] ?? 0) * 1000;
}

/** The daemon's direct children, read from /proc (no program). */
export async function sessionProcesses(pid: number): Promise<SessionProcess[]> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  const pids = children.split(/\s+/).filter(Boolean).map(Number);
  if (pids.length === 0) return [];
  const boot = await bootTime();
  const found: SessionProcess[] = [];
  for (const child of pids) {
    try {
      const [status, cmdline, stat] = await Promise.all([
        readFile(`/proc/${child}/status`, 'utf8'),
        readFile(`/proc/${child}/cmdline`, 'utf8'),
        readFile(`/proc/${child}/stat`, 'utf8'),
      ]);
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
      // Fields after the parenthesised name: state is the 3rd field, starttime the 22nd.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[19] ?? 0);
      found.push({
        pid: child,
        uid,
        title: cmdline.split('\0').filter(Boolean).join(' '),
        startedAt: new Date(boot + (ticks / CLOCK_TICKS) * 1000),
      });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A process's TCP peer (`address:port`), from its socket and its namespace's table; or undefined. */
export async function tcpPeer(pid: number): Promise<string | undefined> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  const inodes = new Set<string>();
  for (const fd of fds) {
    const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
    if (inode) inodes.add(inode);
  }
  if (inodes.size === 0) return undefined;
  const table = await readFile(`/proc/${pid}/net/tcp`, 'utf8').catch(() => '');
  for (const line of table.split('\n').slice(1)) {
    const parts = line.trim().split(/\s+/);
    // Established (01) sockets of this process: the remote end is the client.
    if (parts[3] !== '01' || !inodes.has(parts[9] ?? '')) continue;
    const [hex, port] = (parts[2] ?? '').split(':');
    if (!hex || !port || hex.length !== 8) continue;
    // The kernel writes the address as a host-order word.
    const bytes = [...Buffer.from(hex, 'hex')];
    if (endianness() === 'LE') bytes.reverse();
    return `${bytes.join('.')}:${parseInt(port, 16)}`;
  }
  return undefined;
}

/** SIGKILL to a session process and everything below it (a session's helpers, its sftp). */
export async function killSessionTree(pid: number): Promise<boolean> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return false;
  }
  for (const child of children.split(/\s+/).filter(Boolean)) await killSessionTree(Number(child));
  return true;
}
