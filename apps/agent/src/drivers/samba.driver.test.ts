import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SAMBA_SERVER_DEFAULTS,
  WORKSPACE_ID_FIRST_BASE as B,
  type WorkspaceDesiredState,
} from '@debesis/contract';
import type { NodeReportRequest } from '@debesis/contract';
import type { CommandRunner } from '../exec/run-command.ts';
import { commandResult } from '../testing/command-result.ts';
import { spawnDaemon } from '../exec/spawn-daemon.ts';
import { createReconcileMemory, reconcileOnce } from '../reconcile.ts';
import { silentLogger } from '../logger.ts';
import { desiredShare, desiredUser, desiredWorkspace, perms } from '../testing/desired.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { createAccountsDriver } from './accounts.driver.ts';
import type { DriverContext } from './driver.ts';
import { createDefaultDrivers } from './registry.ts';
import { createSambaDriver, SAMBA_DRIVER } from './samba.driver.ts';
import { PASSDB_SYNC_SCRIPT } from '../samba/passdb.ts';

let dir: string;
let calls: string[][];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-samba-'));
  await mkdir(join(dir, 'workspaces', 'w', 'data'), { recursive: true });
  calls = [];
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// testparm that refuses any config holding a share named "broken", as it would a bad parameter;
// the passdb sync lists what it imported, as pdbedit -L -w would after a whole import.
const fakeRun: CommandRunner = async (command, args) => {
  calls.push([command, ...args]);
  const refuses = command === 'testparm' && (await readFile(args.at(-1)!, 'utf8')).includes('[broken]');
  const pending = args[args.indexOf(PASSDB_SYNC_SCRIPT) + 3];
  return commandResult(command, args, {
    exitCode: refuses ? 1 : 0,
    stdout: args.includes(PASSDB_SYNC_SCRIPT) && pending ? await readFile(pending, 'utf8') : '',
    stderr: refuses ? 'Unknown parameter encountered: "bogus"\n' : '',
  });
};

const context = (): DriverContext => ({
  dataDir: dir,
  workspaceDir: join(dir, 'workspaces', 'w'),
  logger: silentLogger,
  run: fakeRun,
});

const state = (
  shares = [desiredShare('docs', { users: [{ name: 'ann', ...perms(true, true) }] })],
): WorkspaceDesiredState =>
  desiredWorkspace({
    service_id: 'w',
    users: [desiredUser('ann', B + 1)],
    samba: { shares, settings: SAMBA_SERVER_DEFAULTS },
  });

// Render-only (live: false): what is checked here is rendering, checking and idempotence; the
// live test runs the real smbd.
const samba = createSambaDriver({ live: false });
const accounts = createAccountsDriver({ live: false });

describe('samba driver (render only, fake testparm)', () => {
  it('writes and checks smb.conf once; a second run writes nothing and runs nothing', async () => {
    const first = await samba.apply(state(), context());
    expect(first.changed).toBe(true);
    expect(first.status).toEqual({
      driver: 'samba',
      live: false,
      reason:
        'live workspaces are switched off (AGENT_LIVE_WORKSPACES=off): smb.conf is rendered, smbd does not run',
    });
    expect(calls.map((c) => c[0])).toEqual(['testparm']);
    const conf = workspaceLayout(context().workspaceDir).samba.conf;
    expect(await readFile(conf, 'utf8')).toContain('[docs]');
    const written = (await stat(conf)).mtimeMs;
    expect((await stat(join(dir, 'workspaces/w/data/shares/docs'))).isDirectory()).toBe(true);

    calls = [];
    const second = await samba.apply(state(), context());
    expect(second).toMatchObject({ changed: false, actions: [], failures: [] });
    expect(calls).toEqual([]);
    expect((await stat(conf)).mtimeMs).toBe(written);
  });

  it('leaves out a share testparm refuses, reports it, and applies the others', async () => {
    const result = await samba.apply(state([desiredShare('fine'), desiredShare('broken')]), context());
    expect(result.failures).toEqual([
      { kind: 'share', name: 'broken', error: 'testparm: Unknown parameter encountered: "bogus"' },
    ]);
    const conf = await readFile(workspaceLayout(context().workspaceDir).samba.conf, 'utf8');
    expect(conf).toContain('[fine]');
    expect(conf).not.toContain('[broken]');
  });

  it('refuses a share whose folder is a symlink, without following it', async () => {
    const { symlink } = await import('node:fs/promises');
    await mkdir(join(dir, 'outside'));
    await mkdir(join(dir, 'workspaces/w/data/shares'));
    await symlink(join(dir, 'outside'), join(dir, 'workspaces/w/data/shares/evil'));
    const result = await samba.apply(state([desiredShare('evil'), desiredShare('fine')]), context());
    expect(result.failures).toEqual([
      { kind: 'share', name: 'evil', error: expect.stringMatching(/symlink/) as string },
    ]);
  });
});

