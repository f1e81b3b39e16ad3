// LDAP's part of the node protocol (feature-node-part.ts): a workspace's slapd, its users'
// suspensions and expiries, and what the directory holds as last synced.
import { z } from 'zod';
import { daemonPortSchema, defineFeatureNodePart } from '../../feature-node-part.ts';
import { text } from '../../strings.ts';
import { WORKSPACE_NAME_PATTERN } from '../../workspace-names.ts';
import {
  isLdapDate,
  isTimeZone,
  LDAP_ALIAS_PATTERN,
  LDAP_DATE_PATTERN,
  LDAP_DEFAULT_PORT,
  LDAP_TIME_ZONE,
  LDAPS_DEFAULT_PORT,
} from './ldap-directory.ts';

/**
 * LDAP (slapd) of a workspace: a read-only directory of its users and groups for the customer's
 * applications (issue 17). Names of the directory and the expiry rule: ldap-directory.ts. Every
 * operation needs TLS: StartTLS on `port`, or LDAPS on `ldaps_port` (null: that one is not
 * offered; at least one is, and they differ, else the node refuses the section).
 */
export const ldapUserStateSchema = z.object({
  name: text().regex(WORKSPACE_NAME_PATTERN),
  /** A suspended user stays in the directory but cannot bind. */
  suspended: z.boolean().default(false),
  /** `YYYY-MM-DD`: from the end of that day in the section's time_zone the user cannot bind. */
  expires_on: text().regex(LDAP_DATE_PATTERN).refine(isLdapDate, 'invalid_date').nullable().default(null),
});
export type LdapUserState = z.infer<typeof ldapUserStateSchema>;

export const ldapSectionSchema = z.object({
  enabled: z.boolean(),
  port: daemonPortSchema.nullable().default(LDAP_DEFAULT_PORT),
  ldaps_port: daemonPortSchema.nullable().default(LDAPS_DEFAULT_PORT),
  /** SHA-512 crypt of the read-only bind account's password (ldapDirectoryNames().reader); null: none. */
  bind_password_crypt: text().startsWith('$6$').nullable().default(null),
  /** Whether a client that does not bind may read the directory (over TLS, never passwords). */
  anonymous_read: z.boolean().default(false),
  /** IANA zone the expiry dates end in: the seller's (Europe/Vilnius) unless said. */
  time_zone: text().refine(isTimeZone, 'invalid_time_zone').default(LDAP_TIME_ZONE),
  /** Users with a suspension or an expiry; a workspace user not listed has neither. */
  users: z.array(ldapUserStateSchema).default([]),
  /** The directory answers under `dc=<alias>,dc=debesis` too (ldap-directory.ts); null: only the base. */
  alias: text().regex(LDAP_ALIAS_PATTERN).nullable().default(null),
});
export type LdapSectionState = z.infer<typeof ldapSectionSchema>;

/** The workspace's directory as last synced into its slapd. */
export const ldapReportSchema = z.object({
  /** Entries under ou=people and ou=groups (the default group `users` included). */
  users: z.number().int().nonnegative(),
  groups: z.number().int().nonnegative(),
  /** Users in the directory who cannot bind now: suspended, expired or inactive. */
  locked_users: z.array(text().max(64)).max(10_000),
  /** ISO time the directory last changed (null: not synced yet, e.g. not live). */
  synced_at: text().nullable(),
});
export type LdapReport = z.infer<typeof ldapReportSchema>;

export const ldapNodePart = defineFeatureNodePart({
  feature: 'ldap',
  sections: {
    /** LDAP; absent: not used (no slapd). */
    ldap: ldapSectionSchema.optional(),
  },
  reports: { ldap: ldapReportSchema.optional() },
});
