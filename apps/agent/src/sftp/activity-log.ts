// What SFTP users did with files (internal-sftp's own log), read as activity events.
//
// internal-sftp logs each request at `-l INFO` through syslog(3), from inside the user's chroot
// (the jail, file-access/jails.ts), so to `/dev/log` *of the jail*: sshd's own log (`-E`) never
// sees it (the session's logging is set up anew by sftp-server and the monitor is not told). So
// each jail gets a `dev/` that is a read-only bind mount of one folder holding a datagram socket,
// and a small receiver (SFTP_LOG_SCRIPT, Perl: perl-base is Essential, as for the jails) bound to
// that socket appends what arrives to a log of its own, one line per request:
//
//   <unix seconds> <sftp-server pid> <user> <client address> <message>
//   1796554830 10105 alice 198.19.12.182 open "/projects/up.txt" flags WRITE,CREATE,TRUNCATE mode 0100644
//   1796554830 10105 alice 198.19.12.182 close "/projects/up.txt" bytes read 0 written 3
//
// The receiver learns who a pid is from its `session opened for local user <user> from [<ip>]`
// line (sftp-server's first), so a line needs no state from an earlier pass here. It is started
// by the sshd's setup, before sshd and in its process group (it stops with it, and ends itself
// once sshd is gone), after the jails are built; a jail rebuilt while sshd runs (new rights) gets
// its `dev/` again from the driver's sync, in sshd's namespace. The cost: SFTP users see a
// read-only `dev` folder (holding `log`) beside their home and shares.
//
// Events: a `close` with bytes written is `file_written`, with bytes read (and none written)
// `file_read`, each with those bytes; an empty file opened for writing and closed in the same
// read is `file_written` of 0 bytes. `remove`/`rmdir` are `file_deleted`, `rename`/`posix-rename`
// `file_renamed`, `mkdir` `folder_created`. sftp-server logs a request before doing it and logs
// `sent status <error>` right after one that failed: such a request is not an event. (The two
// lines are written within a millisecond; a read that ends between them counts the request.)
// Paths are the jail's (`/projects/a.txt`, relative ones from the start folder /home), named as
// the workspace sees them through the jail spec, like FTP's transfer log.
import type { ActivityEventReport } from '@debesis/contract';
import type { TailLine } from '../activity/log-tail.ts';
import { HOME_ENTRY, JAILS_ROOT } from '../file-access/jails.ts';
import { jailSources, jailWorkspacePath } from '../ftp/transfer-log.ts';

/**
 * The receiver and the jails' `dev/` mounts. Arguments: the mode, the socket's folder, the log;
 * `start` then takes the command to exec (sshd). `start`: mounts `dev/` in every jail, binds
 * `<folder>/log`, forks the receiver, execs the command (the receiver's parent is then sshd).
 * `mount`: mounts `dev/` in the jails that lack it (run in sshd's namespace).
 */
export const SFTP_LOG_SCRIPT = String.raw`use strict; use warnings; use Socket; use IO::Handle;
my ($mode, $folder, $log, @rest) = @ARGV;
my $root = '${JAILS_ROOT}';
sub mount_devs {
  opendir my $list, $root or return;
  for my $user (grep { !/^\./ } readdir $list) {
    my $dev = "$root/$user/dev";
    next if !-d "$root/$user" || -l "$root/$user" || -S "$dev/log";
    mkdir $dev, 0755 unless -d $dev;
    system('mount', '-o', 'bind,ro,nosuid,nodev,noexec', $folder, $dev) == 0
      or print STDERR "debesis-sftp-log: mount $dev failed\n";
  }
  closedir $list;
}
sub one_line { my ($text) = @_; $text =~ s/[\r\n]/ /g; return $text; }
sub receive {
  my ($socket, $parent) = @_;
  open my $out, '>>', $log or die "debesis-sftp-log: $log: $!\n";
  $out->autoflush(1);
  my %who;
  my $bits = '';
  vec($bits, fileno($socket), 1) = 1;
  while (1) {
    my $ready = select(my $readable = $bits, undef, undef, 1);
    exit 0 if getppid() != $parent;
    next unless $ready > 0;
    defined(recv($socket, my $message, 16384, 0)) or next;
    $message = one_line($message);
    $message =~ /^<\d+>(?:\w{3} [ \d]\d \d\d:\d\d:\d\d )?[^\[:]*\[(\d+)\]: (.*?)\s*$/ or next;
    my ($pid, $text) = ($1, $2);
    if ($text =~ /^session opened for local user (\S+) from \[([^\]\s]*)\]/) { $who{$pid} = "$1 $2"; next; }
    if ($text =~ /^session closed for local user /) { delete $who{$pid}; next; }
    my $who = $who{$pid} // next;
    print $out time(), " $pid $who $text\n";
  }
}
mount_devs();
exit 0 if $mode ne 'start';
my $path = "$folder/log";
unlink $path;
socket(my $socket, PF_UNIX, SOCK_DGRAM, 0) or die "debesis-sftp-log: socket: $!\n";
bind($socket, pack_sockaddr_un($path)) or die "debesis-sftp-log: bind $path: $!\n";
chmod 0666, $path;
my $parent = $$;
my $child = fork() // die "debesis-sftp-log: fork: $!\n";
if ($child == 0) { receive($socket, $parent); exit 0; }
close $socket;
exec { $rest[0] } @rest or die "debesis-sftp-log: exec $rest[0]: $!\n";`;

