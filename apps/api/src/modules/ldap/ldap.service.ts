// The workspace's LDAP directory (spec §7 "LDAP", issue 17): its bind settings, the users'
// suspensions and expiry dates, the `ldap` section of the desired state and what the node reports
// of its slapd. The decisions (on from the first change, StartTLS 389 + LDAPS 636, flags of an
// inactive user kept, the alias from the service's name) are in the contract's ldap.ts.
import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import {
  LDAP_DEFAULT_PORT,
  LDAP_TIME_ZONE,
  LDAPS_DEFAULT_PORT,
  ldapAliasBase,
  ldapAliasFromName,
  ldapDirectoryNames,
  ldapExpired,
  ldapUserDn,
  type LdapAliasResponse,
  type LdapBulkOperation,
  type LdapBulkUpdateResponse,
  type LdapBindSettingsResponse,
  type LdapConfig,
  type LdapReport,
  type LdapSectionState,
  type LdapStatus,
  type LdapUserStatus,
  type LdapUsersResponse,
  NODE_DRIVERS,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import { AppError } from '../../http/app-error.ts';
import { sha512Crypt } from '../directory/passwords.ts';
import type { DirectoryReader } from '../directory/directory.reader.ts';
import { resourceStatus } from '../services/resource-status.ts';
import type { ServiceRow } from '../services/workspace-rows.ts';
import type { ChangeMeta, WorkspaceChanges } from '../workspace/workspace-change.ts';
import { reportedDriver } from '../workspace/feature-status.ts';
import {
  servicesAddressOf,
  type FeatureReportContext,
  type PlanFacts,
} from '../workspace/workspace-feature.ts';
import { ldapDirectories, ldapUserFlags } from './ldap.table.ts';

/** The name the node's agent gives its LDAP driver. */
export const LDAP_DRIVER = NODE_DRIVERS.ldap;
export const LDAP_USER_FAILURE_KIND = 'ldap_user';
export const LDAP_FAILURE_KINDS = [LDAP_USER_FAILURE_KIND] as const;

type Handle = Db | Tx;
type DirectoryRow = typeof ldapDirectories.$inferSelect;
type FlagRow = typeof ldapUserFlags.$inferSelect;
interface UserRow {
  id: string;
  name: string;
  active: boolean;
}
interface Flags {
  suspended: boolean;
  expiresOn: string | null;
}

/** A password for applications' bind: 32 characters of base64url (192 bits). */
const newBindPassword = () => randomBytes(24).toString('base64url');

const directoryOf = async (db: Handle, serviceId: string): Promise<DirectoryRow | undefined> =>
  (await db.select().from(ldapDirectories).where(eq(ldapDirectories.serviceId, serviceId)))[0];

const flagsOf = async (db: Handle, serviceId: string): Promise<Map<string, FlagRow>> =>
  new Map(
    (await db.select().from(ldapUserFlags).where(eq(ldapUserFlags.serviceId, serviceId))).map((row) => [
      row.userId,
      row,
    ]),
  );

/** The alias a service has: its directory's, or (no directory yet) the one it will get. */
const aliasBase = (alias: string | null) => (alias === null ? null : ldapAliasBase(alias));

const aliasOf = (service: ServiceRow, directory: DirectoryRow | undefined): string | null =>
  directory ? directory.alias : ldapAliasFromName(service.name, service.id);

/** Turns LDAP on for the service if it is not yet (the first change of any kind). */
async function ensureDirectory(
  tx: Tx,
  service: ServiceRow,
  generation: number,
  at: Date,
): Promise<DirectoryRow> {
  const existing = await directoryOf(tx, service.id);
  if (existing) return existing;
  const [row] = await tx
    .insert(ldapDirectories)
    .values({
      serviceId: service.id,
      accountId: service.accountId,
      alias: ldapAliasFromName(service.name, service.id),
      changedGeneration: generation,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!row) throw new Error('ldap directory not stored');
  return row;
}

export function createLdapService(deps: {
  db: Db;
  changes: WorkspaceChanges;
  plans: PlanFacts;
  directory: (db: Db) => Pick<DirectoryReader, 'users'>;
}) {
  const { changes } = deps;
  const usersOf = (db: Handle, serviceId: string): Promise<UserRow[]> => deps.directory(db).users(serviceId);

  function presentUser(
    service: ServiceRow,
    directory: DirectoryRow | undefined,
    user: UserRow,
    flag: FlagRow | undefined,
  ): LdapUserStatus {
    const suspended = flag?.suspended ?? false;
    const expiry = flag?.expiresOn ?? null;
    const expired = ldapExpired(expiry, LDAP_TIME_ZONE, changes.now());
    const { status } = resourceStatus(service, {
      kind: LDAP_USER_FAILURE_KIND,
      name: user.name,
      changedGeneration: flag?.changedGeneration ?? 0,
    });
    return {
      username: user.name,
      dn: ldapUserDn(service.id, user.name),
      active: user.active,
      suspended,
      expiry_date: expiry,
      expired,
      can_bind: user.active && !suspended && !expired,
      locked_on_node: directory?.reportedAt ? directory.lockedUsers.includes(user.name) : null,
      apply_status: status,
    };
  }

  async function presentAll(db: Handle, service: ServiceRow, names?: Set<string>): Promise<LdapUserStatus[]> {
    const directory = await directoryOf(db, service.id);
    const flags = await flagsOf(db, service.id);
    return (await usersOf(db, service.id))
      .filter((user) => !names || names.has(user.name))
      .map((user) => presentUser(service, directory, user, flags.get(user.id)));
  }

  /** The named users of the service; an unknown one is a field error naming it (nothing changes). */
  async function requireUsers(
    db: Handle,
    serviceId: string,
    names: string[],
    field: string,
  ): Promise<UserRow[]> {
    const users = await usersOf(db, serviceId);
    const byName = new Map(users.map((user) => [user.name, user]));
    const unknown = names.map((name, index) => ({ name, index })).filter(({ name }) => !byName.has(name));
    if (unknown.length > 0) {
      throw new AppError('validation_error', {
        fieldErrors: unknown.map(({ name, index }) => ({
          field: `${field}.${index}`,
          code: 'ldap_user_unknown',
          values: { name },
        })),
      });
    }
    return [...new Set(names)].map((name) => byName.get(name) as UserRow);
  }

  function checkDate(date: string | null, field: string): void {
    if (date !== null && ldapExpired(date, LDAP_TIME_ZONE, changes.now())) {
      throw new AppError('validation_error', { fieldErrors: [{ field, code: 'ldap_date_past' }] });
    }
  }

  /** Sets the flags of users in one change; users whose flags end up cleared lose their row. */
  function changeFlags(
    accountId: string,
    serviceId: string,
    names: string[],
    field: string,
    meta: ChangeMeta,
    operation: LdapBulkOperation,
    next: (flags: Flags) => Flags,
    details: Record<string, unknown>,
  ): Promise<{ changed: number; generation: number; users: LdapUserStatus[] }> {
    return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
      const users = await requireUsers(tx, service.id, names, field);
      const flags = await flagsOf(tx, service.id);
      const changedUsers: string[] = [];
      const upserts: Array<typeof ldapUserFlags.$inferInsert> = [];
      const removals: string[] = [];
      for (const user of users) {
        const row = flags.get(user.id);
        const before = { suspended: row?.suspended ?? false, expiresOn: row?.expiresOn ?? null };
        const after = next(before);
        if (after.suspended === before.suspended && after.expiresOn === before.expiresOn) continue;
        changedUsers.push(user.name);
        if (!after.suspended && after.expiresOn === null) removals.push(user.id);
        else
          upserts.push({
            userId: user.id,
            serviceId: service.id,
            accountId,
            suspended: after.suspended,
            expiresOn: after.expiresOn,
            changedGeneration: generation,
            updatedAt: at,
          });
      }
      const directory = await directoryOf(tx, service.id);
      if (changedUsers.length === 0 && directory) {
        return {
          unchanged: {
            changed: 0,
            generation: service.generation,
            users: await presentAll(tx, service, new Set(names)),
          },
        };
      }
      await ensureDirectory(tx, service, generation, at);
      if (removals.length > 0) await tx.delete(ldapUserFlags).where(inArray(ldapUserFlags.userId, removals));
      if (upserts.length > 0) {
        await tx
          .insert(ldapUserFlags)
          .values(upserts)
          .onConflictDoUpdate({
            target: ldapUserFlags.userId,
            set: {
              suspended: sql`excluded.suspended`,
              expiresOn: sql`excluded.expires_on`,
              changedGeneration: sql`excluded.changed_generation`,
              updatedAt: sql`excluded.updated_at`,
            },
          });
      }
      return {
        result: {
          changed: changedUsers.length,
          generation,
          users: await presentAll(tx, { ...service, generation }, new Set(names)),
        },
        activity: [
          {
            action: 'LDAP users updated',
            tone: 'info',
            details: { operation, names: changedUsers.slice(0, 20), count: changedUsers.length, ...details },
          },
        ],
      };
    });
  }

  const operations: Record<LdapBulkOperation, (date: string | null) => (flags: Flags) => Flags> = {
    suspend: () => (flags) => ({ ...flags, suspended: true }),
    unsuspend: () => (flags) => ({ ...flags, suspended: false }),
    set_expiry: (date) => (flags) => ({ ...flags, expiresOn: date }),
    clear_expiry: () => (flags) => ({ ...flags, expiresOn: null }),
  };

  return {
    async status(accountId: string, serviceId: string): Promise<LdapStatus> {
      const service = await changes.owned(accountId, serviceId);
      const directory = await directoryOf(deps.db, service.id);
      const driver = reportedDriver(service, LDAP_DRIVER);
      const failed = service.failures.some((failure) =>
        (LDAP_FAILURE_KINDS as readonly string[]).includes(failure.kind),
      );
      const enabled = directory !== undefined;
      const applying = enabled && service.observedGeneration < directory.changedGeneration;
      return {
        enabled,
        placed: service.nodeId !== null,
        running: enabled && driver ? (driver.serving ?? null) : null,
        reason: enabled ? (driver?.reason ?? null) : null,
        address: await servicesAddressOf(deps.plans, service),
        port: LDAP_DEFAULT_PORT,
        ldaps_port: LDAPS_DEFAULT_PORT,
        base_dn: ldapDirectoryNames(service.id).base,
        base_dn_alias: aliasBase(aliasOf(service, directory)),
        users: directory?.reportedUsers ?? null,
        groups: directory?.reportedGroups ?? null,
        locked_users: directory?.lockedUsers ?? [],
        synced_at: directory?.syncedAt?.toISOString() ?? null,
        reported_at: directory?.reportedAt?.toISOString() ?? null,
        apply_status:
          service.observedGeneration < service.generation || applying
            ? 'applying'
            : failed
              ? 'failed'
              : 'applied',
      };
    },

    async config(accountId: string, serviceId: string): Promise<LdapConfig> {
      const service = await changes.owned(accountId, serviceId);
      const directory = await directoryOf(deps.db, service.id);
      const names = ldapDirectoryNames(service.id);
      const address = await servicesAddressOf(deps.plans, service);
      return {
        enabled: directory !== undefined,
        uris: address
          ? [`ldap://${address}:${LDAP_DEFAULT_PORT}`, `ldaps://${address}:${LDAPS_DEFAULT_PORT}`]
          : [],
        start_tls: true,
        ldaps: true,
        base_dn: names.base,
        users_dn: names.people,
        groups_dn: names.groups,
        bind_dn: names.reader,
        alias: aliasOf(service, directory),
        base_dn_alias: aliasBase(aliasOf(service, directory)),
        bind_password_set: Boolean(directory?.bindPasswordCrypt),
        anonymous_read: directory?.anonymousRead ?? false,
        time_zone: LDAP_TIME_ZONE,
      };
    },

    async bindSettings(
      accountId: string,
      serviceId: string,
      request: { rotate_password: boolean; anonymous_read?: boolean | undefined },
      meta: ChangeMeta,
    ): Promise<LdapBindSettingsResponse> {
      // Made and hashed before the transaction: SHA-512 crypt takes a few milliseconds of CPU.
      const password = request.rotate_password ? newBindPassword() : null;
      const crypt = password === null ? null : sha512Crypt(password);
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const existing = await directoryOf(tx, service.id);
        const directory = await ensureDirectory(tx, service, generation, at);
        const anonymousRead = request.anonymous_read ?? directory.anonymousRead;
        const bindDn = ldapDirectoryNames(service.id).reader;
        if (existing && crypt === null && anonymousRead === directory.anonymousRead) {
          return {
            unchanged: {
              bind_dn: bindDn,
              password: null,
              anonymous_read: anonymousRead,
              generation: service.generation,
            },
          };
        }
        await tx
          .update(ldapDirectories)
          .set({
            ...(crypt === null ? {} : { bindPasswordCrypt: crypt }),
            anonymousRead,
            changedGeneration: generation,
            updatedAt: at,
          })
          .where(eq(ldapDirectories.serviceId, service.id));
        const fields = [
          ...(crypt === null ? [] : ['bind_password']),
          ...(anonymousRead === directory.anonymousRead ? [] : ['anonymous_read']),
        ];
        return {
          result: { bind_dn: bindDn, password, anonymous_read: anonymousRead, generation },
          activity: [
            {
              action: 'LDAP bind settings updated',
              tone: 'info',
              details: { fields, anonymous_read: anonymousRead },
            },
          ],
        };
      });
    },

    async setAlias(
      accountId: string,
      serviceId: string,
      alias: string | null,
      meta: ChangeMeta,
    ): Promise<LdapAliasResponse> {
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        // A UUID is a DNS label too: as the alias it would name the base itself.
        if (alias !== null && alias === service.id.toLowerCase())
          throw new AppError('validation_error', {
            fieldErrors: [{ field: 'alias', code: 'ldap_alias_is_service_id' }],
          });
        const existing = await directoryOf(tx, service.id);
        if (existing && existing.alias === alias) {
          return { unchanged: { alias, base_dn_alias: aliasBase(alias), generation: service.generation } };
        }
        await ensureDirectory(tx, service, generation, at);
        await tx
          .update(ldapDirectories)
          .set({ alias, changedGeneration: generation, updatedAt: at })
          .where(eq(ldapDirectories.serviceId, service.id));
        return {
          result: { alias, base_dn_alias: aliasBase(alias), generation },
          activity: [
            {
              action: 'LDAP alias changed',
              tone: 'info',
              details: { from: existing?.alias ?? null, to: alias },
            },
          ],
        };
      });
    },

    async listUsers(accountId: string, serviceId: string): Promise<LdapUsersResponse> {
      const service = await changes.owned(accountId, serviceId);
      return { users: await presentAll(deps.db, service) };
    },

    async userStatus(accountId: string, serviceId: string, username: string): Promise<LdapUserStatus> {
      const service = await changes.owned(accountId, serviceId);
      const [user] = await presentAll(deps.db, service, new Set([username]));
      if (!user) throw new AppError('ldap_user_not_found');
      return user;
    },

    async suspend(
      accountId: string,
      serviceId: string,
      username: string,
      suspend: boolean,
      meta: ChangeMeta,
    ) {
      await this.userStatus(accountId, serviceId, username);
      const done = await changeFlags(
        accountId,
        serviceId,
        [username],
        'username',
        meta,
        suspend ? 'suspend' : 'unsuspend',
        operations[suspend ? 'suspend' : 'unsuspend'](null),
        {},
      );
      return done.users[0] as LdapUserStatus;
    },

    async expiry(
      accountId: string,
      serviceId: string,
      username: string,
      date: string | null,
      meta: ChangeMeta,
    ) {
      await this.userStatus(accountId, serviceId, username);
      checkDate(date, 'expiry_date');
      const operation = date === null ? 'clear_expiry' : 'set_expiry';
      const done = await changeFlags(
        accountId,
        serviceId,
        [username],
        'username',
        meta,
        operation,
        operations[operation](date),
        date === null ? {} : { expiry_date: date },
      );
      return done.users[0] as LdapUserStatus;
    },

    async bulkUpdate(
      accountId: string,
      serviceId: string,
      request: { users: string[]; operation: LdapBulkOperation; expiry_date?: string | undefined },
      meta: ChangeMeta,
    ): Promise<LdapBulkUpdateResponse> {
      const date = request.operation === 'set_expiry' ? (request.expiry_date ?? null) : null;
      checkDate(date, 'expiry_date');
      const done = await changeFlags(
        accountId,
        serviceId,
        request.users,
        'users',
        meta,
        request.operation,
        operations[request.operation](date),
        date === null ? {} : { expiry_date: date },
      );
      return { operation: request.operation, ...done };
    },

    /** The `ldap` section: present once LDAP is on for the service. */
    async desiredSection(serviceId: string): Promise<{ ldap?: LdapSectionState }> {
      const directory = await directoryOf(deps.db, serviceId);
      if (!directory) return {};
      const flags = await flagsOf(deps.db, serviceId);
      const rows = (await usersOf(deps.db, serviceId)).flatMap((user) => {
        const flag = flags.get(user.id);
        return flag ? [{ name: user.name, suspended: flag.suspended, expiresOn: flag.expiresOn }] : [];
      });
      return {
        ldap: {
          enabled: true,
          port: LDAP_DEFAULT_PORT,
          ldaps_port: LDAPS_DEFAULT_PORT,
          bind_password_crypt: directory.bindPasswordCrypt,
          anonymous_read: directory.anonymousRead,
          time_zone: LDAP_TIME_ZONE,
          alias: directory.alias,
          users: rows.map((row) => ({ name: row.name, suspended: row.suspended, expires_on: row.expiresOn })),
        },
      };
    },

    /** Keeps what the node last said of the directory (only of a service with LDAP on). */
    async report(tx: Tx, context: FeatureReportContext, section: LdapReport): Promise<void> {
      await tx
        .update(ldapDirectories)
        .set({
          reportedUsers: section.users,
          reportedGroups: section.groups,
          lockedUsers: section.locked_users,
          syncedAt: section.synced_at ? new Date(section.synced_at) : null,
          reportedAt: context.at,
        })
        .where(eq(ldapDirectories.serviceId, context.serviceId));
    },
  };
}

export type LdapService = ReturnType<typeof createLdapService>;
