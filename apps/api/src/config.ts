// The API's configuration: every environment variable it reads, parsed once at boot. A bad or
// missing value stops the process with a message naming the variable. Secrets have no defaults;
// only the embedded development mode invents them (and keeps them in DATA_DIR/secrets.json so a
// restart does not sign everybody out).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { ServerSecrets } from './crypto/server-keys.ts';
import { queueEnvironmentShape } from './jobs/queue.config.ts';
import { backupTargetEnvironmentShape } from './modules/backups/backup-target.config.ts';
import { replicasEnvironmentShape } from './modules/replicas/replicas.config.ts';
import { SELLER_REQUIRED_IN_PRODUCTION, sellerEnvironmentShape } from './modules/billing/billing.config.ts';
import { oauthEnvironmentShape } from './modules/oauth/oauth.config.ts';
import { ensurePrivateDirSync, PRIVATE_FILE_MODE } from './private-dir.ts';

const ROLES = ['api', 'worker', 'agent'] as const;
export type Role = (typeof ROLES)[number];

/**
 * TRUST_PROXY: `false` (the default) or the addresses and CIDRs of the proxies in front of the API
 * (`10.0.0.0/8,192.0.2.7`; proxy-addr's `loopback`, `linklocal` and `uniquelocal` too): their
 * X-Forwarded-For entries are believed, up to the first hop that is not one of them. `true` is
 * refused (it believed every hop, so a forged leftmost entry became the address per-IP limits and
 * the activity log saw), and so is a hop count (it cannot tell a balancer from a client that
 * reaches the API directly; Fastify ignores it).
 */
export type TrustProxy = false | string[];

const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * The widest range a proxy network may be: 10.0.0.0/8 (IPv4, also written ::ffff:10.0.0.0/104) and
 * fc00::/7 (IPv6 unique local). Anything wider (0.0.0.0/0, ::/0, ::ffff:0:0/96, 0.0.0.0/1 with
 * 128.0.0.0/1) holds addresses of the public: it would believe a forged hop from any client,
 * exactly like `true`.
 */
const WIDEST_PROXY_PREFIX = { ipv4: 8, ipv6: 7 } as const;

/** The prefix of the IPv4 addresses an IPv6 range spans (proxy-addr matches IPv4 peers against ::ffff:a.b.c.d/96+). */
function mappedIpv4Prefix(address: string, prefix: number): number | undefined {
  // The URL parser writes an IPv6 address in its one canonical form (0:0:0:0:0:ffff:a00:1 and
  // ::ffff:10.0.0.1 both become ::ffff:a00:1).
  if (address.includes('%')) return undefined; // a zone id: link-local, never mapped
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  if (!/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(canonical) || prefix < 96) return undefined;
  return prefix - 96;
}

function trustsEveryHop(entry: string): boolean {
  const [address = '', prefixText] = entry.split('/');
  if (prefixText === undefined) return false;
  const prefix = Number(prefixText);
  // `0/0` is no address Node accepts, but proxy-addr reads it as 0.0.0.0/0: any /0 trusts everything.
  if (prefix === 0) return true;
  const version = isIP(address);
  if (version === 4) return prefix < WIDEST_PROXY_PREFIX.ipv4;
  if (version !== 6) return false;
  const ipv4Prefix = mappedIpv4Prefix(address, prefix);
  if (ipv4Prefix !== undefined) return ipv4Prefix < WIDEST_PROXY_PREFIX.ipv4;
  return prefix < WIDEST_PROXY_PREFIX.ipv6;
}

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

function parseTrustProxy(value: string, ctx: z.RefinementCtx): TrustProxy {
  const text = value.trim().toLowerCase();
  if (['', 'false', '0', 'no'].includes(text)) return false;
  const refuse = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (text === 'true' || text === 'yes' || text === '1')
    return refuse(
      'true would believe every X-Forwarded-For hop, so a client could choose its own IP address: ' +
        'give the addresses or CIDRs of the proxies in front of the API (e.g. 10.0.0.0/8)',
    );
  if (/^\d+$/.test(text))
    return refuse(
      'a hop count cannot tell a proxy from a client that reaches the API directly: ' +
        'give the addresses or CIDRs of the proxies in front of the API (e.g. 10.0.0.0/8)',
    );
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const everyHop = entries.filter(trustsEveryHop);
  if (everyHop.length > 0)
    return refuse(
      `${everyHop.join(', ')} would believe every X-Forwarded-For hop, like true (a range wider than ` +
        '10.0.0.0/8 or fc00::/7 holds public addresses, so a client could choose its own IP address): ' +
        'give the addresses or CIDRs of the proxies in front of the API (e.g. 10.0.0.0/8)',
    );
  const wrong = entries.filter((entry) => !PROXY_RANGES.has(entry) && !isAddressOrCidr(entry));
  if (wrong.length > 0) return refuse(`not an IP address or a CIDR: ${wrong.join(', ')}`);
  return entries;
}

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const listFromString = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/**
 * Every variable, its default and what it means (`.describe()`): docs/configuration.md is generated
 * from this (`npm run docs:config`), and a test fails when the page is stale.
 */
