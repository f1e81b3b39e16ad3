// The Linux-user portal (service-management §1, §2, §3 "Linux-user login payload", §6, §7
// "Linux-user portal"; docs/features/linux-user-portal.md): a workspace's own users (the service
// users of the users tab, Unix accounts inside the workspace) see their service and their shares,
// change their password and take their VPN config, without asking the owner. The web pages are
// under /linux-user; the token is the portal's own, kept apart from the owner's (STORAGE_KEYS
// .linuxUserToken), and neither is taken where the other is meant.
//
//   POST /api/v1/auth/linux-user/login     form: username, password, grant_type=password, client_id
//   GET  /api/v1/api/linux-user/me         who is signed in
//   GET  /api/v1/api/linux-user/service    the workspace: name, state, address
//   GET  /api/v1/api/linux-user/shares     what this user can reach, how, and with which rights
//   POST /api/v1/api/linux-user/change-password
//                                          SMB, FTP, SFTP, LDAP and VPN alike (a new token back)
//   GET  /api/v1/api/linux-user/vpn-config/download
//                                          their own .ovpn, when the workspace has a VPN user of
//                                          the same name
//
// How a Linux user names their workspace: by its service ID, sent as `client_id` (OAuth's
// password grant names the client there; here the "client" is the workspace the user belongs
// to). The owner hands it on with the user name, as for subusers; the portal's sign-in page takes
// it from `?service=` too, so the owner can share one link. A workspace's IP address is not used:
// on a plan with a shared (NAT) address it names many workspaces.
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../../constants.ts';
import { SERVICE_DISPLAY_STATES } from '../../services.ts';
import { text } from '../../strings.ts';

/** The portal's pages (web) and the API bases (spec §7). */
export const LINUX_USER_PORTAL_PATH = '/linux-user';
export const LINUX_USER_LOGIN_PATH = '/api/v1/auth/linux-user/login';
export const LINUX_USER_API_BASE = '/api/v1/api/linux-user';
/** A portal token lives an hour; the portal signs in again after it (no refresh token). */
export const LINUX_USER_TOKEN_TTL_S = 60 * 60;
/**
 * The prefix of a portal token (a signed JWT after it): the API tells it from an owner's token and
 * a subuser's by it, and refuses it anywhere but the portal's routes (403 `linux_user_not_allowed`).
 */
export const LINUX_USER_TOKEN_PREFIX = 'lut_';

/** The form the portal posts (application/x-www-form-urlencoded; JSON is taken too). */
export const linuxUserLoginRequestSchema = z.object({
  username: text({ error: 'required' }).trim().min(1, 'required').max(64),
  password: text({ error: 'required' }).min(1, 'required').max(1024),
  grant_type: z.literal('password', { error: 'unsupported_grant_type' }),
  /** The service ID of the user's workspace. */
  client_id: z.uuid({ error: 'linux_user_workspace_invalid' }),
});
export type LinuxUserLoginRequest = z.input<typeof linuxUserLoginRequestSchema>;

export const linuxUserTokenResponseSchema = z.object({
  access_token: text(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
});
export type LinuxUserTokenResponse = z.infer<typeof linuxUserTokenResponseSchema>;

export const linuxUserMeSchema = z.object({
  username: text(),
  service_id: text(),
  service_name: text(),
  /** Primary group first, then supplementary ones. */
  groups: z.array(text()),
  /** Whether the workspace has a VPN user of this name that may connect (its config can be taken). */
  vpn_access: z.boolean(),
  created_at: text(),
});
export type LinuxUserMe = z.infer<typeof linuxUserMeSchema>;

export const linuxUserServiceSchema = z.object({
  id: text(),
  name: text(),
  status: text(),
  /** What the owner's services list shows for it (stopped, restarting, offline…): one model for both. */
  display_state: z.enum(SERVICE_DISPLAY_STATES),
  /** Where its shares are reached; null while the workspace has no address yet. */
  ip_address: text().nullable(),
  /** Whether that address is reached through the VPN only (a plan with a shared, NAT address). */
  vpn_only: z.boolean(),
  valid_until: text().nullable(),
});
export type LinuxUserService = z.infer<typeof linuxUserServiceSchema>;

export const LINUX_USER_SHARE_KINDS = ['smb', 'ftp', 'sftp'] as const;
export type LinuxUserShareKind = (typeof LINUX_USER_SHARE_KINDS)[number];

export const LINUX_USER_RIGHTS = ['read', 'read_write'] as const;
export type LinuxUserRights = (typeof LINUX_USER_RIGHTS)[number];

/** One way in: how to reach it from each system (a command or a URL, ready to paste). */
export const linuxUserShareSchema = z.object({
  kind: z.enum(LINUX_USER_SHARE_KINDS),
  /** The Samba share's name; `ftp` / `sftp` for those. */
  name: text(),
  description: text(),
  /** The share's folder in the workspace's storage (for FTP and SFTP: the storage itself). */
  path: text(),
  /** smb://, ftp:// or sftp:// with the address and port; null while there is no address. */
  address: text().nullable(),
  rights: z.enum(LINUX_USER_RIGHTS),
  /** Through a group rather than as the user itself (Samba). */
  via_group: text().nullable(),
  connect: z.object({ windows: text(), macos: text(), linux: text() }),
});
export type LinuxUserShare = z.infer<typeof linuxUserShareSchema>;

export const linuxUserSharesResponseSchema = z.object({ shares: z.array(linuxUserShareSchema) });
export type LinuxUserSharesResponse = z.infer<typeof linuxUserSharesResponseSchema>;

/**
 * The current password is asked again: a portal left open should not let a passer-by take the
 * account. The new one follows the service users' rule (spec §5).
 */
export const linuxUserChangePasswordRequestSchema = z
  .object({
    current_password: text({ error: 'required' }).min(1, 'required').max(1024),
    new_password: text({ error: 'required' })
      .min(1, 'required')
      .min(PASSWORD_MIN_LENGTH, 'password_too_short')
      .max(128, 'password_too_long'),
    new_password_confirm: text({ error: 'required' }).max(128),
  })
  .refine((body) => body.new_password === body.new_password_confirm, {
    message: 'passwords_do_not_match',
    path: ['new_password_confirm'],
  });
export type LinuxUserChangePasswordRequest = z.input<typeof linuxUserChangePasswordRequestSchema>;

/**
 * The old token ends with the old password; this one carries on. `applied_to` says which ways in
 * took the new password (smb, ftp, sftp, ldap, and vpn when the user has VPN access).
 */
export const linuxUserChangePasswordResponseSchema = linuxUserTokenResponseSchema.extend({
  message: text(),
  applied_to: z.array(text()),
});
export type LinuxUserChangePasswordResponse = z.infer<typeof linuxUserChangePasswordResponseSchema>;
