// Starting and stopping the servers that browser tests and benchmarks run against, each as its
// own process on 127.0.0.1 with a fresh embedded data folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { removePoolGuardRoutes } from './live-workspaces.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function waitForHttp(
  url: string,
  timeoutMs = 60_000,
  accept = (status: number) => status < 500,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (accept(response.status)) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface RunningServer {
  url: string;
  /** The product's DATA_DIR (mail, database, nodes); empty for other servers. */
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

/** Addresses a live product gives its workspaces: outside `npm start`'s and the agent tests'. */
export const LIVE_ADDRESS_POOL = '198.18.12.1-198.18.12.254';

export interface ProductOptions {
  /**
   * Real workspaces (as root with samba installed): disk image, network namespace with an address
   * from LIVE_ADDRESS_POOL, smbd. Whoever starts one removes its workspaces before stop() (see
   * live-workspaces.ts); stop() refuses to delete a data folder that still has a mount in it.
   */
  liveWorkspaces?: boolean;
}

/**
 * The V8 flags the product runs with, as `npm start` gives them (package.json). A young generation
 * of 64 MB per half instead of 16: a request's garbage (rows, answers, strings) dies young, and
 * with four times fewer scavenges the services overview served ~25% more on PostgreSQL.
 */
export const PRODUCT_NODE_FLAGS = ['--max-semi-space-size=64'];

/** Loaded with `--import` into a process a test starts: it stops once its starter is gone. */
export const EXIT_WITH_PARENT = './scripts/lib/exit-with-parent.ts';

/** The whole product (API, worker, embedded node) on a fresh embedded database. */
export async function startProduct(
  env: Record<string, string> = {},
  options: ProductOptions = {},
): Promise<RunningServer> {
  const port = await freePort();
  // A live workspace's smbd keeps Unix sockets under <data>/nodes/local/workspaces/<id>/samba/
  // lock; a socket path has at most 107 bytes, so its data folder gets a short name.
  const dataDir = mkdtempSync(options.liveWorkspaces ? '/tmp/dws-' : path.join(tmpdir(), 'debesis-bench-'));
  // BENCH_CPU_PROF=<dir>: the product writes a V8 CPU profile there when it stops (Node refuses
  // --cpu-prof in NODE_OPTIONS, so it is passed here); open it in Chrome's DevTools.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(
    process.execPath,
    [
      ...PRODUCT_NODE_FLAGS,
      ...profile,
      '--import',
      'tsx',
      '--import',
      EXIT_WITH_PARENT,
      'apps/api/src/main.ts',
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        // The address the browser uses, so links in mail and OAuth redirects come back to it.
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        AGENT_POLL_INTERVAL_MS: '1000',
        // Journeys and benchmarks buy workspaces; as root they would leave mounted images and smbd
        // processes behind a deleted data folder. The agent's own tests cover live workspaces, and
        // so does the one journey that asks for them (and removes them).
        ...(options.liveWorkspaces
          ? { AGENT_LIVE_WORKSPACES: 'auto', AGENT_ADDRESS_POOL: LIVE_ADDRESS_POOL }
          : { AGENT_LIVE_WORKSPACES: 'off' }),
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  // Starting means compiling the whole app through tsx first: 10 s on an idle two-core machine,
  // but 55 to 90 s when the journeys start beside the unit tests' own imports on a loaded one.
  await waitForHttp(`${url}/api/v1/health`, 180_000, (status) => status === 200).catch(async (error) => {
    await stopChild(child);
    throw error;
  });
  return {
    url,
    dataDir,
    process: child,
    async stop() {
      await stopChild(child);
      // The agent keeps its pool's guard routes for good; this pool was the run's own.
      if (options.liveWorkspaces) removePoolGuardRoutes(LIVE_ADDRESS_POOL);
      // Deleting through a mounted workspace image would delete inside it and leave the mount.
      if (mountedUnder(dataDir)) throw new Error(`${dataDir} still has a workspace mounted; not deleted`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Whether anything is mounted at or below `dir` (this mount namespace's /proc/self/mountinfo). */
export function mountedUnder(dir: string): boolean {
  const info = existsSync('/proc/self/mountinfo') ? readFileSync('/proc/self/mountinfo', 'utf8') : '';
  return info.split('\n').some((line) => {
    const mountPoint = line.split(' ')[4] ?? '';
    return mountPoint === dir || mountPoint.startsWith(`${dir}/`);
  });
}

export async function startBareFastify(): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/bare-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/bare`);
  return { url, dataDir: '', process: child, stop: () => stopChild(child) };
}