export const environmentSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'])
    .default('development')
    .describe(
      '`production` turns off every invented secret and requires real mail and database settings ' +
        '(`JWT_SECRET`, `DATABASE_URL`, `SMTP_URL`, `PUBLIC_URL` and the seller).',
    ),
  HOST: z.string().default('127.0.0.1').describe('Address the HTTP server binds to.'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080).describe('Port the HTTP server listens on.'),
  PUBLIC_URL: z
    .url()
    .optional()
    .describe('Public base URL, used in links sent by mail. Unset: `http://localhost:$PORT`.'),
  ROLES: listFromString
    .pipe(z.array(z.enum(ROLES)).min(1))
    .default(['api', 'worker', 'agent'])
    .describe(
      'Which parts this process runs, comma separated: `api` (HTTP), `worker` (jobs), `agent` (the ' +
        'embedded local node). Production runs `api` and `worker` apart, and agents on the storage nodes.',
    ),
  API_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'Where a process without the `api` role (a worker of its own) reaches an API process: the worker ' +
        "delivers the sandbox provider's signed payment events there, and an embedded agent pulls from " +
        'it. Unset: `http://127.0.0.1:$PORT`. A process with the `api` role uses its own listener.',
    ),
  INTERNAL_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "Where the other API processes reach this one, on a PostgreSQL server: an agent's answer to a " +
        'node call that lands on another process is passed on here, to the process whose caller waits ' +
        "(compose: `http://api-1:8080`; Kubernetes: the pod's IP). Unset: `http://127.0.0.1:$PORT`.",
    ),
  DATA_DIR: z
    .string()
    .default('data')
    .describe('Folder for the embedded database, mail, the local node and the development secrets.'),
  DATABASE_URL: z
    .string()
    .startsWith('postgres')
    .optional()
    .describe(
      'A PostgreSQL URL (`postgres://…`) selects a real server; without it the embedded PGlite in ' +
        '`DATA_DIR/db` is used.',
    ),
  SMTP_URL: z
    .string()
    .startsWith('smtp')
    .optional()
    .describe(
      'SMTP server URL (`smtp://user:pass@host:587`). Without it, mail is written as `.eml` files to `MAIL_DIR`.',
    ),
  MAIL_DIR: z
    .string()
    .optional()
    .describe('Where `.eml` files are written when there is no `SMTP_URL`. Unset: `$DATA_DIR/mail`.'),
  MAIL_FROM: z
    .string()
    .default('Debesis <no-reply@debesis.localhost>')
    .describe(
      'Sender of every message. Unset in production: `SELLER_NAME <SELLER_EMAIL>`; production refuses a ' +
        'placeholder (`*.localhost`, `example…`).',
    ),
  SUPPORT_EMAIL: z
    .email()
    .default('support@debesis.localhost')
    .describe(
      'Where support mail goes. Unset in production: `SELLER_EMAIL`; production refuses a placeholder ' +
        '(`*.localhost`, `example…`).',
    ),
  JWT_SECRET: z
    .string()
    .min(32)
    .optional()
    .describe(
      'Secret that signs access tokens (at least 32 characters) and derives the keys that seal share ' +
        "links' URLs, TOTP and webhook secrets and backup repository keys. Invented (and kept in " +
        '`DATA_DIR/secrets.json`) in development only.',
    ),
  JWT_SECRET_PREVIOUS: listFromString
    .pipe(z.array(z.string().min(32)))
    .default([])
    .describe(
      "Older `JWT_SECRET`s, comma separated, each at least 32 characters: what was sealed under them (share links' " +
        'URLs, TOTP and webhook secrets, backup repository keys) still opens and backup codes still match, ' +
        'while everything new uses `JWT_SECRET`; access tokens they signed are refused. Drop them after ' +
        '`npm run ops -- secrets reseal` (docs/operations/rotating-secrets.md).',
    ),
  NODE_REGISTRATION_TOKEN: z
    .string()
    .min(24)
    .optional()
    .describe(
      'Optional shared token that lets an agent enroll a **new** node name (never an existing one: that ' +
        "takes the node's own one-time token, `npm run nodes -- enroll <name>`). Unset: only one-time tokens.",
    ),
  PAYMENT_PROVIDER: z
    .enum(['sandbox', 'stripe'])
    .default('sandbox')
    .describe(
      'Payment provider: the built-in `sandbox` (test cards, no real money) or `stripe`. Production ' +
        'refuses the sandbox unless `ALLOW_SANDBOX_PAYMENTS` says so: test cards would pay for real services.',
    ),
  ALLOW_SANDBOX_PAYMENTS: booleanFromString
    .default(false)
    .describe(
      '`true` lets a production system (a staging copy only: test cards pay) run the sandbox provider.',
    ),
  STRIPE_SECRET_KEY: z
    .string()
    .min(10)
    .optional()
    .describe('Stripe secret API key (`sk_live_…` / `sk_test_…`); required with `PAYMENT_PROVIDER=stripe`.'),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .min(10)
    .optional()
    .describe(
      'Signing secret of the Stripe webhook endpoint (`whsec_…`); required with `PAYMENT_PROVIDER=stripe`.',
    ),
  STRIPE_API_BASE: z
    .url()
    .optional()
    .describe("Another Stripe API base URL (a local stand-in in tests); Stripe's own by default."),
  PAYMENTS_SANDBOX_SECRET: z
    .string()
    .min(24)
    .optional()
    .describe(
      "Secret that signs the sandbox provider's events (at least 24 characters). Invented in development; " +
        'required in production only with the sandbox.',
    ),
  WEB_DIST: z
    .string()
    .default('apps/web/dist')
    .describe('Built web app to serve; the API serves it and the SPA fallback from here.'),
  CORS_ORIGINS: listFromString
    .default([])
    .describe('Other origins allowed to call the API, comma separated. Empty keeps CORS closed.'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform(parseTrustProxy)
    .describe(
      'The addresses or CIDRs of the load balancers in front of the API (`10.0.0.2`, ' +
        "`10.0.0.0/8,192.0.2.7`; proxy-addr's `loopback`, `linklocal` and `uniquelocal` too): their " +
        '`X-Forwarded-*` entries are believed up to the first hop that is not one of them. `true`, hop ' +
        'counts and ranges wider than 10.0.0.0/8 or fc00::/7 are refused at start (they let a client forge ' +
        'the address per-IP limits and the activity log see).',
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe(
      'pino level; one JSON line per request with its request id; query values (other than paging and ' +
        'dates), secrets by key, e-mail addresses (`o…@example.lt`) and the values a failed query was ' +
        'sent are redacted (`apps/api/src/http/logging.ts`).',
    ),
  METRICS_TOKEN: z
    .string()
    .min(24)
    .optional()
    .describe(
      'Serves Prometheus metrics at `GET /metrics` on the main listener to callers that send ' +
        '`Authorization: Bearer <token>` (at least 24 characters). Unset: no `/metrics` there.',
    ),
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .describe(
      'A listener of its own for `GET /metrics`, without a token (keep it off the public network: ' +
        '`METRICS_HOST`); must differ from `PORT`. Unset: none. With neither this nor `METRICS_TOKEN`, ' +
        'no metrics are kept.',
    ),
  METRICS_HOST: z.string().default('127.0.0.1').describe('Address the `METRICS_PORT` listener binds to.'),
  HEALTH_MAX_AGE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(1000)
    .describe(
      'How long one health measurement answers every caller, in milliseconds (0: measure every call).',
    ),
  CATALOGUE_SNAPSHOT_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(5000)
    .describe(
      'How long price previews and the product list may answer from an in-memory copy of the ' +
        'catalogue, in milliseconds (0: read the database every time). Changes made by this process ' +
        'show at once; changes by another process (`npm run catalogue`) after at most this long.',
    ),
  VIES_URL: z
    .url()
    .optional()
    .describe(
      "Base URL of the EU Commission's VIES REST API " +
        '(`https://ec.europa.eu/taxation_customs/vies/rest-api`). Unset: VAT numbers are checked by ' +
        'format and checksum only.',
    ),
  VIES_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(50)
    .max(30_000)
    .default(3000)
    .describe('How long one VIES request may take before VIES counts as unavailable, in milliseconds.'),
  VIES_RETRY_AFTER_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3_600_000)
    .default(30_000)
    .describe(
      'After VIES was unavailable for a member state, how long to skip asking it again for that ' +
        'state, in milliseconds (0: ask every time), so that callers do not each wait for the timeout.',
    ),
  AGENT_POLL_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(200)
    .default(5000)
    .describe('How often the embedded agent reconciles, in milliseconds.'),
  AGENT_ADDRESS_POOL: z
    .string()
    .default('198.18.0.1-198.18.0.254')
    .describe(
      "Addresses the embedded local node hands out to workspaces (the agent's `AGENT_ADDRESS_POOL`; " +
        "the default is RFC 2544's benchmarking range: never a machine's real network; not 127.x, which " +
        'is not routed into a namespace).',
    ),
  AGENT_CLIENT_ROUTES: z
    .string()
    .default('')
    .describe(
      "Client blocks beyond the node that the embedded node's workspaces answer (VPN and share clients; " +
        "the agent's `AGENT_CLIENT_ROUTES`: CIDR blocks, comma separated); empty: the node only.",
    ),
  /** How long a silent node waits before its workspaces fail over (modules/replicas/replicas.config.ts). */
  ...replicasEnvironmentShape,
  /** How soon a job lost with a killed process is handed out again (jobs/queue.config.ts). */
  ...queueEnvironmentShape,
  /** Where workspaces' backup repositories live off the nodes (modules/backups/backup-target.config.ts). */
  ...backupTargetEnvironmentShape,
  /** OAuth sign-in providers; each is enabled when its client id and secret are set. */
  ...oauthEnvironmentShape,
  /** The seller printed on invoices and the invoice number prefix (modules/billing/billing.config.ts). */
  ...sellerEnvironmentShape,
});

