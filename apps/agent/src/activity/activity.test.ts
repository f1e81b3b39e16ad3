import { appendFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ActivityEventReport, WorkspaceDesiredState, WorkspaceFeatureReports } from '@debesis/contract';
import { auditEvents } from '../samba/audit-log.ts';
import { transferEvents } from '../ftp/transfer-log.ts';
import { sftpEvents, unvis } from '../sftp/activity-log.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { silentLogger } from '../logger.ts';
import { readNewLines } from './log-tail.ts';
import { sessionEvents, type Seen } from './session-events.ts';
import { openSpool } from './spool.ts';
import { createUsageCounter } from './usage-count.ts';
import { useTempDir } from '../testing/temp-dir.ts';

const dir = useTempDir('debesis-activity-');

describe('a daemon log read past its cursor', () => {
  it('reads whole new lines only, goes on where it stopped, and finishes a rotated log from .old', async () => {
    const log = join(dir(), 'audit.log');
    const cursor = join(dir(), 'cursor.json');
    await writeFile(log, 'one\ntwo\nthr');
    const first = await readNewLines(log, cursor);
    expect(first.lines.map((line) => line.text)).toEqual(['one', 'two']);
    // Not committed: read again, the same lines with the same ids.
    const again = await readNewLines(log, cursor);
    expect(again.lines).toEqual(first.lines);
    await again.commit();
    await appendFile(log, 'ee\nfour\n');
    const second = await readNewLines(log, cursor);
    expect(second.lines.map((line) => line.text)).toEqual(['three', 'four']);
    expect(new Set([...first.lines, ...second.lines].map((line) => line.id)).size).toBe(4);
    await second.commit();

    // Samba rotates: the log becomes .old (with a line we have not read) and a new log starts.
    await appendFile(log, 'five\n');
    await rename(log, `${log}.old`);
    await writeFile(log, 'six\n');
    const rotated = await readNewLines(log, cursor);
    expect(rotated.lines.map((line) => line.text)).toEqual(['five', 'six']);
    await rotated.commit();
    expect((await readNewLines(log, cursor)).lines).toEqual([]);
  });

  it('empties a log read to its end past the size given (a log its daemon keeps open)', async () => {
    const log = join(dir(), 'transfers.log');
    const cursor = join(dir(), 'cursor.json');
    await writeFile(log, 'a\n'.repeat(10));
    const read = await readNewLines(log, cursor, { truncateAbove: 5 });
    expect(read.lines).toHaveLength(10);
    await read.commit();
    expect(await readFile(log, 'utf8')).toBe('');
    await appendFile(log, 'b\n');
    expect((await readNewLines(log, cursor)).lines.map((line) => line.text)).toEqual(['b']);
  });

  it('has nothing to say of a log that does not exist', async () => {
    const read = await readNewLines(join(dir(), 'none.log'), join(dir(), 'cursor.json'));
    expect(read.lines).toEqual([]);
    await read.commit();
  });
});

