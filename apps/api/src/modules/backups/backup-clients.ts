// Backup clients (spec §3 "Backup client", §4, §7 "Backups"; docs/features/backup-clients.md): a
// customer's machine that pushes restic backups into its workspace over the workspace's VPN. A
// client is a VPN login of its own (vpn/vpn-logins.ts) and a REST login to its own repository on
// the node, both with one password that the owner is shown once and the API keeps only as hashes.
//
// Rules: a service holds as many clients as its plan has users, counted apart from VPN and
// service users (a plan change may not go below them); a name follows the workspace name rule
// and is unique among the VPN's logins, since it names the VPN login and the repository both.
// Disconnect revokes both logins for good and ends the client's sessions; its backups stay until
// the client is deleted, which deletes them on the node. Every change goes through the workspace
// change pipeline; the `backup` section carries the clients that may push and the repositories
// to keep.
import { randomBytes } from 'node:crypto';
import {
  BACKUP_CLIENT_PORT,
  BACKUP_CLIENT_RECENT_PUSH_MINUTES,
  VPN_TUNNEL_SERVER_ADDRESS,
  backupClientsQuotaBytes,
  type BackupClient,
  type BackupClientCreated,
  type BackupClientsResponse,
  type BackupSectionState,
  type CreateBackupClientRequest,
  type VpnConfigResponse,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { bcryptHash, sha512Crypt } from '../directory/passwords.ts';
import type { NodeCalls } from '../nodes/node-calls.ts';
import { storageBytes } from '../services/placement.ts';
import { loginConfig, machineLogins } from '../vpn/vpn-logins.ts';
import type { ChangeMeta, WorkspaceChanges } from '../workspace/workspace-change.ts';
import { createBackupClientsQueries, type BackupClientRow } from './backup-clients.queries.ts';

/** The password a client is given: 144 random bits, of characters a URL's user part takes as they are. */
export const newClientPassword = () => randomBytes(18).toString('base64url');

/** restic's URL of a client's repository, without its password. */
export const repositoryUrl = (name: string) =>
  `rest:http://${name}@${VPN_TUNNEL_SERVER_ADDRESS}:${BACKUP_CLIENT_PORT}/${name}/`;

export function presentClient(row: BackupClientRow, vpnOnline: boolean, now: Date): BackupClient {
  const recent =
    row.lastPushAt !== null &&
    now.getTime() - row.lastPushAt.getTime() < BACKUP_CLIENT_RECENT_PUSH_MINUTES * 60_000;
  const revoked = row.revokedAt !== null;
  return {
    id: row.id,
    name: row.name,
    status: !revoked && (vpnOnline || row.pushing || recent) ? 'connected' : 'disconnected',
    revoked_at: row.revokedAt?.toISOString() ?? null,
    vpn_online: !revoked && vpnOnline,
    pushing: !revoked && row.pushing,
    last_push_at: row.lastPushAt?.toISOString() ?? null,
    off_node_at: row.offNodeAt?.toISOString() ?? null,
    snapshots: row.snapshots,
    repository_bytes: row.repositoryBytes,
    repository_url: repositoryUrl(row.name),
    created_at: row.createdAt.toISOString(),
  };
}

export function createBackupClientsService(deps: {
  db: Db;
  changes: WorkspaceChanges;
  nodeCalls: NodeCalls;
}) {
  const { changes } = deps;
  const queries = createBackupClientsQueries(deps.db);

  async function requireClient(db: Db, serviceId: string, id: string, lock = false) {
    const row = await createBackupClientsQueries(db).find(serviceId, id, lock);
    if (!row) throw new AppError('backup_client_not_found');
    return row;
  }

  async function presentOne(db: Db, row: BackupClientRow, at: Date): Promise<BackupClient> {
    const online = await machineLogins(db).online(row.serviceId);
    return presentClient(row, row.vpnLoginId !== null && online.has(row.vpnLoginId), at);
  }

  return {
    async list(accountId: string, serviceId: string): Promise<BackupClientsResponse> {
      const service = await changes.owned(accountId, serviceId);
      const [rows, online] = await Promise.all([
        queries.list(service.id),
        machineLogins(deps.db).online(service.id),
      ]);
      const now = changes.now();
      return {
        clients: rows.map((row) =>
          presentClient(row, row.vpnLoginId !== null && online.has(row.vpnLoginId), now),
        ),
        limit: service.usersCount,
        endpoint: { address: VPN_TUNNEL_SERVER_ADDRESS, port: BACKUP_CLIENT_PORT },
        // The node holds the repositories to this (docs/features/backup-clients.md); what they hold
        // is the sum of their measured sizes, so the tab shows "x of y" without asking the node.
        quota: {
          bytes: backupClientsQuotaBytes(storageBytes(service.diskSpace)),
          used_bytes: rows.reduce((sum, row) => sum + (row.repositoryBytes ?? 0), 0),
        },
      };
    },

    async create(
      accountId: string,
      serviceId: string,
      { name }: CreateBackupClientRequest,
      meta: ChangeMeta,
    ): Promise<BackupClientCreated> {
      // Hashed before the transaction: bcrypt takes a good part of a second of CPU on purpose.
      const password = newClientPassword();
      const [passwordBcrypt, passwordCrypt] = [await bcryptHash(password), sha512Crypt(password)];
      const client = await changes.change<BackupClient>(
        accountId,
        serviceId,
        meta,
        async ({ tx, generation, service, at }) => {
          const q = createBackupClientsQueries(tx);
          const logins = machineLogins(tx);
          if (await logins.nameTaken(service.id, name)) throw new AppError('backup_client_exists');
          if ((await q.count(service.id)) >= service.usersCount) {
            throw new AppError('backup_client_limit', { extra: { limit: service.usersCount } });
          }
          const login = await logins.create({
            serviceId: service.id,
            accountId,
            username: name,
            passwordCrypt,
            generation,
            at,
          });
          const row = await q.insert({
            serviceId: service.id,
            accountId,
            name,
            vpnLoginId: login.id,
            passwordBcrypt,
            createdAt: at,
            updatedAt: at,
          });
          return {
            result: presentClient(row, false, at),
            activity: [{ action: 'Backup client added', tone: 'success', details: { name } }],
          };
        },
      );
      return { ...client, password };
    },

    async disconnect(
      accountId: string,
      serviceId: string,
      id: string,
      meta: ChangeMeta,
    ): Promise<BackupClient> {
      return changes.change<BackupClient>(
        accountId,
        serviceId,
        meta,
        async ({ tx, generation, service, at }) => {
          const row = await requireClient(tx, service.id, id, true);
          if (row.revokedAt !== null) return { unchanged: await presentOne(tx, row, at) };
          const logins = machineLogins(tx);
          const login = row.vpnLoginId ? await logins.find(service.id, row.vpnLoginId) : undefined;
          if (login) await logins.revoke(login, generation, at);
          const revoked = await createBackupClientsQueries(tx).revoke(row.id, at);
          return {
            result: presentClient(revoked, false, at),
            activity: [
              { action: 'Backup client disconnected', tone: 'warning', details: { name: row.name } },
            ],
          };
        },
      );
    },

    async remove(accountId: string, serviceId: string, id: string, meta: ChangeMeta): Promise<void> {
      await changes.change<void>(accountId, serviceId, meta, async ({ tx, service }) => {
        const row = await requireClient(tx, service.id, id, true);
        // Its VPN login goes with it (the node ends its sessions); its repository leaves the
        // section's list, so the node deletes it.
        if (row.vpnLoginId) await machineLogins(tx).remove(row.vpnLoginId);
        await createBackupClientsQueries(tx).remove(row.id);
        return {
          result: undefined,
          activity: [{ action: 'Backup client deleted', tone: 'warning', details: { name: row.name } }],
        };
      });
    },

    async vpnConfig(accountId: string, serviceId: string, id: string): Promise<VpnConfigResponse> {
      const service = await changes.owned(accountId, serviceId);
      const row = await requireClient(deps.db, service.id, id);
      const login = row.vpnLoginId
        ? await machineLogins(deps.db).find(service.id, row.vpnLoginId)
        : undefined;
      if (row.revokedAt !== null || !login) throw new AppError('backup_client_revoked');
      return loginConfig(deps.nodeCalls, service, login);
    },

    /** Every client holds one of the plan's users until it is deleted (its repository is kept). */
    count: (serviceId: string) => queries.count(serviceId),

    /** The clients' part of the `backup` section. */
    async desiredPart(
      serviceId: string,
    ): Promise<Pick<BackupSectionState, 'clients' | 'client_repositories'>> {
      const rows = await queries.list(serviceId);
      return {
        clients: rows
          .filter((row) => row.revokedAt === null)
          .map((row) => ({ name: row.name, password_bcrypt: row.passwordBcrypt })),
        client_repositories: rows.map((row) => row.name),
      };
    },
  };
}

export type BackupClientsService = ReturnType<typeof createBackupClientsService>;
