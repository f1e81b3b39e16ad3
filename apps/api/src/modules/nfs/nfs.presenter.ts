// NFS exports and clients as the owner sees them, and the exports as the node is told to serve them.
import { nfsClientAdmits, type NfsClient, type NfsExport, type NfsExportState } from '@debesis/contract';
import { resourceStatus, type ObservedWorkspace } from '../services/resource-status.ts';
import type { NfsClientRow, NfsExportRow } from './nfs.queries.ts';

/** The resource kind the node's NFS driver reports an export it could not apply as. */
export const NFS_EXPORT_FAILURE_KIND = 'nfs_export';

export function presentExport(
  service: ObservedWorkspace,
  /** Where the service's NFS server answers (servicesAddressOf); null until placed. */
  address: string | null,
  row: NfsExportRow,
  /** Names of the service's users by id. */
  users: ReadonlyMap<string, string>,
): NfsExport {
  const { status, error } = resourceStatus(service, {
    kind: NFS_EXPORT_FAILURE_KIND,
    // The node names an export by its path, cut to 64 characters (the contract's longest path).
    name: row.path.slice(0, 64),
    changedGeneration: row.changedGeneration,
  });
  return {
    path: row.path,
    client: row.client,
    access: row.access,
    description: row.description,
    owner: row.ownerUserId ? (users.get(row.ownerUserId) ?? null) : null,
    mount: address ? `${address}:/${row.path}` : null,
    apply_status: status,
    apply_error: error,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The exports whose client rule admits a client's address (a hostname rule is not resolved). */
export function exportsAdmitting(exports: readonly NfsExportRow[], address: string): string[] {
  return exports
    .filter((entry) => nfsClientAdmits(entry.client, address) === true)
    .map((entry) => entry.path);
}

export function presentClient(row: NfsClientRow, exports: readonly NfsExportRow[]): NfsClient {
  return {
    address: row.address,
    version: row.version,
    connected: row.connected,
    client_name: row.clientName,
    mount_point: row.mountPoint,
    exports: exportsAdmitting(exports, row.address),
  };
}

export function desiredExport(row: NfsExportRow, users: ReadonlyMap<string, string>): NfsExportState {
  const owner = row.ownerUserId ? users.get(row.ownerUserId) : undefined;
  return {
    path: row.path,
    client: row.client,
    access: row.access,
    ...(owner !== undefined && { owner }),
  };
}
