// Builds the Fastify application: plugins in order (external → app → routes), every module's
// routes under /api/v1, the OpenAPI document at /api/docs, and the web app for everything else.
// The caller owns the database, queue and mailer, so tests and the real process build it alike.
// This is the composition root; each concern it composes lives in app/.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { MailMessage } from './mail/mailer.ts';
import type { Renewals } from './modules/payments/renewals.ts';
import type { NodeCalls } from './modules/workspace/workspace-feature.ts';
import { jobSenders } from './app/jobs.ts';
import { buildModules } from './app/modules.ts';
import { registerPlugins } from './app/plugins.ts';
import { registerRoutes } from './app/routes.ts';
import { createServer } from './app/server.ts';

export interface AppDependencies {
  config: Config;
  database: Database;
  queue: JobQueue;
  /** A pino logger, or false for none (tests). */
  logger?: FastifyBaseLogger | false;
  now?: () => Date;
  /** How mail leaves the app; default: a `mail.send` job (tests capture messages instead). */
  sendMail?: (message: MailMessage) => Promise<void>;
  /** Questions to the nodes (tests answer them as a node would). */
  nodeCalls?: NodeCalls;
}

export type App = FastifyInstance;

const nodeCallsOfApp = new WeakMap<App, NodeCalls>();
const renewalsOfApp = new WeakMap<App, Renewals>();

/**
 * The automatic renewals of an app's payment services (the `billing.renewals` job): the worker
 * role runs them with an app it builds without listening, tests with theirs.
 */
export function renewalsOf(app: App): Renewals {
  const renewals = renewalsOfApp.get(app);
  if (!renewals) throw new Error('renewalsOf: not an app made by buildApp');
  return renewals;
}

/** The app's node calls, as its features get them (for tests and tools in this process). */
export function nodeCallsOf(app: App): NodeCalls {
  const calls = nodeCallsOfApp.get(app);
  if (!calls) throw new Error('nodeCallsOf: not an app made by buildApp');
  return calls;
}

export async function buildApp(deps: AppDependencies): Promise<App> {
  const { config, database, queue } = deps;
  const now = deps.now ?? (() => new Date());
  const app = createServer(config, deps.logger);
  // The plugins come first, the modules after them: what the plugins read of the modules (the
  // access guards, the nodes' summary) is read when a request comes.
  await registerPlugins(app, {
    config,
    database,
    now,
    guards: () => modules.guards,
    nodeSummary: () => modules.nodes.summary(),
  });
  const modules = await buildModules(
    app,
    { config, database, now, jobs: jobSenders(queue, deps.sendMail), log: app.log },
    { queue, nodeCalls: deps.nodeCalls },
  );
  renewalsOfApp.set(app, modules.renewals);
  nodeCallsOfApp.set(app, modules.workspaces.nodeCalls);
  await registerRoutes(app, modules, { config, database, queue, now });
  return app;
}
