// Beyond the spec: an account's alerts posted to a URL of its own (contract webhookEventSchema),
// signed like the payment events (crypto/event-signature.ts) with a key made for the account and
// shown once, kept sealed. The API refuses a URL that is, or resolves to, a private, local or
// reserved address (a webhook must not reach into the provider's own network), and checks again
// before each post, since a name may resolve elsewhere later. The post connects to the very
// addresses that were checked (a lookup pinned to them), never resolving the name a second time:
// a name answering a public address to the check and 127.0.0.1 to the connection (DNS rebinding)
// would otherwise reach inside. Tests allow local receivers.
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import {
  MONITORING_WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
  type WebhookResponse,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { createSealer, deriveServerKeys, type ServerSecret } from '../../crypto/server-keys.ts';
import { signEvent } from '../../crypto/event-signature.ts';
import { AppError } from '../../http/app-error.ts';
import { createMonitoringQueries, type AlertRow } from './monitoring.queries.ts';
import { presentAlert } from './monitoring.service.ts';

const POST_TIMEOUT_MS = 5_000;

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a name resolves to (the system resolver by default; tests answer their own). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolve: Resolve = (hostname) => lookup(hostname, { all: true });

function isPublicAddress({ address, family }: ResolvedAddress): boolean {
  // An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped
    ? !NOT_PUBLIC.check(mapped[1]!, 'ipv4')
    : !NOT_PUBLIC.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** The addresses to connect to for `url`, or none when it may not be posted to. */
async function checkedAddresses(
  url: URL,
  resolve: Resolve,
  allowPrivate: boolean,
): Promise<ResolvedAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await resolve(host).catch(() => []);
  if (addresses.length === 0) return [];
  return allowPrivate || addresses.every(isPublicAddress) ? addresses : [];
}

/** A lookup that answers only `addresses` (those checked), whatever name it is asked for. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = addresses.filter(({ family }) => !options.family || family === options.family);
    if (wanted.length === 0) {
      callback(Object.assign(new Error('no checked address of that family'), { code: 'ENOTFOUND' }), '', 0);
    } else if (options.all) {
      (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, wanted);
    } else {
      callback(null, wanted[0]!.address, wanted[0]!.family);
    }
  };
}

/**
 * The agent of one post: a fresh one (no pooled socket opened for an earlier check) whose every
 * connection resolves through `lookup`. The URL keeps its name, so the Host header and the TLS
 * server name (and the certificate checked against it) stay the webhook's own.
 */
export type CreateAgent = (url: URL, lookup: LookupFunction) => http.Agent;

const pinnedAgent: CreateAgent = (url, pinned) =>
  url.protocol === 'https:' ? new https.Agent({ lookup: pinned }) : new http.Agent({ lookup: pinned });

/** POSTs `body`; answers the status, or null when it never got one (refused, timed out, unreachable). */
function post(
  url: URL,
  agent: http.Agent,
  headers: Record<string, string>,
  body: string,
): Promise<number | null> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      { method: 'POST', agent, headers, signal: AbortSignal.timeout(POST_TIMEOUT_MS) },
      (response) => {
        // Redirects are not followed: a 3xx is the receiver's answer.
        resolve(response.statusCode ?? null);
        response.destroy();
      },
    );
    request.on('error', () => resolve(null));
    request.end(body);
  });
}

export interface WebhookSender {
  /** Posts the alert's state to its account's webhook; true when delivered or nothing to deliver. */
  post(alert: AlertRow & { serviceName: string }, state: 'raised' | 'cleared', at: Date): Promise<boolean>;
}

/** The sealer of webhooks' signing secrets (also `ops secrets reseal`'s). */
export const webhookSecretSealer = (serverSecret: ServerSecret) =>
  createSealer(deriveServerKeys(serverSecret, 'monitoring', 'webhook-secret'));

export function createWebhooks(deps: {
  db: Db;
  serverSecret: ServerSecret;
  /** Test runs post to receivers on 127.0.0.1; production never may. */
  allowPrivateTargets: boolean;
  now: () => Date;
  resolve?: Resolve;
  createAgent?: CreateAgent;
}) {
  const queries = createMonitoringQueries(deps.db);
  const sealer = webhookSecretSealer(deps.serverSecret);
  const resolve = deps.resolve ?? systemResolve;
  const createAgent = deps.createAgent ?? pinnedAgent;
  const check = (url: URL) => checkedAddresses(url, resolve, deps.allowPrivateTargets);

  function present(row: Awaited<ReturnType<typeof queries.webhook>>): WebhookResponse {
    return {
      url: row?.url ?? null,
      created_at: row?.createdAt.toISOString() ?? null,
      last_delivery:
        row?.lastDeliveryAt && row.lastDeliveryOk
          ? {
              at: row.lastDeliveryAt.toISOString(),
              ok: row.lastDeliveryOk === 'ok',
              status: row.lastDeliveryStatus,
            }
          : null,
    };
  }

  /** Posts one event; records how it went. False when it did not land (to be tried again). */
  async function deliver(accountId: string, event: WebhookEvent): Promise<boolean> {
    const row = await queries.webhook(accountId);
    if (!row) return true;
    const secret = sealer.unseal(row.secretSealed);
    const url = new URL(row.url);
    const at = deps.now();
    const addresses = secret ? await check(url) : [];
    if (!secret || addresses.length === 0) {
      await queries.recordDelivery(accountId, at, false, null);
      return false;
    }
    const body = JSON.stringify(event);
    const agent = createAgent(url, pinnedLookup(addresses));
    const status = await post(
      url,
      agent,
      {
        'content-type': 'application/json',
        [MONITORING_WEBHOOK_SIGNATURE_HEADER]: signEvent(secret, body, Math.floor(at.getTime() / 1000)),
      },
      body,
    ).finally(() => agent.destroy());
    const ok = status !== null && status >= 200 && status < 300;
    await queries.recordDelivery(accountId, at, ok, status);
    return ok;
  }

  return {
    async get(accountId: string): Promise<WebhookResponse> {
      return present(await queries.webhook(accountId));
    },

    /** Sets (or replaces) the URL with a new key, shown in this answer only. */
    async set(accountId: string, url: string): Promise<WebhookResponse> {
      if (!deps.allowPrivateTargets && (await check(new URL(url))).length === 0)
        throw new AppError('validation_error', {
          fieldErrors: [{ field: 'url', code: 'webhook_url_not_public' }],
        });
      const secret = `whsec_${randomBytes(24).toString('base64url')}`;
      await queries.setWebhook({ accountId, url, secretSealed: sealer.seal(secret), createdAt: deps.now() });
      return { ...present(await queries.webhook(accountId)), secret };
    },

    async remove(accountId: string): Promise<void> {
      if (!(await queries.deleteWebhook(accountId))) throw new AppError('webhook_not_set');
    },

    /** Posts a test event now and answers how it went. */
    async test(accountId: string): Promise<WebhookResponse> {
      if (!(await queries.webhook(accountId))) throw new AppError('webhook_not_set');
      const at = deps.now();
      await deliver(accountId, {
        id: `test-${at.getTime()}`,
        type: 'webhook.test',
        created_at: at.toISOString(),
        alert: null,
      });
      return present(await queries.webhook(accountId));
    },

    sender: {
      post(alert, state, at) {
        return deliver(alert.accountId, {
          id: `${alert.id}-${state}`,
          type: state === 'raised' ? 'alert.raised' : 'alert.cleared',
          created_at: at.toISOString(),
          alert: presentAlert(alert, alert.serviceName),
        });
      },
    } satisfies WebhookSender,
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
