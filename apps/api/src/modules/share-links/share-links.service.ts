// Share links, the owner's side (spec §7 "Share links"; docs/features/share-links.md): make a link
// to a Samba share, an NFS export or a file or folder of the storage; list, revoke, delete; read
// who tried it. A link changes nothing on the node (the node is only asked for bytes when a visitor
// comes), so it does not go through the workspace change pipeline: it has its own transaction with
// its activity entry, and the service's generation stays where it is.
import {
  SHARE_LINK_EXPIRY_SECONDS,
  SHARE_LINK_PAGE_PATH,
  SHARE_LINKS_PER_SERVICE,
  type CreateShareLinkRequest,
  type ShareLink,
  type ShareLinkAccessLogQuery,
  type ShareLinkAccessLogResponse,
  type ShareLinksResponse,
  type StorageEntryType,
  type StorageListing,
  createShareLinkRequestSchema,
  shareLinkAccessLogQuerySchema,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../http/app-error.ts';
import { hashPassword } from '../auth/passwords.ts';
import { nfsFolders } from '../nfs/nfs-folders.ts';
import { nodeCallError, type NodeCalls } from '../nodes/node-calls.ts';
import { sambaFolders } from '../samba/samba-folders.ts';
import type { ServiceRow } from '../services/workspace-rows.ts';
import type { ChangeMeta, RecordActivity, WorkspaceChanges } from '../workspace/workspace-change.ts';
import { hashShareToken, newShareToken, type ShareLinkKeys } from './share-link-tokens.ts';
import { createShareLinksQueries, type ShareLinkRow } from './share-links.queries.ts';

/** A link's state now: revoked wins over expired; permanent links never expire. */
export function linkState(row: ShareLinkRow, now: Date): ShareLink['state'] {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt <= now) return 'expired';
  return 'active';
}

export const limitReached = (row: ShareLinkRow) =>
  row.downloadLimit !== null && row.downloads >= row.downloadLimit;

/** The storage path a link shares now: a Samba share's or NFS export's current folder, or its own. */
export async function sharedRoot(db: Db, row: Pick<ShareLinkRow, 'serviceId' | 'type' | 'target'>) {
  switch (row.type) {
    case 'samba': {
      const target = row.target.toLowerCase();
      return (await sambaFolders(db, row.serviceId)).find((share) => share.name.toLowerCase() === target)
        ?.path;
    }
    case 'nfs':
      return (await nfsFolders(db, row.serviceId)).find((entry) => entry.path === row.target)?.path;
    case 'path':
      return row.target;
  }
}

export interface ShareLinksDeps {
  db: Db;
  changes: Pick<WorkspaceChanges, 'owned' | 'now' | 'refuseUnlessChangeable'>;
  nodeCalls: NodeCalls;
  recordActivity: RecordActivity;
  keys: ShareLinkKeys;
  /** Where the product is reached from outside: links are `<publicUrl>/s/<token>`. */
  publicUrl: string;
}

