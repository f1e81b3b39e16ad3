// Backups of a live workspace with the real restic, as root (issue 18): a workspace on its disk
// image with files; a full backup, then an incremental one, each run in the background by the
// agent's job runner and seen in the report (restic's own `snapshots` agrees); browsing the root,
// a folder and a folder of 10,000 entries through the node call; a deleted file and a changed one
// restored over the original (same bytes, owner and mode), a folder and a file restored beside
// it; retention forgetting the right snapshots; a repository deleted by hand failing the next job
// `repository_missing` and the one after making a new one; a symlink out of the storage as a
// restore's destination writing nothing outside; a missing folder (`path_missing`) and a full
// storage (`no_space`); the repository deleted with the workspace. Elsewhere it is skipped with
// the reason.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  chmod,
  chown,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  statfs,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WORKSPACE_ID_FIRST_BASE,
  type BackupJobReport,
  type BackupNodeJob,
  type BackupReport,
  type NodeCallResultRequest,
  type WorkspaceDesiredState,
  type WorkspaceReport,
} from '@debesis/contract';
import { repositoryPaths } from './backup/repository.ts';
import { resticEnvironment } from './backup/restic.ts';
import { parseSnapshots } from './backup/restic-json.ts';
import { snapshotIndexDir, snapshotIndexFile } from './backup/snapshot-index.ts';
import { createDefaultDrivers } from './drivers/registry.ts';
import { runCommand } from './exec/run-command.ts';
import { silentLogger } from './logger.ts';
import { createReconcileMemory } from './reconcile.ts';
import { browseSnapshot } from './testing/browse-call.ts';
import { desiredUser, desiredWorkspace } from './testing/desired.ts';
import { reconcileWorkspaceOnce } from './testing/live-pass.ts';
import { forceCleanWorkspace, liveSkipReason, randomTestAddresses } from './testing/live.ts';
import { removeTestNetworks } from './testing/network.ts';
import { workspaceLayout } from './workspace-layout.ts';

const PROGRAMS = ['restic', 'losetup', 'mkfs.ext4', 'ip', 'nsenter', 'unshare'];
const reason = await liveSkipReason('backup test', PROGRAMS);

const B = WORKSPACE_ID_FIRST_BASE;
const ALICE = B + 1;
const SERVICE = `backup-${randomUUID()}`;
const [ADDRESS] = randomTestAddresses(1) as [string];

let dataDir: string;
let outside: string;
const layout = () => workspaceLayout(join(dataDir, 'workspaces', SERVICE));
const storage = (path: string) => join(layout().dataRoot, path);
const paths = () => repositoryPaths(dataDir, SERVICE);

// One agent: its drivers (and so its job runner) and memory last the whole file.
const drivers = createDefaultDrivers({ live: true, addressPool: [ADDRESS], clientRoutes: [] });
const memory = createReconcileMemory();
let generation = 0;

function state(jobs: BackupNodeJob[], extra: Partial<WorkspaceDesiredState> = {}): WorkspaceDesiredState {
  return desiredWorkspace({
    service_id: SERVICE,
    address: ADDRESS,
    storage_bytes: 96 * 1024 * 1024,
    id_base: B,
    users: [desiredUser('alice', ALICE)],
    backup: { jobs, clients: [], client_repositories: [] },
    ...extra,
  });
}

async function pass(desired: WorkspaceDesiredState): Promise<WorkspaceReport> {
  generation += 1;
  return (
    await reconcileWorkspaceOnce({ ...desired, generation }, { dataDir, address: ADDRESS, drivers, memory })
  ).report;
}

const section = (report: WorkspaceReport): BackupReport => {
  const backup = report.features?.backup;
  if (!backup) throw new Error(`no backup section: ${JSON.stringify(report)}`);
  return backup;
};

