// Access tokens are verified with node:crypto (not jose's WebCrypto path); the checks jose made
// must all still hold.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_S, createAccessTokens } from './tokens.ts';

const SECRET = 'a-test-secret-of-enough-length-0123456789';
const key = new TextEncoder().encode(SECRET);
const claims = { userId: 'user-1', sessionId: 'session-1' };

describe('access tokens', () => {
  it('accepts what it signed, until it expires', async () => {
    let at = new Date('2026-01-31T12:00:00Z');
    const tokens = createAccessTokens(SECRET, () => at);
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    at = new Date(at.getTime() + (ACCESS_TOKEN_TTL_S - 1) * 1000);
    expect(await tokens.verify(token)).toEqual(claims);
    at = new Date(at.getTime() + 1000);
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses another secret, another header, a changed payload or signature', async () => {
    const tokens = createAccessTokens(SECRET);
    const token = await tokens.sign(claims);
    const [header = '', payload = '', signature = ''] = token.split('.');
    expect(await createAccessTokens(`${SECRET}x`).verify(token)).toBeNull();
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const withKid = Buffer.from(JSON.stringify({ alg: 'HS256', kid: 'x' })).toString('base64url');
    const other = Buffer.from(JSON.stringify({ sub: 'user-2' })).toString('base64url');
    for (const forged of [
      `${none}.${payload}.`,
      `${none}.${payload}.${signature}`,
      `${withKid}.${payload}.${signature}`,
      `${header}.${other}.${signature}`,
      `${header}.${payload}.${signature}A`,
      `${header}.${payload}.${signature.slice(0, -1)}`,
      `${header}.${payload}`,
      `${token}.x`,
      '',
    ]) {
      expect(await tokens.verify(forged), forged).toBeNull();
    }
  });

  it('refuses a correctly signed token whose claims are not an access token of ours', async () => {
    const tokens = createAccessTokens(SECRET);
    const iat = Math.floor(Date.now() / 1000);
    const base = {
      iss: 'debesis',
      aud: 'debesis-api',
      sub: 'user-1',
      sid: 's',
      typ: 'access',
      iat,
      exp: iat + 60,
    };
    const sign = (payload: Record<string, unknown>) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect(await tokens.verify(await sign(base))).toEqual({ userId: 'user-1', sessionId: 's' });
    expect(await tokens.verify(await sign({ ...base, aud: ['other', 'debesis-api'] }))).not.toBeNull();
    for (const change of [
      { iss: 'someone' },
      { aud: 'other' },
      { typ: 'refresh' },
      { sub: 42 },
      { nbf: iat + 60 },
      { exp: iat },
      { iat: iat + 10, exp: iat + 70 },
    ]) {
      expect(await tokens.verify(await sign({ ...base, ...change })), JSON.stringify(change)).toBeNull();
    }
  });
});
