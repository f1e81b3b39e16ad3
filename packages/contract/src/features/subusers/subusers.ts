// Subusers (service-management §3 "Subuser", §4, §5, §6, §7 "Subusers"; docs/features/subusers.md):
// limited accounts an owner makes for one workspace, for backup work only. The spec names the
// list and the sign-in; the rest of the paths are ours, beside them:
//
// Owner routes, base /api/v1/subusers/{serviceId} (a verified owner; changes carry CSRF):
//   GET, POST                                   list / create (201)
//   PATCH, DELETE {id}                          a new password / delete (204; its sessions end)
//   POST {id}/enable, {id}/disable              a disabled subuser's sessions end at once
//   POST {id}/2fa/setup                         a new secret and its otpauth URI (2FA still off)
//   POST {id}/2fa/verify                        the right code turns 2FA on: 10 backup codes, once
//   DELETE {id}/2fa                             2FA off (secret and backup codes forgotten)
//   POST {id}/2fa/backup-codes                  10 new backup codes, the old ones stop working
//   GET {id}/sessions                           its live sessions, per device
//   DELETE {id}/sessions, {id}/sessions/{sid}   end all of them / one (204)
//
// Subuser routes, base /api/v1/subusers/auth:
//   POST login                                  service_id, username, password, device_name
//                                               (+ two_factor_code, remember_me): a session token
//   GET me                                      who is signed in, and on which service
//   POST logout                                 ends this session (204)
//
// A subuser's token is opaque (`SUBUSER_TOKEN_PREFIX` + 256 random bits; the API keeps its
// SHA-256), checked against its session on every request, so a revoked or expired session, a
// disabled or deleted subuser stops at its next request. With it a subuser may call the routes of
// /api/v1/backups/{serviceId} of its own service and these three; any other route answers 403
// `subuser_not_allowed`.
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../../constants.ts';
import { workspaceServiceParamsSchema } from '../users/directory.ts';
import { text } from '../../strings.ts';

/** The prefix every subuser's stored username carries (spec §3). */
export const SUBUSER_PREFIX = 'subuser-';
/** The prefix of a subuser's session token: the API tells it from an owner's JWT by it. */
export const SUBUSER_TOKEN_PREFIX = 'sus_';
/** Subusers per service. */
export const SUBUSERS_PER_SERVICE = 50;
/** A session without remember-me lasts a working day; with it, 30 days. */
export const SUBUSER_SESSION_HOURS = 12;
export const SUBUSER_REMEMBERED_SESSION_DAYS = 30;
/** TOTP (RFC 6238) as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** One-time backup codes made at a time. */
export const SUBUSER_BACKUP_CODES = 10;
/** The issuer an authenticator app shows beside the account. */
export const TOTP_ISSUER = 'Debesis';

/**
 * The name part a subuser is known by (spec §5: letters, numbers, hyphens and underscores), with
 * or without the `subuser-` prefix: it is stored with it, compared in lower case.
 */
export const subuserNameSchema = text({ error: 'required' })
  .trim()
  .min(1, 'required')
  .max(40, 'too_long')
  .regex(/^[A-Za-z0-9_-]+$/, 'workspace_name_characters')
  .transform((name) => {
    const lower = name.toLowerCase();
    return lower.startsWith(SUBUSER_PREFIX) ? lower : `${SUBUSER_PREFIX}${lower}`;
  })
  .refine((name) => name.length > SUBUSER_PREFIX.length, 'required');

const subuserPasswordSchema = text({ error: 'required' })
  .min(1, 'required')
  .min(PASSWORD_MIN_LENGTH, 'password_too_short')
  .max(128, 'password_too_long');

/** A password twice (spec §5: "Passwords do not match"), the second answered on its own field. */
const passwordPair = z
  .object({
    password: subuserPasswordSchema,
    password_confirm: text({ error: 'required' }).max(128),
  })
  .refine((pair) => pair.password === pair.password_confirm, {
    message: 'passwords_do_not_match',
    path: ['password_confirm'],
  });

/** Exactly six digits (spec §5). */
export const totpCodeSchema = text({ error: 'required' })
  .trim()
  .regex(/^\d{6}$/, 'two_factor_code_format');

/**
 * A backup code as shown: ten letters and digits of base32 in two groups, `abcde-fghij`. Typed
 * with or without the hyphen, in any case.
 */
export const BACKUP_CODE_PATTERN = /^[a-z2-7]{5}-?[a-z2-7]{5}$/i;

