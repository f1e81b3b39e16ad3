// VPN users and sessions as the owner sees them, and the users as the node is told to serve them.
import {
  VPN_TUNNEL_NETWORK,
  firstHostAddress,
  type VpnSession,
  type VpnStatus,
  type VpnUser,
  type VpnUserState,
} from '@debesis/contract';
import { resourceStatus, type ObservedWorkspace } from '../services/resource-status.ts';
import type { VpnSessionRow, VpnUsageRow, VpnUserRow } from './vpn.queries.ts';

/** The resource kind the node's VPN driver reports a user it could not apply as. */
export const VPN_USER_FAILURE_KIND = 'vpn_user';

/**
 * Where the workspace's services are inside its tunnel: the server takes the network's first
 * address (OpenVPN's `server` directive, as the agent renders it), the clients the rest.
 */
export function presentTunnel(
  network: string = VPN_TUNNEL_NETWORK,
): Pick<VpnStatus, 'tunnel_address' | 'tunnel_network'> {
  return { tunnel_address: firstHostAddress(network), tunnel_network: network };
}

/** `203.0.113.5:51234` → `203.0.113.5`, `[2001:db8::1]:51234` → `2001:db8::1`; anything else as is. */
export function addressWithoutPort(address: string): string {
  const bracketed = /^\[([^\]]+)\]:\d+$/.exec(address);
  if (bracketed?.[1]) return bracketed[1];
  const v4 = /^([^:]+):\d+$/.exec(address);
  return v4?.[1] ?? address;
}

/** What the owner sees of a user: its account, its month's traffic and its live sessions. */
export function presentUser(
  service: ObservedWorkspace,
  user: VpnUserRow,
  context: {
    /** The user's sessions as last reported. */
    sessions: readonly VpnSessionRow[];
    usage: VpnUsageRow | undefined;
    /** The current month (`YYYY-MM`): usage of an earlier one no longer counts. */
    month: string;
  },
): VpnUser {
  const { status, error } = resourceStatus(service, {
    kind: VPN_USER_FAILURE_KIND,
    name: user.username,
    changedGeneration: user.changedGeneration,
  });
  const usage = context.usage?.month === context.month ? context.usage : undefined;
  const latest = context.sessions.reduce<VpnSessionRow | undefined>(
    (newest, session) =>
      !newest || session.connectedSince.getTime() >= newest.connectedSince.getTime() ? session : newest,
    undefined,
  );
  const sum = (pick: (session: VpnSessionRow) => number) =>
    context.sessions.reduce((total, session) => total + pick(session), 0);
  return {
    id: user.id,
    username: user.username,
    enabled: user.enabled,
    full_name: user.fullName,
    email: user.email,
    traffic_limit_bytes: user.trafficLimitBytes,
    traffic_used_bytes: usage ? usage.bytesSent + usage.bytesReceived : 0,
    over_limit: usage?.overLimit ?? false,
    revoked_at: user.revokedAt?.toISOString() ?? null,
    online: latest !== undefined,
    real_ip: latest ? addressWithoutPort(latest.realAddress) : null,
    virtual_ip: latest?.virtualAddress ?? null,
    bytes_sent: sum((session) => session.bytesSent),
    bytes_received: sum((session) => session.bytesReceived),
    connected_since: latest?.connectedSince.toISOString() ?? null,
    apply_status: status,
    apply_error: error,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

export function presentSession(
  session: VpnSessionRow,
  login: Pick<VpnUserRow, 'username' | 'purpose'> | undefined,
): VpnSession {
  return {
    user_id: session.userId,
    username: login?.username ?? '',
    backup_client: login?.purpose === 'backup_client',
    real_address: session.realAddress,
    virtual_address: session.virtualAddress,
    bytes_sent: session.bytesSent,
    bytes_received: session.bytesReceived,
    connected_since: session.connectedSince.toISOString(),
  };
}

export function desiredUser(user: VpnUserRow): VpnUserState {
  return {
    name: user.username,
    enabled: user.enabled,
    password_crypt: user.passwordCrypt,
    traffic_limit_bytes: user.trafficLimitBytes,
    cert_generation: user.certGeneration,
    // The node confines a machine's login to the REST server it exists for.
    ...(user.purpose === 'backup_client' ? { backup_client: true } : {}),
  };
}
