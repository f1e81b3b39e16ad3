// The workspace's NFS exports (spec §3 "NFS export", §5, §7 "NFS"), the `nfs` section of the
// desired state for the node agent, and what the node reports of its clients.
//
// Rules: an export's path is a folder inside the workspace's storage (the contract's rule: no
// `..`, not one of the folders the node keeps), unique in the service, and never changes; its
// client is one IPv4 address, network or hostname; its owner, when named, is an active user of the
// service (read through the directory module; when one is deleted the directory calls
// `nfsDirectoryDependent` in its transaction and the export is then written as the workspace
// itself). Every change goes through the workspace change pipeline; the node re-reads its exports
// without a restart, so other clients stay mounted.
//
// Counters per export come from ganesha's statistics (its private D-Bus on the node, reported with
// the clients); until a node has reported them, stats answer `counters: unavailable` with what is
// known. Disconnect asks the node (`nfs.disconnect`) to refuse the client's address for a while:
// ganesha cannot end one client's session (RemoveClient only forgets a statistics record), so the
// node puts a refusing rule before every export's own and reloads (agent nfs/blocked-clients.ts).
import type { z } from 'zod';
import {
  NFS_DEFAULT_PORT,
  NFS_EXPORTS_MAX,
  type createNfsExportRequestSchema,
  type NfsClientsResponse,
  type NfsDisconnectResponse,
  type NfsExport,
  type NfsExportsResponse,
  type NfsSectionState,
  type NfsStats,
  type NfsStatus,
  type updateNfsExportRequestSchema,
  type WorkspaceApplyResponse,
  nfsClientAdmits,
  NODE_DRIVERS,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, type AppFieldError } from '../../http/app-error.ts';
import type { DirectoryReader } from '../directory/directory.reader.ts';
import type { ServiceRow } from '../services/workspace-rows.ts';
import { nodeCallError } from '../nodes/node-calls.ts';
import type { ChangeMeta, RecordActivity, WorkspaceChanges } from '../workspace/workspace-change.ts';
import { applyProgress, reportedDriver } from '../workspace/feature-status.ts';
import {
  servicesAddressOf,
  type DirectoryDependent,
  type NodeCalls,
  type PlanFacts,
} from '../workspace/workspace-feature.ts';
import { desiredExport, NFS_EXPORT_FAILURE_KIND, presentClient, presentExport } from './nfs.presenter.ts';
import { createNfsQueries, type NfsExportRow } from './nfs.queries.ts';

/** The name the node's agent gives its NFS driver in its reports. */
export const NFS_DRIVER = NODE_DRIVERS.nfs;
/** What the NFS driver reports as failed: an export it could not serve. */
export const NFS_FAILURE_KINDS = [NFS_EXPORT_FAILURE_KIND] as const;

type Reader = Pick<DirectoryReader, 'usersNamed' | 'names'>;
type CreateExport = z.output<typeof createNfsExportRequestSchema>;
type UpdateExport = z.output<typeof updateNfsExportRequestSchema>;

/** An export written as a deleted user is then written as the workspace itself. */
export const nfsDirectoryDependent: DirectoryDependent = {
  async userRemoved(tx, { userId, generation, at }) {
    await createNfsQueries(tx).dropOwner(userId, generation, at);
  },
  async groupRemoved() {
    // Exports name no groups.
  },
};

function requireExport(row: NfsExportRow | undefined): NfsExportRow {
  if (!row) throw new AppError('nfs_export_not_found');
  return row;
}

function throwFieldErrors(errors: AppFieldError[]): void {
  if (errors.length > 0) throw new AppError('validation_error', { fieldErrors: errors });
}

/** `{path}` of a URL as the export's key: a leading or trailing `/` is dropped, as on creation. */
const pathKey = (path: string) => path.trim().replace(/^\/+|\/+$/g, '');

