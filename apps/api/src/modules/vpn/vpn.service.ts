// The workspace's VPN (spec §3 "VPN user", §4, §5, §7 "VPN"): its users, the `vpn` section of
// the desired state, what the node reports of sessions and traffic, and the questions asked of
// the node (a user's config, ending sessions).
//
// Rules: VPN users are accounts of their own, not the service's Unix users (a person or device
// reaching the workspace's network), and a service holds as many as its plan has users, counted
// apart from service users; a plan change may not go below the VPN users a service has (each holds
// an issued certificate, enabled or not: a customer deletes the ones they no longer need). A username follows the workspace name rule, is unique in the service
// without regard to case and never changes (it is the certificate's CN). Every change goes
// through the workspace change pipeline; the node applies it: a disabled user, a new password or
// a revoked certificate is refused at the next connect, and the node ends the sessions of users
// disabled, revoked or deleted. A config holds the user's private key, which only the node has:
// it is asked for each time and handed through, never stored or logged.
import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  VPN_CONFIG_LINK_TTL_SECONDS,
  VPN_DEFAULT_PORT,
  type createVpnUserRequestSchema,
  type updateVpnUserRequestSchema,
  type VpnConfigLinkResponse,
  type VpnConfigResponse,
  type VpnDisconnectResponse,
  type VpnSectionState,
  type VpnSessionsResponse,
  type VpnStatus,
  type VpnTrafficRange,
  type VpnTrafficResponse,
  type VpnUser,
  type VpnUsersResponse,
  type WorkspaceApplyResponse,
  NODE_DRIVERS,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { sha512Crypt } from '../directory/passwords.ts';
import { createWorkspaceRows, type ServiceRow } from '../services/workspace-rows.ts';
import type { ActivityNote, ChangeMeta, WorkspaceChanges } from '../workspace/workspace-change.ts';
import { applyProgress, reportedDriver } from '../workspace/feature-status.ts';
import type { NodeCallFailureCode, NodeCalls } from '../workspace/workspace-feature.ts';
import {
  desiredUser,
  presentSession,
  presentTunnel,
  presentUser,
  VPN_USER_FAILURE_KIND,
} from './vpn.presenter.ts';
import { createVpnQueries, type VpnUserChange, type VpnUserRow } from './vpn.queries.ts';
import { loginConfig, vpnNodeCallError } from './vpn-logins.ts';
import { monthOf, rangeStart, TRAFFIC_RANGES, trafficBuckets } from './vpn.traffic.ts';

/** The name the node's agent gives its VPN driver in its reports. */
export const VPN_DRIVER = NODE_DRIVERS.vpn;
/** What the VPN driver reports as failed: a user it could not apply. */
export const VPN_FAILURE_KINDS = [VPN_USER_FAILURE_KIND] as const;

type CreateUser = z.output<typeof createVpnUserRequestSchema>;
type UpdateUser = z.output<typeof updateVpnUserRequestSchema>;

/** The public path of a one-time config link (under the API's public address). */
export const VPN_CONFIG_LINK_PATH = '/api/v1/vpn/config-links/';

