// What smbd records of file operations (Samba's `full_audit` VFS module), read as activity
// events. Every share carries the module (renderShare); its lines go to a log file of their own
// through the debug class `full_audit` (`log level = 1 full_audit:1@<file>`: nothing else
// reaches that file), one line per successful operation of those asked for:
//
//   [2026/11/29 03:38:19.184581,  1]   alice|10.8.0.6|openat|ok|w|/srv/shares/docs/a.txt
//   [...]   alice|10.8.0.6|renameat|ok|/srv/shares/docs/a.txt|/srv/shares/docs/b.txt
//   [...]   alice|10.8.0.6|unlinkat|ok|/srv/shares/docs/b.txt       (a file or a folder)
//   [...]   alice|10.8.0.6|mkdirat|ok|/srv/shares/docs/new
//   [...]   alice|10.8.0.6|create_file|ok|0x120089|file|open|/srv/shares/docs/a.txt
//
// An open for writing (openat `w`) is `file_written`. A read is the client's open of a file
// (create_file: one per SMB CREATE, with the access it asked for and whether it is a file or a
// folder) asking to read its data (FILE_READ_DATA) and not to write it: `file_read`. Not openat
// `r`: smbd opens every path it looks at that way (listing a folder opens every entry), and not
// each read request (a large file is thousands). The time is smbd's local time, which is the
// host's (the workspace's /etc links to it). Paths are as the workspace sees them, from its
// storage's root.
import type { ActivityEventReport } from '@debesis/contract';
import { NAMESPACE_DATA_ROOT } from '../system/namespace.ts';
import type { TailLine } from '../activity/log-tail.ts';

/** The operations full_audit records (smb.conf `full_audit:success`). */
export const AUDITED_OPERATIONS = ['openat', 'renameat', 'unlinkat', 'mkdirat', 'create_file'] as const;
/** SMB access mask bits (MS-SMB2 2.2.13.1.1): reading a file's data, writing or appending it. */
const FILE_READ_DATA = 0x1;
const FILE_WRITE_DATA = 0x2;
const FILE_APPEND_DATA = 0x4;

/** Its prefix: who and from where. */
export const AUDIT_PREFIX = '%u|%I';

const LINE = /^\[(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?,\s*\d+\]\s+(.*)$/;

/** A path inside the namespace as the owner reads it: from the storage's root. */
export function storagePath(path: string): string {
  if (path === NAMESPACE_DATA_ROOT) return '/';
  return path.startsWith(`${NAMESPACE_DATA_ROOT}/`) ? path.slice(NAMESPACE_DATA_ROOT.length) : path;
}

export function parseAuditLine(line: TailLine, options: { guest: string }): ActivityEventReport | undefined {
  const match = LINE.exec(line.text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, message] = match;
  const at = new Date(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Math.floor(Number(`0.${fraction ?? '0'}`) * 1000),
  );
  const [user, address, operation, result, ...rest] = message!.split('|');
  if (result !== 'ok' || !user || Number.isNaN(at.getTime())) return undefined;
  const base = {
    id: `smb:${line.id}`,
    at: at.toISOString(),
    source: 'smb' as const,
    user: user === options.guest ? null : user.slice(0, 64),
    target: null,
    bytes: null,
    remote_address: address ? address.slice(0, 80) : null,
  };
  const path = (value: string | undefined) => (value ? storagePath(value).slice(0, 1024) : null);
  switch (operation) {
    case 'openat':
      return rest[0] === 'w'
        ? { ...base, kind: 'file_written', path: path(rest.slice(1).join('|')) }
        : undefined;
    case 'renameat':
      return rest.length === 2
        ? { ...base, kind: 'file_renamed', path: path(rest[0]), target: path(rest[1]) }
        : undefined;
    case 'unlinkat':
      return { ...base, kind: 'file_deleted', path: path(rest.join('|')) };
    case 'mkdirat':
      return { ...base, kind: 'folder_created', path: path(rest.join('|')) };
    case 'create_file': {
      const [mask, type, , ...file] = rest;
      const access = Number.parseInt(mask ?? '', 16);
      const reads =
        type === 'file' &&
        (access & FILE_READ_DATA) !== 0 &&
        (access & (FILE_WRITE_DATA | FILE_APPEND_DATA)) === 0;
      return reads && file.length > 0
        ? { ...base, kind: 'file_read', path: path(file.join('|')) }
        : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The events of new audit lines. One upload can open its file for writing more than once (create,
 * then set its times), and a client reading a file may open it again and again (a viewer, a
 * copy that checks): the same user writing, or reading, the same path within a batch is one event.
 */
export function auditEvents(lines: readonly TailLine[], options: { guest: string }): ActivityEventReport[] {
  const events: ActivityEventReport[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const event = parseAuditLine(line, options);
    if (!event) continue;
    const key = (kind: string) => `${kind}\u0000${event.user}\u0000${event.path}`;
    if (event.kind === 'file_written' || event.kind === 'file_read') {
      if (seen.has(key(event.kind))) continue;
      seen.add(key(event.kind));
    } else if (event.path) {
      // A rename or delete after a write is a new step: the next write of that path counts again.
      seen.delete(key('file_written'));
      seen.delete(key('file_read'));
    }
    events.push(event);
  }
  return events;
}
