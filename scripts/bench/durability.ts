// Durability's figures of issue 37, on the cluster as an operator runs it (two APIs, a worker and
// three live standalone agents on this host, one shared address pool, the product's own intervals:
// REPLICA_SYNC_INTERVAL_SECONDS, NODE_FAILOVER_AFTER_MS):
// - replication cost: bytes a standby's pull carried and its time, per changed GiB (1 GiB of new
//   random data written into the workspace);
// - RPO achieved under a steady write load: a client puts a small file over SMB every 500 ms; the
//   standby's lag (now − last in sync) is sampled meanwhile, then the primary's node is destroyed
//   and the newest file the promoted copy holds says how much written work was lost;
// - failover time: from the node's loss to the share answering again on the same address;
// - a move's downtime for 1 GiB and 10 GiB (`ops services move` under a client reading every
//   half second): the longest time the share did not answer.
// Needs root with the live programs, btrfs and DATABASE_URL; MINI is sold with 12 GB here, so a
// primary and its standby of 10 GiB fit beside each other on one host's disk.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { workspaceDir, workspaceLayout } from '@debesis/agent';
import { REPLICA_SYNC_INTERVAL_SECONDS } from '@debesis/contract';
import { createVerifiedAccounts, signInTokens } from '../lib/accounts.ts';
import { startCluster, type Cluster } from '../lib/cluster.ts';
import { liveWorkspacesUnavailable } from '../lib/live-workspaces.ts';
import { smbclient } from '../lib/smb.ts';
import {
  buyWorkspace,
  customerApi,
  json,
  planNamed,
  waitFor,
  type CustomerApi,
} from '../lib/workspace-api.ts';

const POOL = '198.18.46.1-198.18.46.20';
const NODES = ['node-a', 'node-b', 'node-c'].map((name) => ({ name, pool: POOL }));
const USER = { name: 'bench', password: 'Durable-Bench-1!' };
const SHARE = 'data';
const GIB = 1024 ** 3;
const CHUNK = 64 * 1024 * 1024;
const STEADY_SECONDS = 90;

export interface DurabilityFigures {
  skipped?: string;
  replication?: { changedBytes: number; bytes: number; seconds: number };
  rpo?: { maxLagSeconds: number; lostSeconds: number; filesWritten: number; filesLost: number };
  failoverSeconds?: number;
  moves: { gib: number; downtimeSeconds: number; totalSeconds: number }[];
}