function requireUser(user: VpnUserRow | undefined): VpnUserRow {
  if (!user) throw new AppError('vpn_user_not_found');
  return user;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function createVpnService(deps: {
  db: Db;
  changes: WorkspaceChanges;
  nodeCalls: NodeCalls;
  /** The product's public address, for the one-time links. */
  publicUrl: string;
}) {
  const { changes, nodeCalls } = deps;
  const queries = createVpnQueries(deps.db);

  /** Every user of the service as the owner sees them, with sessions and this month's traffic. */
  async function presentUsers(db: Db, service: ServiceRow): Promise<Map<string, VpnUser>> {
    const q = createVpnQueries(db);
    const [users, sessions, usage] = [
      await q.listUsers(service.id),
      await q.sessionsOf(service.id),
      await q.usageOf(service.id),
    ];
    const month = monthOf(changes.now());
    const usageOf = new Map(usage.map((row) => [row.userId, row]));
    return new Map(
      users.map((user) => [
        user.id,
        presentUser(service, user, {
          sessions: sessions.filter((session) => session.userId === user.id),
          usage: usageOf.get(user.id),
          month,
        }),
      ]),
    );
  }

  async function presented(db: Db, service: ServiceRow, userId: string): Promise<VpnUser> {
    const user = (await presentUsers(db, service)).get(userId);
    if (!user) throw new AppError('vpn_user_not_found');
    return user;
  }

  /** One change of one user of the owner's service, through the change pipeline. */
  function changeUser(
    accountId: string,
    serviceId: string,
    userId: string,
    meta: ChangeMeta,
    /** The user's new values and the change's activity; null: nothing changes. */
    work: (
      user: VpnUserRow,
      generation: number,
      at: Date,
    ) => { values: Omit<VpnUserChange, 'changedGeneration' | 'updatedAt'>; activity: ActivityNote[] } | null,
  ): Promise<VpnUser> {
    return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
      const q = createVpnQueries(tx);
      const user = requireUser(await q.findUser(service.id, userId));
      const done = work(user, generation, at);
      if (!done) return { unchanged: await presented(tx, service, user.id) };
      await q.updateUser(user.id, { ...done.values, changedGeneration: generation, updatedAt: at });
      return { result: await presented(tx, service, user.id), activity: done.activity };
    });
  }

  /** Ends sessions now; a node without the user or without a VPN has none to end. */
  function disconnected(
    answer: { ok: true; result: VpnDisconnectResponse } | { ok: false; code: NodeCallFailureCode },
  ): VpnDisconnectResponse {
    if (answer.ok) return { disconnected: answer.result.disconnected };
    if (answer.code === 'not_found') return { disconnected: 0 };
    throw vpnNodeCallError(answer.code);
  }

  return {
    async listUsers(accountId: string, serviceId: string): Promise<VpnUsersResponse> {
      const service = await changes.owned(accountId, serviceId);
      return { users: [...(await presentUsers(deps.db, service)).values()], limit: service.usersCount };
    },

    async getUser(accountId: string, serviceId: string, userId: string): Promise<VpnUser> {
      const service = await changes.owned(accountId, serviceId);
      return presented(deps.db, service, userId);
    },

    async createUser(
      accountId: string,
      serviceId: string,
      request: CreateUser,
      meta: ChangeMeta,
    ): Promise<VpnUser> {
      // Hashed before the transaction: SHA-512 crypt takes a few milliseconds of CPU.
      const passwordCrypt = sha512Crypt(request.password);
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createVpnQueries(tx);
        if (await q.findUserNamed(service.id, request.username)) throw new AppError('vpn_user_exists');
        if ((await q.countUsers(service.id)) >= service.usersCount) {
          throw new AppError('vpn_user_limit', { extra: { limit: service.usersCount } });
        }
        const user = await q.insertUser({
          serviceId: service.id,
          accountId,
          username: request.username,
          passwordCrypt,
          enabled: request.enabled,
          fullName: request.full_name,
          email: request.email,
          trafficLimitBytes: request.traffic_limit_bytes,
          // The generation is new to the service, so the node never held a certificate of it
          // for this name, even for a user of the same name deleted before.
          certGeneration: generation,
          changedGeneration: generation,
          createdAt: at,
          updatedAt: at,
        });
        return {
          result: await presented(tx, service, user.id),
          activity: [{ action: 'VPN user created', tone: 'success', details: { name: user.username } }],
        };
      });
    },

    async updateUser(
      accountId: string,
      serviceId: string,
      userId: string,
      request: UpdateUser,
      meta: ChangeMeta,
    ): Promise<VpnUser> {
      return changeUser(accountId, serviceId, userId, meta, (user) => {
        const next = {
          enabled: request.enabled ?? user.enabled,
          fullName: request.full_name ?? user.fullName,
          email: request.email ?? user.email,
          trafficLimitBytes: request.traffic_limit_bytes ?? user.trafficLimitBytes,
        };
        const fields = (
          [
            ['fullName', 'full_name'],
            ['email', 'email'],
            ['trafficLimitBytes', 'traffic_limit_bytes'],
          ] as const
        )
          .filter(([key]) => next[key] !== user[key])
          .map(([, field]) => field);
        const enabledChanged = next.enabled !== user.enabled;
        if (fields.length === 0 && !enabledChanged) return null;
        const name = user.username;
        return {
          values: next,
          activity: [
            ...(enabledChanged
              ? [
                  {
                    action: next.enabled ? 'VPN user enabled' : 'VPN user disabled',
                    tone: 'info',
                    details: { name },
                  } satisfies ActivityNote,
                ]
              : []),
            ...(fields.length > 0
              ? [
                  {
                    action: 'VPN user updated',
                    tone: 'info',
                    details: { name, fields },
                  } satisfies ActivityNote,
                ]
              : []),
          ],
        };
      });
    },

    async deleteUser(accountId: string, serviceId: string, userId: string, meta: ChangeMeta): Promise<void> {
      await changes.change(accountId, serviceId, meta, async ({ tx, service }) => {
        const q = createVpnQueries(tx);
        const user = requireUser(await q.findUser(service.id, userId));
        // Its sessions, usage and links go with it; its traffic history stays the workspace's.
        await q.deleteUser(user.id);
        return {
          result: undefined,
          activity: [{ action: 'VPN user deleted', tone: 'warning', details: { name: user.username } }],
        };
      });
    },

    async resetPassword(
      accountId: string,
      serviceId: string,
      userId: string,
      password: string,
      meta: ChangeMeta,
    ): Promise<VpnUser> {
      const passwordCrypt = sha512Crypt(password);
      return changeUser(accountId, serviceId, userId, meta, (user) => ({
        values: { passwordCrypt },
        activity: [{ action: 'VPN user password changed', tone: 'info', details: { name: user.username } }],
      }));
    },

    async revoke(accountId: string, serviceId: string, userId: string, meta: ChangeMeta): Promise<VpnUser> {
      return changeUser(accountId, serviceId, userId, meta, (user, generation, at) => ({
        // Above every generation the user's certificates had: the node revokes them all.
        values: { certGeneration: Math.max(generation, user.certGeneration + 1), revokedAt: at },
        activity: [{ action: 'VPN user revoked', tone: 'warning', details: { name: user.username } }],
      }));
    },

    async disconnect(accountId: string, serviceId: string, userId: string): Promise<VpnDisconnectResponse> {
      const service = await changes.owned(accountId, serviceId);
      const user = requireUser(await queries.findUser(service.id, userId));
      if (service.nodeId === null) return { disconnected: 0 };
      return disconnected(await nodeCalls.call(service.id, 'vpn.disconnect', { user: user.username }));
    },

    async killAll(accountId: string, serviceId: string): Promise<VpnDisconnectResponse> {
      const service = await changes.owned(accountId, serviceId);
      if (service.nodeId === null) return { disconnected: 0 };
      return disconnected(await nodeCalls.call(service.id, 'vpn.kill_all', {}));
    },

    async sessions(accountId: string, serviceId: string): Promise<VpnSessionsResponse> {
      const service = await changes.owned(accountId, serviceId);
      const logins = new Map((await queries.listLogins(service.id)).map((login) => [login.id, login]));
      const server = await queries.findServer(service.id);
      return {
        sessions: (await queries.sessionsOf(service.id)).map((session) =>
          presentSession(session, logins.get(session.userId)),
        ),
        reported_at: server?.sessionsReportedAt?.toISOString() ?? null,
      };
    },

    async traffic(
      accountId: string,
      serviceId: string,
      query: { range: VpnTrafficRange; user_id?: string | undefined },
    ): Promise<VpnTrafficResponse> {
      const service = await changes.owned(accountId, serviceId);
      if (query.user_id) requireUser(await queries.findUser(service.id, query.user_id));
      const now = changes.now();
      const rows = await queries.traffic(service.id, {
        from: rangeStart(query.range, now),
        unit: TRAFFIC_RANGES[query.range].unit,
        userId: query.user_id,
      });
      return { range: query.range, buckets: trafficBuckets(query.range, now, rows) };
    },

    async status(accountId: string, serviceId: string): Promise<VpnStatus> {
      const service = await changes.owned(accountId, serviceId);
      const driver = reportedDriver(service, VPN_DRIVER);
      const users = await queries.countUsers(service.id);
      // The server runs for backup clients' logins too.
      const logins = (await queries.listLogins(service.id)).length;
      return {
        placed: service.nodeId !== null,
        address: service.address,
        port: VPN_DEFAULT_PORT,
        protocol: 'udp',
        ...presentTunnel(),
        live: driver ? driver.live : null,
        serving: logins > 0 ? (driver?.serving ?? null) : null,
        reason: driver?.reason ?? null,
        ...applyProgress(service, VPN_FAILURE_KINDS),
        users,
        sessions: (await queries.sessionsOf(service.id)).length,
        limit: service.usersCount,
      };
    },

    /** Restarts the VPN server alone: a new restart token in its section. */
    async restart(accountId: string, serviceId: string, meta: ChangeMeta): Promise<WorkspaceApplyResponse> {
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        await createVpnQueries(tx).saveRestart(service.id, accountId, generation, at);
        return { result: { generation }, activity: [{ action: 'VPN server restarted', tone: 'info' }] };
      });
    },

    /** Asks the node to apply the VPN configuration again: a new generation, nothing else. */
    async reload(accountId: string, serviceId: string, meta: ChangeMeta): Promise<WorkspaceApplyResponse> {
      return changes.change(accountId, serviceId, meta, async ({ generation }) => ({
        result: { generation },
        activity: [{ action: 'VPN reloaded', tone: 'info' }],
      }));
    },

    async config(accountId: string, serviceId: string, userId: string): Promise<VpnConfigResponse> {
      const service = await changes.owned(accountId, serviceId);
      return loginConfig(nodeCalls, service, requireUser(await queries.findUser(service.id, userId)));
    },

    /** A link to the user's config that works once, for a few minutes, without signing in. */
    async createLink(accountId: string, serviceId: string, userId: string): Promise<VpnConfigLinkResponse> {
      const service = await changes.owned(accountId, serviceId);
      const user = requireUser(await queries.findUser(service.id, userId));
      if (service.nodeId === null) throw new AppError('vpn_not_placed');
      const at = changes.now();
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(at.getTime() + VPN_CONFIG_LINK_TTL_SECONDS * 1000);
      await queries.pruneLinks(service.id, at);
      await queries.insertLink({
        tokenHash: hashToken(token),
        serviceId: service.id,
        accountId,
        userId: user.id,
        expiresAt,
        createdAt: at,
      });
      return {
        url: `${deps.publicUrl.replace(/\/+$/, '')}${VPN_CONFIG_LINK_PATH}${token}`,
        expires_at: expiresAt.toISOString(),
      };
    },

    /** The config behind a one-time link: once, before it expires; else 404. */
    async configByLink(token: string): Promise<VpnConfigResponse> {
      const tokenHash = hashToken(token);
      const link = await queries.claimLink(tokenHash, changes.now());
      if (!link) throw notFound();
      const service = await createWorkspaceRows(deps.db).findForAccount(link.accountId, link.serviceId);
      const user = await queries.findUser(link.serviceId, link.userId);
      if (!service || !user) throw notFound();
      try {
        return await loginConfig(nodeCalls, service, user);
      } catch (error) {
        // The node did not answer: the link is not spent, the phone may try again in time.
        await queries.releaseLink(tokenHash);
        throw error;
      }
    },

    /** The `vpn` section of the service's desired state; none while it has no VPN users. */
    async desiredSection(serviceId: string): Promise<{ vpn?: VpnSectionState }> {
      const users = await queries.listLogins(serviceId);
      if (users.length === 0) return {};
      const server = await queries.findServer(serviceId);
      const restart = server?.restartGeneration;
      return {
        vpn: {
          port: VPN_DEFAULT_PORT,
          users: users.map(desiredUser),
          ...(restart !== null && restart !== undefined ? { restart_token: String(restart) } : {}),
        },
      };
    },

    /** VPN users and those connected, of each service that has VPN users. */
    /** Every VPN user holds one of the plan's users, enabled or not (its certificate is issued). */
    usersCount: (serviceId: string) => queries.countUsers(serviceId),

    async counts(serviceIds: string[]): Promise<Map<string, { vpn_users: number; vpn_online: number }>> {
      return new Map(
        (await queries.countsByService(serviceIds)).map((row) => [
          row.serviceId,
          { vpn_users: row.users, vpn_online: row.online },
        ]),
      );
    },
  };
}

export type VpnService = ReturnType<typeof createVpnService>;