describe('Samba’s audit lines', () => {
  const line = (id: string, text: string) => ({ id, text: `[2026/11/29 03:38:19.184581,  1]   ${text}` });
  it('are files written, read, renamed, deleted and folders made, from the storage’s root', () => {
    const events = auditEvents(
      [
        line('1:0', 'alice|198.19.4.2|openat|ok|r|/srv/shares/docs'),
        // smbd's own opens to read (a listing) and opens of folders or of attributes only are not reads.
        line('1:10', 'alice|198.19.4.2|openat|ok|r|/srv/shares/docs/c.txt'),
        line('1:20', 'alice|198.19.4.2|create_file|ok|0x81|dir()|open|/srv/shares/docs'),
        line('1:30', 'alice|198.19.4.2|create_file|ok|0x80|file|open|/srv/shares/docs/c.txt'),
        line('1:40', 'bob|198.19.4.2|create_file|ok|0x120089|file|open|/srv/shares/docs/c|d.txt'),
        line('1:50', 'bob|198.19.4.2|create_file|ok|0x120089|file|open|/srv/shares/docs/c|d.txt'),
        line('1:55', 'alice|198.19.4.2|create_file|ok|0x12019f|file|overwrite_if|/srv/shares/docs/a.txt'),
        line('1:60', 'alice|198.19.4.2|openat|ok|w|/srv/shares/docs/a.txt'),
        line('1:120', 'alice|198.19.4.2|openat|ok|w|/srv/shares/docs/a.txt'),
        line('1:180', 'alice|198.19.4.2|renameat|ok|/srv/shares/docs/a.txt|/srv/shares/docs/b.txt'),
        line('1:240', 'alice|198.19.4.2|mkdirat|ok|/srv/shares/docs/new'),
        line('1:300', 'nobody|198.19.4.2|unlinkat|ok|/srv/shares/docs/b.txt'),
        line('1:360', 'alice|198.19.4.2|unlinkat|fail (NT_STATUS_ACCESS_DENIED)|/srv/shares/x'),
        { id: '1:420', text: 'garbage' },
      ],
      { guest: 'nobody' },
    );
    expect(events.map(({ kind, user, path, target }) => ({ kind, user, path, target }))).toEqual([
      // Opened twice in the batch: read once.
      { kind: 'file_read', user: 'bob', path: '/shares/docs/c|d.txt', target: null },
      { kind: 'file_written', user: 'alice', path: '/shares/docs/a.txt', target: null },
      { kind: 'file_renamed', user: 'alice', path: '/shares/docs/a.txt', target: '/shares/docs/b.txt' },
      { kind: 'folder_created', user: 'alice', path: '/shares/docs/new', target: null },
      { kind: 'file_deleted', user: null, path: '/shares/docs/b.txt', target: null },
    ]);
    expect(events[1]).toMatchObject({
      id: 'smb:1:60',
      source: 'smb',
      remote_address: '198.19.4.2',
      at: new Date(2026, 10, 29, 3, 38, 19, 184).toISOString(),
    });
  });
});

describe('pure-ftpd’s transfer lines', () => {
  it('are uploads and downloads named as the workspace sees the file (the jail’s entry → its folder)', () => {
    const spec = 'alice 1000001 home /srv/home/alice rw\nalice 1000001 docs /srv/shares/docs ro\n';
    const events = transferEvents(
      [
        {
          id: '5:0',
          text: '1795925434 6b0ba5b6.4709 alice 198.19.4.2 U 52428800 3 /run/jails/alice/./home/report.pdf',
        },
        { id: '5:90', text: '1795925438 6b0ba5ba.470c alice 198.19.4.2 D 6 0 /run/jails/alice/docs/a b.txt' },
        { id: '5:180', text: 'nonsense' },
      ],
      spec,
    );
    expect(events).toEqual([
      {
        id: 'ftp:5:0',
        at: new Date(1795925434 * 1000).toISOString(),
        source: 'ftp',
        kind: 'file_written',
        user: 'alice',
        path: '/home/alice/report.pdf',
        target: null,
        bytes: 52428800,
        remote_address: '198.19.4.2',
      },
      expect.objectContaining({ kind: 'file_read', path: '/shares/docs/a b.txt', bytes: 6 }),
    ]);
  });
});