export type Environment = z.infer<typeof environmentSchema>;

export interface Config extends Omit<
  Environment,
  'JWT_SECRET' | 'JWT_SECRET_PREVIOUS' | 'NODE_REGISTRATION_TOKEN' | 'MAIL_DIR' | 'PAYMENTS_SANDBOX_SECRET'
> {
  paymentsSandboxSecret: string;
  embedded: boolean;
  publicUrl: string;
  mailDir: string;
  jwtSecret: string;
  /** JWT_SECRET_PREVIOUS: secrets that only open what they sealed (see serverSecretOf). */
  jwtSecretPrevious: string[];
  nodeRegistrationToken: string | undefined;
  webDist: string;
  dataDir: string;
}

export class ConfigError extends Error {}

/**
 * A domain that receives no mail (RFC 2606, RFC 6761): the development defaults
 * (debesis.localhost) and the samples' example.com. In production mail from or to one goes nowhere.
 */
const PLACEHOLDER_MAIL_DOMAIN = /(^|\.)(localhost|example|invalid|test|example\.(com|net|org))$/i;

/** The address of `Name <address>` or of a bare address. */
function mailAddressOf(value: string): string {
  return (/<([^>]*)>\s*$/.exec(value)?.[1] ?? value).trim();
}

function isPlaceholderAddress(value: string): boolean {
  return PLACEHOLDER_MAIL_DOMAIN.test(mailAddressOf(value).split('@').pop() ?? '');
}

