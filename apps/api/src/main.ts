// The process entry point. ROLES decides what this process runs: `api` (HTTP), `worker`
// (background jobs) and `agent` (the embedded local storage node). `npm start` runs all three in
// one process on the embedded database; production runs them apart on one PostgreSQL.
import pino from 'pino';
import { ConfigError, loadConfig, serverSecretOf } from './config.ts';
import { openDatabase } from './db/database.ts';
import { startQueue } from './jobs/queue.ts';
import { createMailer } from './mail/mailer.ts';
import { buildApp, renewalsOf, type App } from './app.ts';
import { loggerOptions } from './http/logging.ts';
import { listenForMetrics } from './http/metrics.ts';
import { startWorker } from './worker.ts';
import { REPLICA_LOOP_MS } from './modules/replicas/replicas.loop.ts';
import { startEmbeddedAgent } from './embedded-agent.ts';
import { prepareDatabase } from './db/prepare.ts';

async function main() {
  const config = loadConfig();
  const logger = pino(loggerOptions(config.LOG_LEVEL));
  const roles = new Set(config.ROLES);
  const stops: Array<() => Promise<void>> = [];

  const database = await openDatabase({
    dataDir: config.dataDir,
    onError: (error) => logger.warn({ err: error }, 'database connection error'),
    ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
  });
  stops.unshift(() => database.close());
  const { seeded } = await prepareDatabase(database);
  if (seeded) logger.info('catalogue seeded with the four standard plans');
  const queue = await startQueue(database, {
    supervise: roles.has('worker'),
    quickExpireSeconds: config.JOB_QUICK_EXPIRE_SECONDS,
    maintenanceIntervalSeconds: config.JOB_MAINTENANCE_INTERVAL_SECONDS,
    onError: (error) => logger.warn({ err: error }, 'job queue error'),
  });
  stops.unshift(() => queue.stop());
  logger.info({ database: database.kind, roles: [...roles] }, 'database ready');

  let apiUrl = config.API_URL?.replace(/\/+$/, '') ?? `http://127.0.0.1:${config.PORT}`;
  // The payment services the renewals job charges with: this process's app, or (a worker only)
  // one built for them, never listening, at the first run.
  let paymentApp: Promise<App> | null = null;
  const renewals = async () => {
    paymentApp ??= buildApp({ config, database, queue, logger }).then((built) => {
      stops.unshift(() => built.close());
      return built;
    });
    return renewalsOf(await paymentApp);
  };
  if (roles.has('api')) {
    const app = await buildApp({ config, database, queue, logger });
    paymentApp = Promise.resolve(app);
    stops.unshift(() => app.close());
    const address = await app.listen({ host: config.HOST, port: config.PORT });
    apiUrl = address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
    logger.info(`Debesis is running at ${config.publicUrl} (listening on ${address})`);
    if (config.METRICS_PORT !== undefined) {
      const metrics = await listenForMetrics(app, {
        host: config.METRICS_HOST,
        port: config.METRICS_PORT,
        logger,
      });
      stops.unshift(() => metrics.server.close());
      logger.info(`Prometheus metrics at ${metrics.address}/metrics`);
    }
  }
  if (roles.has('worker')) {
    const worker = await startWorker({
      queue,
      database,
      apiUrl,
      paymentsSandboxSecret: config.paymentsSandboxSecret,
      publicUrl: config.publicUrl,
      serverSecret: serverSecretOf(config),
      embedded: config.embedded,
      mailer: createMailer({ smtpUrl: config.SMTP_URL, mailDir: config.mailDir, from: config.MAIL_FROM }),
      logger,
      replicaLoopMs: REPLICA_LOOP_MS,
      failoverAfterMs: config.NODE_FAILOVER_AFTER_MS,
      renewals,
    });
    stops.unshift(() => worker.stop());
    logger.info({ mail: config.SMTP_URL ? 'smtp' : config.mailDir }, 'worker started');
  }
  if (roles.has('agent')) {
    const agent = await startEmbeddedAgent({ config, apiUrl, database, logger });
    stops.unshift(() => agent.stop());
  }

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    void (async () => {
      for (const stop of stops) {
        await stop().catch((error: unknown) => logger.error({ err: error }, 'shutdown step failed'));
      }
      process.exit(0);
    })();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
