// pure-ftpd's transfer log (`--altlog stats:<file>`), read as activity events: one line per
// upload (U) or download (D), written by the session when the transfer ends:
//
//   1795925434 6b0ba5b6.4709 alice 10.8.0.6 U 52428800 3 /run/jails/alice/./home/report.pdf
//   (time, session, user, client, direction, bytes, seconds, file)
//
// The file is where the session saw it: inside the user's jail (file-access/jails.ts), whose
// spec says which storage folder each entry of the jail is. The event names the file as the
// workspace sees it, from its storage's root.
import type { ActivityEventReport } from '@debesis/contract';
import type { TailLine } from '../activity/log-tail.ts';
import { JAILS_ROOT } from '../file-access/jails.ts';
import { storagePath } from '../samba/audit-log.ts';

/** `user entry → source` from the jail spec (`user uid entry source ro|rw` a line). */
export function jailSources(spec: string): Map<string, string> {
  const sources = new Map<string, string>();
  for (const line of spec.split('\n')) {
    const [user, , entry, source] = line.split(' ');
    if (user && entry && source) sources.set(`${user}/${entry}`, source);
  }
  return sources;
}

/**
 * A file named by its path in a jail (`/run/jails/alice/./home/a.txt`) as the workspace sees it,
 * or, when the spec does not name its entry, as the session saw it (`/home/a.txt`): the owner
 * reads these in monitoring, and the jails' folder on the node is not theirs to learn (issue 36,
 * point 8). SFTP's log names files the same way.
 */
export function jailWorkspacePath(file: string, sources: Map<string, string>): string {
  const normal = file.replaceAll('/./', '/');
  if (!normal.startsWith(`${JAILS_ROOT}/`)) return `/${normal.split('/').filter(Boolean).at(-1) ?? ''}`;
  const [user, entry = '', ...rest] = normal.slice(JAILS_ROOT.length + 1).split('/');
  const source = sources.get(`${user}/${entry}`);
  if (!source) return ['', entry, ...rest].join('/');
  return storagePath([source, ...rest].join('/'));
}

export function transferEvents(lines: readonly TailLine[], jailSpec: string): ActivityEventReport[] {
  const sources = jailSources(jailSpec);
  const events: ActivityEventReport[] = [];
  for (const line of lines) {
    const [time, , user, address, direction, bytes, , ...file] = line.text.split(' ');
    const at = new Date(Number(time) * 1000);
    if (!user || (direction !== 'U' && direction !== 'D') || Number.isNaN(at.getTime()) || file.length === 0)
      continue;
    const size = Number(bytes);
    events.push({
      id: `ftp:${line.id}`,
      at: at.toISOString(),
      source: 'ftp',
      kind: direction === 'U' ? 'file_written' : 'file_read',
      user: user.slice(0, 64),
      path: jailWorkspacePath(file.join(' '), sources).slice(0, 1024),
      target: null,
      bytes: Number.isSafeInteger(size) && size >= 0 ? size : null,
      remote_address: address ? address.slice(0, 80) : null,
    });
  }
  return events;
}
