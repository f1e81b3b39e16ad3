// FTP and SFTP of a workspace against the real programs, as root (issue 16): a workspace with FTP
// and SFTP on gets its own pure-ftpd and sshd inside its namespaces; a client in a network
// namespace of its own (testing/network.ts) signs in with curl (ftp://, sftp://) and ssh. A
// read-write user uploads and downloads, a read-only user's upload is refused, a user disabled for
// FTP cannot sign in, nobody leaves their jail, ssh runs no command; a new password works at once
// and the old one stops working, without a restart (pids unchanged); an unchanged workspace runs
// no program. Elsewhere it is skipped with the reason printed.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FtpUserState, WorkspaceDesiredState } from '@debesis/contract';
import { WORKSPACE_ID_FIRST_BASE } from '@debesis/contract';
import { ftpFiles } from './drivers/ftp.driver.ts';
import { JAILS_ROOT } from './file-access/jails.ts';
import { sftpFiles } from './drivers/sftp.driver.ts';
import { runCommand } from './exec/run-command.ts';
import { desiredFtp, desiredShare, desiredUser, desiredWorkspace, perms } from './testing/desired.ts';
import { sha512Crypt } from './testing/passwords.ts';
import { LIVE_WORKSPACE_PROGRAMS, liveSkipReason, liveWorkspace, recordedPid } from './testing/live.ts';
import { stopProcessGroup } from './system/processes.ts';

const PROGRAMS = [
  ...LIVE_WORKSPACE_PROGRAMS,
  'pure-ftpd',
  'pure-pw',
  'sshd',
  'ssh-keygen',
  'ssh',
  'sshpass',
  'curl',
  'openssl',
  'mountpoint',
];
const reason = await liveSkipReason('FTP/SFTP test', PROGRAMS);

const B = WORKSPACE_ID_FIRST_BASE;
const workspace = liveWorkspace('ftp');
const { service: SERVICE, address: ADDRESS, client: CLIENT, pass, layout } = workspace;
const FTP_PORT = 21;
const SFTP_PORT = 22;

const passwords: Record<string, string> = {
  alice: 'Alice-ftp-pass-1',
  bob: 'Bob-ftp-pass-22',
  carol: 'Carol-ftp-pass-333',
};
const crypts: Record<string, string> = {};

const ftpDir = () => join(layout().root, 'ftp');
const sftpDir = () => join(layout().root, 'sftp');

const ftpUser = (name: string, extra: Partial<FtpUserState> = {}): FtpUserState => ({
  name,
  enabled: true,
  permissions: 'read_write',
  ...extra,
});

function state(
  ftpUsers: FtpUserState[] = [
    ftpUser('alice'),
    ftpUser('bob', { permissions: 'read_only' }),
    ftpUser('carol', { enabled: false }),
  ],
): WorkspaceDesiredState {
  return {
    ...desiredWorkspace({
      service_id: SERVICE,
      address: ADDRESS,
      storage_bytes: 32 * 1024 * 1024,
      id_base: B,
      users: ['alice', 'bob', 'carol'].map((name, index) => ({
        ...desiredUser(name, B + 1 + index, { password: passwords[name] }),
        password_crypt: crypts[name]!,
      })),
      samba: {
        shares: [
          desiredShare('projects', {
            users: [
              { name: 'alice', ...perms(true, true) },
              { name: 'bob', ...perms(true, true) },
            ],
          }),
          // carol's alone: nobody else's jail holds it.
          desiredShare('secret', { users: [{ name: 'carol', ...perms(true, true) }] }),
        ],
        settings: { workgroup: 'WORKGROUP', server_string: 'Debesis', min_protocol: 'SMB2' },
      },
    }),
    ftp: desiredFtp(ftpUsers, { port: FTP_PORT, passive_port_max: 30039, max_clients: 20 }),
    sftp: { enabled: true, port: SFTP_PORT },
  };
}

const ftpPid = () => recordedPid(ftpFiles(ftpDir()).process.record);
const sftpPid = () => recordedPid(sftpFiles(sftpDir()).process.record);

/** A program run from the client's namespace. */
const fromClient = (command: string, args: string[], input?: string) =>
  runCommand('ip', ['netns', 'exec', CLIENT.netns, command, ...args], { timeoutMs: 20_000, input });

const curl = (url: string, user: string, password: string, extra: string[] = []) =>
  fromClient('curl', [
    '-sS',
    '--max-time',
    '15',
    '-k',
    '--path-as-is',
    '-u',
    `${user}:${password}`,
    ...extra,
    url,
  ]);

