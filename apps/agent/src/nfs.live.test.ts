// NFS exports of a workspace against the real programs, as root (issue 16): a workspace with a
// read-write and a read-only export gets its own nfs-ganesha inside its network namespace; from a
// client namespace of its own (testing/network.ts) libnfs's nfs-ls / nfs-cp (NFSv4, no kernel
// mount) lists and writes the read-write export, and the file on disk belongs to the export's
// owner; the read-only export refuses the write; a client outside the export's rule is refused;
// ganesha's private D-Bus (started with it) says each export's reads and writes, and the write
// shows in activity; removing an
// export cuts it off after the reload with ganesha's pid unchanged; a disconnected client is
// refused at once on every export, and comes back once its block expires (the next pass). A no-op pass runs no
// program. (The disk limit over NFS, beside SMB, FTP and SFTP: file-access.live.test.ts.) Elsewhere
// it is skipped with the reason.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NfsExportState, WorkspaceDesiredState } from '@debesis/contract';
import { WORKSPACE_ID_FIRST_BASE } from '@debesis/contract';
import { runCommand, type CommandResult } from './exec/run-command.ts';
import { createNfsDriver } from './drivers/nfs.driver.ts';
import { silentLogger } from './logger.ts';
import { ganeshaClients } from './nfs/ganesha-dbus.ts';
import { exportStats, STATS_INTERVAL_MS } from './nfs/observe.ts';
import { networkNames } from './system/netns.ts';
import { forceCleanWorkspace, liveSkipReason, randomTestAddresses, recordedPid } from './testing/live.ts';
import { createLivePass } from './testing/live-pass.ts';
import { desiredUser, desiredWorkspace } from './testing/desired.ts';
import { makeTestClient, removeTestClient, removeTestNetworks, testClient } from './testing/network.ts';
import { workspaceLayout } from './workspace-layout.ts';

const PROGRAMS = ['ganesha.nfsd', 'nfs-ls', 'nfs-cp', 'ip', 'nsenter', 'unshare', 'losetup', 'mkfs.ext4'];
const reason = await liveSkipReason('NFS test', PROGRAMS);

const B = WORKSPACE_ID_FIRST_BASE;
const SERVICE = `nfs-${randomUUID()}`;
const [ADDRESS] = randomTestAddresses(1) as [string];
const third = Number(ADDRESS.split('.')[2]);
const PORT = 2049;
/** The allowed client, and one outside every export's rule. */
const CLIENT = testClient(third);
let OUTSIDER = testClient(third);
while (OUTSIDER.block === CLIENT.block) OUTSIDER = testClient(third);
const STORAGE_BYTES = 32 * 1024 * 1024;

let dataDir: string;
let filesDir: string;
const layout = () => workspaceLayout(join(dataDir, 'workspaces', SERVICE));

const RW: NfsExportState = {
  path: 'projects/rw',
  client: CLIENT.address,
  access: 'read_write',
  owner: 'alice',
};
const RO: NfsExportState = { path: 'archive', client: CLIENT.block, access: 'read_only' };

function state(exports: NfsExportState[], extra: Partial<WorkspaceDesiredState> = {}): WorkspaceDesiredState {
  return desiredWorkspace({
    service_id: SERVICE,
    address: ADDRESS,
    storage_bytes: STORAGE_BYTES,
    id_base: B,
    users: [desiredUser('alice', B + 1)],
    nfs: { port: PORT, exports },
    ...extra,
  });
}

const pass = createLivePass({
  dataDir: () => dataDir,
  address: ADDRESS,
  clientRoutes: [CLIENT.block, OUTSIDER.block],
});

const serverPid = () => recordedPid(layout().nfs.processFile);
const url = (path: string) => `nfs://${ADDRESS}/${path}?version=4&nfsport=${PORT}`;
const said = (result: CommandResult) => `${result.stdout}${result.stderr}`;
/**
 * libnfs's nfs-ls / nfs-cp from a client namespace, bounded. An export ganesha has just added
 * (SIGHUP) may answer NFS4ERR_DELAY for a moment on a busy machine: a kernel client waits and
 * asks again, libnfs's tools give up, so this asks again for up to ten seconds, as a client would.
 */
