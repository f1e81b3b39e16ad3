// Reconcile time of the node agent for one workspace: the first apply, a no-op full check (every
// driver runs and finds everything in place) and the observe-only pass an applied workspace gets on
// most polls. Two workspaces: Samba alone (200 users, 50 shares: issue 5's figure) and every file
// and directory feature at once (issue 16: the same plus 50 NFS exports, FTP and SFTP for the 200
// users; issue 17: LDAP over them, some suspended or expiring). Live (disk image, network
// namespace, the real daemons) as root with the programs installed; otherwise the render-only
// path (files rendered and checked, nothing mounted or started), and the table says which.
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
  ftpSectionSchema,
  ldapSectionSchema,
  NFS_DEFAULT_PORT,
  SAMBA_SERVER_DEFAULTS,
  SFTP_DEFAULT_PORT,
  WORKSPACE_ID_FIRST_BASE,
  type WorkspaceDesiredState,
  type WorkspaceReport,
} from '@debesis/contract';
import { ftpLoginMs as timeFtpLogin } from './ftp-login.ts';

export interface ReconcileFigures {
  mode: string;
  firstApplyMs: number;
  noOpFullCheckMs: number;
  observeOnlyMs: number;
  /** FTP sign-ins on the applied workspace (live, every-feature workspace only), ms each. */
  ftpLoginMs?: number[];
}

/** The Samba-only workspace's passes, then the every-feature one's. */
export interface ReconcileBench {
  samba: ReconcileFigures;
  everyFeature: ReconcileFigures;
}

const USERS = 200;
const SHARES = 50;
const EXPORTS = 50;
const B = WORKSPACE_ID_FIRST_BASE;
/** Any SHA-512 crypt: the bind account is never bound to here. */
const BIND_CRYPT = '$6$benchsalt$reader';
/** user0's password in the every-feature workspace, for the FTP sign-ins. */
const FTP_PASSWORD = 'Bench-Ftp-Pass-1';
const FTP_LOGINS = 11;

function sambaWorkspace(serviceId: string, address: string): WorkspaceDesiredState {
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

/** A date `days` from today (UTC), YYYY-MM-DD: an expiry still ahead. */
const dateIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The Samba workspace with NFS exports, FTP and SFTP for every user, and LDAP over them. */
export function everyFeatureWorkspace(
  serviceId: string,
  address: string,
  ftpCrypt: string,
): WorkspaceDesiredState {
  const base = sambaWorkspace(serviceId, address);
  const names = base.users.map((user) => user.name);
  return {
    ...base,
    users: base.users.map((user, i) => (i === 0 ? { ...user, password_crypt: ftpCrypt } : user)),
    nfs: {
      port: NFS_DEFAULT_PORT,
      exports: Array.from({ length: EXPORTS }, (_, e) => ({
        path: `shares/share${e}`,
        client: e % 2 === 0 ? '10.20.0.0/16' : `10.30.${e}.7`,
        access: e % 3 === 0 ? ('read_only' as const) : ('read_write' as const),
        ...(e % 5 === 0 ? {} : { owner: names[e] }),
      })),
    },
    ftp: {
      ...ftpSectionSchema.parse({ enabled: true, users: [] }),
      users: names.map((name, i) => ({
        name,
        enabled: i % 7 !== 6,
        permissions: i % 2 === 0 ? ('read_write' as const) : ('read_only' as const),
      })),
    },
    sftp: { enabled: true, port: SFTP_DEFAULT_PORT },
    ldap: {
      ...ldapSectionSchema.parse({ enabled: true, bind_password_crypt: BIND_CRYPT }),
      users: names
        .filter((_, i) => i % 20 === 0 || i % 25 === 1)
        .map((name, k) => ({
          name,
          suspended: k % 2 === 0,
          expires_on: k % 2 === 0 ? null : dateIn(30 + k),
        })),
    },
  };
}

/** Pass times of one workspace (ms): first apply, no-op full check, observe-only poll. */
export type PassFigures = Omit<ReconcileFigures, 'mode'>;

const NO_OP_PASSES = 5;

/** The median of NO_OP_PASSES runs of `pass`, one after another. */
async function medianOf(pass: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < NO_OP_PASSES; i += 1) times.push(await pass());
  return times.sort((a, b) => a - b)[Math.floor(NO_OP_PASSES / 2)]!;
}

/**
 * Runs the agent's passes on `desired` (its address is replaced by a random one of 198.19/16)
 * in a data folder of its own, live or render-only, and removes the workspace afterwards.
 */