// FTP URLs are relative to the login folder (/home): `%2F` starts them at the jail's root.
const ftpUrl = (path: string) => `ftp://${ADDRESS}:${FTP_PORT}/%2F${path.slice(1)}`;
const sftpUrl = (path: string) => `sftp://${ADDRESS}:${SFTP_PORT}${path}`;

/** A node script for the client: signs alice in over FTP and prints the ms from USER to 230. */
const loginTimer = () => `const s = require('net').connect(${FTP_PORT}, '${ADDRESS}'); let t = 0, step = 0;
s.setTimeout(10000, () => process.exit(2));
s.on('data', (d) => { d = String(d);
  if (step === 0 && /^220 /m.test(d)) { t = performance.now(); s.write('USER alice\\r\\n'); step = 1; }
  else if (step === 1 && /^331/m.test(d)) { s.write('PASS ' + process.env.PW + '\\r\\n'); step = 2; }
  else if (step === 2 && /^230/m.test(d)) { step = 3; console.log((performance.now() - t).toFixed(2)); s.end(); }
  else if (/^5\\d\\d/m.test(d)) { console.error(d); process.exit(1); } });`;
/** A file in the client's folder to upload. */
async function upload(name: string, text: string): Promise<string> {
  const path = join(workspace.clientDir(), name);
  await writeFile(path, text);
  return path;
}

const inStorage = (...parts: string[]) =>
  readFile(join(layout().dataRoot, ...parts), 'utf8').catch(() => undefined);