describe('samba driver: a workspace without shares', () => {
  it('needs no smbd: nothing is rendered or started, and the status says it is not needed', async () => {
    const result = await samba.apply(state([]), context());
    expect(result).toMatchObject({
      changed: false,
      actions: [],
      status: {
        driver: 'samba',
        live: false,
        reason:
          'live workspaces are switched off (AGENT_LIVE_WORKSPACES=off); not needed: the workspace has no shares',
      },
    });
    expect(calls).toEqual([]);
  });
});

describe('acceptance 3, with fakes: the Samba definition fails (bad program path)', () => {
  it('the users and storage of the workspace are still applied, and the failure is reported with its reason', async () => {
    const address = '127.0.10.9';
    // Render-only base drivers; Samba "live", with an smbd path that does not exist. The spawner
    // runs smbd's own argv (the namespace needs root), so the bad path fails as it would inside.
    const drivers = createDefaultDrivers({ live: false, addressPool: [address] }).map((driver) =>
      driver.name !== SAMBA_DRIVER
        ? driver
        : createSambaDriver({
            program: '/nonexistent/sbin/smbd',
            whyNotLive: () => Promise.resolve(undefined),
            spawn: (_command, args, options) => {
              const argv = args.slice(-5);
              return spawnDaemon(argv[0]!, argv.slice(1), options);
            },
          }),
    );
    const reports: NodeReportRequest[] = [];
    await reconcileOnce(
      {
        api: {
          desiredState: () =>
            Promise.resolve({ node_id: crypto.randomUUID(), workspaces: [{ ...state(), address }] }),
          report: (_token, body) => {
            reports.push(body);
            return Promise.resolve();
          },
        },
        nodeToken: 'token',
        dataDir: dir,
        addresses: [address],
        agentVersion: 'test',
        drivers,
        logger: silentLogger,
        run: fakeRun,
        fullCheckEvery: 1,
      },
      createReconcileMemory(),
    );
    const report = reports[0]!.workspaces[0]!;
    expect(report).toMatchObject({
      ok: false,
      observed_generation: 1,
      error_code: 'driver_failed',
      error_params: { driver: 'samba' },
      failures: [
        { kind: 'share', name: 'docs', error: expect.stringContaining('not served: samba:') as string },
      ],
    });
    expect(report.error).toMatch(/^samba: spawn \/nonexistent\/sbin\/smbd ENOENT/);
    expect(report.drivers.map((d) => [d.driver, d.live])).toEqual([
      ['workspace-dir', true],
      ['storage', false],
      ['network', false],
      ['users', false],
      ['samba', false],
      ['vpn', false],
      ['nfs', false],
      ['ftp', false],
      ['sftp', false],
      ['ldap', false],
      ['backup', false],
      ['backup-clients', false],
    ]);
    expect(report.drivers.find((d) => d.driver === 'samba')).toEqual({
      driver: 'samba',
      live: false,
      reason: 'spawn /nonexistent/sbin/smbd ENOENT',
      serving: false,
    });
    // Users and storage stand: the accounts are written, ann's home is in the storage.
    const layout = workspaceLayout(context().workspaceDir);
    expect(await readFile(layout.passwd, 'utf8')).toContain(`ann:x:${B + 1}:`);
    expect((await stat(join(layout.homesRoot, 'ann'))).isDirectory()).toBe(true);
  });
});

describe('users driver (render only)', () => {
  it('writes passwd, group, shadow and homes once; a second run changes nothing', async () => {
    const first = await accounts.apply(state(), context());
    expect(first.changed).toBe(true);
    const layout = workspaceLayout(context().workspaceDir);
    expect(await readFile(layout.passwd, 'utf8')).toContain(`ann:x:${B + 1}:${B}::/srv/home/ann:`);
    expect((await stat(layout.shadow)).mode & 0o777).toBe(0o600);
    expect((await stat(join(layout.homesRoot, 'ann'))).mode & 0o777).toBe(0o700);
    const second = await accounts.apply(state(), context());
    expect(second).toMatchObject({ changed: false, actions: [], failures: [] });
  });
});
