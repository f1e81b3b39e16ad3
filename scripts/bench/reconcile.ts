// Reconcile time of the node agent for one workspace with 200 users and 50 shares: the first
// apply, a no-op full check (every driver runs and finds everything in place) and the observe-only
// pass an applied workspace gets on most polls. Live (disk image, network namespace, smbd) as root
// with samba installed; otherwise the render-only path (files rendered and checked, nothing
// mounted or started), and the table says which.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createDefaultDrivers,
  createReconcileMemory,
  firstMissingProgram,
  isRoot,
  reconcileOnce,
  removePoolGuards,
  runCommand,
  silentLogger,
  type ReconcileMemory,
} from '@debesis/agent';
import {
  SAMBA_SERVER_DEFAULTS,
  WORKSPACE_ID_FIRST_BASE,
  type WorkspaceDesiredState,
} from '@debesis/contract';

export interface ReconcileFigures {
  mode: string;
  firstApplyMs: number;
  noOpFullCheckMs: number;
  observeOnlyMs: number;
}

const USERS = 200;
const SHARES = 50;
const B = WORKSPACE_ID_FIRST_BASE;

function workspace(serviceId: string, address: string): WorkspaceDesiredState {
  const users = Array.from({ length: USERS }, (_, i) => ({
    name: `user${i}`,
    uid: B + 1 + i,
    active: i % 10 !== 9,
    password_crypt: `$6$benchsalt$user${i}`,
    password_nt: (i.toString(16).toUpperCase() + 'A'.repeat(32)).slice(0, 32),
    primary_gid: B,
  }));
  const groups = Array.from({ length: 10 }, (_, g) => ({
    name: `group${g}`,
    gid: B + 5000 + g,
    members: users.filter((_, i) => i % 10 === g).map((u) => u.name),
  }));
  const shares = Array.from({ length: SHARES }, (_, s) => ({
    name: `share${s}`,
    path: `shares/share${s}`,
    description: `Share number ${s}`,
    guest_ok: s === 0,
    browseable: true,
    bind_public_ip: false,
    users: users
      .slice(s, s + 20)
      .map((u, k) => ({ name: u.name, read: true, write: k % 2 === 0, execute: false, admin: k === 0 })),
    groups: [`group${s % 10}`],
  }));
  return {
    service_id: serviceId,
    generation: 1,
    state: 'running',
    address,
    storage_bytes: 256 * 1024 * 1024,
    id_base: B,
    users,
    groups,
    samba: { shares, settings: SAMBA_SERVER_DEFAULTS },
  };
}

/** Pass times of one workspace (ms): first apply, no-op full check, observe-only poll. */
export type PassFigures = Omit<ReconcileFigures, 'mode'>;

/**
 * Runs the agent's passes on `desired` (its address is replaced by a random one of 198.19/16)
 * in a data folder of its own, live or render-only, and removes the workspace afterwards.
 */
export async function measurePasses(
  make: (address: string) => WorkspaceDesiredState,
  live: boolean,
): Promise<PassFigures> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-reconcile-'));
  // Outside the embedded node's default pool (198.18.0.x), random so parallel runs do not meet.
  const address = `198.19.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
  const desired = make(address);
  const drivers = createDefaultDrivers({ live, addressPool: [address] });

  const passOnce = async (state: WorkspaceDesiredState, memory: ReconcileMemory, fullCheckEvery: number) => {
    const started = performance.now();
    await reconcileOnce(
      {
        api: {
          desiredState: () => Promise.resolve({ node_id: randomUUID(), workspaces: [state] }),
          report: () => Promise.resolve(),
        },
        nodeToken: 'bench',
        dataDir,
        addresses: [state.address],
        agentVersion: 'bench',
        drivers,
        logger: silentLogger,
        run: runCommand,
        fullCheckEvery,
      },
      memory,
    );
    return Math.round((performance.now() - started) * 10) / 10;
  };

  const full = createReconcileMemory();
  try {
    const firstApplyMs = await passOnce(desired, full, 1);
    const noOpFullCheckMs = await passOnce(desired, full, 1);
    const observing = createReconcileMemory();
    await passOnce(desired, observing, 1_000_000);
    const observeOnlyMs = await passOnce(desired, observing, 1_000_000);
    return { firstApplyMs, noOpFullCheckMs, observeOnlyMs };
  } finally {
    // Removal stops the daemons, deletes the network namespace, unmounts and deletes the image.
    await passOnce({ ...desired, generation: 2, state: 'removed' }, createReconcileMemory(), 1).catch(
      () => 0,
    );
    if (live) await removePoolGuards([address], runCommand).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function measureReconcile(): Promise<ReconcileFigures> {
  const missing = await firstMissingProgram([
    'smbd',
    'testparm',
    'pdbedit',
    'losetup',
    'mkfs.ext4',
    'ip',
    'unshare',
  ]);
  const live = isRoot() && !missing;
  const mode = live
    ? 'live: image, network namespace, smbd'
    : `render only (${isRoot() ? `${missing} is not installed` : 'not root'})`;
  return { mode, ...(await measurePasses((address) => workspace(`bench-${randomUUID()}`, address), live)) };
}

export function printReconcile(figures: ReconcileFigures) {
  console.log(`\nAgent reconcile, one workspace with ${USERS} users and ${SHARES} shares (${figures.mode})`);
  console.log('| pass | time |');
  console.log('|---|---:|');
  console.log(`| first apply | ${figures.firstApplyMs} ms |`);
  console.log(`| no-op full check (every driver runs, nothing changes) | ${figures.noOpFullCheckMs} ms |`);
  console.log(`| no-op poll (observe only) | ${figures.observeOnlyMs} ms |`);
}

// `tsx scripts/bench/reconcile.ts` measures this alone.
if (import.meta.url === `file://${process.argv[1]}`) printReconcile(await measureReconcile());