/** Lists `jobs` until the last of them has ended (passes as the API would poll), bounded. */
async function runJobs(
  ...jobs: BackupNodeJob[]
): Promise<{ jobs: BackupJobReport[]; report: BackupReport; ms: number }> {
  const started = performance.now();
  const deadline = Date.now() + 60_000;
  for (;;) {
    const report = section(await pass(state(jobs)));
    const done = jobs.map((job) => report.jobs.find((reported) => reported.id === job.id));
    if (done.every((job) => job !== undefined && job.status !== 'running'))
      return { jobs: done as BackupJobReport[], report, ms: performance.now() - started };
    if (Date.now() > deadline) throw new Error(`jobs still running: ${JSON.stringify(report.jobs)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const backup = (
  type: 'full' | 'incremental',
  options: { paths?: string[]; tag?: string; keep?: [number, number] } = {},
): BackupNodeJob => ({
  id: randomUUID(),
  kind: 'backup',
  type,
  paths: options.paths ?? ['shares/docs', 'home/alice'],
  tags: [options.tag ?? 's1'],
  retention: options.keep
    ? { tag: options.tag ?? 's1', keep_full: options.keep[0], keep_incremental: options.keep[1] }
    : null,
});

const restore = (
  snapshot: string,
  path: string,
  target: 'original' | 'folder',
  folder?: string,
): BackupNodeJob => ({
  id: randomUUID(),
  kind: 'restore',
  snapshot_id: snapshot,
  path,
  target,
  ...(folder === undefined ? {} : { folder }),
});

/** restic's own list of the repository's snapshots. */
async function resticSnapshots() {
  const result = await runCommand('restic', ['--no-lock', 'snapshots', '--json'], {
    env: resticEnvironment(paths()),
  });
  expect(result.ok, result.stderr).toBe(true);
  return parseSnapshots(result.stdout);
}

async function browse(
  snapshot: string,
  path: string,
): Promise<{ answer: NodeCallResultRequest; ms: number }> {
  const started = performance.now();
  const answer = await browseSnapshot(
    {
      handlers: drivers,
      applied: (id) => memory.applied.get(id),
      layout: () => layout(),
      dataDir,
      run: runCommand,
      logger: silentLogger,
    },
    SERVICE,
    snapshot,
    path,
  );
  return { answer, ms: performance.now() - started };
}

const browsed = (answer: NodeCallResultRequest) => {
  if (!answer.ok) throw new Error(`browse refused: ${answer.code} ${answer.error}`);
  return answer.result as {
    found: boolean;
    entries: Array<{ name: string; type: string; size: number | null }>;
    truncated: boolean;
  };
};

const timings: string[] = [];
const BIG = randomBytes(200_000);
const day = () => new Date().toISOString().slice(0, 10);

describe.skipIf(reason !== undefined)(
  'live workspace backups (root, real restic)',
  { shuffle: false, timeout: 120_000 },
  () => {
    let full: BackupJobReport;
    let incremental: BackupJobReport;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'agent-backup-'));
      outside = await mkdtemp(join(tmpdir(), 'outside-'));
    });

    afterAll(async () => {
      if (timings.length > 0) console.warn(`[agent] backups: ${timings.join('; ')}`);
      if (!dataDir || process.env.KEEP_LIVE) return;
      await pass(state([], { state: 'removed' })).catch(() => undefined);
      const node = { dataDir, logger: silentLogger, run: runCommand };
      await Promise.all(drivers.flatMap((driver) => (driver.stop ? [driver.stop(node)] : [])));
      await forceCleanWorkspace(layout(), []);
      await removeTestNetworks([SERVICE], [ADDRESS]);
      await rm(dataDir, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    });

    it('a workspace with files reports an empty backup section', async () => {
      const report = await pass(state([]));
      expect(report.error).toBeUndefined();
      expect(report.drivers.find((driver) => driver.driver === 'backup')).toEqual({
        driver: 'backup',
        live: true,
      });
      expect(section(report)).toEqual({ jobs: [], usage: null, snapshot_ids: null });

      await mkdir(storage('shares/docs/sub'), { recursive: true });
      await mkdir(storage('shares/docs/evil'), { recursive: true });
      await writeFile(storage('shares/docs/a.txt'), 'the report\n');
      await chown(storage('shares/docs/a.txt'), ALICE, B);
      await chmod(storage('shares/docs/a.txt'), 0o640);
      await writeFile(storage('shares/docs/sub/b.bin'), BIG);
      await writeFile(storage('shares/docs/evil/x'), 'was a folder\n');
      await writeFile(storage('home/alice/notes.md'), 'notes\n', { mode: 0o600 });
      await chown(storage('home/alice/notes.md'), ALICE, B);
    });

    it('a full backup runs in the background and makes a snapshot restic agrees with', async () => {
      const job = backup('full');
      // The pass starts it and returns; the report says running.
      const first = section(await pass(state([job])));
      expect(first.jobs.map((reported) => [reported.id, reported.status])).toEqual([
        [job.id, expect.stringMatching(/running|completed/)],
      ]);
      const ran = await runJobs(job);
      [full] = ran.jobs as [BackupJobReport];
      timings.push(`first backup ${Date.parse(full.finished_at!) - Date.parse(full.started_at)} ms`);
      expect(full).toMatchObject({ status: 'completed', files: 4, files_new: 4 });
      expect(full.error).toBeUndefined();
      expect(full.snapshot_id).toMatch(/^[0-9a-f]{64}$/);
      expect(full.bytes_added).toBeGreaterThan(BIG.length);
      const snapshots = await resticSnapshots();
      expect(snapshots.map((snapshot) => snapshot.id)).toEqual([full.snapshot_id]);
      expect(snapshots[0]?.tags.sort()).toEqual(['full', 's1']);
      expect(ran.report.snapshot_ids).toEqual([full.snapshot_id]);
      expect(ran.report.usage).toMatchObject({ snapshots: 1 });
      expect(ran.report.usage!.repository_bytes).toBeGreaterThan(0);
      expect(ran.report.usage!.stored_bytes).toBeGreaterThan(BIG.length);
      // The repository is outside the workspace, its key the node's alone, derived cheaply.
      expect(paths().dir.startsWith(join(dataDir, 'backups'))).toBe(true);
      expect((await stat(paths().dir)).mode & 0o777).toBe(0o700);
      expect((await stat(paths().password)).mode & 0o777).toBe(0o600);
      const keys = await readdir(join(paths().repository, 'keys'));
      expect(keys).toHaveLength(1);
      expect(JSON.parse(await readFile(join(paths().repository, 'keys', keys[0]!), 'utf8'))).toMatchObject({
        N: 1024,
        r: 8,
        p: 1,
      });
    });

    it('an incremental backup reads only what changed', async () => {
      await writeFile(storage('shares/docs/new.txt'), 'new\n');
      const ran = await runJobs(backup('incremental'));
      [incremental] = ran.jobs as [BackupJobReport];
      timings.push(
        `incremental ${Date.parse(incremental.finished_at!) - Date.parse(incremental.started_at)} ms`,
      );
      expect(incremental).toMatchObject({ status: 'completed', files: 5, files_new: 1 });
      expect(ran.report.snapshot_ids).toEqual([full.snapshot_id, incremental.snapshot_id]);
      expect((await resticSnapshots()).map((snapshot) => snapshot.id)).toEqual(ran.report.snapshot_ids);
    });

    it('browses the root and a folder of a snapshot', async () => {
      const root = browsed((await browse(incremental.snapshot_id!, '/')).answer);
      expect(root).toMatchObject({ found: true, truncated: false });
      expect(root.entries.map((entry) => [entry.name, entry.type])).toEqual([
        ['home', 'dir'],
        ['shares', 'dir'],
      ]);
      const docs = browsed((await browse(incremental.snapshot_id!.slice(0, 8), '/shares/docs')).answer);
      expect(docs.entries.map((entry) => [entry.name, entry.type, entry.size])).toEqual([
        ['a.txt', 'file', 11],
        ['evil', 'dir', null],
        ['new.txt', 'file', 4],
        ['sub', 'dir', null],
      ]);
      expect(browsed((await browse(incremental.snapshot_id!, '/shares/docs/a.txt')).answer)).toEqual({
        found: false,
        entries: [],
        truncated: false,
      });
      expect((await browse('0123456789abcdef', '/')).answer).toMatchObject({ ok: false, code: 'not_found' });
    });

    it('restores a deleted file and a changed one over the original: same bytes, owner and mode', async () => {
      await unlink(storage('shares/docs/a.txt'));
      await writeFile(storage('home/alice/notes.md'), 'changed since\n');
      const ran = await runJobs(
        restore(full.snapshot_id!, '/shares/docs/a.txt', 'original'),
        restore(full.snapshot_id!, '/home/alice/notes.md', 'original'),
      );
      expect(ran.jobs).toEqual([
        expect.objectContaining({
          status: 'completed',
          files_restored: 1,
          restored_to: '/shares/docs/a.txt',
        }),
        expect.objectContaining({
          status: 'completed',
          files_restored: 1,
          restored_to: '/home/alice/notes.md',
        }),
      ]);
      expect(await readFile(storage('shares/docs/a.txt'), 'utf8')).toBe('the report\n');
      const restored = await stat(storage('shares/docs/a.txt'));
      expect({ uid: restored.uid, gid: restored.gid, mode: restored.mode & 0o7777 }).toEqual({
        uid: ALICE,
        gid: B,
        mode: 0o640,
      });
      expect(await readFile(storage('home/alice/notes.md'), 'utf8')).toBe('notes\n');
      expect((await stat(storage('home/alice/notes.md'))).uid).toBe(ALICE);
      // Nothing is left staged.
      expect(await readdir(storage('system/restore'))).toEqual([]);
    });

    it('restores a folder, and a file, beside the original in new folders', async () => {
      const [first, second, named, taken, file] = (
        await runJobs(
          restore(full.snapshot_id!, '/shares/docs/sub', 'folder'),
          restore(full.snapshot_id!, '/shares/docs/sub', 'folder'),
          restore(full.snapshot_id!, '/shares/docs/sub', 'folder', 'Old sub'),
          restore(full.snapshot_id!, '/shares/docs/sub', 'folder', 'Old sub'),
          restore(full.snapshot_id!, '/shares/docs/a.txt', 'folder'),
        )
      ).jobs;
      expect([first, second, named].map((job) => job?.status)).toEqual([
        'completed',
        'completed',
        'completed',
      ]);
      expect(taken).toMatchObject({ status: 'failed', error_code: 'target_exists' });
      expect(file).toMatchObject({
        status: 'completed',
        files_restored: 1,
        restored_to: `/shares/docs/a.txt (restored ${day()})`,
      });
      expect([first, second, named].map((job) => job?.restored_to)).toEqual([
        `/shares/docs/sub (restored ${day()})`,
        `/shares/docs/sub (restored ${day()}) 2`,
        '/shares/docs/Old sub',
      ]);
      for (const folder of [`sub (restored ${day()})`, `sub (restored ${day()}) 2`, 'Old sub'])
        expect(await readFile(storage(`shares/docs/${folder}/b.bin`))).toEqual(BIG);
      expect(await readFile(storage(`shares/docs/a.txt (restored ${day()})/a.txt`), 'utf8')).toBe(
        'the report\n',
      );
      // The original is untouched.
      expect(await readdir(storage('shares/docs/sub'))).toEqual(['b.bin']);
    });

    it('a restore whose destination is a symlink out of the storage writes nothing outside', async () => {
      // `evil` was a folder when backed up; the customer made it a link to a folder of the host.
      await rm(storage('shares/docs/evil'), { recursive: true });
      await symlink(outside, storage('shares/docs/evil'));
      const [over, beside] = (
        await runJobs(
          restore(full.snapshot_id!, '/shares/docs/evil/x', 'original'),
          restore(full.snapshot_id!, '/shares/docs/evil/x', 'folder'),
        )
      ).jobs;
      expect(over).toMatchObject({ status: 'failed', error_code: 'failed' });
      expect(over?.error).toContain("leads outside the workspace's storage");
      expect(beside).toMatchObject({ status: 'failed', error_code: 'failed' });
      expect(await readdir(outside)).toEqual([]);
      // Restoring the folder itself replaces the link, inside the storage; outside stays empty.
      const [folder] = (await runJobs(restore(full.snapshot_id!, '/shares/docs/evil', 'original'))).jobs;
      expect(folder).toMatchObject({ status: 'completed', files_restored: 1 });
      expect((await lstat(storage('shares/docs/evil'))).isDirectory()).toBe(true);
      expect(await readFile(storage('shares/docs/evil/x'), 'utf8')).toBe('was a folder\n');
      expect(await readdir(outside)).toEqual([]);
    });

    it('a folder that is not there fails the backup, or the restore, path_missing', async () => {
      const [job, missing] = (
        await runJobs(
          backup('incremental', { paths: ['shares/gone'] }),
          restore(full.snapshot_id!, '/shares/never', 'original'),
        )
      ).jobs;
      expect(job).toMatchObject({ status: 'failed', error_code: 'path_missing' });
      expect(missing).toMatchObject({ status: 'failed', error_code: 'path_missing' });
    });

    it('a restore into a full storage fails no_space and leaves nothing behind', async () => {
      const free = (await statfs(layout().dataRoot)).bavail * (await statfs(layout().dataRoot)).bsize;
      await writeFile(storage('shares/filler'), Buffer.alloc(Math.max(free - 64 * 1024, 0)));
      try {
        const [job] = (await runJobs(restore(full.snapshot_id!, '/shares/docs/sub', 'folder'))).jobs;
        expect(job).toMatchObject({ status: 'failed', error_code: 'no_space' });
        expect(await readdir(storage('system/restore'))).toEqual([]);
        expect(
          (await readdir(storage('shares/docs'))).filter((name) => name.startsWith('sub (')),
        ).toHaveLength(2);
      } finally {
        await unlink(storage('shares/filler'));
      }
    });

    it('browses a folder of 10,000 entries quickly', async () => {
      await mkdir(storage('shares/many'));
      for (let start = 0; start < 10_000; start += 500)
        await Promise.all(
          Array.from({ length: 500 }, (_, index) =>
            writeFile(storage(`shares/many/file-${start + index}.txt`), ''),
          ),
        );
      const [job] = (await runJobs(backup('full', { paths: ['shares/many'], tag: 's2' }))).jobs;
      expect(job).toMatchObject({ status: 'completed', files: 10_000 });
      timings.push(
        `backup of 10,000 empty files ${Date.parse(job!.finished_at!) - Date.parse(job!.started_at)} ms`,
      );
      await browse(job!.snapshot_id!, '/shares/many');
      const { answer, ms } = await browse(job!.snapshot_id!, '/shares/many');
      timings.push(`browse of 10,000 entries ${ms.toFixed(0)} ms`);
      const listing = browsed(answer);
      expect(listing).toMatchObject({ found: true, truncated: false });
      expect(listing.entries).toHaveLength(10_000);
      expect(ms).toBeLessThan(1500);
      // Answered from the listing index the backup wrote (only the node reads it).
      expect((await stat(snapshotIndexFile(paths(), job!.snapshot_id!))).mode & 0o777).toBe(0o600);
      expect((await stat(snapshotIndexDir(paths()))).mode & 0o777).toBe(0o700);
    });

    it('retention forgets the schedule’s older snapshots past what it keeps', async () => {
      const s1 = async () =>
        (await resticSnapshots())
          .filter((snapshot) => snapshot.tags.includes('s1'))
          .map((snapshot) => snapshot.id);
      expect(await s1()).toEqual([full.snapshot_id, incremental.snapshot_id]);
      const two = (await runJobs(backup('incremental', { keep: [1, 1] }))).jobs[0]!;
      // One full, the newest incremental.
      expect(await s1()).toEqual([full.snapshot_id, two.snapshot_id]);
      const three = (await runJobs(backup('full', { keep: [1, 0] }))).jobs[0]!;
      // The newest full only; keeping no incremental forgets them all.
      expect(await s1()).toEqual([three.snapshot_id]);
      const { report } = await runJobs(backup('full', { tag: 's3' }));
      expect(report.snapshot_ids).toEqual((await resticSnapshots()).map((snapshot) => snapshot.id));
      expect(report.usage?.snapshots).toBe(report.snapshot_ids?.length);
      // Forgotten snapshots' listing indexes went with them.
      expect((await readdir(snapshotIndexDir(paths()))).sort()).toEqual(
        report.snapshot_ids!.map((id) => `${id}.index`).sort(),
      );
    });

    it('a repository deleted by hand fails the next job repository_missing; the one after makes a new one', async () => {
      await rm(paths().repository, { recursive: true });
      const lost = await runJobs(backup('full'));
      expect(lost.jobs[0]).toMatchObject({ status: 'failed', error_code: 'repository_missing' });
      expect(lost.jobs[0]?.error).toContain('lost');
      expect(lost.report.snapshot_ids).toEqual([]);
      expect(lost.report.usage).toMatchObject({ snapshots: 0, repository_bytes: 0 });
      const again = await runJobs(backup('full'));
      expect(again.jobs[0]).toMatchObject({ status: 'completed' });
      expect(again.report.snapshot_ids).toEqual([again.jobs[0]?.snapshot_id]);
      // The old repository's indexes went with it.
      expect(await readdir(snapshotIndexDir(paths()))).toEqual([`${again.jobs[0]?.snapshot_id}.index`]);
    });

    it('a removed workspace takes its backups with it', async () => {
      await pass(state([], { state: 'removed' }));
      await expect(stat(paths().dir)).rejects.toThrow('ENOENT');
      await expect(stat(layout().root)).rejects.toThrow('ENOENT');
    });
  },
);
