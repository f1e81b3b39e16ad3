// The Linux-user portal (service-management §1, §6 "Linux user", §7; README "The Linux-user
// portal"): a workspace's own user signs in with the service ID of its workspace, its name and its
// password, and sees its workspace, the ways in it may use, changes its password and takes its VPN
// config. Everything it reads or changes goes through the owning modules' exported functions, as
// the owner's calls would, on the owner's account: the directory (its row, its groups, its
// password: one change through the workspace pipeline, which SMB, FTP, SFTP and LDAP all read),
// Samba and FTP (what it may reach), the VPN (a VPN user of the same name is the user's VPN
// access: its password follows, its config is the user's to take).
import {
  LINUX_USER_TOKEN_TTL_S,
  type Language,
  type LinuxUserChangePasswordRequest,
  type LinuxUserChangePasswordResponse,
  type LinuxUserLoginRequest,
  type LinuxUserMe,
  type LinuxUserService,
  type LinuxUserShare,
  type LinuxUserSharesResponse,
  type LinuxUserTokenResponse,
  type VpnConfigResponse,
  type VpnUser,
} from '@debesis/contract';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { LinuxUserCaller } from '../../http/caller.ts';
import type { createDirectoryReader, DirectoryService } from '../directory/directory.service.ts';
import { sha512Crypt, verifySha512Crypt } from '../directory/passwords.ts';
import type { FtpService } from '../ftp/ftp.service.ts';
import { LIMITS, type RateLimiter } from '../rate-limits/rate-limits.service.ts';
import type { SambaService } from '../samba/samba.service.ts';
import type { VpnService } from '../vpn/vpn.service.ts';
import type { ChangeMeta, RecordActivity, WorkspaceChanges } from '../workspace/workspace-change.ts';
import type { PlanFacts } from '../workspace/workspace-feature.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Db } from '../../db/database.ts';
import { passwordFingerprint, type LinuxUserTokens } from './linux-user-tokens.ts';

export interface LinuxUserPortalDeps {
  db: Db;
  changes: Pick<WorkspaceChanges, 'owned' | 'now'>;
  recordActivity: RecordActivity;
  limiter: RateLimiter;
  plans: PlanFacts;
  tokens: LinuxUserTokens;
  reader: ReturnType<typeof createDirectoryReader>;
  directory: Pick<DirectoryService, 'setPassword'>;
  samba: Pick<SambaService, 'listShares' | 'permissions'>;
  ftp: Pick<FtpService, 'listUsers' | 'status'>;
  vpn: Pick<VpnService, 'listUsers' | 'resetPassword' | 'config'>;
}

/** Spent on a sign-in whose user does not exist, so the answer takes as long as a real check. */
const NO_USER_CRYPT = sha512Crypt('no such user: the same work as a real check');

const CHANGED: Record<Language, string> = {
  en: 'Your password was changed.',
  lt: 'Jūsų slaptažodis pakeistas.',
};

/** The ways in a password change reaches: all read the directory's hashes. */
const DIRECTORY_SERVICES = ['smb', 'ftp', 'sftp', 'ldap'];

