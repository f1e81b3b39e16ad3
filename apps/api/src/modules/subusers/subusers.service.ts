// Subusers, the owner's side (spec §3 "Subuser", §4, §5, §6; docs/features/subusers.md): make, list,
// change the password of, enable, disable and delete a service's subusers; set their two-factor
// sign-in up, turn it off, renew its backup codes; list and end their sessions. A subuser changes
// nothing on the node (it is an account of the API, for backup work through it), so it does not go
// through the workspace change pipeline: each change has its own transaction with its activity
// entry, and the service's generation stays where it is. Disabling, deleting, a new password and
// 2FA turned off end the subuser's sessions in the same transaction: the next request stops.
import {
  SUBUSERS_PER_SERVICE,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  createSubuserRequestSchema,
  twoFactorVerifyRequestSchema,
  updateSubuserRequestSchema,
  type ActivityAction,
  type BackupCodesResponse,
  type CreateSubuserRequest,
  type Subuser,
  type SubuserSession,
  type SubuserSessionsResponse,
  type SubusersResponse,
  type TwoFactorSetupResponse,
  type TwoFactorVerifyRequest,
  type UpdateSubuserRequest,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { AppError } from '../../http/app-error.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { ServiceRow } from '../services/workspace-rows.ts';
import type { ChangeMeta, RecordActivity, WorkspaceChanges } from '../workspace/workspace-change.ts';
import type { SecondFactor } from './second-factor.ts';
import {
  createSubusersQueries,
  type SubuserListed,
  type SubuserRow,
  type SubuserSessionRow,
} from './subusers.queries.ts';

export interface SubusersDeps {
  db: Db;
  changes: Pick<WorkspaceChanges, 'owned' | 'now' | 'refuseUnlessChangeable'>;
  recordActivity: RecordActivity;
  secondFactor: SecondFactor;
}

export function presentSubuser(row: SubuserListed): Subuser {
  return {
    id: row.id,
    username: row.username,
    enabled: row.enabled,
    two_factor_enabled: row.totpSecret !== null,
    backup_codes_left: row.totpSecret === null ? 0 : row.backupCodesLeft,
    last_login_at: row.lastLoginAt?.toISOString() ?? null,
    active_sessions: row.activeSessions,
    created_at: row.createdAt.toISOString(),
  };
}

export function presentSession(row: SubuserSessionRow): SubuserSession {
  return {
    id: row.id,
    device_name: row.deviceName,
    token_hint: row.tokenHint,
    ip: row.ip,
    remember_me: row.rememberMe,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}

export function createSubusersService(deps: SubusersDeps) {
  const queries = createSubusersQueries(deps.db);
  const now = deps.changes.now;

  async function requireSubuser(service: ServiceRow, id: string): Promise<SubuserRow> {
    const row = await queries.find(service.id, id);
    if (!row) throw new AppError('subuser_not_found');
    return row;
  }

  /** The subuser as listed (with its counts), after a change. */
  async function listed(service: ServiceRow, id: string): Promise<Subuser> {
    const row = (await queries.list(service.id, now())).find((entry) => entry.id === id);
    if (!row) throw new AppError('subuser_not_found');
    return presentSubuser(row);
  }

  /**
   * One change of one subuser: the owner's service and the subuser, the work in a transaction with
   * its activity entry, and the subuser as listed after it.
   */
  async function change(
    accountId: string,
    serviceId: string,
    id: string,
    meta: ChangeMeta,
    action: ActivityAction,
    work: (tx: Tx, subuser: SubuserRow, at: Date) => Promise<void>,
  ): Promise<Subuser> {
    const service = await deps.changes.owned(accountId, serviceId);
    const subuser = await requireSubuser(service, id);
    const at = now();
    await inTransaction(deps.db, async (tx) => {
      await work(tx, subuser, at);
      await record(tx, accountId, service, meta, action, subuser.username);
    });
    return listed(service, id);
  }

  function record(
    tx: Tx,
    accountId: string,
    service: ServiceRow,
    meta: ChangeMeta,
    action: ActivityAction,
    name: string,
  ) {
    const tone = action === 'Subuser deleted' || action === 'Subuser 2FA disabled' ? 'warning' : 'info';
    return deps.recordActivity(tx, {
      accountId,
      serviceId: service.id,
      ip: meta.ip,
      action,
      tone: action === 'Subuser created' ? 'success' : tone,
      details: { name },
    });
  }

  /** New backup codes replace the old ones; the codes are answered this once. */
  async function renewBackupCodes(tx: Tx, subuser: SubuserRow): Promise<string[]> {
    const { codes, hashes } = deps.secondFactor.newBackupCodes();
    await createSubusersQueries(tx).replaceBackupCodes(subuser.id, hashes);
    return codes;
  }

  return {
    async list(accountId: string, serviceId: string): Promise<SubusersResponse> {
      const service = await deps.changes.owned(accountId, serviceId);
      const rows = await queries.list(service.id, now());
      return { subusers: rows.map(presentSubuser), service_id: service.id, limit: SUBUSERS_PER_SERVICE };
    },

    async create(
      accountId: string,
      serviceId: string,
      input: CreateSubuserRequest,
      meta: ChangeMeta,
    ): Promise<Subuser> {
      const request = createSubuserRequestSchema.parse(input);
      const service = await deps.changes.owned(accountId, serviceId);
      const at = now();
      deps.changes.refuseUnlessChangeable(service, at);
      if ((await queries.count(service.id)) >= SUBUSERS_PER_SERVICE) throw new AppError('subuser_limit');
      if (await queries.findNamed(service.id, request.username)) throw new AppError('subuser_exists');
      // Hashed before the transaction: argon2 takes its time on purpose.
      const passwordHash = await hashPassword(request.password);
      const row = await inTransaction(deps.db, async (tx) => {
        const inserted = await createSubusersQueries(tx).insert({
          serviceId: service.id,
          accountId,
          username: request.username,
          passwordHash,
          createdAt: at,
          updatedAt: at,
        });
        // Two owners' tabs making the same name at once: the unique index decides.
        if (!inserted) throw new AppError('subuser_exists');
        await record(tx, accountId, service, meta, 'Subuser created', inserted.username);
        return inserted;
      });
      return presentSubuser({ ...row, backupCodesLeft: 0, activeSessions: 0 });
    },

    /** A new password; the subuser's sessions end (whoever had the old one is out). */
    async update(
      accountId: string,
      serviceId: string,
      id: string,
      input: UpdateSubuserRequest,
      meta: ChangeMeta,
    ): Promise<Subuser> {
      const request = updateSubuserRequestSchema.parse(input);
      const passwordHash = await hashPassword(request.password);
      return change(accountId, serviceId, id, meta, 'Subuser password changed', async (tx, subuser, at) => {
        const q = createSubusersQueries(tx);
        await q.update(subuser.id, { passwordHash, updatedAt: at });
        await q.revokeSessions(subuser.id, at);
      });
    },

    async setEnabled(
      accountId: string,
      serviceId: string,
      id: string,
      enabled: boolean,
      meta: ChangeMeta,
    ): Promise<Subuser> {
      const action = enabled ? 'Subuser enabled' : 'Subuser disabled';
      return change(accountId, serviceId, id, meta, action, async (tx, subuser, at) => {
        const q = createSubusersQueries(tx);
        await q.update(subuser.id, { enabled, updatedAt: at });
        if (!enabled) await q.revokeSessions(subuser.id, at);
      });
    },

    async remove(accountId: string, serviceId: string, id: string, meta: ChangeMeta): Promise<void> {
      const service = await deps.changes.owned(accountId, serviceId);
      const subuser = await requireSubuser(service, id);
      await inTransaction(deps.db, async (tx) => {
        // Its sessions and codes go with it (foreign keys), so its token finds nothing from now.
        await createSubusersQueries(tx).remove(subuser.id);
        await record(tx, accountId, service, meta, 'Subuser deleted', subuser.username);
      });
    },

    /**
     * A new secret for the subuser's authenticator app. 2FA stays as it was until a code from the
     * new secret is verified; a set-up started again replaces the one not finished.
     */
    async startTwoFactor(accountId: string, serviceId: string, id: string): Promise<TwoFactorSetupResponse> {
      const service = await deps.changes.owned(accountId, serviceId);
      const subuser = await requireSubuser(service, id);
      if (subuser.totpSecret !== null) throw new AppError('two_factor_already_enabled');
      const { secret, uri, sealed } = deps.secondFactor.newSecret(`${service.name}:${subuser.username}`);
      await queries.update(subuser.id, { totpPending: sealed, updatedAt: now() });
      return { secret, otpauth_uri: uri, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS };
    },

    /** The first right code from the set-up's secret turns 2FA on; the backup codes come once. */
    async verifyTwoFactor(
      accountId: string,
      serviceId: string,
      id: string,
      input: TwoFactorVerifyRequest,
      meta: ChangeMeta,
    ): Promise<BackupCodesResponse> {
      const { code } = twoFactorVerifyRequestSchema.parse(input);
      const service = await deps.changes.owned(accountId, serviceId);
      const subuser = await requireSubuser(service, id);
      if (subuser.totpSecret !== null) throw new AppError('two_factor_already_enabled');
      if (subuser.totpPending === null) throw new AppError('two_factor_not_started');
      const at = now();
      const step = await deps.secondFactor.check(subuser.totpPending, code, null, at);
      if (step === undefined) throw new AppError('invalid_verification_code');
      const pending = subuser.totpPending;
      const codes = await inTransaction(deps.db, async (tx) => {
        const q = createSubusersQueries(tx);
        // The code that proved the set-up is used: it cannot sign the subuser in afterwards.
        await q.update(subuser.id, {
          totpSecret: pending,
          totpPending: null,
          totpLastStep: step,
          updatedAt: at,
        });
        const made = await renewBackupCodes(tx, subuser);
        await record(tx, accountId, service, meta, 'Subuser 2FA enabled', subuser.username);
        return made;
      });
      return { subuser: await listed(service, id), backup_codes: codes };
    },

    /** 2FA off: the secret and the backup codes are forgotten, and its sessions end. */
    async disableTwoFactor(
      accountId: string,
      serviceId: string,
      id: string,
      meta: ChangeMeta,
    ): Promise<Subuser> {
      return change(accountId, serviceId, id, meta, 'Subuser 2FA disabled', async (tx, subuser, at) => {
        const q = createSubusersQueries(tx);
        await q.update(subuser.id, {
          totpSecret: null,
          totpPending: null,
          totpLastStep: null,
          updatedAt: at,
        });
        await q.replaceBackupCodes(subuser.id, []);
        await q.revokeSessions(subuser.id, at);
      });
    },

    async renewBackupCodes(
      accountId: string,
      serviceId: string,
      id: string,
      meta: ChangeMeta,
    ): Promise<BackupCodesResponse> {
      const service = await deps.changes.owned(accountId, serviceId);
      const subuser = await requireSubuser(service, id);
      if (subuser.totpSecret === null) throw new AppError('two_factor_not_enabled');
      const codes = await inTransaction(deps.db, async (tx) => {
        const made = await renewBackupCodes(tx, subuser);
        await record(tx, accountId, service, meta, 'Subuser backup codes renewed', subuser.username);
        return made;
      });
      return { subuser: await listed(service, id), backup_codes: codes };
    },

    async sessions(accountId: string, serviceId: string, id: string): Promise<SubuserSessionsResponse> {
      const service = await deps.changes.owned(accountId, serviceId);
      const subuser = await requireSubuser(service, id);
      return { sessions: (await queries.listSessions(subuser.id, now())).map(presentSession) };
    },

    /** Ends one session (`sessionId`) or all of them; a session already ended answers 404. */
    async revokeSessions(
      accountId: string,
      serviceId: string,
      id: string,
      meta: ChangeMeta,
      sessionId?: string,
    ): Promise<void> {
      const service = await deps.changes.owned(accountId, serviceId);
      const subuser = await requireSubuser(service, id);
      const at = now();
      await inTransaction(deps.db, async (tx) => {
        const ended = await createSubusersQueries(tx).revokeSessions(
          subuser.id,
          at,
          sessionId ? [sessionId] : undefined,
        );
        if (sessionId && ended === 0) throw new AppError('subuser_session_not_found');
        if (ended > 0)
          await record(tx, accountId, service, meta, 'Subuser sessions revoked', subuser.username);
      });
    },
  };
}

export type SubusersService = ReturnType<typeof createSubusersService>;
