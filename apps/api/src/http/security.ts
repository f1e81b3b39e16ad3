// Security headers and CORS. The web app is served from the API's own origin, so CORS stays
// closed unless CORS_ORIGINS names other sites. HSTS and upgrade-insecure-requests are sent only
// when the product is served over HTTPS (production); the embedded default runs on plain
// http://localhost, where they would break the page.
//
// The headers do not depend on the request (no CSP nonces), so helmet computes them once, at
// start, and one hook copies them onto every reply: @fastify/helmet built all of helmet's
// middlewares again for each request, ~4% of a signed-in read's CPU.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import cors from '@fastify/cors';
import { registerWithAccess } from './access.ts';

/**
 * `inlineScripts`: scripts the served pages carry inline (the landing pages' preferences script),
 * allowed by their SHA-256 and nothing else inline.
 */
export function helmetOptions(https: boolean, inlineScripts: readonly string[] = []): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScripts.map((script) => `'sha256-${scriptHash(script)}'`)],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  };
}

function scriptHash(script: string): string {
  return createHash('sha256').update(script, 'utf8').digest('base64');
}

/** The headers helmet sets with these options, by running it once on a response that records them. */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      // helmet removes X-Powered-By, which Fastify never sets.
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error('helmet refused its options');
  });
  return headers;
}

export const securityPlugin = fp(
  async (
    app: FastifyInstance,
    options: { corsOrigins: string[]; https: boolean; inlineScripts?: readonly string[] },
  ) => {
    const headers = securityHeaders(helmetOptions(options.https, options.inlineScripts));
    app.addHook('onRequest', (_request, reply, done) => {
      void reply.headers(headers);
      done();
    });
    // Its preflight route (OPTIONS *) answers anyone; the origins above decide what it allows.
    await registerWithAccess(app, 'public', () =>
      app.register(cors, {
        origin: options.corsOrigins.length > 0 ? options.corsOrigins : false,
        credentials: true,
      }),
    );
  },
);