describe('internal-sftp’s lines, as the jails’ log receiver writes them', () => {
  const spec = 'alice 1000001 home /srv/home/alice rw\nalice 1000001 docs /srv/shares/docs rw\n';
  const at = 1795925434;
  const lines = (texts: string[]) =>
    texts.map((text, index) => ({ id: `9:${index * 100}`, text: `${at + index} ${text}` }));
  it('are uploads and downloads with their bytes, deletes, renames and new folders; failed requests are not', () => {
    const events = sftpEvents(
      lines([
        '41 alice 198.19.4.2 open "/docs/up.txt" flags WRITE,CREATE,TRUNCATE mode 0100644',
        // Another session's lines between them.
        '42 alice 198.19.4.3 open "/docs/a b.txt" flags READ mode 0100644',
        '41 alice 198.19.4.2 close "/docs/up.txt" bytes read 0 written 52428800',
        '42 alice 198.19.4.3 close "/docs/a b.txt" bytes read 6 written 0',
        '41 alice 198.19.4.2 open "empty.txt" flags WRITE,CREATE,TRUNCATE mode 0100644',
        '41 alice 198.19.4.2 close "empty.txt" bytes read 0 written 0',
        '41 alice 198.19.4.2 opendir "/docs/"',
        '41 alice 198.19.4.2 remove name "/docs/missing.txt"',
        '41 alice 198.19.4.2 sent status No such file',
        '41 alice 198.19.4.2 remove name "/docs/up.txt"',
        '41 alice 198.19.4.2 rename old "/docs/a b.txt" new "/home/\\303\\251t\\303\\251.txt"',
        '41 alice 198.19.4.2 mkdir name "/docs/new" mode 0755',
        '41 alice 198.19.4.2 rmdir name "/docs/new"',
        '42 alice 198.19.4.3 open "/docs/ro.txt" flags WRITE,CREATE,TRUNCATE mode 0100644',
        '42 alice 198.19.4.3 sent status Permission denied',
        'nonsense',
      ]),
      spec,
    );
    expect(events.map(({ kind, path, target, bytes }) => ({ kind, path, target, bytes }))).toEqual([
      { kind: 'file_written', path: '/shares/docs/up.txt', target: null, bytes: 52428800 },
      { kind: 'file_read', path: '/shares/docs/a b.txt', target: null, bytes: 6 },
      { kind: 'file_written', path: '/home/alice/empty.txt', target: null, bytes: 0 },
      { kind: 'file_deleted', path: '/shares/docs/up.txt', target: null, bytes: null },
      { kind: 'file_renamed', path: '/shares/docs/a b.txt', target: '/home/alice/été.txt', bytes: null },
      { kind: 'folder_created', path: '/shares/docs/new', target: null, bytes: null },
      { kind: 'file_deleted', path: '/shares/docs/new', target: null, bytes: null },
    ]);
    expect(events[0]).toEqual({
      id: 'sftp:9:200',
      at: new Date((at + 2) * 1000).toISOString(),
      source: 'sftp',
      kind: 'file_written',
      user: 'alice',
      path: '/shares/docs/up.txt',
      target: null,
      bytes: 52428800,
      remote_address: '198.19.4.2',
    });
  });

  it('undoes OpenSSH’s escapes of a logged name', () => {
    expect(unvis('a\\\\b\\tc\\303\\251')).toBe('a\\b\tcé');
  });
});