export function createLinuxUserPortal(deps: LinuxUserPortalDeps) {
  async function token(user: { id: string; serviceId: string; passwordCrypt: string }) {
    return {
      access_token: await deps.tokens.sign({
        userId: user.id,
        serviceId: user.serviceId,
        password: passwordFingerprint(user.passwordCrypt),
      }),
      token_type: 'bearer' as const,
      expires_in: LINUX_USER_TOKEN_TTL_S,
    };
  }

  /** The user's row as it is now (the guard admitted it a moment ago). */
  async function userOf(caller: LinuxUserCaller) {
    const user = await deps.reader.findUserById(caller.serviceId, caller.userId);
    if (!user) throw unauthorized();
    return user;
  }

  /** The workspace's VPN user of the same name, if any: the Linux user's VPN access. */
  async function vpnLogin(caller: LinuxUserCaller): Promise<VpnUser | undefined> {
    const { users } = await deps.vpn.listUsers(caller.accountId, caller.serviceId);
    return users.find((user) => user.username.toLowerCase() === caller.username.toLowerCase());
  }

  async function sambaShares(caller: LinuxUserCaller, address: string | null): Promise<LinuxUserShare[]> {
    const [{ shares }, groups] = await Promise.all([
      deps.samba.listShares(caller.accountId, caller.serviceId),
      deps.reader.groupsOf(caller.serviceId, caller.userId),
    ]);
    const found: LinuxUserShare[] = [];
    for (const share of shares) {
      let rights: { read: boolean; write: boolean } | undefined = share.users.find(
        (entry) => entry.name === caller.username,
      );
      let viaGroup: string | null = null;
      const group = rights ? undefined : share.groups.find((name) => groups.includes(name));
      if (group) {
        const { permissions } = await deps.samba.permissions(caller.accountId, caller.serviceId, share.name);
        rights = permissions.find((entry) => entry.kind === 'group' && entry.name === group);
        viaGroup = group;
      }
      if (!rights && share.guest_ok) rights = { read: true, write: false };
      if (!rights?.read) continue;
      const host = address ?? '<address>';
      found.push({
        kind: 'smb',
        name: share.name,
        description: share.description,
        path: share.path,
        address: address ? `smb://${address}/${share.name}` : null,
        rights: rights.write ? 'read_write' : 'read',
        via_group: viaGroup,
        connect: {
          windows: `net use * \\\\${host}\\${share.name} /user:${caller.username}`,
          macos: `smb://${caller.username}@${host}/${share.name}`,
          linux: `smbclient //${host}/${share.name} -U ${caller.username}`,
        },
      });
    }
    return found;
  }

  async function ftpShares(caller: LinuxUserCaller): Promise<LinuxUserShare[]> {
    const [{ users }, status] = await Promise.all([
      deps.ftp.listUsers(caller.accountId, caller.serviceId),
      deps.ftp.status(caller.accountId, caller.serviceId),
    ]);
    const mine = users.find((user) => user.name === caller.username);
    if (!mine?.enabled || !mine.active) return [];
    const host = status.address ?? '<address>';
    const rights = mine.permissions === 'read_write' ? 'read_write' : 'read';
    const found: LinuxUserShare[] = [];
    const user = caller.username;
    if (status.ftp.enabled) {
      const port = status.ftp.port;
      const url = `ftp://${user}@${host}:${port}/`;
      found.push({
        kind: 'ftp',
        name: 'ftp',
        description: '',
        path: '/',
        address: status.address ? `ftp://${status.address}:${port}` : null,
        rights,
        via_group: null,
        connect: {
          windows: url,
          macos: `lftp -u ${user} -p ${port} ${host}`,
          linux: `lftp -u ${user} -p ${port} ${host}`,
        },
      });
    }
    if (status.sftp.enabled) {
      const port = status.sftp.port;
      const command = `sftp -P ${port} ${user}@${host}`;
      found.push({
        kind: 'sftp',
        name: 'sftp',
        description: '',
        path: '/',
        address: status.address ? `sftp://${user}@${status.address}:${port}` : null,
        rights,
        via_group: null,
        connect: { windows: command, macos: command, linux: command },
      });
    }
    return found;
  }

  return {
    async login(
      request: LinuxUserLoginRequest,
      meta: { ip: string | null },
    ): Promise<LinuxUserTokenResponse> {
      const serviceId = request.client_id;
      const name = request.username.trim().toLowerCase();
      const subject = `linux-user:${serviceId}:${name}`;
      const attempt = await deps.limiter.take([
        [LIMITS.loginFailuresPerAccount, subject],
        [LIMITS.loginFailuresPerIp, meta.ip ?? 'unknown'],
      ]);
      const user = await deps.reader.findUser(serviceId, name);
      const passwordOk = verifySha512Crypt(request.password, user?.passwordCrypt ?? NO_USER_CRYPT);
      if (!user || !passwordOk) throw new AppError('invalid_credentials');
      await deps.limiter.release(attempt);
      // Only someone who knows the password learns the user's state.
      if (!user.active) throw new AppError('linux_user_inactive');
      await deps.limiter.clear(LIMITS.loginFailuresPerAccount, subject);
      await inTransaction(deps.db, (tx) =>
        deps.recordActivity(tx, {
          accountId: user.accountId,
          serviceId,
          ip: meta.ip,
          action: 'Linux user logged in',
          tone: 'info',
          details: { name: user.name },
        }),
      );
      return token(user);
    },

    /** Who a portal token belongs to now, or 401 (forged, expired, user gone, inactive, re-passworded). */
    async authenticate(accessToken: string): Promise<LinuxUserCaller> {
      const claims = deps.tokens.verify(accessToken);
      const user = claims && (await deps.reader.findUserById(claims.serviceId, claims.userId));
      if (!claims || !user || !user.active || passwordFingerprint(user.passwordCrypt) !== claims.password) {
        throw unauthorized();
      }
      return { accountId: user.accountId, serviceId: user.serviceId, userId: user.id, username: user.name };
    },

    async me(caller: LinuxUserCaller): Promise<LinuxUserMe> {
      const [user, service, groups, vpn] = await Promise.all([
        userOf(caller),
        deps.changes.owned(caller.accountId, caller.serviceId),
        deps.reader.groupsOf(caller.serviceId, caller.userId),
        vpnLogin(caller),
      ]);
      return {
        username: user.name,
        service_id: service.id,
        service_name: service.name,
        groups,
        vpn_access: vpn?.enabled === true,
        created_at: user.createdAt.toISOString(),
      };
    },

    async service(caller: LinuxUserCaller): Promise<LinuxUserService> {
      const service = await deps.changes.owned(caller.accountId, caller.serviceId);
      return {
        id: service.id,
        name: service.name,
        status: service.status,
        ip_address: service.address,
        vpn_only: !(await deps.plans.publicAddress(service.productId)),
        valid_until: service.validUntil.toISOString(),
      };
    },

    async shares(caller: LinuxUserCaller): Promise<LinuxUserSharesResponse> {
      const service = await deps.changes.owned(caller.accountId, caller.serviceId);
      return {
        shares: [...(await sambaShares(caller, service.address)), ...(await ftpShares(caller))],
      };
    },

    async changePassword(
      caller: LinuxUserCaller,
      request: LinuxUserChangePasswordRequest,
      meta: ChangeMeta & { language: Language },
    ): Promise<LinuxUserChangePasswordResponse> {
      const user = await userOf(caller);
      const subject = `linux-user:${user.id}`;
      const attempt = await deps.limiter.take([[LIMITS.passwordCheckFailuresPerAccount, subject]]);
      if (!verifySha512Crypt(request.current_password, user.passwordCrypt))
        throw new AppError('invalid_current_password');
      await deps.limiter.release(attempt);
      // One change of the directory: Samba's passdb, the Unix shadow (FTP, SFTP) and LDAP follow it.
      await deps.directory.setPassword(
        caller.accountId,
        caller.serviceId,
        user.name,
        request.new_password,
        meta,
      );
      const appliedTo = [...DIRECTORY_SERVICES];
      const vpn = await vpnLogin(caller);
      if (vpn) {
        await deps.vpn.resetPassword(caller.accountId, caller.serviceId, vpn.id, request.new_password, meta);
        appliedTo.push('vpn');
      }
      await inTransaction(deps.db, (tx) =>
        deps.recordActivity(tx, {
          accountId: caller.accountId,
          serviceId: caller.serviceId,
          ip: meta.ip,
          action: 'Linux user password changed',
          tone: 'info',
          details: { name: user.name, applied_to: appliedTo },
        }),
      );
      const changed = await userOf(caller);
      return { ...(await token(changed)), message: CHANGED[meta.language], applied_to: appliedTo };
    },

    async vpnConfig(caller: LinuxUserCaller): Promise<VpnConfigResponse> {
      const vpn = await vpnLogin(caller);
      if (!vpn?.enabled) throw new AppError('linux_user_no_vpn');
      return deps.vpn.config(caller.accountId, caller.serviceId, vpn.id);
    },
  };
}

export type LinuxUserPortal = ReturnType<typeof createLinuxUserPortal>;
