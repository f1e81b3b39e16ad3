import { describe, expect, it } from 'vitest';
import { NFS_CLIENT_PATTERN, NFS_EXPORT_PATH_PATTERN, WORKSPACE_ID_FIRST_BASE as B } from '@debesis/contract';
import type { NfsExportState } from '@debesis/contract';
import { validateAccounts } from '../accounts/validate-accounts.ts';
import { ganeshaConf } from '../daemons/config-formats.ts';
import { desiredUser, desiredWorkspace } from '../testing/desired.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { connectedAddresses, parseClientRecord, versionFromClientName } from './observe.ts';
import {
  clientRuleProblem,
  exportPathProblem,
  renderExport,
  renderGaneshaCore,
  renderPseudoRoot,
  resolveExports,
} from './render-ganesha-conf.ts';

const desired = desiredWorkspace({
  service_id: 'w',
  id_base: B,
  users: [desiredUser('alice', B + 1), desiredUser('bob', B + 2, { active: false })],
});
const accounts = validateAccounts(desired);
const resolve = (exports: NfsExportState[]) => resolveExports(exports, desired, accounts, '/srv');
const entry = (path: string, extra: Partial<NfsExportState> = {}): NfsExportState => ({
  path,
  client: '192.168.1.0/24',
  access: 'read_write',
  ...extra,
});

describe('NFS export paths', () => {
  it('takes folder names inside the storage only', () => {
    for (const path of ['docs', 'a/b-c/d_e', 'Projects/2026'])
      expect([path, exportPathProblem(path)]).toEqual([path, undefined]);
    for (const path of [
      '',
      '..',
      'a/../b',
      '/etc',
      'a//b',
      'a/',
      './a',
      'a b',
      'a"b',
      'a\nb',
      'x'.repeat(65),
    ])
      expect([path, exportPathProblem(path)]).toEqual([path, expect.any(String)]);
  });

  it('agrees with the contract on what a path is', () => {
    for (const path of ['docs', 'a/b', '../x', '/x', 'a/./b', 'é'])
      expect(exportPathProblem(path) === undefined).toBe(NFS_EXPORT_PATH_PATTERN.test(path));
  });

  it('an export is a folder under the storage and its NFSv4 path', () => {
    const { exports, failures } = resolve([entry('projects/x')]);
    expect(failures).toEqual([]);
    expect(exports[0]).toMatchObject({ fullPath: '/srv/projects/x', pseudo: '/projects/x' });
  });
});

describe('NFS client rules', () => {
  it('takes an address, a network or a hostname', () => {
    for (const client of [
      '10.0.0.5',
      '192.168.1.0/24',
      '0.0.0.0/0',
      '10.1.2.3/32',
      'laptop',
      'nas-1.example.com',
    ])
      expect([client, clientRuleProblem(client)]).toEqual([client, undefined]);
  });

  it('refuses wildcards, netgroups, list separators, bad numbers and host bits', () => {
    for (const client of [
      '*',
      '*.example.com',
      'host?',
      '@admins',
      '10.0.0.1,10.0.0.2',
      '10.0.0.1 10.0.0.2',
      '10.0.0.256',
      '10.0.0.1/33',
      '10.0.0.1/24',
      '010.0.0.1',
      '10.0.0',
      '1.2.3.4.5',
      '-host',
      'host-',
      'a..b',
      'host;Access_Type=RW',
      'h"}',
      '',
    ])
      expect([client, clientRuleProblem(client)]).toEqual([client, expect.any(String)]);
  });

  it('the contract refuses what ganesha would read as a wildcard or netgroup too', () => {
    for (const client of ['*', '@admins', 'a,b', 'a b', 'h"'])
      expect([client, NFS_CLIENT_PATTERN.test(client)]).toEqual([client, false]);
  });
});