describe('sessions and jobs compared with the last pass', () => {
  const now = new Date('2026-11-29T10:00:00Z');
  const vpn = (bytes: number): WorkspaceFeatureReports['vpn'] => ({
    sessions: [
      {
        user: 'alice',
        real_address: '198.19.4.2:51234',
        virtual_address: '10.8.0.6',
        bytes_received: bytes,
        bytes_sent: bytes,
        connected_since: '2026-11-29T09:59:00.000Z',
      },
    ],
    usage: [],
  });

  it('a tunnel up then down (with its bytes), a sign-in and its end, an NFS client, a backup ending once', () => {
    let seen: Seen = { sessions: {}, jobs: [], nfs: {} };
    const step = (features: WorkspaceFeatureReports) => {
      const result = sessionEvents(seen, features, now);
      seen = result.seen;
      return result.events.map(({ kind, user, bytes, remote_address }) => ({
        kind,
        user,
        bytes,
        remote_address,
      }));
    };
    expect(
      step({
        vpn: vpn(10),
        ftp: {
          sessions: [
            { user: 'bob', connected_since: '2026-11-29T09:58:00Z', remote_address: '198.19.4.3:4000' },
          ],
        },
      }),
    ).toEqual([
      { kind: 'vpn_connected', user: 'alice', bytes: null, remote_address: '198.19.4.2' },
      { kind: 'login', user: 'bob', bytes: null, remote_address: '198.19.4.3' },
    ]);
    // The same again, more bytes: nothing new. A feature not reported keeps its sessions.
    expect(step({ vpn: vpn(500) })).toEqual([]);
    expect(step({ vpn: { sessions: [], usage: [] }, ftp: { sessions: [] } })).toEqual(
      expect.arrayContaining([
        { kind: 'vpn_disconnected', user: 'alice', bytes: 1000, remote_address: '198.19.4.2' },
        { kind: 'logout', user: 'bob', bytes: null, remote_address: '198.19.4.3' },
      ]),
    );
    const job = {
      id: '6f1d2c3b-0000-4000-8000-000000000001',
      status: 'completed' as const,
      started_at: '2026-11-29T09:00:00Z',
      finished_at: '2026-11-29T09:01:00Z',
      bytes_added: 42,
    };
    const backup = { jobs: [job], usage: null, snapshot_ids: null };
    expect(
      step({
        backup,
        nfs: {
          clients: [
            {
              address: '198.19.4.9',
              version: '4.2',
              connected: true,
              client_name: 'Linux NFSv4.2 laptop',
              mount_point: null,
            },
          ],
        },
      }),
    ).toEqual([
      { kind: 'nfs_client_connected', user: null, bytes: null, remote_address: '198.19.4.9' },
      { kind: 'backup_completed', user: null, bytes: 42, remote_address: null },
    ]);
    expect(step({ backup })).toEqual([]);
  });

  it("NFS reads and writes: an export's counters grown since the last pass, once; a restart counts from zero", () => {
    let seen: Seen = { sessions: {}, jobs: [], nfs: {} };
    const io = (reads: number, read_bytes: number, writes: number, write_bytes: number) => ({
      nfs: { clients: [], exports: [{ path: 'projects/rw', reads, read_bytes, writes, write_bytes }] },
    });
    const step = (features: WorkspaceFeatureReports) => {
      const result = sessionEvents(seen, features, now);
      seen = result.seen;
      return result.events.map(({ source, kind, path, bytes }) => ({ source, kind, path, bytes }));
    };
    const written = (bytes: number) => ({ source: 'nfs', kind: 'file_written', path: 'projects/rw', bytes });
    const read = (bytes: number) => ({ source: 'nfs', kind: 'file_read', path: 'projects/rw', bytes });
    expect(step(io(0, 0, 2, 100))).toEqual([written(100)]);
    expect(step(io(0, 0, 2, 100))).toEqual([]);
    // A pass without counters (not read this time) forgets nothing.
    expect(step({ nfs: { clients: [] } })).toEqual([]);
    expect(step(io(3, 4096, 3, 150))).toEqual([written(50), read(4096)]);
    expect(step(io(0, 0, 1, 10))).toEqual([written(10)]);
  });

  it('makes the same ids for the same session, so one seen again after a lost state is stored once', () => {
    const first = sessionEvents({ sessions: {}, jobs: [], nfs: {} }, { vpn: vpn(1) }, now).events;
    const again = sessionEvents({ sessions: {}, jobs: [], nfs: {} }, { vpn: vpn(2) }, new Date()).events;
    expect(again.map((event) => event.id)).toEqual(first.map((event) => event.id));
  });
});

