// Serves the built single-page app. Hashed assets are cached for a year; index.html is never
// cached, so a deploy reaches every browser on its next navigation. Any path that is not an
// API route and not a file gets index.html, and the app's router decides (including its own
// not-found page); a landing page the build wrote a copy of index.html for (`pages/<name>.html`,
// which names that page's code up front) gets its copy. Unknown /api paths answer a JSON 404.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { registerWithAccess } from './access.ts';
import { AppError } from './app-error.ts';
import { sendError } from './error-handler.ts';

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Debesis</title>
<p>The web app has not been built yet. Run <code>npm start</code> (it builds what is missing) or <code>npm run build</code>.</p></html>`;

/**
 * The scripts the build inlines in landing pages (apps/web/vite.config.ts: the preferences script,
 * a copy of `preferences.js`), for the content security policy to allow by hash.
 */
export function inlinedScripts(webDist: string): string[] {
  const file = path.join(webDist, 'preferences.js');
  return existsSync(file) ? [readFileSync(file, 'utf8')] : [];
}

/** A path that may have a landing page of its own: one segment of lower-case letters, or `/`. */
const LANDING_PAGE = /^\/[a-z-]*$/;

export const webAppPlugin = fp(async (app: FastifyInstance, options: { webDist: string }) => {
  const indexFile = path.join(options.webDist, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await registerWithAccess(app, 'public', () =>
      app.register(fastifyStatic, {
        root: options.webDist,
        // Files are looked up per request, so a rebuild's new hashed assets are served without a
        // restart; a missing file falls through to the not-found handler below.
        wildcard: true,
        preCompressed: true,
        index: false,
        cacheControl: false,
        setHeaders: (reply, filePath) => {
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          void reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      }),
    );
  }

  const servePage = (reply: FastifyReply, pathname: string) => {
    reply.ensureCsrfToken();
    if (!built) return reply.type('text/html').send(NOT_BUILT_PAGE);
    const landing = LANDING_PAGE.exec(pathname) ? `pages/${pathname.slice(1) || 'index'}.html` : '';
    const file = landing && existsSync(path.join(options.webDist, landing)) ? landing : 'index.html';
    return reply.header('cache-control', 'no-cache').sendFile(file);
  };

  // The folder itself is not listable; its page is the app.
  app.get('/', { config: { access: 'public' } }, (_request, reply) => servePage(reply, '/'));

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (pathname.startsWith('/api/') || pathname === '/api' || !wantsPage) {
      return sendError(request, reply, new AppError('not_found'));
    }
    return servePage(reply, pathname);
  });
});
