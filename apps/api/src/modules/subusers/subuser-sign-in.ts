// A subuser's own sign-in (spec §2 "Subuser sign-in", §7 POST /subusers/auth/login, §8): username
// and password against the service named by its ID, then the second factor when 2FA is on (the
// app's code or one backup code), then a session per device. Its token is opaque and checked
// against the session on every request (the `subuser` callers of http/caller.ts), so ending a
// session, disabling or deleting the subuser stops it at its next request.
//
// Sign-in failures count like the owner's (guessLimits: per subuser and address, a ceiling per
// subuser, per address), the second factor's too;
// a right password with the code still to come gives its count back, a wrong code keeps it.
import { randomBytes } from 'node:crypto';
import {
  SUBUSER_REMEMBERED_SESSION_DAYS,
  SUBUSER_SESSION_HOURS,
  SUBUSER_TOKEN_PREFIX,
  subuserLoginRequestSchema,
  type SubuserIdentity,
  type SubuserLoginRequest,
  type SubuserLoginResponse,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { SubuserCaller } from '../../http/caller.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { hashOpaqueToken as hashToken } from '../auth/tokens.ts';
import {
  guessLimits,
  LIMITS,
  SIGN_IN_GUESSES,
  subjectFromSource,
  type RateLimiter,
} from '../rate-limits/rate-limits.service.ts';
import type { RecordActivity, WorkspaceChanges } from '../workspace/workspace-change.ts';
import type { SecondFactor } from './second-factor.ts';
import { createSubusersQueries, type SubuserRow } from './subusers.queries.ts';

/** How stale a session's `last_used_at` may grow before a request writes it again. */
const TOUCH_EVERY_MS = 60_000;

export interface SubuserSignInDeps {
  db: Db;
  changes: Pick<WorkspaceChanges, 'owned' | 'now'>;
  recordActivity: RecordActivity;
  limiter: RateLimiter;
  secondFactor: SecondFactor;
}

export interface SignInMeta {
  ip: string | null;
}

export function createSubuserSignIn(deps: SubuserSignInDeps) {
  const queries = createSubusersQueries(deps.db);
  const now = deps.changes.now;

  /** Whether `code` is the subuser's second factor now; a code is taken at most once. */
  async function secondFactorTaken(subuser: SubuserRow, code: string, at: Date): Promise<boolean> {
    if (subuser.totpSecret === null) return true;
    if (/^\d{6}$/.test(code)) {
      const step = await deps.secondFactor.check(subuser.totpSecret, code, subuser.totpLastStep, at);
      return step !== undefined && (await queries.takeTotpStep(subuser.id, step));
    }
    return queries.useBackupCode(subuser.id, deps.secondFactor.backupCodeHashes(code), at);
  }

  async function identity(subuser: SubuserRow, expiresAt: Date): Promise<SubuserIdentity> {
    const service = await deps.changes.owned(subuser.accountId, subuser.serviceId);
    return {
      id: subuser.id,
      username: subuser.username,
      service_id: service.id,
      service_name: service.name,
      two_factor_enabled: subuser.totpSecret !== null,
      expires_at: expiresAt.toISOString(),
    };
  }

  return {
    async login(input: SubuserLoginRequest, meta: SignInMeta): Promise<SubuserLoginResponse> {
      const request = subuserLoginRequestSchema.parse(input);
      const subject = `subuser:${request.service_id}:${request.username}`;
      const attempt = await deps.limiter.take(guessLimits(SIGN_IN_GUESSES, subject, meta.ip));
      const subuser = await queries.findNamed(request.service_id, request.username);
      // The same hash work whether or not the name exists: the answer's timing tells nothing.
      const passwordOk = await verifyPassword(subuser?.passwordHash, request.password);
      if (!subuser || !passwordOk) throw new AppError('invalid_credentials');
      // Only someone who knows the password learns the subuser's state.
      if (!subuser.enabled) {
        await deps.limiter.release(attempt);
        throw new AppError('subuser_disabled');
      }
      const at = now();
      if (subuser.totpSecret !== null) {
        if (!request.two_factor_code) {
          await deps.limiter.release(attempt);
          throw new AppError('two_factor_required');
        }
        if (!(await secondFactorTaken(subuser, request.two_factor_code, at)))
          throw new AppError('invalid_verification_code');
      }
      await deps.limiter.release(attempt);
      await deps.limiter.clear(LIMITS.loginFailuresPerAccountAndIp, subjectFromSource(subject, meta.ip));

      const token = `${SUBUSER_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const lifetimeMs = request.remember_me
        ? SUBUSER_REMEMBERED_SESSION_DAYS * 86_400_000
        : SUBUSER_SESSION_HOURS * 3_600_000;
      const expiresAt = new Date(at.getTime() + lifetimeMs);
      const device = request.device_name || 'Unknown device';
      await inTransaction(deps.db, async (tx) => {
        const q = createSubusersQueries(tx);
        await q.insertSession({
          subuserId: subuser.id,
          tokenHash: hashToken(token),
          tokenHint: token.slice(0, SUBUSER_TOKEN_PREFIX.length + 6),
          deviceName: device,
          ip: meta.ip,
          rememberMe: request.remember_me,
          createdAt: at,
          lastUsedAt: at,
          expiresAt,
        });
        await q.update(subuser.id, { lastLoginAt: at });
        await deps.recordActivity(tx, {
          accountId: subuser.accountId,
          serviceId: subuser.serviceId,
          ip: meta.ip,
          action: 'Subuser logged in',
          tone: 'info',
          details: { name: subuser.username, device },
        });
      });
      return {
        access_token: token,
        token_type: 'bearer',
        expires_at: expiresAt.toISOString(),
        subuser: await identity(subuser, expiresAt),
      };
    },

    /** The subuser a token's session belongs to now, or 401 (unknown, ended, expired, disabled). */
    async authenticate(token: string): Promise<SubuserCaller> {
      const found = await queries.findSession(hashToken(token));
      const at = now();
      if (
        !found ||
        found.session.revokedAt !== null ||
        found.session.expiresAt <= at ||
        !found.subuser.enabled
      ) {
        throw unauthorized();
      }
      const { session, subuser } = found;
      if (at.getTime() - session.lastUsedAt.getTime() >= TOUCH_EVERY_MS)
        await queries.touchSession(session.id, at);
      return {
        accountId: subuser.accountId,
        serviceId: subuser.serviceId,
        subuserId: subuser.id,
        sessionId: session.id,
        username: subuser.username,
      };
    },

    async me(caller: SubuserCaller): Promise<SubuserIdentity> {
      const found = await queries.find(caller.serviceId, caller.subuserId);
      const session =
        found && (await queries.listSessions(found.id, now())).find((s) => s.id === caller.sessionId);
      if (!found || !session) throw unauthorized();
      return identity(found, session.expiresAt);
    },

    async logout(caller: SubuserCaller): Promise<void> {
      await queries.revokeSessions(caller.subuserId, now(), [caller.sessionId]);
    },
  };
}

export type SubuserSignIn = ReturnType<typeof createSubuserSignIn>;
