import { describe, expect, it } from 'vitest';
import { SAMBA_SERVER_DEFAULTS, WORKSPACE_ID_FIRST_BASE as B } from '@debesis/contract';
import { validateAccounts } from '../accounts/validate-accounts.ts';
import { desiredShare, desiredUser, desiredWorkspace, perms } from '../testing/desired.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { workspaceRuntimeDir } from '../workspace-paths.ts';
import { smbConf } from '../daemons/config-formats.ts';
import { netbiosNameFor, renderGlobal, renderShare, renderSmbConf } from './render-smb-conf.ts';
import { renderSmbpasswd } from './render-smbpasswd.ts';
import { resolveShares } from './resolve-shares.ts';

const users = ['ann', 'ben', 'cid', 'dot', 'eve'].map((name, i) => desiredUser(name, B + 1 + i));
const groups = [{ name: 'team', gid: B + 50, members: ['dot', 'eve', 'ann'] }];
const accounts = validateAccounts(desiredWorkspace({ service_id: 'w', users, groups }));
const layout = workspaceLayout('/data/workspaces/w').samba;
const global = {
  port: 445,
  netbiosName: 'WSW',
  layout,
  guests: false,
  settings: SAMBA_SERVER_DEFAULTS,
  audit: false,
};

describe('share permissions → smb.conf', () => {
  it('maps read, write, admin, execute and groups to Samba lists', () => {
    const { shares, failures } = resolveShares(
      [
        desiredShare('docs', {
          description: 'Team docs',
          users: [
            { name: 'ann', ...perms(true, false) },
            { name: 'ben', ...perms(true, true) },
            { name: 'cid', ...perms(false, false, false, true) },
            { name: 'eve', ...perms(false, false) },
          ],
          groups: ['team'],
        }),
      ],
      accounts,
      '/srv',
    );
    expect(failures).toEqual([]);
    expect(renderShare(shares[0]!)).toBe(
      [
        '[docs]',
        'comment = Team docs',
        'path = /srv/shares/docs',
        'browseable = yes',
        'guest ok = no',
        // Not on the public address: VPN clients and the node only.
        'hosts allow = 10.8.0.0/24 169.254.0.1',
        'valid users = ann ben cid @team',
        // eve has an entry without access: her group must not let her in.
        'invalid users = eve',
        'read only = yes',
        'read list = ann',
        // dot writes through the group; ann's own read-only entry wins over the group's.
        'write list = ben cid dot',
        'admin users = cid',
        'force group = users',
        'create mask = 0660',
        'directory mask = 2770',
        'acl allow execute always = no',
        '',
      ].join('\n'),
    );
  });

  it('turns execute on only when everyone who gets in has it', () => {
    const resolve = (entries: Parameters<typeof desiredShare>[1]) =>
      resolveShares([desiredShare('x', entries)], accounts, '/srv').shares[0]!;
    expect(resolve({ users: [{ name: 'ann', ...perms(true, true, true) }] }).executeAlways).toBe(true);
    expect(
      resolve({
        users: [
          { name: 'ann', ...perms(true, true, true) },
          { name: 'ben', ...perms(true, false) },
        ],
      }).executeAlways,
    ).toBe(false);
    expect(
      resolve({ users: [{ name: 'ann', ...perms(true, true, true) }], groups: ['team'] }).executeAlways,
    ).toBe(false);
  });

  it('lets guests read a guest share and switches off a share nobody may open', () => {
    const { shares } = resolveShares(
      [
        desiredShare('pub', { guest_ok: true, browseable: false, bind_public_ip: true }),
        desiredShare('empty'),
      ],
      accounts,
      '/srv',
    );
    const [empty, pub] = shares.map(renderShare);
    expect(empty).toContain('available = no');
    expect(empty).not.toContain('valid users');
    expect(pub).toContain('valid users = nobody');
    expect(pub).toContain('guest ok = yes');
    expect(pub).toContain('browseable = no');
    expect(pub).not.toContain('hosts allow');
    expect(renderGlobal({ ...global, guests: true })).toContain('map to guest = bad user');
    expect(renderGlobal(global)).toContain('map to guest = never');
  });

  it('records file operations in the audit log only when smbd has the full_audit module', () => {
    const audited = renderGlobal({ ...global, audit: true });
    expect(audited).toContain(`log level = 1 full_audit:1@${layout.auditLog}`);
    expect(audited).toContain('vfs objects = full_audit');
    expect(audited).toContain('full_audit:success = openat renameat unlinkat mkdirat create_file');
    expect(audited).toContain('full_audit:failure = none');
    expect(renderGlobal(global)).not.toContain('full_audit');
  });

  it('offers Previous Versions of the snapshots only where the storage has them, under the audit module', () => {
    const snapshotsDir = '/data/workspaces/w/snapshots';
    const both = renderGlobal({ ...global, audit: true, snapshotsDir });
    expect(both).toContain('vfs objects = full_audit shadow_copy2');
    expect(both.match(/vfs objects/g)).toHaveLength(1);
    expect(both).toContain(`shadow:snapdir = ${snapshotsDir}`);
    expect(both).toContain('shadow:basedir = /srv');
    expect(both).toContain('shadow:format = @GMT-%Y.%m.%d-%H.%M.%S');
    expect(both).toContain('shadow:localtime = no');
    expect(renderGlobal({ ...global, snapshotsDir })).toContain('vfs objects = shadow_copy2');
    expect(renderGlobal({ ...global, audit: true })).not.toContain('shadow');
  });

  it('reports bad shares and unknown users or groups, and applies the rest', () => {
    const { shares, failures } = resolveShares(
      [
        desiredShare('ok'),
        desiredShare('homes'),
        desiredShare('ok'),
        desiredShare('up', { path: 'a/../b' }),
        desiredShare('partial', { users: [{ name: 'ghost', ...perms(true, true) }], groups: ['nogroup'] }),
      ],
      accounts,
      '/srv',
    );
    expect(shares.map((s) => s.name)).toEqual(['ok', 'partial']);
    expect(failures).toEqual([
      { kind: 'share', name: 'homes', error: '"homes" is reserved' },
      { kind: 'share', name: 'ok', error: 'listed twice' },
      { kind: 'share', name: 'up', error: expect.stringMatching(/path must be/) as string },
      {
        kind: 'share',
        name: 'partial',
        error: 'unknown users left out: ghost; unknown groups left out: nogroup',
      },
    ]);
  });

  it('keeps every workspace path in its own folders and binds only its address', () => {
    const text = renderSmbConf(global, []);
    for (const line of [
      'bind interfaces only = no',
      'smb ports = 445',
      'passdb backend = tdbsam:/data/workspaces/w/samba/private/passdb.tdb',
      'private dir = /data/workspaces/w/samba/private',
      // Sockets live in the workspace's short runtime folder (workspace-layout.test.ts).
      `lock directory = ${workspaceRuntimeDir('w')}/samba/lock`,
      `ncalrpc dir = ${workspaceRuntimeDir('w')}/samba/ncalrpc`,
      'state directory = /data/workspaces/w/samba/state',
      'cache directory = /data/workspaces/w/samba/cache',
      'pid directory = /data/workspaces/w/samba/run',
      'unix extensions = no',
    ])
      expect(text).toContain(`\n${line}\n`);
  });

  it('makes descriptions safe values and names short enough for NetBIOS', () => {
    expect(smbConf.value('a\nb = c %U \\')).toBe('a b = c U');
    expect(netbiosNameFor('0b6f0e0e-1111-4c55')).toBe('WS0B6F0E0E11114');
  });
});

describe('smbpasswd import file', () => {
  it('holds NT hashes of active users and disables inactive ones without a hash', () => {
    const list = validateAccounts(
      desiredWorkspace({
        service_id: 'w',
        users: [
          desiredUser('ann', B + 1, { password: 'secret123' }),
          desiredUser('ben', B + 2, { active: false }),
        ],
      }),
    ).users;
    expect(renderSmbpasswd(list)).toBe(
      `ann:${B + 1}:${'X'.repeat(32)}:469DCB69D4A58A5F29272787713D96F8:[U          ]:LCT-65920080:\n` +
        `ben:${B + 2}:${'X'.repeat(32)}:${'X'.repeat(32)}:[DU         ]:LCT-65920080:\n`,
    );
  });
});