/** The log's line: time, pid, user, client address, then sftp-server's message. */
const LINE = /^(\d+) (\d+) ([a-z][a-z0-9_-]{0,31}) (\S+) (.*)$/;

const CSTYLE: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  s: ' ',
};

/**
 * OpenSSH writes log messages through strnvis (VIS_CSTYLE | VIS_NL | VIS_TAB | VIS_OCTAL): a
 * backslash, control characters and bytes above 0x7f come escaped. Back to the name's bytes.
 */
export function unvis(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (char !== '\\' || i + 1 >= text.length) {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const next = text[i + 1]!;
    const octal = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4))?.[0];
    if (octal) {
      bytes.push(parseInt(octal, 8) & 0xff);
      i += octal.length;
    } else {
      bytes.push(...Buffer.from(CSTYLE[next] ?? next, 'utf8'));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

type Request =
  | { op: 'open'; path: string; write: boolean }
  | { op: 'close'; path: string; read: number; written: number }
  | { op: 'delete'; path: string }
  | { op: 'rename'; path: string; target: string }
  | { op: 'mkdir'; path: string }
  | { op: 'failed' };

function parseRequest(message: string): Request | undefined {
  let match = /^open "(.*)" flags (\S+) mode \d+$/.exec(message);
  if (match) return { op: 'open', path: unvis(match[1]!), write: match[2]!.split(',').includes('WRITE') };
  match = /^close "(.*)" bytes read (\d+) written (\d+)$/.exec(message);
  if (match)
    return { op: 'close', path: unvis(match[1]!), read: Number(match[2]), written: Number(match[3]) };
  match = /^(?:remove|rmdir) name "(.*)"$/.exec(message);
  if (match) return { op: 'delete', path: unvis(match[1]!) };
  match = /^(?:posix-)?rename old "(.*)" new "(.*)"$/.exec(message);
  if (match) return { op: 'rename', path: unvis(match[1]!), target: unvis(match[2]!) };
  match = /^mkdir name "(.*)" mode \d+$/.exec(message);
  if (match) return { op: 'mkdir', path: unvis(match[1]!) };
  if (message.startsWith('sent status ')) return { op: 'failed' };
  return undefined;
}

interface Parsed {
  line: TailLine;
  at: Date;
  pid: string;
  user: string;
  address: string;
  request: Request;
}

/** The events of new lines of the receiver's log; `jailSpec` is the running sshd's (jails.ts). */
export function sftpEvents(lines: readonly TailLine[], jailSpec: string): ActivityEventReport[] {
  const sources = jailSources(jailSpec);
  const parsed: Parsed[] = [];
  for (const line of lines) {
    const match = LINE.exec(line.text);
    if (!match) continue;
    const request = parseRequest(match[5]!);
    if (!request) continue;
    const at = new Date(Number(match[1]) * 1000);
    if (Number.isNaN(at.getTime())) continue;
    parsed.push({ line, at, pid: match[2]!, user: match[3]!, address: match[4]!, request });
  }
  const workspacePath = (user: string, path: string) => {
    const inJail = path.startsWith('/') ? path : `/${HOME_ENTRY}/${path}`;
    return jailWorkspacePath(`${JAILS_ROOT}/${user}${inJail}`, sources).slice(0, 1024);
  };
  // The next line of the same session says whether a request failed.
  const failed: boolean[] = [];
  const nextOf = new Map<string, Request['op']>();
  for (let index = parsed.length - 1; index >= 0; index -= 1) {
    const entry = parsed[index]!;
    failed[index] = entry.request.op === 'failed' || nextOf.get(entry.pid) === 'failed';
    nextOf.set(entry.pid, entry.request.op);
  }
  const events: ActivityEventReport[] = [];
  const openedForWriting = new Set<string>();
  parsed.forEach((entry, index) => {
    const { request, user, pid } = entry;
    if (failed[index]) return;
    const base = {
      id: `sftp:${entry.line.id}`,
      at: entry.at.toISOString(),
      source: 'sftp' as const,
      user,
      target: null,
      bytes: null,
      remote_address: entry.address.slice(0, 80),
    };
    switch (request.op) {
      case 'open':
        if (request.write) openedForWriting.add(`${pid}\u0000${request.path}`);
        return;
      case 'close': {
        const wrote = openedForWriting.delete(`${pid}\u0000${request.path}`);
        if (request.written > 0 || (wrote && request.read === 0))
          events.push({
            ...base,
            kind: 'file_written',
            path: workspacePath(user, request.path),
            bytes: request.written,
          });
        else if (request.read > 0)
          events.push({
            ...base,
            kind: 'file_read',
            path: workspacePath(user, request.path),
            bytes: request.read,
          });
        return;
      }
      case 'delete':
        events.push({ ...base, kind: 'file_deleted', path: workspacePath(user, request.path) });
        return;
      case 'rename':
        events.push({
          ...base,
          kind: 'file_renamed',
          path: workspacePath(user, request.path),
          target: workspacePath(user, request.target),
        });
        return;
      case 'mkdir':
        events.push({ ...base, kind: 'folder_created', path: workspacePath(user, request.path) });
        return;
      case 'failed':
        return;
    }
  });
  return events;
}
