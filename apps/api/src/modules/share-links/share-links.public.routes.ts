// /api/v1/public/shares/{token}: what a visitor of a share link calls (the page is the web app's
// /s/{token}). No sign-in. The password's grant is a cookie scoped to the link's own path, so it
// is sent with that link's calls only; `unlock` carries no CSRF header (a visitor has no
// session, and a forged unlock could only give a browser a link its forger already opens).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  PUBLIC_SHARES_API_PATH,
  publicShareDownloadQuerySchema,
  publicShareParamsSchema,
  publicShareQuerySchema,
  publicShareSchema,
  publicShareUnlockRequestSchema,
  publicShareUnlockResponseSchema,
} from '@debesis/contract';
import { documentHeaders } from '../../http/attachment.ts';
import { contentTypeOf, mayShowInPlace, parseRange } from './download-http.ts';
import type { ShareLinkVisits, Visitor } from './share-link-visits.ts';

export const SHARE_GRANT_COOKIE = 'share_grant';
/** How often a running download checks that its link was not revoked meanwhile. */
export const REVOKE_CHECK_MS = 10_000;

const binary = z.custom<unknown>().meta({ type: 'string', format: 'binary', description: 'the bytes' });
const tags = ['share-links (public)'];
const access = { access: 'public' } as const;

export const publicShareRoutes: FastifyPluginAsyncZod<{
  visits: ShareLinkVisits;
  secureCookies: boolean;
  revokeCheckMs?: number;
}> = async (app, { visits, secureCookies, revokeCheckMs = REVOKE_CHECK_MS }) => {
  const visitor = (request: FastifyRequest): Visitor => ({
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? '',
    grant: request.cookies[SHARE_GRANT_COOKIE],
  });
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

  app.get(
    '/:token',
    {
      config: access,
      schema: {
        tags,
        summary: 'What a link shares: a file, or a folder with its entries (`path` inside it)',
        params: publicShareParamsSchema,
        querystring: publicShareQuerySchema,
        response: { 200: publicShareSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return visits.view(request.params.token, request.query.path, visitor(request));
    },
  );

  app.post(
    '/:token/unlock',
    {
      config: { ...access, csrf: false },
      schema: {
        tags,
        summary:
          'The link’s password: a grant cookie for this link (10 wrong tries a link, 20 an address, per 15 minutes)',
        params: publicShareParamsSchema,
        body: publicShareUnlockRequestSchema,
        response: { 200: publicShareUnlockResponseSchema },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const { grant, expiresAt } = await visits.unlock(token, request.body.password, visitor(request));
      void reply.setCookie(SHARE_GRANT_COOKIE, grant, {
        path: `${PUBLIC_SHARES_API_PATH}${token}`,
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookies,
        expires: expiresAt,
      });
      noStore(reply);
      return { ok: true as const, expires_at: expiresAt.toISOString() };
    },
  );

  app.head(
    '/:token/download',
    {
      config: access,
      schema: {
        tags,
        summary: 'A download’s headers without its bytes (counts as no download)',
        params: publicShareParamsSchema,
        querystring: publicShareDownloadQuerySchema,
      },
    },
    async (request, reply) => {
      const item = await visits.head(request.params.token, request.query.path, visitor(request));
      const name = item.type === 'folder' ? `${item.name}.zip` : item.name;
      noStore(reply)
        .header('content-type', contentTypeOf(name, item.type === 'folder' ? 'zip' : 'file'))
        .headers(documentHeaders(name))
        .header('last-modified', new Date(item.modified_at).toUTCString());
      if (item.type === 'file')
        reply.header('accept-ranges', 'bytes').header('content-length', String(item.size));
      return reply.send();
    },
  );

  app.get(
    '/:token/download',
    {
      config: access,
      exposeHeadRoute: false,
      schema: {
        tags,
        summary:
          'The file (Range and If-Range honoured: 206, or 416 past its end), or a folder as a zip written as it is read; `inline=1` shows images, media, PDF and text in the browser',
        params: publicShareParamsSchema,
        querystring: publicShareDownloadQuerySchema,
        response: { 200: binary, 206: binary, 416: binary },
      },
    },
    async (request, reply) => {
      const ifRange = request.headers['if-range'];
      const download = await visits.download(
        request.params.token,
        {
          path: request.query.path,
          range: parseRange(request.headers.range),
          ...(typeof ifRange === 'string' && ifRange.startsWith('"')
            ? { if_range: ifRange.slice(0, 200) }
            : {}),
        },
        visitor(request),
      );
      const { body, meta } = download;
      const contentType = contentTypeOf(download.name, meta.type);
      const inline = request.query.inline === '1' && meta.type !== 'zip' && mayShowInPlace(contentType);
      // A PDF shown in place gets the sandbox too (it went without, and a PDF carries script and
      // form actions of its own).
      noStore(reply)
        .type(contentType)
        .headers(documentHeaders(download.name, inline ? 'inline' : 'attachment'));
      if (meta.type !== 'zip') reply.header('accept-ranges', 'bytes');
      if (meta.etag) reply.header('etag', meta.etag);
      if (meta.modified_at) reply.header('last-modified', new Date(meta.modified_at).toUTCString());

      let bytesSent = 0;
      body.on('data', (chunk: Buffer) => {
        bytesSent += chunk.length;
      });
      // A link revoked while a long download runs stops it.
      const watch = setInterval(() => {
        void download.stillServes().then(
          (serves) => {
            if (!serves) reply.raw.destroy();
          },
          () => undefined,
        );
      }, revokeCheckMs);
      watch.unref();
      // Sent to its end ('finish'), or cut ('close' without it): recorded once, either way.
      let recorded = false;
      const record = (whole: boolean) => {
        if (recorded) return;
        recorded = true;
        clearInterval(watch);
        // The visitor gone before the end: the node's upload stops too.
        if (!body.readableEnded) body.destroy();
        download
          .finish({ bytesSent, whole })
          .catch((error: unknown) => request.log.warn({ err: error }, 'recording a share download failed'));
      };
      reply.raw.once('finish', () => record(true));
      reply.raw.once('close', () => record(false));

      const { range } = meta;
      if (range && 'unsatisfiable' in range) {
        body.resume();
        return reply.status(416).header('content-range', `bytes */${range.total}`).send('');
      }
      if (range)
        reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${range.total}`);
      if (download.size !== null) reply.header('content-length', String(download.size));
      return reply.send(body);
    },
  );
};
