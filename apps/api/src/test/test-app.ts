// Builds the whole API on a private database for one test file, and helpers to call it the way
// the web app does (CSRF cookie + header, language header).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { MailMessage } from '../mail/mailer.ts';
import { buildApp, type App } from '../app.ts';
import type { QueryObserver } from '../db/database.ts';
import { loadConfig, type Config } from '../config.ts';
import { startQueue, type JobQueue } from '../jobs/queue.ts';
import { createAuthLinks } from '../modules/auth/auth.links.ts';
import { createAuthQueries } from '../modules/auth/auth.queries.ts';
import { createUsersQueries } from '../modules/users/users.queries.ts';
import type { NodeCalls } from '../modules/workspace/workspace-feature.ts';
import { openTestDatabase, type TestDatabase } from './test-database.ts';

export const TEST_REGISTRATION_TOKEN = 'test-registration-token-0123456789';
export const TEST_SANDBOX_SECRET = 'test-sandbox-secret-0123456789';

/** Mail the app sent during a test, newest last. */
export class Mailbox {
  readonly messages: MailMessage[] = [];

  to(address: string): MailMessage[] {
    return this.messages.filter((message) => message.to === address.toLowerCase());
  }

  /** The newest message to `address`, failing the test when there is none. */
  last(address: string): MailMessage {
    const message = this.to(address).at(-1);
    if (!message) throw new Error(`no mail to ${address}`);
    return message;
  }

  /**
   * The newest message to `address` matching `wanted`, waiting for it up to 10 s: mail sent by
   * a job (reset links) arrives after the request that queued it has answered.
   */
  async next(address: string, wanted: (message: MailMessage) => boolean, after = 0): Promise<MailMessage> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = this.to(address).slice(after).filter(wanted).at(-1);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no such mail to ${address} within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The token of the newest link to `page` (verify-email, reset-password) mailed to `address`. */
  linkToken(address: string, page: string): string {
    const match = new RegExp(`/auth/${page}\\?token=([A-Za-z0-9_%-]+)`).exec(this.last(address).text);
    if (!match?.[1]) throw new Error(`no ${page} link in the mail to ${address}`);
    return decodeURIComponent(match[1]);
  }
}

export interface TestContext {
  app: App;
  mailbox: Mailbox;
  /** Moves the fake clock (only with `clock: true`). */
  advance(ms: number): void;
  /** The app's clock: the fake one with `clock: true`, else the real one. */
  now(): Date;
  database: TestDatabase;
  queue: JobQueue;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

export function testConfig(dataDir: string, overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    JWT_SECRET: 'test-jwt-secret-that-is-long-enough-0123456789',
    NODE_REGISTRATION_TOKEN: TEST_REGISTRATION_TOKEN,
    PAYMENTS_SANDBOX_SECRET: TEST_SANDBOX_SECRET,
    LOG_LEVEL: 'silent',
    HEALTH_MAX_AGE_MS: '0',
    ...overrides,
  });
}

export async function createTestContext(
  options: {
    clock?: boolean;
    env?: Record<string, string>;
    /** A logger to read what the app logs (default: none). */
    logger?: FastifyBaseLogger;
    /** Answers the app's questions to nodes (default: none answers). */
    nodeCalls?: NodeCalls;
    /** Told the SQL of every query run through the app's database handle (not the job queue's). */
    onQuery?: QueryObserver;
  } = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'debesis-api-test-'));
  const config = testConfig(dataDir, options.env);
  const database = await openTestDatabase(options.onQuery);
  const queue = await startQueue(database, { supervise: false, pollingIntervalSeconds: 0.5 });
  const mailbox = new Mailbox();
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const app = await buildApp({
    config,
    database,
    queue,
    logger: options.logger ?? false,
    sendMail: async (message) => {
      mailbox.messages.push(message);
    },
    ...(options.clock ? { now } : {}),
    ...(options.nodeCalls ? { nodeCalls: options.nodeCalls } : {}),
  });
  await app.ready();
  // The worker's job that mails reset links, delivering into the mailbox on the app's clock.
  const links = createAuthLinks({
    users: createUsersQueries(database.db),
    queries: createAuthQueries(database.db),
    sendMail: async (message) => {
      mailbox.messages.push(message);
    },
    publicUrl: config.publicUrl,
    now: options.clock ? now : () => new Date(),
  });
  await queue.work('auth.password-reset', ({ email }) => links.mailPasswordReset(email));
  return {
    app,
    mailbox,
    advance(ms) {
      if (!options.clock) throw new Error('createTestContext({ clock: true }) to move time');
      offsetMs += ms;
    },
    now: options.clock ? now : () => new Date(),
    database,
    queue,
    config,
    dataDir,
    async close() {
      await app.close();
      await queue.stop();
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A value a describe block builds in its beforeAll, to hand out from the block's body before it
 * exists: `get` answers it once built and fails loudly when read too early.
 */
export function builtLater<T>(what: string) {
  let value: T | undefined;
  return {
    set(built: T) {
      value = built;
    },
    get(): T {
      if (value === undefined) throw new Error(`${what} is built in beforeAll: use it in a test or a hook`);
      return value;
    },
    /** The value, or undefined when its beforeAll failed before building it. */
    peek(): T | undefined {
      return value;
    },
  };
}

/**
 * The test app of a describe block: built (then `prepare`d: catalogue seeded, nodes registered…)
 * in a beforeAll and closed in an afterAll that this registers. The answer stands for the app and
 * can be taken in the block's body: each of its properties reads the built one when used.
 */
export function useTestContext(
  options: Parameters<typeof createTestContext>[0] = {},
  prepare: (ctx: TestContext) => Promise<unknown> = async () => undefined,
): TestContext {
  const built = builtLater<TestContext>('the test app');
  beforeAll(async () => {
    const ctx = await createTestContext(options);
    built.set(ctx);
    await prepare(ctx);
  });
  afterAll(async () => {
    // Nothing to close when the beforeAll failed first: its error is the one to read.
    await built.peek()?.close();
  });
  return {
    get app() {
      return built.get().app;
    },
    get mailbox() {
      return built.get().mailbox;
    },
    advance: (ms) => built.get().advance(ms),
    now: () => built.get().now(),
    get database() {
      return built.get().database;
    },
    get queue() {
      return built.get().queue;
    },
    get config() {
      return built.get().config;
    },
    get dataDir() {
      return built.get().dataDir;
    },
    close: () => built.get().close(),
  };
}

/** Cookies and header a browser would hold after its first page load. */
export async function csrfSession(app: App): Promise<{ cookie: string; token: string }> {
  const response = await app.inject({ method: 'GET', url: '/api/v1/csrf' });
  const cookies = response.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const token = response.json<{ csrf_token: string }>().csrf_token;
  return { cookie: cookies, token };
}

/** Sends a change the way the web app does: with the CSRF cookie and header. */
export async function injectWithCsrf(app: App, options: InjectOptions): Promise<LightMyRequestResponse> {
  const { cookie, token } = await csrfSession(app);
  return app.inject({
    ...options,
    headers: { ...(options.headers ?? {}), cookie, 'x-csrf-token': token },
  });
}