async function fromClient(
  netns: string,
  program: 'nfs-ls' | 'nfs-cp',
  ...args: string[]
): Promise<CommandResult> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const result = await runCommand('ip', ['netns', 'exec', netns, program, ...args], { timeoutMs: 30_000 });
    if (result.exitCode === 0 || !said(result).includes('NFS4ERR_DELAY') || Date.now() > deadline)
      return result;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.skipIf(reason !== undefined)(
  'live workspace NFS exports (root, real nfs-ganesha, libnfs client)',
  { shuffle: false, timeout: 120_000 },
  () => {
    let pid: number | undefined;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'agent-nfs-'));
      filesDir = await mkdtemp(join(tmpdir(), 'agent-nfs-files-'));
      await writeFile(join(filesDir, 'hello.txt'), 'hello over NFS\n');
      await makeTestClient(CLIENT, [ADDRESS]);
      await makeTestClient(OUTSIDER, [ADDRESS]);
    });

    afterAll(async () => {
      if (!dataDir || process.env.KEEP_LIVE) return;
      if (process.env.NFS_LOG)
        console.warn(await readFile(layout().nfs.logFile, 'utf8').catch((error: Error) => error.message));
      await pass(state([], { state: 'removed' })).catch(() => undefined);
      await forceCleanWorkspace(layout(), [layout().nfs.processFile]);
      await removeTestClient(CLIENT);
      await removeTestClient(OUTSIDER);
      await removeTestNetworks([SERVICE], [ADDRESS]);
      await rm(dataDir, { recursive: true, force: true });
      await rm(filesDir, { recursive: true, force: true });
    });

    it('runs ganesha in the workspace namespace at its address, its folders made', async () => {
      const { report } = await pass(state([RW, RO]));
      expect(report.error).toBeUndefined();
      expect(report).toMatchObject({ ok: true, failures: [] });
      expect(report.drivers.find((d) => d.driver === 'nfs')).toEqual({
        driver: 'nfs',
        live: true,
        serving: true,
        // A serving daemon says since when (the API's uptime and restarts).
        started_at: expect.any(String) as string,
      });
      pid = await serverPid();
      expect(pid).toBeDefined();
      const ns = await runCommand('ip', ['netns', 'identify', String(pid)]);
      expect(ns.stdout.trim()).toBe(networkNames(SERVICE).netns);
      const folder = await stat(join(layout().dataRoot, RW.path));
      expect(folder.gid).toBe(B);
    });

    it('a second pass on the unchanged state runs no program and writes nothing', async () => {
      const ran: string[] = [];
      const started = performance.now();
      const { result } = await pass(
        state([RW, RO]),
        (command, args) => ran.push([command, ...args].join(' ')),
        true,
      );
      console.warn(
        `[agent] NFS no-op pass of one workspace (2 exports) in ${(performance.now() - started).toFixed(1)} ms`,
      );
      expect(result.actions).toEqual([]);
      expect(ran).toEqual([]);
      expect(await serverPid()).toBe(pid);
    });

    it('the allowed client writes and lists the read-write export; the file belongs to its owner', async () => {
      const copied = await fromClient(
        CLIENT.netns,
        'nfs-cp',
        join(filesDir, 'hello.txt'),
        url(`${RW.path}/hello.txt`),
      );
      expect(copied.exitCode, said(copied)).toBe(0);
      const listed = await fromClient(CLIENT.netns, 'nfs-ls', url(RW.path));
      expect(listed.exitCode, said(listed)).toBe(0);
      expect(listed.stdout).toContain('hello.txt');
      const back = join(filesDir, 'back.txt');
      const read = await fromClient(CLIENT.netns, 'nfs-cp', url(`${RW.path}/hello.txt`), back);
      expect(read.exitCode, said(read)).toBe(0);
      const onDisk = await stat(join(layout().dataRoot, RW.path, 'hello.txt'));
      // all_squash: whatever the client is (root here), the file is alice's, group `users`.
      expect({ uid: onDisk.uid, gid: onDisk.gid }).toEqual({ uid: B + 1, gid: B });
    });

    it('the read-only export lists but refuses the write', async () => {
      const listed = await fromClient(CLIENT.netns, 'nfs-ls', url(RO.path));
      expect(listed.exitCode, said(listed)).toBe(0);
      const copied = await fromClient(
        CLIENT.netns,
        'nfs-cp',
        join(filesDir, 'hello.txt'),
        url(`${RO.path}/hello.txt`),
      );
      expect(copied.exitCode).not.toBe(0);
      expect(said(copied)).toMatch(/NFS4ERR_ROFS|NFS4ERR_ACCESS|NFS4ERR_PERM/);
    });

    it('a client outside the rule is refused, even the NFSv4 root', async () => {
      for (const path of [RW.path, RO.path, '']) {
        const listed = await fromClient(OUTSIDER.netns, 'nfs-ls', url(path));
        expect(listed.exitCode, `${path}: ${said(listed)}`).not.toBe(0);
      }
      const copied = await fromClient(
        OUTSIDER.netns,
        'nfs-cp',
        join(filesDir, 'hello.txt'),
        url(`${RW.path}/x.txt`),
      );
      expect(copied.exitCode).not.toBe(0);
    });

    it('the report lists the client the server knows', async () => {
      const { report } = await pass(state([RW, RO]), undefined, true);
      const clients = report.features?.nfs?.clients ?? [];
      expect(clients.map((client) => client.address)).toContain(CLIENT.address);
      expect(clients.every((client) => client.version.startsWith('4'))).toBe(true);
    });

    it("the report says each export's reads and writes, from ganesha's private bus", async () => {
      const { report } = await pass(state([RW, RO]), undefined, true);
      expect(report.features?.nfs?.exports).toBeDefined();
      // The report's read is at most every 10 s: ask past that for what the client did since.
      const exports = await exportStats(layout().nfs.busSocket, Date.now() + STATS_INTERVAL_MS);
      const written = 'hello over NFS\n'.length;
      expect(exports?.find((entry) => entry.path === RW.path)).toMatchObject({
        writes: 1,
        write_bytes: written,
        read_bytes: written,
      });
      expect(exports?.find((entry) => entry.path === RO.path)).toMatchObject({ writes: 0, write_bytes: 0 });
      expect(await ganeshaClients(layout().nfs.busSocket)).toContain(CLIENT.address);
    });

    it("the client's write shows in activity: the export and its bytes, as its counters grew", async () => {
      // The counters are read at most every 10 s: passes until they are, bounded.
      const deadline = Date.now() + 20_000;
      for (;;) {
        const { report } = await pass(state([RW, RO]), undefined, true);
        const events = report.features?.monitoring?.events ?? [];
        const written = events.find((event) => event.source === 'nfs' && event.kind === 'file_written');
        if (written || Date.now() > deadline) {
          expect(written).toMatchObject({ path: RW.path, bytes: 'hello over NFS\n'.length, user: null });
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    });

    it('a disconnected client is refused at once (same ganesha), and comes back once the block expires', async () => {
      // The driver's handler: the definition's, given the driver's render-and-reload.
      const disconnect = createNfsDriver().calls?.['nfs.disconnect'];
      const context = {
        desired: state([RW, RO]),
        layout: layout(),
        dataDir,
        run: runCommand,
        logger: silentLogger,
      };
      const started = Date.now();
      const answer = await disconnect!({ address: CLIENT.address }, context);
      expect(Date.parse(answer.blocked_until) - started).toBeGreaterThan(60_000);
      expect(await serverPid()).toBe(pid);
      for (const path of [RW.path, RO.path, '']) {
        const listed = await fromClient(CLIENT.netns, 'nfs-ls', url(path));
        expect(listed.exitCode, `${path}: ${said(listed)}`).not.toBe(0);
      }
      const copied = await fromClient(
        CLIENT.netns,
        'nfs-cp',
        join(filesDir, 'hello.txt'),
        url(`${RW.path}/again.txt`),
      );
      expect(copied.exitCode).not.toBe(0);
      // A pass of the unchanged state keeps the block.
      await pass(state([RW, RO]), undefined, true);
      expect((await fromClient(CLIENT.netns, 'nfs-ls', url(RW.path))).exitCode).not.toBe(0);

      // Expired (as if 90 s had passed): the next pass renders the exports without it.
      await writeFile(
        layout().nfs.blocked,
        JSON.stringify([{ address: CLIENT.address, until: Date.now() - 1 }]),
      );
      await pass(state([RW, RO]), undefined, true);
      const back = await fromClient(CLIENT.netns, 'nfs-ls', url(RW.path));
      expect(back.exitCode, said(back)).toBe(0);
      expect(await serverPid()).toBe(pid);
    });

    it('removing an export cuts it off after the reload; ganesha keeps its pid and the other export', async () => {
      const { result } = await pass(state([RO]));
      expect(result.actions).toContain(`${SERVICE}: reloaded ganesha.nfsd`);
      expect(await serverPid()).toBe(pid);
      const gone = await fromClient(CLIENT.netns, 'nfs-ls', url(RW.path));
      expect(gone.exitCode).not.toBe(0);
      const kept = await fromClient(CLIENT.netns, 'nfs-ls', url(RO.path));
      expect(kept.exitCode, said(kept)).toBe(0);
    });

    it('50 exports: first apply and a no-op pass (timing)', async () => {
      const many = Array.from({ length: 50 }, (_, i) => ({
        path: `many/e${i}`,
        client: CLIENT.block,
        access: 'read_write' as const,
      }));
      let started = performance.now();
      const first = await pass(state([RO, ...many]));
      const firstMs = performance.now() - started;
      expect(first.report).toMatchObject({ ok: true, failures: [] });
      const ran: string[] = [];
      started = performance.now();
      const again = await pass(
        state([RO, ...many]),
        (command, args) => ran.push([command, ...args].join(' ')),
        true,
      );
      const noopMs = performance.now() - started;
      console.warn(
        `[agent] NFS reconcile with 51 exports: first apply ${firstMs.toFixed(1)} ms, no-op ${noopMs.toFixed(1)} ms`,
      );
      expect(again.result.actions).toEqual([]);
      expect(ran).toEqual([]);
      expect(await serverPid()).toBe(pid);
      const listed = await fromClient(CLIENT.netns, 'nfs-ls', url('many/e49'));
      expect(listed.exitCode, said(listed)).toBe(0);
    });

    it('ganesha killed alone: the next pass starts it with one bus, the one left behind stopped', async () => {
      const before = await serverPid();
      process.kill(before!, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { report } = await pass(state([RO]), undefined, true);
      expect(report).toMatchObject({ ok: true, failures: [] });
      expect(await serverPid()).not.toBe(before);
      const buses = await runCommand('pgrep', ['-f', '--', `--config-file=${layout().nfs.busConfig}`]);
      expect(buses.stdout.trim().split('\n')).toHaveLength(1);
      expect((await exportStats(layout().nfs.busSocket, Date.now() + 2 * STATS_INTERVAL_MS))?.length).toBe(1);
    });

    it('no export left: ganesha stops, and its bus with it (one process group)', async () => {
      const busRuns = async () =>
        (await runCommand('pgrep', ['-f', '--', `--config-file=${layout().nfs.busConfig}`])).stdout.trim() !==
        '';
      expect(await busRuns()).toBe(true);
      await pass(state([]));
      expect(await serverPid()).toBeUndefined();
      expect(await busRuns()).toBe(false);
    });
  },
);
