// The workspace's LDAP directory (service-management §7 "LDAP", issue 17). Base
// /api/v1/ldap/services/{serviceId}/ldap:
//   GET status                         running, address, ports, base DN, entry counts, last sync
//   GET config                         URIs, base DN, users and groups DNs, TLS, the bind DN
//   POST bind-settings                 create or rotate the read-only bind account's password
//                                      (generated, in this answer only, kept as SHA-512 crypt);
//                                      allow or refuse anonymous reads
//   POST alias                         { alias: "files" | null }: the readable base DN
//                                      `dc=<alias>,dc=debesis` beside the service id's one
//   GET users/{user}/status        can the user bind now, and why not
//   POST users/{user}/suspend      { suspend }
//   POST users/{user}/expiry       { expiry_date: "YYYY-MM-DD" | null }
//   POST bulk-update                   { users, operation, expiry_date? }: all or nothing
//
// Decisions: LDAP is on for every workspace from the owner's first LDAP change (bind settings, a
// suspension, an expiry): until then the node runs no slapd and status says `enabled: false`.
// It serves StartTLS on 389 and LDAPS on 636; anonymous reads are refused unless allowed. Users
// bind with their workspace password. `{user}` is the service user's name. A suspension or
// expiry of an inactive user is kept: the user cannot bind while inactive, and stays suspended
// or expiring when made active again. An expiry date is the last day the user may bind (ends at
// 24:00 Europe/Vilnius); a date already over is refused (422). The alias (ldap-directory.ts) of a
// new directory comes from the service's name; `base_dn` stays the service id's, which never
// changes, and `base_dn_alias` is the same directory under the alias (null: none).
import { z } from 'zod';
import { text } from '../../strings.ts';
import { workspaceNameSchema, workspaceServiceParamsSchema } from '../users/directory.ts';
import { isLdapDate, LDAP_ALIAS_MAX, LDAP_ALIAS_PATTERN, LDAP_DATE_PATTERN } from './ldap-directory.ts';

export const LDAP_BULK_OPERATIONS = ['suspend', 'unsuspend', 'set_expiry', 'clear_expiry'] as const;
export type LdapBulkOperation = (typeof LDAP_BULK_OPERATIONS)[number];
/** At most this many users in one bulk update. */
export const LDAP_BULK_MAX_USERS = 1000;

export const ldapUserParamsSchema = workspaceServiceParamsSchema.extend({
  user: workspaceNameSchema,
});

/** A calendar date `YYYY-MM-DD` (a real one). */
export const ldapExpiryDateSchema = text()
  .regex(LDAP_DATE_PATTERN, 'ldap_date_invalid')
  .refine(isLdapDate, 'ldap_date_invalid');

export const ldapStatusSchema = z.object({
  /** Whether LDAP is on for the workspace (from the owner's first LDAP change). */
  enabled: z.boolean(),
  placed: z.boolean(),
  /** Whether the node reports slapd serving; null: not known (not reported, not enabled). */
  running: z.boolean().nullable(),
  reason: text().nullable(),
  /** Where slapd answers (servicesAddress: the VPN-side address for a NAT plan); null until placed. */
  address: text().nullable(),
  port: z.number().int().nullable(),
  ldaps_port: z.number().int().nullable(),
  base_dn: text(),
  /** The same directory under the alias, `dc=<alias>,dc=debesis`; null: no alias. */
  base_dn_alias: text().nullable(),
  /** Entries as last synced (null: never reported). */
  users: z.number().int().nullable(),
  groups: z.number().int().nullable(),
  locked_users: z.array(text()),
  synced_at: text().nullable(),
  reported_at: text().nullable(),
  apply_status: z.enum(['applying', 'applied', 'failed']),
});
export type LdapStatus = z.infer<typeof ldapStatusSchema>;

