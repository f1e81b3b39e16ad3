// Share links, the visitor's side (docs/features/share-links.md): open a link by its token, give its
// password, download what it shares. Every attempt lands in the link's access log with what it
// got. The checks run in one order, so a refused visitor learns no more than the refusal: the
// address rules first (a refused network learns nothing of the link's state), then revoked,
// expired, the service no longer running, the download limit, the password; and only then is the
// node asked anything, so no refusal says whether the file exists.
//
// The bytes come from the node as a stream node call (nodes/node-calls.ts) and go to the visitor
// as they come; nothing is staged on the API host. A download counts toward the limit only when it
// ended at the file's last byte (a whole file, or the last range of a resumed one); a cut one is
// logged `incomplete` with the bytes that got through.
import {
  type ErrorCode,
  type NodeStreamMeta,
  type PublicShare,
  type ShareDownloadPayload,
  type ShareLinkAccessResult,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { nodeCallError, type NodeCallStream, type NodeCalls } from '../nodes/node-calls.ts';
import {
  guessLimits,
  SHARE_PASSWORD_GUESSES,
  subjectFromSource,
  type RateLimiter,
} from '../rate-limits/rate-limits.service.ts';
import { createWorkspaceRows } from '../services/workspace-rows.ts';
import { ipAllowed } from './ip-rules.ts';
import { SHARE_GRANT_TTL_MS, hashShareToken, type ShareLinkKeys } from './share-link-tokens.ts';
import { createShareLinksQueries, type ShareLinkRow } from './share-links.queries.ts';
import { limitReached, linkState, sharedRoot } from './share-links.service.ts';

/** Who is asking, as the access log records them. */
export interface Visitor {
  ip: string;
  userAgent: string;
  /** The grant cookie of this link, if the browser sent one. */
  grant?: string;
}

/** A download on its way: the node's bytes, and the call that records how it ended. */
export interface ShareDownload {
  name: string;
  size: number | null;
  meta: NodeStreamMeta;
  body: NodeCallStream['body'];
  /** Records the end: `bytesSent` to the visitor, `whole` when the response was sent to its end. */
  finish(end: { bytesSent: number; whole: boolean }): Promise<void>;
  /** Whether the link still may serve (not revoked since): checked while a long download runs. */
  stillServes(): Promise<boolean>;
}

const USER_AGENT_MAX = 500;

export function createShareLinkVisits(deps: {
  db: Db;
  nodeCalls: NodeCalls;
  limiter: RateLimiter;
  keys: ShareLinkKeys;
  now: () => Date;
}) {
  const queries = createShareLinksQueries(deps.db);

  function log(
    link: ShareLinkRow,
    visitor: Visitor,
    result: ShareLinkAccessResult,
    path: string | null = null,
  ) {
    return queries.logAttempt({
      linkId: link.id,
      at: deps.now(),
      ip: visitor.ip,
      userAgent: visitor.userAgent.slice(0, USER_AGENT_MAX),
      result,
      path,
    });
  }

  async function refuse(
    link: ShareLinkRow,
    visitor: Visitor,
    result: ShareLinkAccessResult,
    code: ErrorCode,
    path: string | null,
  ): Promise<never> {
    await log(link, visitor, result, path);
    throw new AppError(code);
  }

  /**
   * The link behind `token` and the storage path it shares, when `visitor` may open it now; else
   * the refusal, logged. `password: false` stops before the password (the unlock itself).
   */
  async function admit(
    token: string,
    visitor: Visitor,
    path: string | null,
    options: { password: boolean } = { password: true },
  ): Promise<{ link: ShareLinkRow; root: string }> {
    const link = await queries.byTokenHash(hashShareToken(token));
    if (!link) throw new AppError('share_link_not_found');
    const now = deps.now();
    if (!ipAllowed(visitor.ip, link.ipAllow, link.ipDeny))
      return refuse(link, visitor, 'ip_refused', 'share_link_ip_refused', path);
    const state = linkState(link, now);
    if (state === 'revoked') return refuse(link, visitor, 'revoked', 'share_link_revoked', path);
    if (state === 'expired') return refuse(link, visitor, 'expired', 'share_link_expired', path);
    const service = await createWorkspaceRows(deps.db).findForAccount(link.accountId, link.serviceId);
    if (!service || service.status !== 'active' || service.validUntil <= now)
      return refuse(link, visitor, 'not_found', 'share_link_unavailable', path);
    if (limitReached(link)) return refuse(link, visitor, 'over_limit', 'share_link_over_limit', path);
    if (options.password && link.passwordHash !== null && !deps.keys.granted(visitor.grant, link.id, now))
      throw new AppError('share_link_password_required');
    const root = await sharedRoot(deps.db, link);
    if (root === undefined) return refuse(link, visitor, 'not_found', 'share_link_unavailable', path);
    return { link, root };
  }

  /** A node's "not there" is the visitor's "no longer available"; the rest are the node's errors. */
  async function nodeFailure(
    link: ShareLinkRow,
    visitor: Visitor,
    failure: { code: Parameters<typeof nodeCallError>[0]; error: string },
    path: string,
  ): Promise<never> {
    if (failure.code === 'not_found')
      return refuse(link, visitor, 'not_found', 'share_link_unavailable', path);
    // Two refusals the visitor can act on: wait a minute, or take the folders inside one by one.
    throw nodeCallError(failure.code, { busy: 'share_link_busy', too_large: 'share_link_folder_too_big' });
  }

  return {
    async view(token: string, path: string, visitor: Visitor): Promise<PublicShare> {
      const { link, root } = await admit(token, visitor, path);
      const answer = await deps.nodeCalls.call(link.serviceId, 'share.describe', { root, path });
      if (!answer.ok) return nodeFailure(link, visitor, answer, path);
      const item = answer.result;
      // A custom path shared as a file stays a file: a folder put there since is not what was shared.
      if (!item.found || (path === '' && link.itemType === 'file' && item.type !== 'file'))
        return refuse(link, visitor, 'not_found', 'share_link_unavailable', path);
      // The link's own page counts as a visit; walking inside a folder does not, downloads do.
      if (path === '') await log(link, visitor, 'viewed', path);
      return {
        name: root.split('/').pop() ?? item.name,
        item_type: link.itemType,
        path,
        type: item.type,
        size: item.size,
        size_complete: item.size_complete,
        modified_at: item.modified_at,
        entries: item.entries,
        truncated: item.truncated,
        expires_at: link.expiresAt?.toISOString() ?? null,
        downloads_left: link.downloadLimit === null ? null : Math.max(0, link.downloadLimit - link.downloads),
        has_password: link.passwordHash !== null,
      };
    },

    /** The link's password: a grant for this link (the caller sets it as a cookie), or a refusal. */
    async unlock(
      token: string,
      password: string,
      visitor: Visitor,
    ): Promise<{ grant: string; expiresAt: Date }> {
      const { link } = await admit(token, visitor, null, { password: false });
      if (link.passwordHash === null) throw new AppError('share_link_not_found');
      const taken = await deps.limiter
        .take(guessLimits(SHARE_PASSWORD_GUESSES, link.id, visitor.ip))
        .catch(async (error: unknown) => {
          await log(link, visitor, 'rate_limited');
          throw error;
        });
      if (!(await verifyPassword(link.passwordHash, password)))
        return refuse(link, visitor, 'wrong_password', 'share_link_wrong_password', null);
      // A right password is no failure: it gives back what it counted.
      await deps.limiter.release(taken);
      await deps.limiter.clear(
        SHARE_PASSWORD_GUESSES.perSubjectAndSource,
        subjectFromSource(link.id, visitor.ip),
      );
      await log(link, visitor, 'unlocked');
      const now = deps.now().getTime();
      const expiresAt = new Date(Math.min(now + SHARE_GRANT_TTL_MS, link.expiresAt?.getTime() ?? Infinity));
      return { grant: deps.keys.grant(link.id, expiresAt), expiresAt };
    },

    /** What a HEAD of a download says: the item's size and dates, without its bytes. */
    async head(token: string, path: string, visitor: Visitor) {
      const { link, root } = await admit(token, visitor, path);
      const answer = await deps.nodeCalls.call(link.serviceId, 'share.describe', { root, path });
      if (!answer.ok) return nodeFailure(link, visitor, answer, path);
      if (!answer.result.found) return refuse(link, visitor, 'not_found', 'share_link_unavailable', path);
      return answer.result;
    },

    async download(
      token: string,
      request: Pick<ShareDownloadPayload, 'path' | 'range' | 'if_range'>,
      visitor: Visitor,
    ): Promise<ShareDownload> {
      const { link, root } = await admit(token, visitor, request.path);
      const entryId = await log(link, visitor, 'incomplete', request.path);
      const answer = await deps.nodeCalls.stream(link.serviceId, 'share.download', { ...request, root });
      if (!answer.ok) {
        await queries.finishDownload(entryId, link.id, { result: 'not_found', bytesSent: 0, counts: false });
        return nodeFailure(link, visitor, answer, request.path);
      }
      const { stream } = answer;
      const meta = stream.meta ?? {};
      const range = meta.range;
      // The last byte of the file (or the end of a zip) reached: one completed download.
      const reachesEnd = !range || ('end' in range && range.end === range.total - 1);
      return {
        name: stream.name,
        size: stream.size,
        meta,
        body: stream.body,
        async finish({ bytesSent, whole }) {
          const served = whole && !(range && 'unsatisfiable' in range);
          await queries.finishDownload(entryId, link.id, {
            result: served ? 'served' : 'incomplete',
            bytesSent,
            counts: served && reachesEnd,
          });
        },
        async stillServes() {
          const now = await queries.byId(link.id);
          return now !== undefined && now.revokedAt === null;
        },
      };
    },
  };
}

export type ShareLinkVisits = ReturnType<typeof createShareLinkVisits>;
