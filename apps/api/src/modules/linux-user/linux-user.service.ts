// The Linux-user portal (service-management §1, §6 "Linux user", §7;
// docs/features/linux-user-portal.md): a workspace's own user signs in with the service ID of its
// workspace, its name and its password, and sees its workspace, the ways in it may use, changes its
// password and takes its VPN config. Everything it reads or changes goes through the owning
// modules' exported functions, as the owner's calls would, on the owner's account: the directory
// (its row, its groups, its password: one change through the workspace pipeline, which SMB, FTP,
// SFTP and LDAP all read), Samba and FTP (what it may reach), the VPN (a VPN user of the same name
// is the user's VPN access: its password follows, its config is the user's to take).
import {
  LINUX_USER_TOKEN_TTL_S,
  VPN_TUNNEL_SERVER_ADDRESS,
  type Language,
  type LinuxUserChangePasswordRequest,
  type LinuxUserChangePasswordResponse,
  type LinuxUserLoginRequest,
  type LinuxUserMe,
  type LinuxUserRights,
  type LinuxUserService,
  type LinuxUserShare,
  type LinuxUserSharesResponse,
  type LinuxUserTokenResponse,
  type SambaShare,
  type VpnConfigResponse,
  type VpnUser,
} from '@debesis/contract';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { LinuxUserCaller } from '../../http/caller.ts';
import type { createDirectoryReader } from '../directory/directory.reader.ts';
import type { DirectoryService } from '../directory/directory.service.ts';
import { sha512Crypt, verifySha512Crypt } from '../directory/passwords.ts';
import type { FtpService } from '../ftp/ftp.service.ts';
import {
  guessLimits,
  LIMITS,
  SIGN_IN_GUESSES,
  subjectFromSource,
  type RateLimiter,
} from '../rate-limits/rate-limits.service.ts';
import type { SambaService } from '../samba/samba.service.ts';
import { display } from '../services/lifecycle.ts';
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
  samba: Pick<SambaService, 'listShares'>;
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

/**
 * What a user may do in a share, as the node renders it (agent samba/resolve-shares.ts): an entry
 * of its own decides (write or admin: read and write; read: read; none: kept out, whatever its
 * groups); else an allowed group of its lets it read and write; else a guest share lets anyone in
 * to read, as a guest.
 */
function shareAccess(
  share: Pick<SambaShare, 'users' | 'groups' | 'guest_ok'>,
  user: string,
  groups: readonly string[],
): { rights: LinuxUserRights | undefined; group: string | null; asGuest: boolean } {
  const own = share.users.find((entry) => entry.name === user);
  if (own) {
    const rights = own.write || own.admin ? 'read_write' : own.read ? 'read' : undefined;
    return { rights, group: null, asGuest: false };
  }
  const group = share.groups.toSorted().find((name) => groups.includes(name));
  if (group) return { rights: 'read_write', group, asGuest: false };
  return share.guest_ok
    ? { rights: 'read', group: null, asGuest: true }
    : { rights: undefined, group: null, asGuest: false };
}

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

  /**
   * Whether the workspace still stands for its users: a terminated one (its data removed from its
   * node) signs nobody in and ends its tokens.
   */
  async function workspaceStands(accountId: string, serviceId: string): Promise<boolean> {
    try {
      return (await deps.changes.owned(accountId, serviceId)).status !== 'terminated';
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return false;
      throw error;
    }
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

  /**
   * The Samba shares the user can reach, with the rights the node gives them (shareAccess). A
   * share bound to the public address is reached there; any other (and every share of a NAT plan)
   * only through the workspace's VPN, at the tunnel's server address.
   */
  async function sambaShares(
    caller: LinuxUserCaller,
    service: { address: string | null; productId: string },
  ): Promise<LinuxUserShare[]> {
    const [{ shares }, groups, publicPlan] = await Promise.all([
      deps.samba.listShares(caller.accountId, caller.serviceId),
      deps.reader.groupsOf(caller.serviceId, caller.userId),
      deps.plans.publicAddress(service.productId),
    ]);
    const user = caller.username;
    const found: LinuxUserShare[] = [];
    for (const share of shares) {
      const { rights, group, asGuest } = shareAccess(share, user, groups);
      if (!rights) continue;
      const address =
        share.bind_public_ip && publicPlan ? service.address : service.address && VPN_TUNNEL_SERVER_ADDRESS;
      const host = address ?? '<address>';
      found.push({
        kind: 'smb',
        name: share.name,
        description: share.description,
        path: share.path,
        address: address ? `smb://${address}/${share.name}` : null,
        rights,
        via_group: group,
        // In a guest share the user is let in as a guest only (smbd refuses a known name it does
        // not list), so those commands connect without a name.
        connect: asGuest
          ? {
              windows: `net use * \\\\${host}\\${share.name}`,
              macos: `smb://guest@${host}/${share.name}`,
              linux: `smbclient //${host}/${share.name} -N`,
            }
          : {
              windows: `net use * \\\\${host}\\${share.name} /user:${user}`,
              macos: `smb://${user}@${host}/${share.name}`,
              linux: `smbclient //${host}/${share.name} -U ${user}`,
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
      const url = `ftp://${user}@${host}:${port}`;
      found.push({
        kind: 'ftp',
        name: 'ftp',
        description: '',
        path: '/',
        address: status.address ? `ftp://${status.address}:${port}` : null,
        rights,
        via_group: null,
        // Explorer's and Finder's address bars take the URL (Finder reads only); lftp writes too.
        connect: { windows: url, macos: url, linux: `lftp ${url}` },
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
        // OpenSSH's sftp ships with Windows 10 and later, macOS and Linux alike.
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
      const attempt = await deps.limiter.take(guessLimits(SIGN_IN_GUESSES, subject, meta.ip));
      const user = await deps.reader.findUser(serviceId, name);
      const passwordOk = verifySha512Crypt(request.password, user?.passwordCrypt ?? NO_USER_CRYPT);
      if (!user || !passwordOk || !(await workspaceStands(user.accountId, serviceId)))
        throw new AppError('invalid_credentials');
      await deps.limiter.release(attempt);
      // Only someone who knows the password learns the user's state.
      if (!user.active) throw new AppError('linux_user_inactive');
      await deps.limiter.clear(LIMITS.loginFailuresPerAccountAndIp, subjectFromSource(subject, meta.ip));
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
      if (
        !claims ||
        !user ||
        !user.active ||
        passwordFingerprint(user.passwordCrypt) !== claims.password ||
        !(await workspaceStands(user.accountId, user.serviceId))
      ) {
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
        display_state: display(service, deps.changes.now()).state,
        ip_address: service.address,
        vpn_only: !(await deps.plans.publicAddress(service.productId)),
        valid_until: service.validUntil.toISOString(),
      };
    },

    async shares(caller: LinuxUserCaller): Promise<LinuxUserSharesResponse> {
      const service = await deps.changes.owned(caller.accountId, caller.serviceId);
      return {
        shares: [...(await sambaShares(caller, service)), ...(await ftpShares(caller))],
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