describe.skipIf(reason !== undefined)(
  'live FTP and SFTP of a workspace (root, real pure-ftpd, sshd, curl and ssh)',
  { shuffle: false, timeout: 120_000 },
  () => {
    let ftp: number | undefined;
    let sftp: number | undefined;

    beforeAll(async () => {
      for (const [name, password] of Object.entries(passwords)) crypts[name] = await sha512Crypt(password);
      await workspace.create();
    });

    afterAll(() => workspace.remove(state()));

    it('runs pure-ftpd and sshd in the workspace’s namespace on its address', async () => {
      const { report } = await pass(state());
      expect(report.error).toBeUndefined();
      expect(report).toMatchObject({ ok: true, failures: [] });
      for (const driver of ['ftp', 'sftp'])
        expect(report.drivers.find((d) => d.driver === driver)).toEqual({
          driver,
          live: true,
          serving: true,
          // A serving daemon says since when (the API's uptime and restarts).
          started_at: expect.any(String) as string,
        });
      ftp = await ftpPid();
      sftp = await sftpPid();
      expect(ftp).toBeDefined();
      expect(sftp).toBeDefined();
      expect(report.features?.ftp).toEqual({ sessions: [] });
      expect(report.features?.sftp).toEqual({ sessions: [] });
    });

    it('every jail mount of both daemons is noexec, nosuid and nodev, read-only where it reads only', async () => {
      for (const pid of [ftp, sftp]) {
        // mountinfo: id parent major:minor root mount-point options … — only the jails' mounts.
        const mounts = (await readFile(`/proc/${pid}/mountinfo`, 'utf8'))
          .split('\n')
          .map((line) => line.split(' '))
          .filter((fields) => fields[4]?.startsWith(`${JAILS_ROOT}/`));
        expect(mounts.length, `jail mounts of ${pid}`).toBeGreaterThan(0);
        for (const fields of mounts) {
          const options = fields[5]!.split(',');
          expect(options, fields[4]).toEqual(expect.arrayContaining(['noexec', 'nosuid', 'nodev']));
        }
        expect(mounts.some((fields) => fields[5]!.split(',').includes('ro'))).toBe(true);
      }
    });

    it('a second pass on the unchanged state runs no program and writes nothing', async () => {
      const ran: string[] = [];
      const started = Date.now();
      const { result } = await pass(
        state(),
        (command, args) => ran.push([command, ...args].join(' ')),
        true, // the same generation again: a full check of an applied workspace
      );
      console.warn(`[agent] FTP/SFTP no-op pass of one workspace in ${Date.now() - started} ms`);
      expect(result.actions).toEqual([]);
      expect(ran).toEqual([]);
      expect(await ftpPid()).toBe(ftp);
      expect(await sftpPid()).toBe(sftp);
    });

    it('FTP: a read-write user uploads and downloads, in her home and in a share', async () => {
      const file = await upload('a.txt', 'from alice over ftp\n');
      const up = await curl(ftpUrl('/home/a.txt'), 'alice', passwords.alice!, ['-T', file]);
      expect(up.exitCode, up.stderr).toBe(0);
      expect(await inStorage('home', 'alice', 'a.txt')).toBe('from alice over ftp\n');
      const shared = await curl(ftpUrl('/projects/plan.txt'), 'alice', passwords.alice!, ['-T', file]);
      expect(shared.exitCode, shared.stderr).toBe(0);
      const down = await curl(ftpUrl('/home/a.txt'), 'alice', passwords.alice!);
      expect(down.stdout).toBe('from alice over ftp\n');
      // The login time: pure-ftpd checks the SHA-512 crypt (its argon2 default costs ~3.6 s).
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const timed = await fromClient('env', [
          `PW=${passwords.alice}`,
          process.execPath,
          '-e',
          loginTimer(),
        ]);
        expect(timed.stdout.trim(), timed.stderr).toMatch(/^\d+(\.\d+)?$/);
        times.push(Number(timed.stdout));
      }
      times.sort((a, b) => a - b);
      console.warn(`[agent] FTP login (USER to 230, median of 5): ${times[2]!.toFixed(1)} ms`);
      // Target 50 ms: measured, not asserted (a loaded CI is no measure). Its puredb holds the
      // users' SHA-512 crypts, not pure-pw's seconds-long argon2 (ftp's unit tests check that).
    });

    it('FTP: a read-only user reads but every upload is refused, in the share and in his home', async () => {
      const down = await curl(ftpUrl('/projects/plan.txt'), 'bob', passwords.bob!);
      expect(down.stdout).toBe('from alice over ftp\n');
      const file = await upload('b.txt', 'from bob\n');
      for (const path of ['/projects/b.txt', '/home/b.txt']) {
        const up = await curl(ftpUrl(path), 'bob', passwords.bob!, ['-T', file]);
        expect(up.exitCode, `${path}: ${up.stderr}`).not.toBe(0);
      }
      expect(await inStorage('shares', 'projects', 'b.txt')).toBeUndefined();
      expect(await inStorage('home', 'bob', 'b.txt')).toBeUndefined();
      // Nor may he delete or make folders.
      const rmFile = await curl(ftpUrl('/'), 'bob', passwords.bob!, ['-Q', 'DELE projects/plan.txt']);
      expect(rmFile.exitCode).not.toBe(0);
      expect(await inStorage('shares', 'projects', 'plan.txt')).toBe('from alice over ftp\n');
    });

    it('FTP: a user disabled for FTP and a wrong password cannot sign in', async () => {
      const carol = await curl(ftpUrl('/home/'), 'carol', passwords.carol!);
      expect(carol.exitCode, carol.stderr).toBe(67);
      const wrong = await curl(ftpUrl('/home/'), 'alice', 'not-her-password');
      expect(wrong.exitCode, wrong.stderr).toBe(67);
    });

    it('FTP: a user sees only her jail and cannot leave it (CWD /, ..)', async () => {
      const names = (listing: string) =>
        listing
          .split(/\r?\n/)
          .filter((name) => name && !name.startsWith('.'))
          .sort();
      const root = await curl(ftpUrl('/'), 'alice', passwords.alice!, ['-l']);
      expect(names(root.stdout)).toEqual(['home', 'projects']);
      const up = await curl(ftpUrl('/../../../'), 'alice', passwords.alice!, ['-l']);
      expect(names(up.stdout)).toEqual(['home', 'projects']);
      const verbose = await curl(ftpUrl('/home/'), 'alice', passwords.alice!, [
        '-v',
        '-Q',
        'CWD /',
        '-Q',
        'CWD ..',
        '-Q',
        'PWD',
      ]);
      expect(verbose.stderr).toMatch(/257 "\/" is your current location/);
      for (const path of ['/etc/passwd', '/srv/home/bob/', '/../secret/', '/secret/'])
        expect((await curl(ftpUrl(path), 'alice', passwords.alice!)).exitCode, path).not.toBe(0);
    });

    it('SFTP: the same rights, the same jail; ssh runs no command', async () => {
      const file = await upload('s.txt', 'from alice over sftp\n');
      const up = await curl(sftpUrl('/projects/s.txt'), 'alice', passwords.alice!, ['-T', file]);
      expect(up.exitCode, up.stderr).toBe(0);
      expect(await inStorage('shares', 'projects', 's.txt')).toBe('from alice over sftp\n');
      const down = await curl(sftpUrl('/projects/s.txt'), 'bob', passwords.bob!);
      expect(down.stdout).toBe('from alice over sftp\n');
      const refused = await curl(sftpUrl('/projects/s2.txt'), 'bob', passwords.bob!, ['-T', file]);
      expect(refused.exitCode).not.toBe(0);
      expect(await inStorage('shares', 'projects', 's2.txt')).toBeUndefined();
      expect((await curl(sftpUrl('/home/'), 'carol', passwords.carol!)).exitCode).toBe(67);
      const root = await curl(sftpUrl('/../../'), 'alice', passwords.alice!, ['-l']);
      expect(
        root.stdout
          .split(/\r?\n/)
          .filter((name) => name && !name.startsWith('.'))
          .sort(),
      ).toEqual(['dev', 'home', 'projects']);
      // `dev` holds the log socket and nothing else, and nobody writes there.
      const dev = await curl(sftpUrl('/dev/'), 'alice', passwords.alice!, ['-l']);
      expect(dev.stdout.split(/\r?\n/).filter((name) => name && !name.startsWith('.'))).toEqual(['log']);
      const intoDev = await curl(sftpUrl('/dev/x.txt'), 'alice', passwords.alice!, ['-T', file]);
      expect(intoDev.exitCode).not.toBe(0);
      const shell = await fromClient('sshpass', [
        '-p',
        passwords.alice!,
        'ssh',
        '-o',
        'StrictHostKeyChecking=no',
        '-o',
        'UserKnownHostsFile=/dev/null',
        '-o',
        'ConnectTimeout=10',
        '-p',
        String(SFTP_PORT),
        `alice@${ADDRESS}`,
        'id',
      ]);
      expect(shell.exitCode).not.toBe(0);
      expect(shell.stdout).not.toMatch(/uid=/);
      expect(shell.stdout + shell.stderr).toMatch(/sftp connections only/);
    });

    it('SFTP: what users did with files is in the next report, once; refused requests are not', async () => {
      await pass(state(), undefined, true);
      const file = await upload('events.txt', 'twelve bytes');
      const up = await curl(sftpUrl('/projects/e.txt'), 'alice', passwords.alice!, ['-T', file]);
      expect(up.exitCode, up.stderr).toBe(0);
      const down = await curl(sftpUrl('/projects/e.txt'), 'bob', passwords.bob!);
      expect(down.stdout).toBe('twelve bytes');
      const changes = await curl(sftpUrl('/projects/'), 'alice', passwords.alice!, [
        '-Q',
        'rename /projects/e.txt /projects/f.txt',
        '-Q',
        'mkdir /projects/folder',
        '-Q',
        'rm /projects/f.txt',
      ]);
      expect(changes.exitCode, changes.stderr).toBe(0);
      // Refused: bob only reads; nothing there to delete.
      expect(
        (await curl(sftpUrl('/projects/'), 'bob', passwords.bob!, ['-Q', 'rm /projects/s.txt'])).exitCode,
      ).not.toBe(0);
      expect(
        (await curl(sftpUrl('/projects/'), 'alice', passwords.alice!, ['-Q', 'rm /projects/none.txt']))
          .exitCode,
      ).not.toBe(0);

      const { report } = await pass(state(), undefined, true);
      const events = (report.features?.monitoring?.events ?? []).filter((event) => event.source === 'sftp');
      expect(
        events.map(({ kind, user, path, target, bytes }) => ({ kind, user, path, target, bytes })),
      ).toEqual([
        { kind: 'file_written', user: 'alice', path: '/shares/projects/e.txt', target: null, bytes: 12 },
        { kind: 'file_read', user: 'bob', path: '/shares/projects/e.txt', target: null, bytes: 12 },
        {
          kind: 'file_renamed',
          user: 'alice',
          path: '/shares/projects/e.txt',
          target: '/shares/projects/f.txt',
          bytes: null,
        },
        { kind: 'folder_created', user: 'alice', path: '/shares/projects/folder', target: null, bytes: null },
        { kind: 'file_deleted', user: 'alice', path: '/shares/projects/f.txt', target: null, bytes: null },
      ]);
      expect(events[0]?.remote_address).toBe(CLIENT.address);
      const { report: next } = await pass(state(), undefined, true);
      expect((next.features?.monitoring?.events ?? []).filter((event) => event.source === 'sftp')).toEqual(
        [],
      );
    });

    it('a signed-in session is in the report', async () => {
      // A control connection left signed in for a while (from the client's namespace).
      const script = `const s = require('net').connect(${FTP_PORT}, '${ADDRESS}'); let sent = 0;
s.on('data', (d) => { if (sent === 0 && /^220 /m.test(d)) { s.write('USER alice\\r\\n'); sent = 1; }
  else if (sent === 1 && /^331/m.test(d)) { s.write('PASS ${passwords.alice}\\r\\n'); sent = 2; }
  else if (sent === 2 && /^230/m.test(d)) { console.log('in'); sent = 3; } });
setTimeout(() => s.end(), 8000);`;
      const session = spawn('ip', ['netns', 'exec', CLIENT.netns, process.execPath, '-e', script], {
        detached: true,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('the session did not sign in')), 5000);
          session.stdout.on('data', (data: Buffer) => {
            if (data.toString().includes('in')) {
              clearTimeout(timer);
              resolve();
            }
          });
        });
        const { report } = await pass(state());
        expect(report.features?.ftp?.sessions).toEqual([
          {
            user: 'alice',
            remote_address: expect.stringMatching(new RegExp(`^${CLIENT.address}:`)) as string,
            connected_since: expect.any(String) as string,
          },
        ]);
      } finally {
        if (session.pid) await stopProcessGroup(session.pid, 2000).catch(() => undefined);
      }
    });

    it('a new password works at once for FTP and SFTP and the old one stops; read-only becomes read-write; no restart', async () => {
      const old = passwords.alice!;
      passwords.alice = 'Alice-new-pass-4';
      crypts.alice = await sha512Crypt(passwords.alice);
      const { result } = await pass(
        state([ftpUser('alice'), ftpUser('bob'), ftpUser('carol', { enabled: false })]),
      );
      expect(result.actions.join('\n')).not.toMatch(/started (pure-ftpd|sshd)|stopped (pure-ftpd|sshd)/);
      expect(await ftpPid()).toBe(ftp);
      expect(await sftpPid()).toBe(sftp);
      expect((await curl(ftpUrl('/home/'), 'alice', old)).exitCode).toBe(67);
      expect((await curl(sftpUrl('/home/'), 'alice', old)).exitCode).toBe(67);
      expect((await curl(ftpUrl('/home/'), 'alice', passwords.alice)).exitCode).toBe(0);
      expect((await curl(sftpUrl('/home/'), 'alice', passwords.alice)).exitCode).toBe(0);
      // bob may write now, over both.
      const file = await upload('b2.txt', 'bob writes now\n');
      expect((await curl(ftpUrl('/projects/b2.txt'), 'bob', passwords.bob!, ['-T', file])).exitCode).toBe(0);
      expect((await curl(sftpUrl('/home/b3.txt'), 'bob', passwords.bob!, ['-T', file])).exitCode).toBe(0);
      expect(await inStorage('home', 'bob', 'b3.txt')).toBe('bob writes now\n');
      // His jail was rebuilt while sshd ran: its log socket came back with it.
      const { report } = await pass(
        state([ftpUser('alice'), ftpUser('bob'), ftpUser('carol', { enabled: false })]),
        undefined,
        true,
      );
      expect(report.features?.monitoring?.events ?? []).toContainEqual(
        expect.objectContaining({
          source: 'sftp',
          kind: 'file_written',
          user: 'bob',
          path: '/home/bob/b3.txt',
        }),
      );
    });

    it('TLS required: a cleartext sign-in is refused, FTPS with the workspace certificate works', async () => {
      const desired = state([ftpUser('alice'), ftpUser('bob'), ftpUser('carol', { enabled: false })]);
      const { result } = await pass({ ...desired, ftp: { ...desired.ftp!, tls_required: true } });
      expect(result.actions.join('\n')).toMatch(/stopped pure-ftpd: its command line changed/);
      const plain = await curl(ftpUrl('/home/'), 'alice', passwords.alice!);
      expect(plain.exitCode).not.toBe(0);
      const tls = await curl(ftpUrl('/home/b3.txt'), 'bob', passwords.bob!, ['--ssl-reqd']);
      expect(tls.exitCode, tls.stderr).toBe(0);
      expect(tls.stdout).toBe('bob writes now\n');
      const certificate = await fromClient('sh', [
        '-c',
        `openssl s_client -starttls ftp -connect ${ADDRESS}:${FTP_PORT} </dev/null 2>/dev/null | openssl x509 -noout -subject`,
      ]);
      expect(certificate.stdout).toContain(`CN = ${ADDRESS}`);
    });
  },
);