export function createShareLinksService(deps: ShareLinksDeps) {
  const queries = createShareLinksQueries(deps.db);
  const base = deps.publicUrl.replace(/\/+$/, '');

  function present(row: ShareLinkRow, now: Date): ShareLink {
    const token = row.tokenSealed ? deps.keys.unseal(row.tokenSealed) : undefined;
    return {
      id: row.id,
      type: row.type,
      target: row.target,
      label: row.label,
      item_type: row.itemType,
      url: token ? `${base}${SHARE_LINK_PAGE_PATH}${token}` : null,
      expiry: row.expiry,
      expires_at: row.expiresAt?.toISOString() ?? null,
      has_password: row.passwordHash !== null,
      download_limit: row.downloadLimit,
      downloads: row.downloads,
      ip_allow: row.ipAllow,
      ip_deny: row.ipDeny,
      state: linkState(row, now),
      limit_reached: limitReached(row),
      created_at: row.createdAt.toISOString(),
      revoked_at: row.revokedAt?.toISOString() ?? null,
      last_access_at: row.lastAccessAt?.toISOString() ?? null,
    };
  }

  async function requireLink(service: ServiceRow, id: string): Promise<ShareLinkRow> {
    const row = await queries.find(service.id, id);
    if (!row) throw new AppError('share_link_not_found');
    return row;
  }

  const unknownTarget = () =>
    new AppError('validation_error', { fieldErrors: [{ field: 'target', code: 'share_target_unknown' }] });

  /** What the link would share is there now, and is a file or a folder. */
  async function checkTarget(
    service: ServiceRow,
    type: ShareLink['type'],
    target: string,
  ): Promise<StorageEntryType> {
    const root = await sharedRoot(deps.db, { serviceId: service.id, type, target });
    if (root === undefined) throw unknownTarget();
    // A share or an export is a folder by what it is; a custom path is what the node finds there.
    if (type !== 'path') return 'folder';
    const answer = await deps.nodeCalls.call(service.id, 'share.describe', { root, path: '' });
    if (!answer.ok) throw nodeCallError(answer.code);
    if (!answer.result.found) throw unknownTarget();
    return answer.result.type;
  }

  return {
    present,

    async list(accountId: string, serviceId: string): Promise<ShareLinksResponse> {
      const service = await deps.changes.owned(accountId, serviceId);
      const now = deps.changes.now();
      return { links: (await queries.list(service.id)).map((row) => present(row, now)) };
    },

    async create(
      accountId: string,
      serviceId: string,
      input: CreateShareLinkRequest,
      meta: ChangeMeta,
    ): Promise<ShareLink> {
      const request = createShareLinkRequestSchema.parse(input);
      const service = await deps.changes.owned(accountId, serviceId);
      const at = deps.changes.now();
      // As for any change of the workspace: paid and within its time, placed or waiting to be.
      deps.changes.refuseUnlessChangeable(service, at);
      if ((await queries.count(service.id)) >= SHARE_LINKS_PER_SERVICE)
        throw new AppError('share_link_limit');
      const itemType = await checkTarget(service, request.type, request.target);
      // Hashed before the transaction: argon2 takes its time on purpose.
      const passwordHash = request.password === undefined ? null : await hashPassword(request.password);
      const token = newShareToken();
      const seconds = SHARE_LINK_EXPIRY_SECONDS[request.expiry];
      const row = await inTransaction(deps.db, async (tx) => {
        const inserted = await createShareLinksQueries(tx).insert({
          serviceId: service.id,
          accountId,
          type: request.type,
          target: request.target,
          label: request.label ? request.label : null,
          itemType,
          tokenHash: hashShareToken(token),
          tokenSealed: deps.keys.seal(token),
          expiry: request.expiry,
          expiresAt: seconds === null ? null : new Date(at.getTime() + seconds * 1000),
          passwordHash,
          downloadLimit: request.download_limit ?? null,
          ipAllow: request.ip_allow,
          ipDeny: request.ip_deny,
          createdAt: at,
        });
        await deps.recordActivity(tx, {
          accountId,
          serviceId: service.id,
          ip: meta.ip,
          action: 'Share link created',
          tone: 'success',
          details: { name: inserted.label ?? inserted.target, type: inserted.type, expiry: inserted.expiry },
        });
        return inserted;
      });
      return present(row, at);
    },

    async revoke(accountId: string, serviceId: string, id: string, meta: ChangeMeta): Promise<ShareLink> {
      const service = await deps.changes.owned(accountId, serviceId);
      const link = await requireLink(service, id);
      const at = deps.changes.now();
      if (link.revokedAt) return present(link, at);
      const row = await inTransaction(deps.db, async (tx) => {
        const revoked = await createShareLinksQueries(tx).revoke(link.id, at);
        await deps.recordActivity(tx, {
          accountId,
          serviceId: service.id,
          ip: meta.ip,
          action: 'Share link revoked',
          tone: 'info',
          details: { name: link.label ?? link.target },
        });
        return revoked;
      });
      if (!row) throw new AppError('share_link_not_found');
      return present(row, at);
    },

    async remove(accountId: string, serviceId: string, id: string, meta: ChangeMeta): Promise<void> {
      const service = await deps.changes.owned(accountId, serviceId);
      const link = await requireLink(service, id);
      await inTransaction(deps.db, async (tx) => {
        await createShareLinksQueries(tx).remove(link.id);
        await deps.recordActivity(tx, {
          accountId,
          serviceId: service.id,
          ip: meta.ip,
          action: 'Share link deleted',
          tone: 'info',
          details: { name: link.label ?? link.target },
        });
      });
    },

    async accessLog(
      accountId: string,
      serviceId: string,
      id: string,
      query: ShareLinkAccessLogQuery,
    ): Promise<ShareLinkAccessLogResponse> {
      const service = await deps.changes.owned(accountId, serviceId);
      const link = await requireLink(service, id);
      const filter = shareLinkAccessLogQuerySchema.parse(query);
      const { rows, total } = await queries.accessLog(link.id, filter);
      return {
        entries: rows.map((row) => ({
          id: String(row.id),
          at: row.at.toISOString(),
          ip: row.ip,
          user_agent: row.userAgent,
          result: row.result,
          bytes_sent: row.bytesSent,
          path: row.path,
        })),
        total,
      };
    },

    /** One folder of the storage, for the owner to pick a custom path from. */
    async browseStorage(accountId: string, serviceId: string, path: string): Promise<StorageListing> {
      const service = await deps.changes.owned(accountId, serviceId);
      const answer = await deps.nodeCalls.call(service.id, 'storage.browse', { path });
      if (!answer.ok) throw nodeCallError(answer.code);
      if (!answer.result.found) throw new AppError('storage_folder_not_found');
      return { path, entries: answer.result.entries, truncated: answer.result.truncated };
    },
  };
}

export type ShareLinksService = ReturnType<typeof createShareLinksService>;