export const ldapConfigSchema = z.object({
  enabled: z.boolean(),
  /** `ldap://host:389` (StartTLS required) and `ldaps://host:636`; empty while not placed. */
  uris: z.array(text()),
  start_tls: z.boolean(),
  ldaps: z.boolean(),
  base_dn: text(),
  users_dn: text(),
  groups_dn: text(),
  bind_dn: text(),
  /** The alias itself (a DNS label) and the base DN it names; both null: no alias. */
  alias: text().nullable(),
  base_dn_alias: text().nullable(),
  /** Whether the bind account has a password (else applications cannot bind as it). */
  bind_password_set: z.boolean(),
  anonymous_read: z.boolean(),
  time_zone: text(),
});
export type LdapConfig = z.infer<typeof ldapConfigSchema>;

export const ldapBindSettingsRequestSchema = z.strictObject({
  /** Make a new password for the bind account (the old one stops working). */
  rotate_password: z.boolean().default(false),
  /** Allow or refuse reads by a client that does not bind; absent: unchanged. */
  anonymous_read: z.boolean().optional(),
});
export type LdapBindSettingsRequest = z.input<typeof ldapBindSettingsRequestSchema>;

export const ldapBindSettingsResponseSchema = z.object({
  bind_dn: text(),
  /** The new password, only in the answer that made it; null: not rotated. */
  password: text().nullable(),
  anonymous_read: z.boolean(),
  generation: z.number().int(),
});
export type LdapBindSettingsResponse = z.infer<typeof ldapBindSettingsResponseSchema>;

/** The owner's alias: a lower-case DNS label, 1–63 characters; null: none. */
export const ldapAliasSchema = text({ error: 'ldap_alias_invalid' })
  .min(1, 'ldap_alias_invalid')
  .max(LDAP_ALIAS_MAX, 'ldap_alias_invalid')
  .regex(LDAP_ALIAS_PATTERN, 'ldap_alias_invalid');

export const ldapAliasRequestSchema = z.strictObject({
  alias: ldapAliasSchema.nullable(),
});
export type LdapAliasRequest = z.input<typeof ldapAliasRequestSchema>;

export const ldapAliasResponseSchema = z.object({
  alias: text().nullable(),
  base_dn_alias: text().nullable(),
  generation: z.number().int(),
});
export type LdapAliasResponse = z.infer<typeof ldapAliasResponseSchema>;

export const ldapUserStatusSchema = z.object({
  username: text(),
  dn: text(),
  active: z.boolean(),
  suspended: z.boolean(),
  expiry_date: text().nullable(),
  expired: z.boolean(),
  /** Whether the user may bind now: active, not suspended, not expired. */
  can_bind: z.boolean(),
  /** Whether the node's directory last reported the user locked. */
  locked_on_node: z.boolean().nullable(),
  apply_status: z.enum(['applying', 'applied', 'failed']),
});
export type LdapUserStatus = z.infer<typeof ldapUserStatusSchema>;

export const ldapUsersResponseSchema = z.object({ users: z.array(ldapUserStatusSchema) });
export type LdapUsersResponse = z.infer<typeof ldapUsersResponseSchema>;

export const ldapSuspendRequestSchema = z.strictObject({ suspend: z.boolean({ error: 'invalid_type' }) });
export const ldapExpiryRequestSchema = z.strictObject({ expiry_date: ldapExpiryDateSchema.nullable() });

export const ldapBulkUpdateRequestSchema = z
  .strictObject({
    users: z.array(workspaceNameSchema).min(1, 'too_small').max(LDAP_BULK_MAX_USERS, 'too_big'),
    operation: z.enum(LDAP_BULK_OPERATIONS, { error: 'invalid_value' }),
    expiry_date: ldapExpiryDateSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.operation === 'set_expiry' && value.expiry_date === undefined) {
      ctx.addIssue({ code: 'custom', path: ['expiry_date'], message: 'required' });
    }
  });
export type LdapBulkUpdateRequest = z.input<typeof ldapBulkUpdateRequestSchema>;

export const ldapBulkUpdateResponseSchema = z.object({
  operation: z.enum(LDAP_BULK_OPERATIONS),
  /** Users whose flags changed (the others already were so). */
  changed: z.number().int(),
  generation: z.number().int(),
  users: z.array(ldapUserStatusSchema),
});
export type LdapBulkUpdateResponse = z.infer<typeof ldapBulkUpdateResponseSchema>;
