// Security headers and CORS. The web app is served from the API's own origin, so CORS stays
// closed unless CORS_ORIGINS names other sites. HSTS and upgrade-insecure-requests are sent only
// when the product is served over HTTPS (production); the embedded default runs on plain
// http://localhost, where they would break the page.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import cors from '@fastify/cors';

export const securityPlugin = fp(
  async (app: FastifyInstance, options: { corsOrigins: string[]; https: boolean }) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          fontSrc: ["'self'", 'data:'],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          baseUri: ["'self'"],
          upgradeInsecureRequests: options.https ? [] : null,
        },
      },
      strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    });
    await app.register(cors, {
      origin: options.corsOrigins.length > 0 ? options.corsOrigins : false,
      credentials: true,
    });
  },
);