interface Replica {
  state: string;
  node: string | null;
  last_in_sync_at: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureDurability(): Promise<DurabilityFigures> {
  const server = process.env.DATABASE_URL;
  if (!server) return { skipped: 'needs DATABASE_URL (a PostgreSQL server)', moves: [] };
  const unavailable = liveWorkspacesUnavailable();
  if (unavailable) return { skipped: unavailable, moves: [] };
  if (spawnSync('sh', ['-c', 'command -v mkfs.btrfs']).status !== 0)
    return { skipped: 'btrfs-progs is not installed', moves: [] };

  const work = mkdtempSync('/tmp/dbb-');
  const cluster = await startCluster({ serverUrl: server, live: true, agents: NODES, agentPollMs: 1000 });
  const figures: DurabilityFigures = { moves: [] };
  try {
    await cluster.query(`update products set disk_space_gb = 12 where name = 'MINI'`);
    const urls = cluster.apis.map((process) => process.url);
    const [email] = await createVerifiedAccounts(urls[0]!, cluster.dataDir, 1);
    const api = await customerApi(urls, (await signInTokens(urls[0]!, email!)).access_token);
    const bought = await buyWorkspace(api, await planNamed(urls[0]!, 'MINI'), 'durability', {
      withinMs: 180_000,
    });
    const ws = { id: bought.id, address: bought.address };
    await json(await api.send('POST', `/user-groups/${ws.id}/users`, USER), 'user');
    await json(
      await api.send('POST', `/samba/${ws.id}/shares`, {
        name: SHARE,
        users: [{ name: USER.name, read: true, write: true }],
      }),
      'share',
    );
    const login = { address: ws.address, share: SHARE, user: USER.name, password: USER.password };
    const smb = (command: string) => smbclient(login, command, work);
    writeFileSync(path.join(work, 'probe'), 'probe\n');
    await waitFor('the share', 120_000, async () => (smb('put probe probe').ok ? true : undefined), 500);

    const replica = (): Promise<Replica> => replicaOf(api, ws.id);
    const inSyncSince = (at: number) =>
      waitFor(
        'in sync',
        900_000,
        async () => {
          const now = await replica();
          return now.state === 'in_sync' && Date.parse(now.last_in_sync_at ?? '') > at ? now : undefined;
        },
        1000,
      );
    const where = () => nodesOf(cluster, ws.id);
    await inSyncSince(Date.now());

    // Replication cost: 1 GiB of new data, then the first pull that carries it.
    const before = await lastPull(cluster, ws.id);
    await fill(cluster, (await where()).node, ws.id, 'changed-1g.bin', GIB);
    await inSyncSince(Date.now());
    const pull = await waitFor(
      'the pull of 1 GiB',
      300_000,
      async () => {
        const last = await lastPull(cluster, ws.id);
        return last && last.name !== before?.name && last.bytes > GIB / 2 ? last : undefined;
      },
      1000,
    );
    figures.replication = { changedBytes: GIB, bytes: pull.bytes, seconds: pull.seconds };

    // RPO under a steady write load, then the loss of the primary's node.
    let writing = true;
    let written = 0;
    const writes: { name: string; at: number }[] = [];
    let maxLag = 0;
    const writer = (async () => {
      while (writing) {
        const name = `steady-${String(written).padStart(6, '0')}.txt`;
        writeFileSync(path.join(work, name), randomBytes(64 * 1024));
        if (smb(`put ${name} ${name}`).ok) writes.push({ name, at: Date.now() });
        written += 1;
        await sleep(500);
      }
    })();
    const sampleUntil = Date.now() + STEADY_SECONDS * 1000;
    while (Date.now() < sampleUntil) {
      const now = await replica();
      if (now.last_in_sync_at)
        maxLag = Math.max(maxLag, (Date.now() - Date.parse(now.last_in_sync_at)) / 1000);
      await sleep(2000);
    }
    const victim = await where();
    const lostAt = Date.now();
    const lostTimer = performance.now();
    await cluster.destroyNode(victim.node);
    writing = false;
    await writer;
    await waitFor('served again', 300_000, async () => (smb('ls').ok ? true : undefined), 500);
    figures.failoverSeconds = (performance.now() - lostTimer) / 1000;
    const listing = smb('ls').output;
    const held = writes.filter((each) => each.at <= lostAt && listing.includes(each.name));
    const newestHeld = held.at(-1)?.at ?? 0;
    const beforeLoss = writes.filter((each) => each.at <= lostAt);
    figures.rpo = {
      maxLagSeconds: maxLag,
      lostSeconds: (lostAt - newestHeld) / 1000,
      filesWritten: beforeLoss.length,
      filesLost: beforeLoss.length - held.length,
    };

    // Moves of 1 GiB and 10 GiB (the data written so far is ~1 GiB).
    for (const gib of [1, 10]) {
      const placed = await where();
      if (gib > 1) await fill(cluster, placed.node, ws.id, 'bulk-9g.bin', (gib - 1) * GIB);
      await inSyncSince(Date.now());
      const to = (await where()).standby ?? NODES.map((n) => n.name).find((n) => n !== placed.node)!;
      let reading = true;
      let lastGood = performance.now();
      let longest = 0;
      const reader = (async () => {
        while (reading) {
          if (smb('get probe probe.read').ok) {
            longest = Math.max(longest, performance.now() - lastGood);
            lastGood = performance.now();
          }
          await sleep(500);
        }
      })();
      const started = performance.now();
      const moved = await cluster.ops(['services', 'move', ws.id, to]);
      if (moved.code !== 0) throw new Error(`ops services move: ${moved.stdout}\n${moved.stderr}`);
      await waitFor('the move', 1_800_000, async () => ((await where()).node === to ? true : undefined), 500);
      await waitFor('served after the move', 120_000, async () => (smb('ls').ok ? true : undefined), 500);
      const totalSeconds = (performance.now() - started) / 1000;
      await sleep(2000);
      reading = false;
      await reader;
      longest = Math.max(longest, performance.now() - lastGood);
      figures.moves.push({ gib, downtimeSeconds: longest / 1000, totalSeconds });
    }
    return figures;
  } catch (error) {
    return { ...figures, skipped: `failed: ${(error as Error).message}\n${cluster.logs()}` };
  } finally {
    await cluster.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

async function replicaOf(api: CustomerApi, id: string): Promise<Replica> {
  const { services } = await json<{ services: { id: string; replica: Replica }[] }>(
    await api.get('/services/overview'),
    'overview',
  );
  const item = services.find((service) => service.id === id);
  if (!item) throw new Error(`${id} is not in the overview`);
  return item.replica;
}

async function nodesOf(cluster: Cluster, id: string): Promise<{ node: string; standby: string | null }> {
  const [row] = await cluster.query<{ node: string; standby: string | null }>(
    `select n.name as node, sb.name as standby from services s join nodes n on n.id = s.node_id
       left join nodes sb on sb.id = s.standby_node_id where s.id = $1`,
    [id],
  );
  if (!row) throw new Error(`no service ${id}`);
  return row;
}

/** The standby's last pull as the API stored it (its replica's name, bytes carried, time taken). */
async function lastPull(
  cluster: Cluster,
  id: string,
): Promise<{ name: string; bytes: number; seconds: number } | undefined> {
  const [row] = await cluster.query<{
    name: string | null;
    bytes: string | null;
    taken: Date | null;
    received: Date | null;
  }>(
    `select replica_name as name, replica_bytes as bytes, replica_taken_at as taken, replica_received_at as received
       from services where id = $1`,
    [id],
  );
  if (!row?.name || !row.taken || !row.received) return undefined;
  return {
    name: row.name,
    bytes: Number(row.bytes ?? 0),
    seconds: (row.received.getTime() - row.taken.getTime()) / 1000,
  };
}

/** Writes `bytes` of random data into the workspace's share on its node, as its owner's files would be. */
async function fill(cluster: Cluster, node: string, id: string, name: string, bytes: number): Promise<void> {
  const layout = workspaceLayout(workspaceDir(cluster.agentDataDirs[node] ?? '', id));
  const folder = path.join(layout.dataRoot, 'shares', SHARE);
  mkdirSync(folder, { recursive: true });
  const file = await open(path.join(folder, name), 'w');
  try {
    for (let done = 0; done < bytes; done += CHUNK)
      await file.write(randomBytes(Math.min(CHUNK, bytes - done)));
    await file.sync();
  } finally {
    await file.close();
  }
}

export function printDurability(figures: DurabilityFigures) {
  console.log(
    `\nDurability on three live nodes (standby pulls every ${REPLICA_SYNC_INTERVAL_SECONDS} s; the product's failover threshold)`,
  );
  if (figures.skipped) console.log(`  skipped: ${figures.skipped}`);
  const { replication, rpo } = figures;
  if (replication)
    console.log(
      `  replication of 1 GiB changed: ${(replication.bytes / replication.changedBytes).toFixed(3)} bytes per changed byte, ${replication.seconds.toFixed(1)} s per changed GiB`,
    );
  if (rpo)
    console.log(
      `  RPO under a steady write load (a file every 0.5 s): standby at most ${rpo.maxLagSeconds.toFixed(1)} s behind; at the loss ${rpo.lostSeconds.toFixed(1)} s of writes lost (${rpo.filesLost} of ${rpo.filesWritten} files)`,
    );
  if (figures.failoverSeconds !== undefined)
    console.log(`  failover: served again ${figures.failoverSeconds.toFixed(1)} s after the node was lost`);
  for (const move of figures.moves)
    console.log(
      `  move of ${move.gib} GiB: down ${move.downtimeSeconds.toFixed(1)} s, ${move.totalSeconds.toFixed(1)} s from the command to served on the new node`,
    );
}
