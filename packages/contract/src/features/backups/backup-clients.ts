// Backup clients of a workspace (service-management §3 "Backup client", §4, §7 "Backups";
// docs/features/backup-clients.md): a customer's own machine that pushes restic backups into the
// workspace over its VPN. Base /api/v1/backups/{serviceId}:
//   GET, POST clients                     list / create (201: with its password, shown this once)
//   POST clients/{clientId}/disconnect    revoke it: its VPN certificate and its REST login stop
//                                         working and its sessions end; its backups stay
//   DELETE clients/{clientId}             beyond the spec: the client and its backups go (204)
//   GET vpn-config?client_id              the client's VPN config (.ovpn, as JSON)
//
// A client is a VPN login of its own (named like it, not one of the plan's VPN users: the VPN tab
// lists it with its sessions only) and a repository of its own on the node, reached through the
// tunnel at `rest:http://<name>:<password>@<tunnel address>:8000/<name>/`. One password serves
// both logins; the API keeps only its hashes. The repository's encryption password is the
// customer's own: restic asks for it on their machine and the provider never sees it.
import { z } from 'zod';
import { text } from '../../strings.ts';
import { workspaceNameSchema, workspaceServiceParamsSchema } from '../users/directory.ts';
import { vpnConfigResponseSchema } from '../vpn/vpn.ts';

/** A client counts as connected for this long after its last push, without a VPN session. */
export const BACKUP_CLIENT_RECENT_PUSH_MINUTES = 15;

export const BACKUP_CLIENT_STATUSES = ['connected', 'disconnected'] as const;
export type BackupClientStatus = (typeof BACKUP_CLIENT_STATUSES)[number];

export const createBackupClientRequestSchema = z.object({
  /** Its login and repository name: the workspace name rule, unique among the VPN's logins. */
  name: workspaceNameSchema,
});
export type CreateBackupClientRequest = z.input<typeof createBackupClientRequestSchema>;

export const backupClientParamsSchema = workspaceServiceParamsSchema.extend({
  clientId: z.uuid({ error: 'invalid_format' }),
});

export const backupClientSchema = z.object({
  id: text(),
  name: text(),
  /** Connected: a VPN session now, or a push in the last BACKUP_CLIENT_RECENT_PUSH_MINUTES. */
  status: z.enum(BACKUP_CLIENT_STATUSES),
  /** When the owner disconnected (revoked) it; null: it may push. */
  revoked_at: text().nullable(),
  vpn_online: z.boolean(),
  /** A push is under way (it holds a lock in its repository). */
  pushing: z.boolean(),
  last_push_at: text().nullable(),
  /**
   * When the node last copied its repository to the operator's backup target, off the node
   * (docs/features/backup-clients.md); a `last_push_at` after it is not copied yet. Null: not
   * copied (no backup target, or nothing to copy yet).
   */
  off_node_at: text().nullable(),
  snapshots: z.number().int(),
  /** Bytes its repository takes on the node (null: not measured yet). */
  repository_bytes: z.number().int().nullable(),
  /** restic's repository URL, without the password. */
  repository_url: text(),
  created_at: text(),
});
export type BackupClient = z.infer<typeof backupClientSchema>;

/** POST clients: the new client and its password, which is never shown again. */
export const backupClientCreatedSchema = backupClientSchema.extend({ password: text() });
export type BackupClientCreated = z.infer<typeof backupClientCreatedSchema>;

export const backupClientsResponseSchema = z.object({
  clients: z.array(backupClientSchema),
  /** How many clients the plan allows (its user count, counted apart from VPN and service users). */
  limit: z.number().int(),
  /** Where clients push, inside the workspace's tunnel. */
  endpoint: z.object({ address: text(), port: z.number().int() }),
  /**
   * What all its clients' repositories may hold together (backupClientsQuotaBytes of the plan's
   * disk; a push past it fails on the client) and what they hold, as last measured.
   */
  quota: z.object({ bytes: z.number().int(), used_bytes: z.number().int() }),
});
export type BackupClientsResponse = z.infer<typeof backupClientsResponseSchema>;

export const backupVpnConfigQuerySchema = z.object({ client_id: z.uuid({ error: 'invalid_format' }) });
export const backupVpnConfigResponseSchema = vpnConfigResponseSchema;
