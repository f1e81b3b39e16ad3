// A rotation of JWT_SECRET, end to end: a share link, a subuser's TOTP and backup codes and a
// webhook made under secret A; the same database served with JWT_SECRET=B and
// JWT_SECRET_PREVIOUS=A still shows the link's URL, signs the subuser in and signs the webhook's
// events with the owner's key; `ops secrets reseal` moves every sealed value to B (twice changes
// nothing), after which B alone serves them. Access tokens signed with A are refused at once
// (modules/auth/tokens.ts says why).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import {
  MONITORING_WEBHOOK_SIGNATURE_HEADER,
  type BackupCodesResponse,
  type NodeCallKind,
  type ShareLink,
  type ShareLinksResponse,
  type Subuser,
  type TwoFactorSetupResponse,
  type WebhookResponse,
} from '@debesis/contract';
import { buildApp, type App } from '../../app.ts';
import { verifyEventSignature } from '../../crypto/event-signature.ts';
import { createAccessTokens } from '../../modules/auth/tokens.ts';
import { ownerWithService, setService, type Auth } from '../../modules/directory/workspace.test-support.ts';
import type { NodeCalls } from '../../modules/nodes/node-calls.ts';
import { seedCatalogue } from '../../test/payments.ts';
import { capacity, registerNode } from '../../test/services.ts';
import { createTestContext, injectWithCsrf, testConfig, type TestContext } from '../../test/test-app.ts';
import { renderReseal } from './render.ts';
import { resealSecrets } from './secrets.ts';

const SECRET_A = 'test-jwt-secret-that-is-long-enough-0123456789'; // test-app.ts's
const SECRET_B = 'the-secret-after-the-rotation-0123456789abcdef';
const PASSWORD = 'backup-work-1';

/** The node: every path is a file (share links ask it what a target is). */
const nodeCalls: NodeCalls = {
  call: (async (_serviceId: string, kind: NodeCallKind) =>
    kind === 'share.describe'
      ? {
          ok: true,
          result: {
            found: true,
            type: 'file',
            name: 'plan.txt',
            size: 20,
            size_complete: true,
            truncated: false,
            modified_at: '2026-11-20T10:00:00.000Z',
            entries: [],
          },
        }
      : { ok: false, code: 'unsupported', error: kind }) as NodeCalls['call'],
  stream: async () => ({ ok: false, code: 'unsupported', error: 'stream' }),
};