/**
 * SUPPORT_EMAIL and MAIL_FROM as production uses them: as set, or else the seller's address
 * (which production requires); either way never a placeholder (the contact form's mail and every
 * message's sender would go nowhere). Development keeps the debesis.localhost defaults.
 */
function productionMailAddresses(
  values: Environment,
  env: NodeJS.ProcessEnv,
): { addresses: { SUPPORT_EMAIL: string; MAIL_FROM: string }; problems: string[] } {
  const SUPPORT_EMAIL = env.SUPPORT_EMAIL?.trim() ? values.SUPPORT_EMAIL : values.SELLER_EMAIL;
  const MAIL_FROM = env.MAIL_FROM?.trim()
    ? values.MAIL_FROM
    : `${values.SELLER_NAME} <${values.SELLER_EMAIL}>`;
  const problems = (
    [
      ['SUPPORT_EMAIL', SUPPORT_EMAIL],
      ['MAIL_FROM', MAIL_FROM],
    ] as const
  )
    .filter(([, value]) => isPlaceholderAddress(value))
    .map(
      ([name, value]) =>
        `  ${name}: ${mailAddressOf(value)} is a placeholder that receives no mail; set a real address ` +
        `(unset, it is the seller's SELLER_EMAIL)`,
    );
  return { addresses: { SUPPORT_EMAIL, MAIL_FROM }, problems };
}

interface GeneratedSecrets {
  jwtSecret: string;
  paymentsSandboxSecret: string;
}

