// The generic supervision against a real, small daemon (a node process listening on a port),
// without root: the host check is stood in for and the spawner runs the daemon's own command line
// instead of the namespace wrapper, so its pid has exactly the recorded command line, as smbd's
// has inside its namespace (the live test covers that part).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandRunner } from '../exec/run-command.ts';
import { commandResult } from '../testing/command-result.ts';
import { spawnDaemon, type DaemonSpawner } from '../exec/spawn-daemon.ts';
import type { DriverContext } from '../drivers/driver.ts';
import { silentLogger } from '../logger.ts';
import { processArgv, stopProcessGroup } from '../system/processes.ts';
import { desiredShare, desiredWorkspace } from '../testing/desired.ts';
import { exists } from '../system/host.ts';
import { daemonDriver } from './daemon-driver.ts';
import type { DaemonDefinition } from './definition.ts';
import { daemonFiles } from './supervisor.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { SAMBA_NOT_USED } from '@debesis/contract';

let dataDir: string;
let port: number;
let ran: string[][];
let spawned: number[];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'daemon-driver-'));
  await mkdir(join(dataDir, 'workspaces', 'w'), { recursive: true });
  port = await freePort();
  ran = [];
  spawned = [];
});
afterEach(async () => {
  for (const pid of spawned) if (await processArgv(pid)) await stopProcessGroup(pid, 1000);
  await rm(dataDir, { recursive: true, force: true });
});

const run: CommandRunner = (command, args) => {
  ran.push([command, ...args]);
  return Promise.resolve(commandResult(command, args));
};

const context = (extra: Partial<DriverContext> = {}): DriverContext => ({
  dataDir,
  workspaceDir: join(dataDir, 'workspaces', 'w'),
  logger: silentLogger,
  run,
  ...extra,
});

// A feature whose "shares" come from the desired state's shares; the daemon listens on `port`.
function fakeDefinition(): DaemonDefinition {
  const script = `require('net').createServer().listen(Number(process.argv[1]), '127.0.0.1')`;
  return {
    name: 'fake',
    daemon: 'faked',
    programs: [],
    notNeeded: (desired) =>
      (desired.samba ?? SAMBA_NOT_USED).shares.length === 0 ? 'nothing to serve' : undefined,
    resources: (desired) =>
      (desired.samba ?? SAMBA_NOT_USED).shares.map((s) => ({ kind: 'share', name: s.name })),
    render: (desired, { dir }) =>
      Promise.all([mkdir(dir, { recursive: true })]).then(() => ({
        files: [
          {
            path: join(dir, 'fake.conf'),
            mode: 0o644,
            head: `# ${(desired.samba ?? SAMBA_NOT_USED).settings.workgroup}\n`,
            resources: (desired.samba ?? SAMBA_NOT_USED).shares.map((s) => ({
              kind: 'share',
              name: s.name,
              text: `${s.name}\n`,
            })),
          },
          // A file the daemon re-reads by itself (as openvpn its users file): no reload for it.
          {
            path: join(dir, 'reread.list'),
            mode: 0o600,
            head: `${(desired.samba ?? SAMBA_NOT_USED).settings.server_string}\n`,
            rereadByDaemon: true,
          },
        ],
        failures: [],
        actions: [],
      })),
    argv: () => [process.execPath, '-e', script, String(port)],
    listens: () => ({ host: '127.0.0.1', port }),
    drift: async (_desired, { dir }) => ((await exists(join(dir, 'due'))) ? 'something is due' : undefined),
    reload: ({ dir }) => ({ kind: 'command', argv: ['fake-reload', join(dir, 'fake.conf')] }),
  };
}

// The daemon's own argv is the tail of the namespace wrapper's arguments.
const spawn: DaemonSpawner = async (_command, args, options) => {
  const argv = args.slice(-4);
  const daemon = await spawnDaemon(argv[0]!, argv.slice(1), options);
  spawned.push(daemon.pid);
  return daemon;
};

const driver = () => daemonDriver(fakeDefinition(), { spawn, whyNotLive: () => Promise.resolve(undefined) });
const share = (name: string) => desiredShare(name);
const state = (shares = [share('docs')], extra = {}) =>
  desiredWorkspace({
    service_id: 'w',
    samba: { shares, settings: { workgroup: 'WG', server_string: 's', min_protocol: 'SMB2' } },
    ...extra,
  });