describe('rotating JWT_SECRET', () => {
  let ctx: TestContext;
  let hook: { url: string; received: Array<{ signature: string; body: string }>; server: Server };
  const apps: App[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({ clock: true, nodeCalls });
    await seedCatalogue(ctx);
    const received: Array<{ signature: string; body: string }> = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ signature: String(request.headers[MONITORING_WEBHOOK_SIGNATURE_HEADER]), body });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hook = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, server };
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await new Promise<void>((resolve) => hook.server.close(() => resolve()));
    await ctx.close();
  });

  /** The API on the test's database with other secrets, as after a restart with a new configuration. */
  async function appWith(env: Record<string, string>): Promise<App> {
    const app = await buildApp({
      config: testConfig(ctx.dataDir, env),
      database: ctx.database,
      queue: ctx.queue,
      logger: false,
      sendMail: async () => undefined,
      now: () => ctx.now(),
      nodeCalls,
    });
    await app.ready();
    apps.push(app);
    return app;
  }

  const send = (app: App, method: 'GET' | 'POST' | 'PUT', auth: Auth, url: string, payload?: object) =>
    method === 'GET'
      ? app.inject({ method, url, headers: auth })
      : injectWithCsrf(app, { method, url, headers: auth, ...(payload ? { payload } : {}) });

  /** The owner's session, signed with `secret` (the web app would get it by refreshing). */
  async function ownerAuth(auth: Auth, secret: string): Promise<Auth> {
    const token = auth.authorization!.slice('Bearer '.length);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
      sub: string;
      sid: string;
    };
    const signed = await createAccessTokens(secret, () => ctx.now()).sign({
      userId: claims.sub,
      sessionId: claims.sid,
    });
    return { authorization: `Bearer ${signed}` };
  }

  const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(ctx.now().getTime() / 1000) });

  function subuserLogin(app: App, serviceId: string, code: string) {
    return app.inject({
      method: 'POST',
      url: '/api/v1/subusers/auth/login',
      payload: {
        service_id: serviceId,
        username: 'anna',
        password: PASSWORD,
        two_factor_code: code,
        device_name: 'Firefox on Linux',
      },
      remoteAddress: '198.51.100.20',
    });
  }

  it('keeps share links, TOTP and webhook secrets readable across a rotation, and reseals them', async () => {
    // Under A: a link, a subuser with TOTP and backup codes, a webhook.
    const node = await registerNode(ctx, 'rotation-node', capacity(1000, ['10.29.0.1']));
    const { auth, serviceId } = await ownerWithService(ctx);
    await setService(ctx, serviceId, { nodeId: node.id, address: '10.29.1.1', idBase: 8_000_000 });
    const made = await send(ctx.app, 'POST', auth, `/api/v1/shares/${serviceId}/shares`, {
      type: 'path',
      target: 'shares/plan.txt',
      expiry: '7d',
    });
    expect(made.statusCode, made.body).toBe(201);
    const link = made.json<ShareLink>();
    expect(link.url).toMatch(/\/s\//);

    const subusersBase = `/api/v1/subusers/${serviceId}`;
    const subuser = (
      await send(ctx.app, 'POST', auth, subusersBase, {
        username: 'anna',
        password: PASSWORD,
        password_confirm: PASSWORD,
      })
    ).json<Subuser>();
    const twoFactor = `${subusersBase}/${subuser.id}/2fa`;
    const setup = (await send(ctx.app, 'POST', auth, `${twoFactor}/setup`)).json<TwoFactorSetupResponse>();
    const verified = await send(ctx.app, 'POST', auth, `${twoFactor}/verify`, {
      code: await codeNow(setup.secret),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const { backup_codes: codes } = verified.json<BackupCodesResponse>();

    const set = await send(ctx.app, 'PUT', auth, '/api/v1/monitoring/webhook', { url: hook.url });
    expect(set.statusCode, set.body).toBe(200);
    const webhookSecret = set.json<WebhookResponse>().secret!;

    async function readsEverything(app: App, owner: Auth, backupCode: string) {
      const links = (
        await send(app, 'GET', owner, `/api/v1/shares/${serviceId}/shares`)
      ).json<ShareLinksResponse>();
      expect(links.links.find((entry) => entry.id === link.id)?.url).toBe(link.url);
      ctx.advance(60_000); // a TOTP code is taken once per step
      const byTotp = await subuserLogin(app, serviceId, await codeNow(setup.secret));
      expect(byTotp.statusCode, byTotp.body).toBe(200);
      const byBackupCode = await subuserLogin(app, serviceId, backupCode);
      expect(byBackupCode.statusCode, byBackupCode.body).toBe(200);
      hook.received.length = 0;
      const tested = await send(app, 'POST', owner, '/api/v1/monitoring/webhook/test');
      expect(tested.json<WebhookResponse>().last_delivery, tested.body).toMatchObject({ ok: true });
      const [posted] = hook.received;
      const at = Math.floor(Date.now() / 1000);
      expect(verifyEventSignature(webhookSecret, posted!.body, posted!.signature, at)).toBe(true);
    }

    // JWT_SECRET=B, JWT_SECRET_PREVIOUS=A: everything still reads; the owner's A-signed token does not.
    const rotated = await appWith({ JWT_SECRET: SECRET_B, JWT_SECRET_PREVIOUS: SECRET_A });
    expect((await send(rotated, 'GET', auth, `/api/v1/shares/${serviceId}/shares`)).statusCode).toBe(401);
    const ownerB = await ownerAuth(auth, SECRET_B);
    await readsEverything(rotated, ownerB, codes[0]!);

    // Without A, what A sealed opens no more: the link's URL cannot be shown.
    const forgetful = await appWith({ JWT_SECRET: SECRET_B });
    const unshown = await send(forgetful, 'GET', ownerB, `/api/v1/shares/${serviceId}/shares`);
    expect(unshown.json<ShareLinksResponse>().links.find((entry) => entry.id === link.id)?.url).toBeNull();

    // Resealing moves every sealed value to B; a second run finds nothing to do.
    const db = ctx.database.db;
    const first = await resealSecrets(db, { current: SECRET_B, previous: [SECRET_A] }, 2);
    const byColumn = Object.fromEntries(first.columns.map((count) => [count.column, count]));
    expect(byColumn['share_links.token_sealed']).toMatchObject({ unreadable: 0 });
    expect(byColumn['share_links.token_sealed']!.resealed).toBeGreaterThanOrEqual(1);
    expect(byColumn['subusers.totp_secret']!.resealed).toBeGreaterThanOrEqual(1);
    expect(byColumn['monitoring_webhooks.secret_sealed']!.resealed).toBeGreaterThanOrEqual(1);
    // Backup codes cannot be hashed again: those left are counted for their owner to renew.
    expect(first.staleBackupCodes).toEqual({ codes: 9, subusers: 1 });
    expect(renderReseal(first)).toContain('9 unused backup code(s) of 1 subuser(s)');
    const second = await resealSecrets(db, { current: SECRET_B, previous: [SECRET_A] });
    expect(second.columns.map((count) => count.resealed)).toEqual([0, 0, 0, 0, 0]);
    expect(second.columns.every((count) => count.unreadable === 0)).toBe(true);

    // The owner renews the backup codes (under B); then B alone serves everything.
    const renewed = await send(rotated, 'POST', ownerB, `${twoFactor}/backup-codes`);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const newCodes = renewed.json<BackupCodesResponse>().backup_codes;
    expect((await resealSecrets(db, SECRET_B)).staleBackupCodes).toEqual({ codes: 0, subusers: 0 });
    const alone = await appWith({ JWT_SECRET: SECRET_B });
    await readsEverything(alone, ownerB, newCodes[0]!);
    // An old backup code is no longer any code.
    ctx.advance(60_000);
    const oldCode = await subuserLogin(alone, serviceId, codes[2]!);
    expect(oldCode.json<{ detail: string }>().detail).toBe('invalid_verification_code');
  });
});
