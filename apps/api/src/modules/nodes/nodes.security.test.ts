// Issue 12, point 5: the shared registration token re-registered any node by name, so whoever
// held it became that node and read every password hash of its tenants (`password_nt` works for
// SMB pass-the-hash). A node's identity now changes hands only through a one-time token issued
// for that name, and every re-registration is recorded and mailed to support.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeRegisterRequest } from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';
import { capacity, registerNode, serviceJobs } from '../../test/services.ts';
import {
  createTestContext,
  injectWithCsrf,
  TEST_REGISTRATION_TOKEN,
  type TestContext,
  useTestContext,
} from '../../test/test-app.ts';
import { ntHash } from '../directory/passwords.ts';
import { createNodesQueries } from './nodes.queries.ts';
import { issueEnrollment } from './nodes.service.ts';

const registration = (name: string, hostname = `${name}.local`): NodeRegisterRequest => ({
  name,
  hostname,
  agent_version: '0.0.0',
  capacity: { disk_total_bytes: 10_000_000, disk_free_bytes: 8_000_000, addresses: ['127.0.10.1'] },
});

describe('node identity', () => {
  const ctx = useTestContext({ clock: true });

  const queries = () => createNodesQueries(ctx.database.db);
  const register = (name: string, token: string, hostname?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/nodes/register',
      remoteAddress: '203.0.113.9',
      headers: { authorization: `Bearer ${token}` },
      payload: registration(name, hostname),
    });
  const desiredStatus = async (nodeToken: string) =>
    (
      await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/nodes/desired-state',
        headers: { authorization: `Bearer ${nodeToken}` },
      })
    ).statusCode;
  const enroll = async (name: string, validForMs?: number) =>
    (await issueEnrollment(queries(), name, { now: ctx.now(), ...(validForMs ? { validForMs } : {}) })).token;

  it('attack 12.5: the shared registration token cannot take over an existing node', async () => {
    const victim = await register('victim-node', TEST_REGISTRATION_TOKEN);
    expect(victim.statusCode).toBe(200);
    const { node_token } = victim.json<{ node_token: string }>();

    // The attack: the same request again, from someone else holding the shared token.
    const replay = await register('victim-node', TEST_REGISTRATION_TOKEN, 'attacker.example');
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ detail: 'unauthorized' });
    expect(replay.body).not.toContain('node_token');
    // The node keeps its identity.
    expect(await desiredStatus(node_token)).toBe(200);

    const trail = await queries().registrationsOf('victim-node');
    expect(trail.map((row) => [row.outcome, row.via, row.hostname, row.ip])).toEqual([
      ['enrolled', 'registration_token', 'victim-node.local', '203.0.113.9'],
      ['refused', 'registration_token', 'attacker.example', '203.0.113.9'],
    ]);
    const alert = ctx.mailbox.last(ctx.config.SUPPORT_EMAIL);
    expect(alert.subject).toBe('Storage node victim-node: takeover attempt refused');
    expect(alert.text).toContain('attacker.example');
  });

  it('attack 12.5: a one-time enrollment token cannot be used twice, for another name or late', async () => {
    const token = await enroll('fresh-node');
    expect((await register('other-node', token)).statusCode).toBe(401);
    const first = await register('fresh-node', token);
    expect(first.statusCode).toBe(200);
    const { node_token } = first.json<{ node_token: string }>();

    const replay = await register('fresh-node', token, 'attacker.example');
    expect(replay.statusCode).toBe(401);
    expect(await desiredStatus(node_token)).toBe(200);

    const late = await enroll('late-node', 60_000);
    ctx.advance(61_000);
    expect((await register('late-node', late)).statusCode).toBe(401);
    expect((await queries().registrationsOf('fresh-node')).map((row) => row.outcome)).toEqual(['enrolled']);
  });

  it('attack 12.5: an operator reset re-registers a node, and that is recorded and mailed to support', async () => {
    const first = (await register('reset-node', await enroll('reset-node'))).json<{
      node_id: string;
      node_token: string;
    }>();
    const before = ctx.mailbox.to(ctx.config.SUPPORT_EMAIL).length;

    const again = await register('reset-node', await enroll('reset-node'), 'reset-node.new');
    expect(again.statusCode).toBe(200);
    const second = again.json<{ node_id: string; node_token: string }>();
    expect(second.node_id).toBe(first.node_id);
    expect(await desiredStatus(first.node_token)).toBe(401);
    expect(await desiredStatus(second.node_token)).toBe(200);

    const trail = await queries().registrationsOf('reset-node');
    expect(trail.map((row) => [row.outcome, row.via, row.nodeId])).toEqual([
      ['enrolled', 'enrollment_token', first.node_id],
      ['re-registered', 'enrollment_token', first.node_id],
    ]);
    const mails = ctx.mailbox.to(ctx.config.SUPPORT_EMAIL);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)?.subject).toBe('Storage node reset-node registered again');
    expect(mails.at(-1)?.text).toContain('reset-node.new');
  });
});

describe('password hashes in logs', () => {
  const lines: string[] = [];
  let ctx: TestContext;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    ctx = await createTestContext({ logger: pino({ level: 'trace' }, sink) });
    await seedCatalogue(ctx);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('attack 12.5: a desired-state fetch carries the NT hash to its node and logs none of it', async () => {
    const node = await registerNode(ctx, 'hash-node', capacity(1000, ['10.7.0.1']));
    const owner = await signedInUser(ctx);
    const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };
    const serviceId = (await buyService(ctx, owner.auth, STARTER)).service_id;
    await serviceJobs(ctx).placement.place(serviceId);
    const created = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/user-groups/${serviceId}/users`,
      headers: owner.auth,
      payload: { name: 'ona', password: 'Hash-Me-Not-42' },
    });
    expect(created.statusCode).toBe(201);

    const desired = await node.desired();
    const hash = await ntHash('Hash-Me-Not-42');
    expect(JSON.stringify(desired)).toContain(hash);
    await node.applyAll();

    const log = lines.join('');
    expect(log).toContain('request completed');
    expect(log).not.toContain('Hash-Me-Not-42');
    expect(log).not.toContain(hash);
    expect(log).not.toContain(hash.toLowerCase());
    expect(log).not.toContain(node.token);
  });
});
