// The alerts webhook under DNS rebinding: the SSRF check resolved the name, then fetch resolved it
// again, so a name answering a public address to the check and 127.0.0.1 to the connection posted
// into the provider's own network. The post must connect to the address that was checked.
import { randomUUID } from 'node:crypto';
import { createServer, Agent, type IncomingHttpHeaders } from 'node:http';
import { Socket, type AddressInfo, type LookupFunction, type NetConnectOpts } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookResponse } from '@debesis/contract';
import { createTestContext, type TestContext } from '../../test/test-app.ts';
import { createWebhooks, type ResolvedAddress, type Resolve } from './webhooks.ts';

const PUBLIC: ResolvedAddress = { address: '93.184.216.34', family: 4 };
const LOOPBACK: ResolvedAddress = { address: '127.0.0.1', family: 4 };

/** A resolver that answers `answers[n]` to its n-th question (the last one thereafter) and counts them. */
function scriptedResolver(...answers: ResolvedAddress[][]) {
  const asked: string[] = [];
  const resolve: Resolve = async (hostname) => {
    asked.push(hostname);
    return answers[Math.min(asked.length - 1, answers.length - 1)]!;
  };
  return { resolve, asked };
}

/**
 * An agent that connects nowhere (no packet may leave this machine): it asks the connection's
 * lookup where it would connect, keeps the answer, and fails the connection.
 */
class RecordingAgent extends Agent {
  readonly connectedTo: string[] = [];
  private lookup: LookupFunction | undefined;
  pinnedTo(lookup: LookupFunction): this {
    this.lookup = lookup;
    return this;
  }
  override createConnection(options: NetConnectOpts): Socket {
    const { host } = options as { host: string };
    // No lookup of its own would make the connection resolve the name again: the failure shows.
    this.lookup?.(host, { all: true }, (_error, addresses) => {
      for (const { address } of addresses as unknown as ResolvedAddress[]) this.connectedTo.push(address);
    });
    const socket = new Socket();
    process.nextTick(() => socket.destroy(new Error('a test connects nowhere')));
    return socket;
  }
}

describe('the alerts webhook and DNS rebinding', () => {
  let ctx: TestContext;
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    received.push(request.headers);
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  let port = 0;

  beforeAll(async () => {
    ctx = await createTestContext();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await ctx.close();
  });

  const webhooks = (resolve: Resolve, allowPrivateTargets: boolean, agent?: RecordingAgent) =>
    createWebhooks({
      db: ctx.database.db,
      serverSecret: ctx.config.jwtSecret,
      allowPrivateTargets,
      now: () => new Date(),
      resolve,
      // The connection's lookup is the one the webhook pins (the agent's options carry it).
      ...(agent ? { createAgent: (_url: URL, lookup: LookupFunction) => agent.pinnedTo(lookup) } : {}),
    });

  it('attack: a name that answers a public address to the check and 127.0.0.1 next is posted to the public one', async () => {
    const accountId = randomUUID();
    const url = `http://rebind.attacker.test:${port}/hook`;
    await webhooks(scriptedResolver([PUBLIC]).resolve, false).set(accountId, url);

    const rebinding = scriptedResolver([PUBLIC], [LOOPBACK]);
    const agent = new RecordingAgent();
    const answer: WebhookResponse = await webhooks(rebinding.resolve, false, agent).test(accountId);

    // Resolved once, for the check; the connection went to the checked address, not 127.0.0.1.
    expect(rebinding.asked).toEqual(['rebind.attacker.test']);
    expect(agent.connectedTo).toEqual([PUBLIC.address]);
    expect(received).toEqual([]);
    expect(answer.last_delivery).toMatchObject({ ok: false, status: null });
  });

  it('attack: a name that answers 127.0.0.1 to the check is refused without connecting', async () => {
    const accountId = randomUUID();
    await webhooks(scriptedResolver([PUBLIC]).resolve, false).set(
      accountId,
      `http://later.attacker.test:${port}/h`,
    );
    const agent = new RecordingAgent();
    await webhooks(scriptedResolver([LOOPBACK], [PUBLIC]).resolve, false, agent).test(accountId);
    expect(agent.connectedTo).toEqual([]);
    expect(received).toEqual([]);
  });

  it('a real post connects to the checked address and keeps the name in the Host header', async () => {
    // Local receivers are allowed here (as in development); the name is nowhere in DNS, so the
    // post lands only if it connects through the address the check resolved.
    const accountId = randomUUID();
    const url = `http://hook.receiver.test:${port}/hook`;
    const resolver = scriptedResolver([LOOPBACK], [PUBLIC]);
    const hooks = webhooks(resolver.resolve, true);
    await hooks.set(accountId, url);
    const answer = await hooks.test(accountId);
    expect(answer.last_delivery).toMatchObject({ ok: true, status: 200 });
    expect(resolver.asked).toEqual(['hook.receiver.test']);
    expect(received.splice(0).map((headers) => headers.host)).toEqual([`hook.receiver.test:${port}`]);
  });
});
