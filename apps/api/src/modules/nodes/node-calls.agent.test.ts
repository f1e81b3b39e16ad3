// Node calls end to end: a feature's `nodeCalls.call` reaches, through the real agent's call loop
// over HTTP, the handler of a driver on the node the service is placed on, and its result comes
// back in well under a second; a stream call's bytes come through whole, as they are sent, and a
// caller that stops reading stops the node's source.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig, startAgent, type Agent, type Driver } from '@debesis/agent';
import { nodeCallsOf } from '../../app.ts';
import { signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';
import { serviceJobs } from '../../test/services.ts';
import { createTestContext, TEST_REGISTRATION_TOKEN, type TestContext } from '../../test/test-app.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

describe('node calls through a running agent', () => {
  let ctx: TestContext;
  let agent: Agent;
  let agentDir: string;
  const killed: string[] = [];

  /** A feature that serves nothing and answers kill_all with how many sessions it ended. */
  const fakeVpn: Driver = {
    name: 'fake-vpn',
    kind: 'feature',
    apply: async () => ({ changed: false, actions: [], status: { driver: 'fake-vpn', live: true } }),
    calls: {
      'vpn.kill_all': async (_payload, context) => {
        killed.push(context.desired.service_id);
        return { disconnected: 2 };
      },
      // 8 MiB in 64 KiB chunks, made as they are read; `sources` sees whether each was read to its end.
      'backup.download': async (payload) => {
        const chunks = 128;
        let sent = 0;
        const body = new Readable({
          read() {
            if (sent === chunks) return void this.push(null);
            this.push(Buffer.alloc(64 * 1024, sent % 251));
            sent += 1;
          },
        });
        const source = { path: payload.path, ended: false, destroyed: false };
        sources.push(source);
        body.once('end', () => (source.ended = true));
        body.once('close', () => (source.destroyed = !source.ended));
        return { name: 'big file ž.bin', size: chunks * 64 * 1024, body };
      },
    },
  };
  const sources: Array<{ path: string; ended: boolean; destroyed: boolean }> = [];
  const expectedHash = () => {
    const hash = createHash('sha256');
    for (let index = 0; index < 128; index++) hash.update(Buffer.alloc(64 * 1024, index % 251));
    return hash.digest('hex');
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    await seedCatalogue(ctx);
    const apiUrl = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    agentDir = mkdtempSync(path.join(tmpdir(), 'debesis-calls-agent-'));
    agent = startAgent(
      loadAgentConfig({
        AGENT_API_URL: apiUrl,
        AGENT_NODE_NAME: 'calls-agent',
        AGENT_DATA_DIR: agentDir,
        AGENT_REGISTRATION_TOKEN: TEST_REGISTRATION_TOKEN,
        AGENT_ADDRESS_POOL: '198.18.7.1-198.18.7.4',
        AGENT_LIVE_WORKSPACES: 'off',
      }),
      undefined,
      { loop: false, drivers: [fakeVpn] },
    );
    // Registers the node and reports its room, so the placement below picks it.
    await agent.runOnce();
  });
  afterAll(async () => {
    await agent.stop();
    await ctx.close();
    rmSync(agentDir, { recursive: true, force: true });
  });

  it("reaches the fake driver's handler and returns its result in well under a second", async () => {
    const owner = await signedInUser(ctx);
    const serviceId = (await buyService(ctx, owner.auth, STARTER)).service_id;
    await serviceJobs(ctx).placement.place(serviceId);
    // The node applies it, so it holds the workspace its calls are about.
    await agent.runOnce();

    const calls = nodeCallsOf(ctx.app);
    const started = performance.now();
    const answer = await calls.call(serviceId, 'vpn.kill_all', {});
    const elapsedMs = performance.now() - started;
    expect(answer).toEqual({ ok: true, result: { disconnected: 2 } });
    expect(killed).toEqual([serviceId]);
    expect(elapsedMs).toBeLessThan(500);

    // A kind the node's drivers do not answer comes back as unsupported, just as fast.
    expect(await calls.call(serviceId, 'vpn.disconnect', { user: 'ona' })).toMatchObject({
      ok: false,
      code: 'unsupported',
    });
  });

  it('a stream call brings the node’s bytes whole, with their name and size; a caller that stops reading stops the source', async () => {
    const owner = await signedInUser(ctx);
    const serviceId = (await buyService(ctx, owner.auth, STARTER)).service_id;
    await serviceJobs(ctx).placement.place(serviceId);
    await agent.runOnce();
    const calls = nodeCallsOf(ctx.app);
    const payload = { snapshot_id: 'a'.repeat(64), path: '/shares/big file ž.bin' };

    const answer = await calls.stream(serviceId, 'backup.download', payload);
    if (!answer.ok) throw new Error(`${answer.code}: ${answer.error}`);
    expect(answer.stream).toMatchObject({ name: 'big file ž.bin', size: 8 * 1024 * 1024 });
    const hash = createHash('sha256');
    for await (const chunk of answer.stream.body) hash.update(chunk as Buffer);
    expect(hash.digest('hex')).toBe(expectedHash());
    expect(sources.at(-1)).toMatchObject({ path: payload.path, ended: true });

    const cut = await calls.stream(serviceId, 'backup.download', payload);
    if (!cut.ok) throw new Error(`${cut.code}: ${cut.error}`);
    for await (const _chunk of cut.stream.body) break; // reads one chunk, then destroys the body
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sources.at(-1)).toMatchObject({ ended: false, destroyed: true });
  });
});
