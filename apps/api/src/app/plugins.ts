// The plugins every route sits behind, in the order they must run: access levels first, then the
// error handler, language, security headers, cookies, forms, CSRF, the OpenAPI document and the
// operators' metrics. What they read of the modules (the guards, the nodes' summary) is asked
// when a request comes, so the modules can be built after them.
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { accessPlugin, registerWithAccess, type AccessGuards } from '../http/access.ts';
import { csrfPlugin } from '../http/csrf.ts';
import { errorHandlerPlugin } from '../http/error-handler.ts';
import { languagePlugin } from '../http/language.ts';
import { createMetrics, metricsPlugin, metricsQueries } from '../http/metrics.ts';
import { securityPlugin } from '../http/security.ts';
import { inlinedScripts } from '../http/web-app.ts';
import { APP_VERSION } from '../version.ts';

export async function registerPlugins(
  app: FastifyInstance,
  deps: {
    config: Config;
    database: Database;
    now: () => Date;
    guards: () => AccessGuards;
    nodeSummary: () => Promise<{ total: number; online: number }>;
  },
): Promise<void> {
  const { config } = deps;
  // Before any route: every route declares who may call it (config.access), enforced there.
  await app.register(accessPlugin, { guards: deps.guards });

  // External plugins.
  await app.register(errorHandlerPlugin);
  await app.register(languagePlugin);
  await app.register(securityPlugin, {
    corsOrigins: config.CORS_ORIGINS,
    https: !config.embedded,
    inlineScripts: inlinedScripts(config.webDist),
  });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(csrfPlugin, { secure: !config.embedded });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Debesis API', version: APP_VERSION },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await registerWithAccess(app, 'public', () =>
    app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true }),
  );
  // Operators' metrics (http/metrics.ts), kept only when METRICS_TOKEN or METRICS_PORT asks for them.
  if (config.METRICS_TOKEN !== undefined || config.METRICS_PORT !== undefined) {
    const sources = { ...metricsQueries(deps.database, deps.now), nodeSummary: deps.nodeSummary };
    await app.register(metricsPlugin, {
      metrics: createMetrics({ sources }),
      ...(config.METRICS_TOKEN !== undefined ? { token: config.METRICS_TOKEN } : {}),
    });
  }
}
