// Where a workspace lives on this node. A service id comes from the network and becomes a path,
// so it is checked here, once, before any driver sees it.
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';

const SERVICE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export class InvalidServiceIdError extends Error {
  constructor(serviceId: string) {
    super(`invalid service id ${JSON.stringify(serviceId.slice(0, 200))}`);
    this.name = 'InvalidServiceIdError';
  }
}

export function workspacesRoot(dataDir: string): string {
  return join(resolve(dataDir), 'workspaces');
}

/** `<dataDir>/workspaces/<serviceId>`; refuses anything that is not a plain single name. */
export function workspaceDir(dataDir: string, serviceId: string): string {
  if (!SERVICE_ID.test(serviceId)) throw new InvalidServiceIdError(serviceId);
  const root = workspacesRoot(dataDir);
  const dir = resolve(root, serviceId);
  if (dir !== join(root, serviceId) || !dir.startsWith(root + sep))
    throw new InvalidServiceIdError(serviceId);
  return dir;
}

// AGENT_INSTANCE (config.ts): one per process, set once as the agent starts, since every host-wide
// name is made from it (a workspace's folder, namespace and interface are looked up by many
// modules that are given a service id alone).
let instance: string | undefined;

/** Several agents on one host: this one's name, so its workspaces' host-wide names are its own. */
export function setAgentInstance(name: string | undefined): void {
  instance = name;
}

/**
 * A short name for a workspace on the host, the same for the same service id: 10 hex digits of
 * its SHA-256 (the network namespace `debesis-<short>` and its veth `dbs-<short>` carry it too);
 * with an agent instance, of `<instance>/<serviceId>`, so that an old primary's leftovers and a
 * new one on the same host never share a name.
 */
export function workspaceShortId(serviceId: string): string {
  const key = instance === undefined ? serviceId : `${instance}/${serviceId}`;
  return createHash('sha256').update(key).digest('hex').slice(0, 10);
}

/**
 * Where the workspaces' daemons keep their UNIX sockets and lock files: a short folder whatever the
 * agent's data folder (AGENT_DATA_DIR). A UNIX socket's path holds at most 107 bytes, and a
 * daemon's socket under `<data>/workspaces/<service id>/…` passes it once the data folder is
 * ~30 characters long (smbd's `<lock dir>/msg.sock/<pid>` then fails at start). As root (the only
 * way daemons run) `/run/debesis`, the host's volatile run folder, as for any daemon; otherwise a
 * folder of the user's own under the temporary folder, where only config files are rendered.
 */
export const RUNTIME_ROOT =
  process.getuid?.() === 0 ? '/run/debesis' : join(tmpdir(), `debesis-run-${process.getuid?.() ?? 0}`);

/** `<RUNTIME_ROOT>/<short id>`: one workspace's sockets and lock files (≤ 35 bytes). */
export function workspaceRuntimeDir(serviceId: string): string {
  return join(RUNTIME_ROOT, workspaceShortId(serviceId));
}