describe('the spool', () => {
  const event = (id: string): ActivityEventReport => ({
    id,
    at: '2026-11-29T10:00:00.000Z',
    source: 'smb',
    kind: 'file_written',
    user: 'alice',
    path: '/x',
    target: null,
    bytes: null,
    remote_address: null,
  });

  it('keeps events in order until a report has carried them, and drops the oldest past its bound', async () => {
    const spool = openSpool(join(dir(), 'spool.jsonl'));
    await spool.append([event('a'), event('b'), event('c')]);
    expect((await spool.peek(2)).map((e) => e.id)).toEqual(['a', 'b']);
    await spool.append([event('d')]);
    await spool.drop(2);
    expect((await spool.peek(10)).map((e) => e.id)).toEqual(['c', 'd']);
    await spool.drop(5);
    expect(await spool.peek(10)).toEqual([]);
  });

  it('reads only the batch it sends, and rewrites itself once most of it is sent', async () => {
    const file = join(dir(), 'spool.jsonl');
    const spool = openSpool(file);
    const many = Array.from({ length: 12_000 }, (_, index) => event(`e${index}`));
    await spool.append(many);
    const before = (await stat(file)).size;
    for (let sent = 0; sent < 10_000; sent += 2000) {
      const batch = await spool.peek(2000);
      expect(batch[0]?.id).toBe(`e${sent}`);
      await spool.drop(batch.length);
    }
    // Rewritten without what was sent (its cursor on the new file starts at 0).
    expect((await stat(file)).size).toBeLessThan(before / 2);
    expect((await spool.peek(5)).map((e) => e.id)).toEqual([
      'e10000',
      'e10001',
      'e10002',
      'e10003',
      'e10004',
    ]);
    await spool.append([event('last')]);
    await spool.drop(2000);
    expect((await spool.peek(5)).map((e) => e.id)).toEqual(['last']);
  });
});

describe('who owns what, counted', () => {
  const desired = { service_id: 'ws-1', id_base: 1_000_000 } as WorkspaceDesiredState;

  it('walks the storage once, then reads again only the folders activity names', async () => {
    const layout = workspaceLayout(dir());
    await mkdir(join(layout.dataRoot, 'shares', 'docs'), { recursive: true });
    await mkdir(layout.accountsDir, { recursive: true });
    const uid = process.getuid?.() ?? 0;
    await writeFile(layout.passwd, `alice:x:${uid}:1000000::/srv/home/alice:/usr/sbin/nologin\n`);
    await writeFile(join(layout.dataRoot, 'shares', 'docs', 'a.bin'), Buffer.alloc(8192, 1));
    await mkdir(join(dir(), 'monitoring'));
    const counter = createUsageCounter({ fullEveryMs: 3_600_000, logger: silentLogger });
    expect(counter.update(desired, dir(), [])).toBeUndefined();
    await counter.idle();
    const first = counter.update(desired, dir(), []);
    await counter.idle();
    // The agent runs as root in CI (uid 0 is not above the base: counted as the workspace's own).
    const owner = uid > desired.id_base ? 'users' : 'other';
    const bytesOf = (report: typeof first) =>
      owner === 'users' ? (report?.users[0]?.bytes ?? 0) : (report?.other_bytes ?? 0);
    expect(bytesOf(first)).toBeGreaterThanOrEqual(8192);
    counter.sent(desired.service_id, first!);
    expect(counter.update(desired, dir(), [])).toBeUndefined();
    await counter.idle();

    // A file written where activity says: its folder is read again, nothing else.
    await writeFile(join(layout.dataRoot, 'shares', 'docs', 'b.bin'), Buffer.alloc(16384, 1));
    await writeFile(join(layout.dataRoot, 'elsewhere.bin'), Buffer.alloc(16384, 1));
    counter.update(desired, dir(), ['/shares/docs/b.bin']);
    await counter.idle();
    const second = counter.update(desired, dir(), []);
    expect(bytesOf(second) - bytesOf(first)).toBeGreaterThanOrEqual(16384);
    expect(bytesOf(second) - bytesOf(first)).toBeLessThan(32768);

    // A folder gone is dropped with everything under it; a restarted counter reads its file.
    await rm(join(layout.dataRoot, 'shares'), { recursive: true });
    counter.update(desired, dir(), ['/shares/docs/a.bin']);
    await counter.idle();
    const restarted = createUsageCounter({ fullEveryMs: 3_600_000, logger: silentLogger });
    restarted.update(desired, dir(), []);
    await restarted.idle();
    const third = restarted.update(desired, dir(), []);
    expect(bytesOf(third)).toBeLessThan(bytesOf(first));
  });
});