function loadOrCreateDevelopmentSecrets(dataDir: string): GeneratedSecrets {
  const file = path.join(dataDir, 'secrets.json');
  // The data folder holds the database, the mail and these secrets: the operator's alone, even
  // one made by an older version with wider modes.
  ensurePrivateDirSync(dataDir);
  if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
  const existing = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<GeneratedSecrets>)
    : {};
  // A data folder from an older version may lack newer secrets: add them, keep the rest.
  const secrets: GeneratedSecrets = {
    jwtSecret: existing.jwtSecret ?? randomBytes(48).toString('base64url'),
    paymentsSandboxSecret: existing.paymentsSandboxSecret ?? randomBytes(32).toString('base64url'),
  };
  if (
    existing.jwtSecret === secrets.jwtSecret &&
    existing.paymentsSandboxSecret === secrets.paymentsSandboxSecret
  ) {
    return secrets;
  }
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: PRIVATE_FILE_MODE });
  return secrets;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  const embedded = values.NODE_ENV !== 'production';
  const dataDir = path.resolve(cwd, values.DATA_DIR);

  if (!embedded) {
    const unset: string[] = (
      [
        'JWT_SECRET',
        ...(values.PAYMENT_PROVIDER === 'sandbox' ? (['PAYMENTS_SANDBOX_SECRET'] as const) : []),
        'DATABASE_URL',
        'SMTP_URL',
        'PUBLIC_URL',
      ] as const
    ).filter((name) => !values[name]);
    // The seller's defaults are a sample company: production must name itself (read from the
    // environment, since the parsed values always hold the defaults).
    unset.push(...SELLER_REQUIRED_IN_PRODUCTION.filter((name) => !env[name]?.trim()));
    const missing = unset.map((name) => `  ${name}: required in production`);
    // Only once the seller is named: its address is the fallback.
    if (!unset.includes('SELLER_EMAIL')) missing.push(...productionMailAddresses(values, env).problems);
    // Unset means the sandbox: in production its test cards would pay for real services.
    if (values.PAYMENT_PROVIDER === 'sandbox' && !values.ALLOW_SANDBOX_PAYMENTS) {
      missing.unshift(
        '  PAYMENT_PROVIDER: the sandbox takes no real money; set stripe in production (or ALLOW_SANDBOX_PAYMENTS=true for a test system)',
      );
    }
    if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}`);
  }
  if (values.PAYMENT_PROVIDER === 'stripe' && (!values.STRIPE_SECRET_KEY || !values.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: required with PAYMENT_PROVIDER=stripe',
    );
  }
  if (values.METRICS_PORT !== undefined && values.METRICS_PORT === values.PORT) {
    throw new ConfigError('Invalid configuration:\n  METRICS_PORT: must differ from PORT');
  }
  const secrets =
    values.JWT_SECRET && (values.PAYMENTS_SANDBOX_SECRET || !embedded)
      ? {
          jwtSecret: values.JWT_SECRET,
          paymentsSandboxSecret: values.PAYMENTS_SANDBOX_SECRET ?? '',
        }
      : { ...loadOrCreateDevelopmentSecrets(dataDir), ...definedSecrets(values) };

  const { JWT_SECRET_PREVIOUS: jwtSecretPrevious, ...rest } = values;
  return {
    ...rest,
    ...(embedded ? {} : productionMailAddresses(values, env).addresses),
    embedded,
    dataDir,
    publicUrl: values.PUBLIC_URL ?? `http://localhost:${values.PORT}`,
    mailDir: path.resolve(cwd, values.MAIL_DIR ?? path.join(values.DATA_DIR, 'mail')),
    webDist: path.resolve(cwd, values.WEB_DIST),
    jwtSecret: secrets.jwtSecret,
    jwtSecretPrevious,
    nodeRegistrationToken: values.NODE_REGISTRATION_TOKEN,
    paymentsSandboxSecret: secrets.paymentsSandboxSecret,
  };
}

/**
 * The secrets the features derive their keys from: JWT_SECRET seals and signs, the previous ones
 * only open. Access tokens are not among them: they are signed with JWT_SECRET alone (app.ts).
 */
export function serverSecretOf(config: Pick<Config, 'jwtSecret' | 'jwtSecretPrevious'>): ServerSecrets {
  return { current: config.jwtSecret, previous: config.jwtSecretPrevious };
}

function definedSecrets(values: Environment): Partial<GeneratedSecrets> {
  const result: Partial<GeneratedSecrets> = {};
  if (values.JWT_SECRET) result.jwtSecret = values.JWT_SECRET;
  if (values.PAYMENTS_SANDBOX_SECRET) result.paymentsSandboxSecret = values.PAYMENTS_SANDBOX_SECRET;
  return result;
}