describe('NFS exports → ganesha config', () => {
  it('squashes every client to the owner (or the block’s own id), group `users`', () => {
    const { exports, failures } = resolve([
      entry('a', { owner: 'alice', access: 'read_only', client: '10.0.0.7' }),
      entry('b'),
    ]);
    expect(failures).toEqual([]);
    const [a, b] = exports;
    expect(a).toMatchObject({ anonymousUid: B + 1, anonymousGid: B, access: 'RO', client: '10.0.0.7' });
    expect(b).toMatchObject({ anonymousUid: B, anonymousGid: B, access: 'RW' });
    const text = renderExport(a!);
    expect(text).toContain('Squash = all_squash;');
    expect(text).toContain(`Anonymous_Uid = ${B + 1};`);
    expect(text).toContain(`Anonymous_Gid = ${B};`);
    expect(text).toContain('Path = "/srv/a";');
    expect(text).toContain('Pseudo = "/a";');
    expect(text).toMatch(/CLIENT \{\n {4}Clients = 10\.0\.0\.7;\n {4}Protocols = 4;\n {4}Access_Type = RO;/);
    // Outside the CLIENT block: nobody.
    expect(text.split('CLIENT')[0]).toContain('Access_Type = None;');
  });

  it('leaves out bad exports as failures, the rest applied', () => {
    const { exports, failures } = resolve([
      entry('ok'),
      entry('ok', { client: '10.0.0.1' }),
      entry('../etc'),
      entry('x', { client: '*' }),
      entry('y', { owner: 'nobody-here' }),
      entry('z', { owner: 'bob' }),
      entry('w', { access: 'everything' as never }),
    ]);
    expect(exports.map((e) => e.path)).toEqual(['ok']);
    expect(failures.map((f) => [f.kind, f.name])).toEqual([
      ['nfs_export', '../etc'],
      ['nfs_export', 'ok'],
      ['nfs_export', 'w'],
      ['nfs_export', 'x'],
      ['nfs_export', 'y'],
      ['nfs_export', 'z'],
    ]);
    expect(failures.find((f) => f.name === 'ok')?.error).toBe('exported twice');
    expect(failures.find((f) => f.name === 'z')?.error).toContain('deactivated');
  });

  it('gives each export a stable id of its own, whatever the others', () => {
    const paths = Array.from({ length: 300 }, (_, i) => `e${i}`);
    const all = resolve(paths.map((path) => entry(path))).exports;
    const ids = all.map((e) => e.exportId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => id >= 1 && id <= 65535)).toBe(true);
    const alone = resolve([entry('e7')]).exports[0]!.exportId;
    expect(all.find((e) => e.path === 'e7')!.exportId).toBe(alone);
  });

  it('the server part: NFSv4 over TCP at the workspace address, its own recovery folder', () => {
    const layout = workspaceLayout('/data/workspaces/w').nfs;
    const text = renderGaneshaCore({ address: '198.18.0.9', port: 2049, layout });
    expect(text).toContain('Protocols = 4;');
    expect(text).toContain('Bind_addr = 198.18.0.9;');
    expect(text).toContain('NFS_Port = 2049;');
    expect(text).toContain('Enable_UDP = false;');
    expect(text).toContain(`RecoveryRoot = "${layout.recoveryDir}";`);
    expect(text).toContain(`%include "${layout.exportsConf}"`);
    expect(() => renderGaneshaCore({ address: '198.18.0.9; x', port: 2049, layout })).toThrow();
    expect(() => renderGaneshaCore({ address: '198.18.0.9', port: 70000, layout })).toThrow();
  });

  it('the NFSv4 root lets in the exports’ clients only, read only', () => {
    const { exports } = resolve([entry('a', { client: '10.0.0.7' }), entry('b'), entry('c')]);
    const text = renderPseudoRoot(exports);
    expect(text).toContain('Clients = 10.0.0.7, 192.168.1.0/24;');
    expect(text).toContain('Name = PSEUDO;');
    expect(renderPseudoRoot([])).not.toContain('CLIENT');
  });

  it('a disconnected client is refused before each export’s allowed block, and at the root', () => {
    const { exports } = resolve([entry('a', { client: '10.0.0.0/24' })]);
    const refuse =
      /CLIENT \{\n {4}Clients = 10\.0\.0\.5, 10\.0\.0\.9;\n {4}Access_Type = None;\n {2}\}\n {2}CLIENT \{\n {4}Clients = 10\.0\.0\.0\/24;/;
    expect(renderExport(exports[0]!, ['10.0.0.5', '10.0.0.9'])).toMatch(refuse);
    expect(renderPseudoRoot(exports, ['10.0.0.5', '10.0.0.9'])).toMatch(refuse);
    expect(renderExport(exports[0]!)).not.toContain('Access_Type = None;\n  }');
    expect(() => renderExport(exports[0]!, ['10.0.0.5; Access_Type = RW'])).toThrow();
  });

  it('a value that could end ganesha’s string or list is refused, never written', () => {
    for (const value of ['a"b', 'a\\b', 'a\nb', ''])
      expect(() => ganeshaConf.string(value)).toThrow(/cannot be a ganesha.conf value/);
    for (const value of ['a,b', 'a;b', 'a}b', 'a b', '"a"', ''])
      expect(() => ganeshaConf.token(value)).toThrow(/cannot be a ganesha.conf token/);
    expect(ganeshaConf.string('/srv/a b')).toBe('"/srv/a b"');
  });
});

describe('NFS clients from the server’s records', () => {
  it('reads ganesha’s client record names', () => {
    expect(parseClientRecord('::ffff:10.250.0.2-(27:Libnfs pid:15625 1795467059)')).toEqual({
      address: '10.250.0.2',
      clientName: 'Libnfs pid:15625 1795467059',
    });
    expect(parseClientRecord('lost+found')).toBeUndefined();
    expect(versionFromClientName('Linux NFSv4.2 laptop')).toBe('4.2');
    expect(versionFromClientName('Libnfs pid:1 2')).toBe('4');
  });

  it('finds established connections to the port in /proc/net/tcp6 and tcp', () => {
    const tcp6 = [
      '  sl  local_address                         remote_address                        st',
      // 10.250.0.1:2049 <- 10.250.0.2:700, established
      '   0: 0000000000000000FFFF00000100FA0A:0801 0000000000000000FFFF00000200FA0A:02BC 01 0',
      // listening socket
      '   1: 0000000000000000FFFF00000100FA0A:0801 00000000000000000000000000000000:0000 0A 0',
      // established on another port
      '   2: 0000000000000000FFFF00000100FA0A:0016 0000000000000000FFFF00000300FA0A:02BC 01 0',
    ].join('\n');
    expect([...connectedAddresses(tcp6, 2049)]).toEqual(['10.250.0.2']);
    const tcp = ['  sl  local_address rem_address   st', '   0: 0100FA0A:0801 0400FA0A:03E8 01 0'].join('\n');
    expect([...connectedAddresses(tcp, 2049)]).toEqual(['10.250.0.4']);
  });
});