/** What a subuser types as its second factor at sign-in: the app's code, or one backup code. */
export const signInCodeSchema = text()
  .trim()
  .refine((code) => /^\d{6}$/.test(code) || BACKUP_CODE_PATTERN.test(code), 'two_factor_code_format');

export const createSubuserRequestSchema = z.intersection(
  z.object({ username: subuserNameSchema }),
  passwordPair,
);
export type CreateSubuserRequest = z.input<typeof createSubuserRequestSchema>;

/** The one thing an owner changes of a subuser besides its state: its password. */
export const updateSubuserRequestSchema = passwordPair;
export type UpdateSubuserRequest = z.input<typeof updateSubuserRequestSchema>;

export const subuserParamsSchema = workspaceServiceParamsSchema.extend({
  id: z.uuid({ error: 'invalid_format' }),
});
export const subuserSessionParamsSchema = subuserParamsSchema.extend({
  sessionId: z.uuid({ error: 'invalid_format' }),
});

export const subuserSchema = z.object({
  id: text(),
  /** As stored: `subuser-` and the name the owner gave. */
  username: text(),
  enabled: z.boolean(),
  two_factor_enabled: z.boolean(),
  /** Backup codes not used yet (0 when 2FA is off). */
  backup_codes_left: z.number().int(),
  last_login_at: text().nullable(),
  /** Sessions not ended or expired. */
  active_sessions: z.number().int(),
  created_at: text(),
});
export type Subuser = z.infer<typeof subuserSchema>;

export const subusersResponseSchema = z.object({
  subusers: z.array(subuserSchema),
  /** The service ID a subuser signs in with (the owner hands it on with the username). */
  service_id: text(),
  limit: z.number().int(),
});
export type SubusersResponse = z.infer<typeof subusersResponseSchema>;

/**
 * The set-up's secret (base32), for an app that cannot scan, and the otpauth URI the QR code
 * holds. 2FA stays off until a code from it is verified; a new set-up replaces an unverified one.
 */
export const twoFactorSetupResponseSchema = z.object({
  secret: text(),
  otpauth_uri: text(),
  digits: z.number().int(),
  period: z.number().int(),
});
export type TwoFactorSetupResponse = z.infer<typeof twoFactorSetupResponseSchema>;

export const twoFactorVerifyRequestSchema = z.object({ code: totpCodeSchema });
export type TwoFactorVerifyRequest = z.input<typeof twoFactorVerifyRequestSchema>;

/** Backup codes, shown this once: the API keeps only a keyed hash of each. */
export const backupCodesResponseSchema = z.object({
  subuser: subuserSchema,
  backup_codes: z.array(text()),
});
export type BackupCodesResponse = z.infer<typeof backupCodesResponseSchema>;

export const subuserSessionSchema = z.object({
  id: text(),
  /** What the subuser's browser called itself at sign-in ("Firefox on Windows"). */
  device_name: text(),
  /** The first characters of its token, enough to tell two sessions of one device apart. */
  token_hint: text(),
  ip: text().nullable(),
  remember_me: z.boolean(),
  created_at: text(),
  last_used_at: text(),
  expires_at: text(),
});
export type SubuserSession = z.infer<typeof subuserSessionSchema>;

export const subuserSessionsResponseSchema = z.object({ sessions: z.array(subuserSessionSchema) });
export type SubuserSessionsResponse = z.infer<typeof subuserSessionsResponseSchema>;

// ── The subuser's own sign-in ──────────────────────────────────────────────────────────────

export const subuserLoginRequestSchema = z.object({
  service_id: z.uuid({ error: 'invalid_format' }),
  username: subuserNameSchema,
  /** Checked against the stored hash, never against the rules. */
  password: text({ error: 'required' }).min(1, 'required').max(1024),
  device_name: text().trim().max(120).default(''),
  two_factor_code: signInCodeSchema.optional(),
  remember_me: z.boolean().default(false),
});
export type SubuserLoginRequest = z.input<typeof subuserLoginRequestSchema>;

/** Who is signed in as a subuser, and where. */
export const subuserIdentitySchema = z.object({
  id: text(),
  username: text(),
  service_id: text(),
  service_name: text(),
  two_factor_enabled: z.boolean(),
  /** When this session ends by itself. */
  expires_at: text(),
});
export type SubuserIdentity = z.infer<typeof subuserIdentitySchema>;

export const subuserLoginResponseSchema = z.object({
  access_token: text(),
  token_type: z.literal('bearer'),
  expires_at: text(),
  subuser: subuserIdentitySchema,
});
export type SubuserLoginResponse = z.infer<typeof subuserLoginResponseSchema>;