export async function measurePasses(
  make: (address: string) => WorkspaceDesiredState,
  live: boolean,
  /** Run on the applied workspace before it is removed (live only), e.g. to time a client. */
  whileApplied?: (desired: WorkspaceDesiredState) => Promise<void>,
): Promise<PassFigures> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-reconcile-'));
  // Outside the embedded node's default pool (198.18.0.x), random so parallel runs do not meet.
  const address = `198.19.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
  const desired = make(address);
  const drivers = createDefaultDrivers({ live, addressPool: [address] });

  let lastReport: WorkspaceReport | undefined;
  const passOnce = async (state: WorkspaceDesiredState, memory: ReconcileMemory, fullCheckEvery: number) => {
    const started = performance.now();
    await reconcileOnce(
      {
        api: {
          desiredState: () => Promise.resolve({ node_id: randomUUID(), workspaces: [state] }),
          report: (_token, body) => {
            lastReport = body.workspaces[0];
            return Promise.resolve();
          },
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
    // Steady state: the median of a few passes (the daemons just started are still busy at first).
    const noOpFullCheckMs = await medianOf(() => passOnce(desired, full, 1));
    const observing = createReconcileMemory();
    await passOnce(desired, observing, 1_000_000);
    const observeOnlyMs = await medianOf(() => passOnce(desired, observing, 1_000_000));
    if (live)
      await whileApplied?.(desired).catch((error: unknown) => {
        throw new Error(`on the applied workspace, reported ${JSON.stringify(lastReport)}`, { cause: error });
      });
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

const WORKSPACE_PROGRAMS = ['losetup', 'mkfs.ext4', 'ip', 'unshare', 'nsenter'];
const SAMBA_PROGRAMS = ['smbd', 'testparm', 'pdbedit'];
const FILE_AND_DIRECTORY_PROGRAMS = [
  'ganesha.nfsd',
  'pure-ftpd',
  'pure-pw',
  'sshd',
  'slapd',
  'slapadd',
  'slaptest',
  'ldapmodify',
  'openssl',
];

async function passesOf(
  make: (serviceId: string, address: string) => WorkspaceDesiredState,
  programs: string[],
  daemons: string,
  whileApplied?: (desired: WorkspaceDesiredState) => Promise<void>,
): Promise<ReconcileFigures> {
  const missing = await firstMissingProgram(programs);
  const live = isRoot() && !missing;
  const mode = live
    ? `live: image, network namespace, ${daemons}`
    : `render only (${isRoot() ? `${missing} is not installed` : 'not root'})`;
  const passes = await measurePasses((address) => make(`bench-${randomUUID()}`, address), live, whileApplied);
  return { mode, ...passes };
}

export async function measureReconcile(): Promise<ReconcileBench> {
  const samba = await passesOf(sambaWorkspace, [...WORKSPACE_PROGRAMS, ...SAMBA_PROGRAMS], 'smbd');
  const ftpCrypt = (
    await runCommand('openssl', ['passwd', '-6', '-stdin'], { input: `${FTP_PASSWORD}\n` })
  ).stdout.trim();
  const ftpLoginMs: number[] = [];
  const everyFeature = await passesOf(
    (serviceId, address) => everyFeatureWorkspace(serviceId, address, ftpCrypt || BIND_CRYPT),
    [...WORKSPACE_PROGRAMS, ...SAMBA_PROGRAMS, ...FILE_AND_DIRECTORY_PROGRAMS],
    'smbd, ganesha.nfsd, pure-ftpd, sshd, slapd',
    async (desired) => {
      const port = desired.ftp?.port ?? 21;
      // The first sign-in warms pure-ftpd's puredb and the route; it is not counted.
      await timeFtpLogin(desired.address, port, 'user0', FTP_PASSWORD);
      for (let i = 1; i < FTP_LOGINS; i += 1)
        ftpLoginMs.push(
          Math.round((await timeFtpLogin(desired.address, port, 'user0', FTP_PASSWORD)) * 10) / 10,
        );
    },
  );
  return { samba, everyFeature: { ...everyFeature, ...(ftpLoginMs.length > 0 ? { ftpLoginMs } : {}) } };
}

export function printReconcile({ samba, everyFeature }: ReconcileBench) {
  const table = (title: string, figures: ReconcileFigures) => {
    console.log(`\nAgent reconcile, one workspace with ${title} (${figures.mode})`);
    console.log('| pass | time | target |');
    console.log('|---|---:|---:|');
    console.log(`| first apply | ${figures.firstApplyMs} ms | |`);
    console.log(
      `| no-op full check (every driver runs, nothing changes; median of ${NO_OP_PASSES}) | ${figures.noOpFullCheckMs} ms | < 100 ms |`,
    );
    console.log(`| no-op poll (observe only; median of ${NO_OP_PASSES}) | ${figures.observeOnlyMs} ms | |`);
    if (figures.ftpLoginMs) {
      const sorted = [...figures.ftpLoginMs].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      console.log(
        `| FTP sign-in, greeting to 230 (median of ${sorted.length}; ${sorted[0]}-${sorted.at(-1)} ms) | ${median} ms | < 50 ms |`,
      );
    }
  };
  table(`${USERS} users and ${SHARES} shares`, samba);
  table(
    `${USERS} users, ${SHARES} shares, ${EXPORTS} NFS exports, FTP and SFTP for every user, LDAP over them`,
    everyFeature,
  );
}

// `tsx scripts/bench/reconcile.ts` measures this alone.
if (import.meta.url === `file://${process.argv[1]}`) printReconcile(await measureReconcile());
