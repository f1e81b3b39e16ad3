// Where a workspace lives on this node. A service id comes from the network and becomes a path,
// so it is checked here, once, before any driver sees it.
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
