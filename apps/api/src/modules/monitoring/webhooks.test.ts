import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MONITORING_WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
  type WebhookResponse,
} from '@debesis/contract';
import { verifyEventSignature } from '../../crypto/event-signature.ts';
import { useWorkspaceTestApp, ownerWithService, setService } from '../directory/workspace.test-support.ts';
import { testMonitoringTick } from './monitoring.test-support.ts';
import { createWebhooks } from './webhooks.ts';

const BASE = '/api/v1/monitoring';

/** A receiver on 127.0.0.1 that keeps what it is posted and answers `status`. */
async function receiver() {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let status = 200;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/debesis`,
    received,
    answer(next: number) {
      status = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the alerts webhook', () => {
  let hook: Awaited<ReturnType<typeof receiver>>;

  const { ctx, call } = useWorkspaceTestApp();
  beforeAll(async () => {
    hook = await receiver();
  });
  afterAll(async () => {
    await hook.close();
  });

  it('is set with a key shown once, posts a signed test event, and is removed', async () => {
    const { auth } = await ownerWithService(ctx);
    expect((await call.get(auth, `${BASE}/webhook`)).json<WebhookResponse>()).toEqual({
      url: null,
      created_at: null,
      last_delivery: null,
    });
    const set = await injectPut(auth, hook.url);
    expect(set.statusCode, set.body).toBe(200);
    const { secret } = set.json<WebhookResponse>();
    expect(secret).toMatch(/^whsec_/);
    const shown = (await call.get(auth, `${BASE}/webhook`)).json<WebhookResponse>();
    expect(shown).toMatchObject({ url: hook.url, last_delivery: null });
    expect(shown.secret).toBeUndefined();

    const tested = await call.post(auth, `${BASE}/webhook/test`);
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.json<WebhookResponse>().last_delivery).toMatchObject({ ok: true, status: 200 });
    const [posted] = hook.received.splice(0);
    expect(posted).toBeDefined();
    const signature = posted!.headers[MONITORING_WEBHOOK_SIGNATURE_HEADER] as string;
    expect(verifyEventSignature(secret!, posted!.body, signature, Math.floor(Date.now() / 1000))).toBe(true);
    expect(verifyEventSignature('whsec_other', posted!.body, signature, Math.floor(Date.now() / 1000))).toBe(
      false,
    );
    expect(JSON.parse(posted!.body)).toMatchObject({ type: 'webhook.test', alert: null });

    // A receiver that fails is recorded as failed.
    hook.answer(500);
    const failed = (await call.post(auth, `${BASE}/webhook/test`)).json<WebhookResponse>();
    expect(failed.last_delivery).toMatchObject({ ok: false, status: 500 });
    hook.answer(200);
    hook.received.length = 0;

    expect((await call.del(auth, `${BASE}/webhook`)).statusCode).toBe(204);
    const again = await call.del(auth, `${BASE}/webhook`);
    expect(again.statusCode).toBe(404);
    expect(again.json<{ detail: string }>().detail).toBe('webhook_not_set');
    expect((await call.post(auth, `${BASE}/webhook/test`)).statusCode).toBe(404);
  });

  it('refuses what is no URL, and (outside development) a private, local or reserved address', async () => {
    const { auth } = await ownerWithService(ctx);
    for (const url of ['not a url', 'ftp://example.lt/hook', `https://example.lt/${'x'.repeat(2100)}`])
      expect((await injectPut(auth, url)).statusCode, url).toBe(422);
    const webhooks = createWebhooks({
      db: ctx.database.db,
      serverSecret: 'a-server-secret-for-the-test-0123456789',
      allowPrivateTargets: false,
      now: () => new Date(),
    });
    const accountId = '6f1d2c3b-0000-4000-8000-00000000abcd';
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://192.168.1.10/hook',
      'http://169.254.169.254/latest',
      'http://[::1]/hook',
      'http://[fd00::1]/hook',
      'http://[::ffff:10.0.0.1]/hook',
      'http://localhost/hook',
    ])
      await expect(webhooks.set(accountId, url), url).rejects.toMatchObject({
        code: 'validation_error',
        fieldErrors: [{ field: 'url', code: 'webhook_url_not_public' }],
      });
    // A public address is taken (nothing is posted to it here).
    await expect(webhooks.set(accountId, 'https://93.184.216.34/hook')).resolves.toMatchObject({
      url: 'https://93.184.216.34/hook',
    });
  });

  it('posts an alert when it is raised and again when it is cleared', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const set = await injectPut(auth, hook.url);
    const { secret } = set.json<WebhookResponse>();
    hook.received.length = 0;
    const tick = testMonitoringTick(ctx, {
      webhooks: createWebhooks({
        db: ctx.database.db,
        serverSecret: ctx.config.jwtSecret,
        allowPrivateTargets: true,
        now: () => new Date(),
      }).sender,
    });
    // Ending in two days: the minute's sweep raises it.
    await setService(ctx, serviceId, { validUntil: new Date(Date.now() + 2 * 86_400_000) });
    await tick.tick();
    const raised = hook.received.splice(0).map((posted) => JSON.parse(posted.body) as WebhookEvent);
    expect(raised.filter((event) => event.alert?.service_id === serviceId)).toMatchObject([
      { type: 'alert.raised', alert: { kind: 'service_expiring', level: 'critical', cleared_at: null } },
    ]);
    // Posted once: the next minute has nothing more to say.
    await tick.tick();
    expect(hook.received.filter((posted) => posted.body.includes(serviceId))).toEqual([]);
    await setService(ctx, serviceId, { validUntil: new Date(Date.now() + 300 * 86_400_000) });
    await tick.tick();
    const cleared = hook.received.splice(0);
    const event = JSON.parse(cleared.find((posted) => posted.body.includes(serviceId))!.body) as WebhookEvent;
    expect(event).toMatchObject({ type: 'alert.cleared', alert: { kind: 'service_expiring' } });
    expect(event.alert?.cleared_at).not.toBeNull();
    const signature = cleared[0]!.headers[MONITORING_WEBHOOK_SIGNATURE_HEADER] as string;
    expect(verifyEventSignature(secret!, cleared[0]!.body, signature, Math.floor(Date.now() / 1000))).toBe(
      true,
    );
  });

  const injectPut = (auth: Record<string, string>, url: string) => call.put(auth, `${BASE}/webhook`, { url });
});
