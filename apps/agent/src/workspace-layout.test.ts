import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { workspaceLayout } from './workspace-layout.ts';
import { RUNTIME_ROOT, workspaceDir, workspaceRuntimeDir } from './workspace-paths.ts';

/** What a UNIX socket's path may hold (sun_path is 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 107;

describe('workspace layout', () => {
  it('keeps every socket path a daemon needs short whatever the length of the data folder', () => {
    // A data folder of 100 characters and the longest service id there is (128).
    const dataDir = `/${'d'.repeat(99)}`;
    const serviceId = `s${'x'.repeat(127)}`;
    const layout = workspaceLayout(workspaceDir(dataDir, serviceId));
    const sockets = [
      // smbd's messaging socket per process (a pid of 7 digits) and an RPC server's socket.
      `${layout.samba.lockDir}/msg.sock/4194304`,
      `${layout.samba.lockDir}/msg.lock/4194304`,
      `${layout.samba.ncalrpcDir}/np/initshutdown`,
      `${layout.samba.ncalrpcDir}/EPMAPPER`,
      layout.vpn.managementSocket,
      layout.ldap.ldapiSocket,
    ];
    for (const path of sockets) {
      expect(path.startsWith(`${layout.runtimeDir}/`), path).toBe(true);
      expect(Buffer.byteLength(path), path).toBeLessThanOrEqual(MAX_SOCKET_PATH);
    }
    // The same folder for the same service, another for another; never in the data folder.
    expect(layout.runtimeDir).toBe(workspaceRuntimeDir(serviceId));
    expect(workspaceRuntimeDir(randomUUID())).not.toBe(layout.runtimeDir);
    expect(layout.runtimeDir.startsWith(`${RUNTIME_ROOT}/`)).toBe(true);
  });
});
