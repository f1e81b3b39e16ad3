// VPN logins as other features hold them, and a login's config. A backup client (backups module)
// reaches its workspace through the VPN with a login of its own: a row of vpn_users with purpose
// `backup_client`, so the node serves it like any VPN user (certificate, password check,
// sessions, revocation) while the VPN tab lists only the owner's VPN users. The feature that holds
// a login makes, revokes and deletes it here, inside its own change's transaction, and the VPN
// section of the desired state (vpn.service.ts) carries it from there.
import type { VpnConfigResponse } from '@debesis/contract';
import type { Executor } from '../../db/transaction.ts';
import type { AppError } from '../../http/app-error.ts';
import { nodeCallError, type NodeCallFailureCode, type NodeCalls } from '../nodes/node-calls.ts';
import type { ServiceRow } from '../services/workspace-rows.ts';
import { createVpnQueries, type VpnUserRow } from './vpn.queries.ts';

/** The VPN's own words for the node-call failures that mean something to it. */
export const vpnNodeCallError = (code: NodeCallFailureCode): AppError =>
  nodeCallError(code, {
    not_placed: 'vpn_not_placed',
    not_found: 'vpn_user_not_applied',
    unsupported: 'vpn_node_failed',
    failed: 'vpn_node_failed',
  });

/** `<service name>-<username>.ovpn`, of characters any file system and header take. */
export function configFilename(serviceName: string, username: string): string {
  const safe = (value: string) =>
    value
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^[-.]+|-+$/g, '');
  return `${[safe(serviceName).slice(0, 60), safe(username)].filter(Boolean).join('-')}.ovpn`;
}

/**
 * A login's inline .ovpn, as the node makes it (it alone holds the key): asked for each time and
 * handed through, never stored or logged.
 */
export async function loginConfig(
  nodeCalls: NodeCalls,
  service: Pick<ServiceRow, 'id' | 'name' | 'nodeId'>,
  login: Pick<VpnUserRow, 'username' | 'certGeneration'>,
): Promise<VpnConfigResponse> {
  if (service.nodeId === null) throw vpnNodeCallError('not_placed');
  const answer = await nodeCalls.call(service.id, 'vpn.config', {
    user: login.username,
    cert_generation: login.certGeneration,
  });
  if (!answer.ok) throw vpnNodeCallError(answer.code);
  return {
    type: 'ovpn',
    filename: configFilename(service.name, login.username),
    content: answer.result.ovpn,
  };
}

/** The logins of machines, on the handle of the holding feature's transaction. */
export function machineLogins(db: Executor) {
  const q = createVpnQueries(db);
  return {
    /** Whether a login (a VPN user's or a machine's) has this name, without regard to case. */
    async nameTaken(serviceId: string, username: string): Promise<boolean> {
      return (await q.findUserNamed(serviceId, username)) !== undefined;
    },

    /** A new login; its certificate generation is the change's, so the name's is new to the node. */
    async create(values: {
      serviceId: string;
      accountId: string;
      username: string;
      passwordCrypt: string;
      generation: number;
      at: Date;
    }): Promise<VpnUserRow> {
      return q.insertUser({
        serviceId: values.serviceId,
        accountId: values.accountId,
        username: values.username,
        passwordCrypt: values.passwordCrypt,
        purpose: 'backup_client',
        enabled: true,
        certGeneration: values.generation,
        changedGeneration: values.generation,
        createdAt: values.at,
        updatedAt: values.at,
      });
    },

    /**
     * Revoked for good: disabled, and its certificate generation raised past every one it had, so
     * the node revokes them (CRL) and ends its sessions.
     */
    async revoke(login: VpnUserRow, generation: number, at: Date): Promise<void> {
      await q.updateUser(login.id, {
        enabled: false,
        certGeneration: Math.max(generation, login.certGeneration + 1),
        revokedAt: at,
        changedGeneration: generation,
        updatedAt: at,
      });
    },

    find: (serviceId: string, loginId: string) => q.findLogin(serviceId, loginId),
    remove: (loginId: string) => q.deleteUser(loginId),

    /** The logins of the service with a session now (as the node last reported). */
    async online(serviceId: string): Promise<Set<string>> {
      return new Set((await q.sessionsOf(serviceId)).map((session) => session.userId));
    },
  };
}
