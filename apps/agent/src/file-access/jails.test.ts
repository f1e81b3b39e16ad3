import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WORKSPACE_ID_FIRST_BASE, type FtpUserState, type WorkspaceDesiredState } from '@debesis/contract';
import type { CommandRunner } from '../exec/run-command.ts';
import { FTP_SETTINGS_DEFAULTS } from '../ftp/render-pureftpd.ts';
import { commandResult } from '../testing/command-result.ts';
import { desiredShare, desiredUser, desiredWorkspace, perms } from '../testing/desired.ts';
import { changedJailUsers, jailFiles, renderJailSpec, resolveFileAccess, syncJails } from './jails.ts';

const B = WORKSPACE_ID_FIRST_BASE;

function workspace(users: FtpUserState[], extra: Partial<WorkspaceDesiredState> = {}): WorkspaceDesiredState {
  return {
    ...desiredWorkspace({
      service_id: 'w',
      users: [
        desiredUser('alice', B + 1),
        desiredUser('bob', B + 2),
        desiredUser('carol', B + 3, { active: false }),
        desiredUser('dave', B + 4),
      ],
      groups: [{ name: 'team', gid: B + 10, members: ['dave'] }],
      samba: {
        shares: [
          desiredShare('projects', {
            users: [
              { name: 'alice', ...perms(true, true) },
              { name: 'bob', ...perms(true, false) },
            ],
          }),
          desiredShare('team', { path: 'shares/team', groups: ['team'] }),
          desiredShare('locked', { users: [{ name: 'alice', ...perms(false, false) }] }),
        ],
        settings: { workgroup: 'WORKGROUP', server_string: 'x', min_protocol: 'SMB2' },
      },
    }),
    ftp: { enabled: true, ...FTP_SETTINGS_DEFAULTS, users },
    ...extra,
  };
}

const user = (name: string, extra: Partial<FtpUserState> = {}): FtpUserState => ({
  name,
  enabled: true,
  permissions: 'read_write',
  ...extra,
});

describe('FTP/SFTP jails', () => {
  it('jails each user in their home and the shares they may use, read-only where they may only read', () => {
    const access = resolveFileAccess(
      workspace([user('alice'), user('bob'), user('dave', { permissions: 'read_only' })]),
    );
    expect(access.failures).toEqual([]);
    expect(access.gid).toBe(B);
    expect(renderJailSpec(access.jails)).toBe(
      [
        `alice ${B + 1} home /srv/home/alice rw`,
        `alice ${B + 1} projects /srv/shares/projects rw`,
        `bob ${B + 2} home /srv/home/bob rw`,
        `bob ${B + 2} projects /srv/shares/projects ro`,
        // dave reaches `team` through his group; read_only makes everything of his read-only.
        `dave ${B + 4} home /srv/home/dave ro`,
        `dave ${B + 4} team /srv/shares/team ro`,
        '',
      ].join('\n'),
    );
  });

  it('leaves out disabled and inactive users; an unknown or doubled user is a failure', () => {
    const access = resolveFileAccess(
      workspace([user('alice', { enabled: false }), user('carol'), user('zed'), user('bob'), user('bob')]),
    );
    expect(access.jails.map((jail) => jail.user.name)).toEqual(['bob']);
    expect(access.failures).toEqual([
      { kind: 'ftp_user', name: 'zed', error: 'not a user of the workspace' },
      { kind: 'ftp_user', name: 'bob', error: 'listed twice' },
    ]);
  });

  it('no FTP section: nobody', () => {
    expect(resolveFileAccess({ ...workspace([]), ftp: undefined }).jails).toEqual([]);
  });

  it('names the users whose mounts changed', () => {
    const before =
      'alice 1 home /srv/home/alice rw\nbob 2 home /srv/home/bob rw\ncarol 3 home /srv/home/carol rw\n';
    const after =
      'alice 1 home /srv/home/alice rw\nbob 2 home /srv/home/bob ro\ndave 4 home /srv/home/dave rw\n';
    expect(changedJailUsers(before, after)).toEqual(['bob', 'carol', 'dave']);
    expect(changedJailUsers(before, before)).toEqual([]);
  });
});

describe('syncJails', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs nothing while the daemon holds the spec; else ends the changed users’ sessions and rebuilds their jails in its namespace', async () => {
    dir = await mkdtemp(join(tmpdir(), 'jails-'));
    const files = jailFiles(dir);
    const ran: string[][] = [];
    const run: CommandRunner = (command, args) => {
      ran.push([command, ...args]);
      return Promise.resolve(commandResult(command, args));
    };
    const ended: string[] = [];
    const endSessions = (users: ReadonlyArray<{ name: string; uid: number }>) => {
      ended.push(...users.map((u) => `${u.name}:${u.uid}`));
      return Promise.resolve(users.length);
    };
    const spec = 'alice 11 home /srv/home/alice rw\nbob 12 home /srv/home/bob rw\n';
    await writeFile(files.spec, spec);
    await writeFile(files.marker, `4242\n${spec}`);
    expect(await syncJails(files, 4242, run, endSessions)).toEqual([]);
    expect(ran).toEqual([]);

    await writeFile(files.spec, 'alice 11 home /srv/home/alice rw\nbob 12 home /srv/home/bob ro\n');
    expect(await syncJails(files, 4242, run, endSessions)).toEqual([
      'rebuilt the jails of bob (ended 1 sessions)',
    ]);
    expect(ended).toEqual(['bob:12']);
    expect(ran).toHaveLength(1);
    expect(ran[0]!.slice(0, 3)).toEqual(['nsenter', '--target=4242', '--mount']);
    expect(ran[0]!.slice(-5)).toEqual(['update', files.spec, files.marker, '4242', 'bob']);

    // Another pid (a new daemon the marker does not know): every user.
    ran.length = 0;
    await syncJails(files, 5151, run, endSessions);
    expect(ran[0]!.slice(-5)).toEqual([files.spec, files.marker, '5151', 'alice', 'bob']);
  });
});