export function createNfsService(deps: {
  db: Db;
  changes: WorkspaceChanges;
  /** The directory read on a given handle (the change's transaction, or the database). */
  directory: (db: Db) => Reader;
  nodeCalls: Pick<NodeCalls, 'call'>;
  recordActivity: RecordActivity;
  plans: PlanFacts;
}) {
  const { changes } = deps;
  const queries = createNfsQueries(deps.db);
  const userNames = async (db: Db, serviceId: string) => (await deps.directory(db).names(serviceId)).users;

  /**
   * Where a client mounts the service's exports, read before a change's transaction: the plan is
   * read on the database, not the transaction (PGlite has one connection; the change holds it).
   */
  async function mountAddress(accountId: string, serviceId: string): Promise<string | null> {
    return servicesAddressOf(deps.plans, await changes.owned(accountId, serviceId));
  }

  async function presented(
    db: Db,
    service: ServiceRow,
    address: string | null,
    row: NfsExportRow,
  ): Promise<NfsExport> {
    return presentExport(service, address, row, await userNames(db, service.id));
  }

  /** The owner's user id (null: none), or a field error for an unknown or deactivated user. */
  async function ownerOf(db: Db, serviceId: string, name: string | null, errors: AppFieldError[]) {
    if (name === null) return null;
    const [user] = await deps.directory(db).usersNamed(serviceId, [name]);
    if (!user) errors.push({ field: 'owner', code: 'workspace_user_unknown' });
    else if (!user.active) errors.push({ field: 'owner', code: 'nfs_owner_inactive' });
    return user?.id ?? null;
  }

  return {
    async listExports(accountId: string, serviceId: string): Promise<NfsExportsResponse> {
      const service = await changes.owned(accountId, serviceId);
      const users = await userNames(deps.db, service.id);
      const address = await servicesAddressOf(deps.plans, service);
      return {
        exports: (await queries.listExports(service.id)).map((row) =>
          presentExport(service, address, row, users),
        ),
        limit: NFS_EXPORTS_MAX,
      };
    },

    async createExport(
      accountId: string,
      serviceId: string,
      request: CreateExport,
      meta: ChangeMeta,
    ): Promise<NfsExport> {
      const address = await mountAddress(accountId, serviceId);
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createNfsQueries(tx);
        const errors: AppFieldError[] = [];
        if (await q.findExport(service.id, request.path))
          errors.push({ field: 'path', code: 'nfs_path_exported' });
        const ownerUserId = await ownerOf(tx, service.id, request.owner, errors);
        throwFieldErrors(errors);
        if ((await q.countExports(service.id)) >= NFS_EXPORTS_MAX) {
          throw new AppError('nfs_export_limit', { extra: { limit: NFS_EXPORTS_MAX } });
        }
        const row = await q.insertExport({
          serviceId: service.id,
          accountId,
          path: request.path,
          client: request.client,
          access: request.access,
          description: request.description,
          ownerUserId,
          changedGeneration: generation,
          createdAt: at,
          updatedAt: at,
        });
        return {
          result: await presented(tx, service, address, row),
          activity: [
            {
              action: 'NFS export created',
              tone: 'success',
              details: { name: row.path, client: row.client, access: row.access },
            },
          ],
        };
      });
    },

    async updateExport(
      accountId: string,
      serviceId: string,
      path: string,
      request: UpdateExport,
      meta: ChangeMeta,
    ): Promise<NfsExport> {
      const address = await mountAddress(accountId, serviceId);
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createNfsQueries(tx);
        const row = requireExport(await q.findExport(service.id, pathKey(path)));
        const errors: AppFieldError[] = [];
        const ownerUserId =
          request.owner === undefined
            ? row.ownerUserId
            : await ownerOf(tx, service.id, request.owner, errors);
        throwFieldErrors(errors);
        const next = {
          client: request.client ?? row.client,
          access: request.access ?? row.access,
          description: request.description ?? row.description,
          ownerUserId,
        };
        const fields = (
          [
            ['client', 'client'],
            ['access', 'access'],
            ['description', 'description'],
            ['ownerUserId', 'owner'],
          ] as const
        )
          .filter(([key]) => next[key] !== row[key])
          .map(([, field]) => field);
        if (fields.length === 0) return { unchanged: await presented(tx, service, address, row) };
        const updated = await q.updateExport(row.id, {
          ...next,
          changedGeneration: generation,
          updatedAt: at,
        });
        return {
          result: await presented(tx, service, address, updated),
          activity: [{ action: 'NFS export updated', tone: 'info', details: { name: row.path, fields } }],
        };
      });
    },

    async deleteExport(accountId: string, serviceId: string, path: string, meta: ChangeMeta): Promise<void> {
      await changes.change(accountId, serviceId, meta, async ({ tx, service }) => {
        const q = createNfsQueries(tx);
        const row = requireExport(await q.findExport(service.id, pathKey(path)));
        await q.deleteExport(row.id);
        return {
          result: undefined,
          activity: [{ action: 'NFS export deleted', tone: 'warning', details: { name: row.path } }],
        };
      });
    },

    async clients(accountId: string, serviceId: string): Promise<NfsClientsResponse> {
      const service = await changes.owned(accountId, serviceId);
      const exports = await queries.listExports(service.id);
      return {
        clients: (await queries.clientsOf(service.id)).map((row) => presentClient(row, exports)),
        reported_at: (await queries.findServer(service.id))?.clientsReportedAt?.toISOString() ?? null,
      };
    },

    /**
     * Cuts a known client off now: the node refuses its address on every export until
     * `blocked_until`. Nothing of the desired state changes (the rule stays), so it is a node
     * call, not a change; it is recorded like one. A node without the call says so with its code.
     */
    async disconnect(
      accountId: string,
      serviceId: string,
      client: string,
      meta: ChangeMeta,
    ): Promise<NfsDisconnectResponse> {
      const service = await changes.owned(accountId, serviceId);
      changes.refuseUnlessChangeable(service, changes.now());
      const address = client.trim();
      const known = (await queries.clientsOf(service.id)).some((row) => row.address === address);
      if (!known) throw new AppError('nfs_client_not_found');
      if (service.nodeId === null) throw nodeCallError('not_placed');
      const answer = await deps.nodeCalls.call(service.id, 'nfs.disconnect', { address });
      if (!answer.ok) throw nodeCallError(answer.code, { unsupported: 'nfs_disconnect_unsupported' });
      await inTransaction(deps.db, (tx) =>
        deps.recordActivity(tx, {
          accountId,
          serviceId: service.id,
          ip: meta.ip,
          action: 'NFS client disconnected',
          tone: 'warning',
          details: { address },
        }),
      );
      return { address, blocked_until: answer.result.blocked_until };
    },

    async status(accountId: string, serviceId: string): Promise<NfsStatus> {
      const service = await changes.owned(accountId, serviceId);
      const driver = reportedDriver(service, NFS_DRIVER);
      const exports = await queries.countExports(service.id);
      const clients = await queries.clientsOf(service.id);
      return {
        placed: service.nodeId !== null,
        address: await servicesAddressOf(deps.plans, service),
        port: NFS_DEFAULT_PORT,
        protocol: 'nfs4',
        live: driver ? driver.live : null,
        serving: exports > 0 ? (driver?.serving ?? null) : null,
        reason: driver?.reason ?? null,
        ...applyProgress(service, NFS_FAILURE_KINDS),
        exports,
        limit: NFS_EXPORTS_MAX,
        clients: clients.length,
        connected: clients.filter((client) => client.connected).length,
      };
    },

    /**
     * Per export: the reported clients its rule admits, and the node's counters of it (reads plus
     * writes, bytes each way) once the node has reported them.
     */
    async stats(accountId: string, serviceId: string): Promise<NfsStats> {
      const service = await changes.owned(accountId, serviceId);
      const clients = await queries.clientsOf(service.id);
      const exports = await queries.listExports(service.id);
      return {
        counters: exports.some((entry) => entry.reads !== null) ? 'available' : 'unavailable',
        reported_at: (await queries.findServer(service.id))?.clientsReportedAt?.toISOString() ?? null,
        clients: clients.length,
        connected: clients.filter((client) => client.connected).length,
        exports: exports.map((entry) => {
          const hostname = nfsClientAdmits(entry.client, '0.0.0.0') === null;
          const admitted = clients.filter((client) => nfsClientAdmits(entry.client, client.address) === true);
          return {
            path: entry.path,
            client: entry.client,
            access: entry.access,
            clients: hostname ? null : admitted.length,
            connected: hostname ? null : admitted.filter((client) => client.connected).length,
            operations: entry.reads === null || entry.writes === null ? null : entry.reads + entry.writes,
            bytes_read: entry.readBytes,
            bytes_written: entry.writeBytes,
          };
        }),
      };
    },

    /** Asks the node to read its exports again (no restart): a new generation, nothing else. */
    async reload(accountId: string, serviceId: string, meta: ChangeMeta): Promise<WorkspaceApplyResponse> {
      return changes.change(accountId, serviceId, meta, async ({ generation }) => ({
        result: { generation },
        activity: [{ action: 'NFS reloaded', tone: 'info' }],
      }));
    },

    /** Sends the whole desired state again (a node that lost it catches up): a new generation. */
    async sync(accountId: string, serviceId: string, meta: ChangeMeta): Promise<WorkspaceApplyResponse> {
      return changes.change(accountId, serviceId, meta, async ({ generation }) => ({
        result: { generation },
        activity: [{ action: 'NFS synced', tone: 'info' }],
      }));
    },

    /** The `nfs` section of the service's desired state; none while it has no exports (no server). */
    async desiredSection(serviceId: string): Promise<{ nfs?: NfsSectionState }> {
      const exports = await queries.listExports(serviceId);
      if (exports.length === 0) return {};
      const users = await userNames(deps.db, serviceId);
      return { nfs: { port: NFS_DEFAULT_PORT, exports: exports.map((row) => desiredExport(row, users)) } };
    },

    /** Exports of each service that has any, for the services overview. */
    async counts(serviceIds: string[]): Promise<Map<string, { nfs_exports: number }>> {
      return new Map(
        (await queries.countsByService(serviceIds)).map((row) => [row.serviceId, { nfs_exports: row.total }]),
      );
    },
  };
}

export type NfsService = ReturnType<typeof createNfsService>;
