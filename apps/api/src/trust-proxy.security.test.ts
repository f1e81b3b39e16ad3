// Issue 12, point 8: TRUST_PROXY=true believed every X-Forwarded-For hop, so a client chose the
// address that per-IP limits and the activity log saw by forging the leftmost entry.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { useTestContext } from './test/test-app.ts';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'debesis-trust-proxy-'));
const trustProxy = (value: string) => loadConfig({ TRUST_PROXY: value }, tempDir()).TRUST_PROXY;

/** The balancer in front of the API (the socket's peer) and the client it appends. */
const BALANCER = '10.0.0.2';
const CLIENT = '198.51.100.7';

describe('TRUST_PROXY', () => {
  it('attack 12.8: one trusted balancer makes request.ip the address it saw, not a forged one', async () => {
    const app = Fastify({ trustProxy: trustProxy(BALANCER) });
    app.get('/ip', async (request) => ({ ip: request.ip }));
    // The client sent "X-Forwarded-For: 203.0.113.66"; the balancer appended the real peer.
    const response = await app.inject({
      method: 'GET',
      url: '/ip',
      remoteAddress: BALANCER,
      headers: { 'x-forwarded-for': `203.0.113.66, ${CLIENT}` },
    });
    expect(response.json()).toEqual({ ip: CLIENT });
    await app.close();
  });

  it('attack 12.8: with the balancers named, a client that reaches the API directly cannot forge its address', async () => {
    const app = Fastify({ trustProxy: trustProxy('10.0.0.0/24') });
    app.get('/ip', async (request) => ({ ip: request.ip }));
    const direct = await app.inject({
      method: 'GET',
      url: '/ip',
      remoteAddress: CLIENT,
      headers: { 'x-forwarded-for': '203.0.113.66' },
    });
    expect(direct.json()).toEqual({ ip: CLIENT });
    const viaBalancer = await app.inject({
      method: 'GET',
      url: '/ip',
      remoteAddress: BALANCER,
      headers: { 'x-forwarded-for': `203.0.113.66, ${CLIENT}` },
    });
    expect(viaBalancer.json()).toEqual({ ip: CLIENT });
    await app.close();
  });

  it('refuses true and hop counts at boot, and takes false or addresses', () => {
    expect(() => trustProxy('true')).toThrow(/TRUST_PROXY: true would believe every X-Forwarded-For hop/);
    expect(() => trustProxy('1')).toThrow(/TRUST_PROXY: true would believe/);
    expect(() => trustProxy('2')).toThrow(/TRUST_PROXY: a hop count cannot tell a proxy from a client/);
    expect(() => trustProxy('10.0.0.0/33')).toThrow(/TRUST_PROXY: not an IP address or a CIDR: 10.0.0.0\/33/);
    expect(() => trustProxy('balancer.local')).toThrow(/TRUST_PROXY/);
    expect(trustProxy('false')).toBe(false);
    expect(loadConfig({}, tempDir()).TRUST_PROXY).toBe(false);
    expect(trustProxy('10.0.0.0/8, 192.0.2.7,loopback')).toEqual(['10.0.0.0/8', '192.0.2.7', 'loopback']);
  });

  it('attack: a range that trusts every hop (0.0.0.0/0, ::/0, 0/0, ::ffff:0:0/96) is refused at boot like true', () => {
    for (const value of [
      '0.0.0.0/0',
      '::/0',
      '0/0',
      '::ffff:0:0/96',
      '0:0:0:0:0:ffff:0:0/96',
      '::ffff:0.0.0.0/100',
      '0.0.0.0/0,10.0.0.1',
      '10.0.0.1, ::/0',
      '0.0.0.0/1,128.0.0.0/1',
      '::/1',
    ]) {
      expect(() => trustProxy(value), value).toThrow(
        /TRUST_PROXY: .* would believe every X-Forwarded-For hop, like true/,
      );
    }
    // The widest private networks and a CDN's block are still proxies one can name.
    expect(trustProxy('10.0.0.0/8,fc00::/7,::ffff:10.0.0.0/104,104.16.0.0/13,fe80::1%eth0')).toEqual([
      '10.0.0.0/8',
      'fc00::/7',
      '::ffff:10.0.0.0/104',
      '104.16.0.0/13',
      'fe80::1%eth0',
    ]);
  });

  it('attack: with ::ffff:0:0/96 (every IPv4 hop) a forged X-Forwarded-For entry became request.ip', async () => {
    // What Fastify does with a value that used to be accepted: the client picks its address.
    // (proxy-addr itself throws a TypeError on a /0 at start; this range it takes.)
    const app = Fastify({ trustProxy: ['::ffff:0:0/96'] });
    app.get('/ip', async (request) => ({ ip: request.ip }));
    const response = await app.inject({
      method: 'GET',
      url: '/ip',
      remoteAddress: CLIENT,
      headers: { 'x-forwarded-for': '203.0.113.66' },
    });
    expect(response.json()).toEqual({ ip: '203.0.113.66' });
    await app.close();
    expect(() => trustProxy('::ffff:0:0/96')).toThrow(/TRUST_PROXY/);
  });
});

describe('per-IP limits behind one proxy', () => {
  const ctx = useTestContext({ env: { TRUST_PROXY: BALANCER } });

  it('attack 12.8: rotating forged X-Forwarded-For entries does not escape the failed sign-in limit per IP', async () => {
    const statuses: number[] = [];
    // 20 failures per IP in 15 minutes; a different unknown account each time, so the per-account
    // limit never applies, and a fresh forged address in front of the balancer's entry.
    for (let attempt = 0; attempt < 21; attempt++) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress: BALANCER,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': `203.0.113.${attempt + 1}, ${CLIENT}`,
        },
        payload: new URLSearchParams({
          username: `nobody-${attempt}@example.com`,
          password: 'Wrong-Password-1',
          grant_type: 'password',
        }).toString(),
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});