const recordedPid = async () =>
  (
    JSON.parse(await readFile(daemonFiles(join(dataDir, 'workspaces/w/fake'), 'faked').record, 'utf8')) as {
      pid: number;
    }
  ).pid;

describe('the generic daemon driver and supervisor', () => {
  it('starts nothing for a workspace that does not need the daemon, and says so', async () => {
    const result = await driver().apply(state([]), context());
    expect(result).toMatchObject({
      changed: false,
      status: { driver: 'fake', live: true, reason: 'not needed: nothing to serve' },
      facts: { started_at: null },
    });
    expect(spawned).toEqual([]);
    expect(await driver().observe!(state([]), context())).toEqual({ facts: { started_at: null } });
  });

  it('starts it, adopts it on the next pass (a fresh driver, as after an agent restart), starts it again when it died', async () => {
    const first = await driver().apply(state(), context());
    expect(first.status).toEqual({
      driver: 'fake',
      live: true,
      serving: true,
      started_at: expect.any(String) as string,
    });
    expect(first.actions).toContain(`started faked (pid ${spawned[0]}) on 127.0.0.1:${port}`);
    expect(await recordedPid()).toBe(spawned[0]);

    const again = await driver().apply(state(), context());
    expect(again).toMatchObject({ changed: false, actions: [] });
    expect(spawned).toHaveLength(1);
    expect(await driver().observe!(state(), context())).toMatchObject({ serving: true });

    await stopProcessGroup(spawned[0]!, 1000);
    expect(await driver().observe!(state(), context())).toEqual({
      drift: 'faked is not running',
      serving: false,
      facts: { started_at: null },
    });
    const restarted = await driver().apply(state(), context());
    expect(restarted.actions).toContain(`started faked (pid ${spawned[1]}) on 127.0.0.1:${port}`);
  });

  it('does not take a live pid running another command line for its daemon', async () => {
    const files = daemonFiles(join(dataDir, 'workspaces/w/fake'), 'faked');
    await mkdir(join(files.record, '..'), { recursive: true });
    // This test's own process: alive, but not the daemon.
    await writeFile(
      files.record,
      JSON.stringify({
        pid: process.pid,
        started_at: 'x',
        argv: fakeDefinition().argv(state(), {} as never),
      }),
    );
    const result = await driver().apply(state(), context());
    expect(result.actions).toContain(`started faked (pid ${spawned[0]}) on 127.0.0.1:${port}`);
  });

  it('reloads only when a config file changed, restarts once for the owner’s restart, stops when stopped', async () => {
    await driver().apply(state(), context());
    const pid = spawned[0];
    ran = [];
    const changed = await driver().apply(state([share('docs'), share('more')]), context());
    expect(changed.actions).toEqual([
      `wrote ${join(dataDir, 'workspaces/w/fake/fake.conf')}`,
      'reloaded faked',
    ]);
    expect(ran).toEqual([['fake-reload', join(dataDir, 'workspaces/w/fake/fake.conf')]]);
    expect(await recordedPid()).toBe(pid);

    const restarted = await driver().apply(state([share('docs'), share('more')]), context({ restart: true }));
    expect(restarted.actions[0]).toBe('stopped faked for the restart the owner asked for');
    expect(await processArgv(pid!)).toBeUndefined();
    expect(await recordedPid()).toBe(spawned[1]);

    const stopped = await driver().apply(
      state([share('docs'), share('more')], { state: 'stopped' }),
      context(),
    );
    expect(stopped).toMatchObject({ actions: ['stopped faked'], status: { driver: 'fake', live: true } });
    expect(await processArgv(spawned[1]!)).toBeUndefined();
  });

  it('gives a definition’s node call a refresh: the render written and the running daemon reloaded, nothing started', async () => {
    // The call changes what the render reads (as NFS's disconnect its blocked list) and refreshes.
    let workgroup = 'WG';
    let refreshed: string[] = [];
    const base = fakeDefinition();
    const definition: DaemonDefinition = {
      ...base,
      render: (desired, daemonContext) =>
        base.render(
          { ...desired, samba: { ...desired.samba!, settings: { ...desired.samba!.settings, workgroup } } },
          daemonContext,
        ),
      calls: {
        'vpn.kill_all': async (_payload, callContext) => {
          workgroup = 'CHANGED';
          refreshed = await callContext.refresh();
          return { disconnected: 0 };
        },
      },
    };
    const withCall = () =>
      daemonDriver(definition, { spawn, whyNotLive: () => Promise.resolve(undefined) }).calls?.[
        'vpn.kill_all'
      ];
    const callContext = (desired: ReturnType<typeof state>) => ({
      desired,
      layout: workspaceLayout(join(dataDir, 'workspaces', 'w')),
      dataDir,
      run,
      logger: silentLogger,
    });

    // Not running yet: the files are written, nothing starts (the pass will).
    await withCall()!({}, callContext(state()));
    expect(refreshed).toEqual([
      `wrote ${join(dataDir, 'workspaces/w/fake/fake.conf')}`,
      `wrote ${join(dataDir, 'workspaces/w/fake/reread.list')}`,
    ]);
    expect(spawned).toEqual([]);

    workgroup = 'WG';
    await daemonDriver(definition, { spawn, whyNotLive: () => Promise.resolve(undefined) }).apply(
      state(),
      context(),
    );
    const pid = spawned[0];
    ran = [];
    await withCall()!({}, callContext(state()));
    expect(refreshed).toEqual([`wrote ${join(dataDir, 'workspaces/w/fake/fake.conf')}`, 'reloaded faked']);
    expect(await readFile(join(dataDir, 'workspaces/w/fake/fake.conf'), 'utf8')).toContain('# CHANGED');
    expect(ran).toEqual([['fake-reload', join(dataDir, 'workspaces/w/fake/fake.conf')]]);
    expect(await recordedPid()).toBe(pid);
    expect(spawned).toEqual([pid]);
  });

  it('writes a file the daemon re-reads by itself without a reload; a definition’s drift asks for an apply', async () => {
    await driver().apply(state(), context());
    const pid = spawned[0];
    ran = [];
    const changed = await driver().apply(
      state([share('docs')], {
        samba: {
          shares: [share('docs')],
          settings: { workgroup: 'WG', server_string: 'new', min_protocol: 'SMB2' },
        },
      }),
      context(),
    );
    expect(changed.actions).toEqual([`wrote ${join(dataDir, 'workspaces/w/fake/reread.list')}`]);
    expect(ran).toEqual([]);
    expect(await recordedPid()).toBe(pid);

    expect(await driver().observe!(state(), context())).toMatchObject({ serving: true });
    expect((await driver().observe!(state(), context())).drift).toBeUndefined();
    await writeFile(join(dataDir, 'workspaces/w/fake/due'), '');
    expect(await driver().observe!(state(), context())).toMatchObject({
      drift: 'something is due',
      serving: true,
    });
  });

  it('stops the daemon when quiesced, when its last share goes, and when the workspace is removed', async () => {
    await driver().apply(state(), context());
    await driver().quiesce!(state(), context());
    expect(await processArgv(spawned[0]!)).toBeUndefined();

    await driver().apply(state(), context());
    expect(await driver().observe!(state([]), context())).toEqual({ drift: 'faked runs but is not needed' });
    const gone = await driver().apply(state([]), context());
    expect(gone.actions).toEqual(['stopped faked']);
    expect(await processArgv(spawned[1]!)).toBeUndefined();

    await driver().apply(state(), context());
    const removed = await driver().apply(state(undefined, { state: 'removed' }), context());
    expect(removed.actions).toEqual(['stopped faked']);
    expect(await processArgv(spawned[2]!)).toBeUndefined();
  });

  it('a removed workspace runs the definition’s remove once its daemon stopped, and never its tidy', async () => {
    const calls: string[] = [];
    const definition: DaemonDefinition = {
      ...fakeDefinition(),
      tidy: () => Promise.resolve(['tidied']),
      remove: async (_desired, { dir }) => {
        calls.push(`remove: daemon ${(await processArgv(spawned.at(-1)!)) ? 'runs' : 'stopped'} (${dir})`);
        return ['undone'];
      },
    };
    const withRemove = () =>
      daemonDriver(definition, { spawn, whyNotLive: () => Promise.resolve(undefined) });
    expect((await withRemove().apply(state(), context())).actions).not.toContain('undone');
    const removed = await withRemove().apply(state(undefined, { state: 'removed' }), context());
    expect(removed.actions).toEqual(['stopped faked', 'undone']);
    expect(calls).toEqual([`remove: daemon stopped (${join(dataDir, 'workspaces/w/fake')})`]);
  });
});
