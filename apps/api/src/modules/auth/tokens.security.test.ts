// Attack 12.14: access tokens forged with the right secret but without a claim we always sign.
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signedInUser } from '../../test/factories.ts';
import { useTestContext } from '../../test/test-app.ts';
import { ACCESS_TOKEN_TTL_S } from './tokens.ts';

describe('access token claims', () => {
  const ctx = useTestContext();

  const me = (token: string) =>
    ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } });

  /** Signs what an attacker who learnt the secret would: every claim of ours except `omit`. */
  async function forge(
    real: string,
    omit: string | null,
    change: Record<string, unknown> = {},
  ): Promise<string> {
    const genuine = decodeJwt(real);
    const iat = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: genuine.iss,
      aud: genuine.aud,
      sub: genuine.sub,
      sid: genuine.sid,
      typ: 'access',
      iat,
      exp: iat + ACCESS_TOKEN_TTL_S,
      ...change,
    };
    if (omit) delete claims[omit];
    const secret = ctx.config.jwtSecret;
    if (!secret) throw new Error('the test config has no JWT secret');
    return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));
  }

  it('attack 12.14: a token missing exp, iat, sub, sid, typ, iss or aud is refused', async () => {
    const { tokens } = await signedInUser(ctx);
    // The forgery itself is right: with every claim it is accepted, so only the gap refuses it.
    expect((await me(await forge(tokens.access_token, null))).statusCode).toBe(200);
    for (const claim of ['exp', 'iat', 'sub', 'sid', 'typ', 'iss', 'aud']) {
      const response = await me(await forge(tokens.access_token, claim));
      expect({ claim, status: response.statusCode }).toEqual({ claim, status: 401 });
    }
  });

  it('attack 12.14: a token that lives longer than an access token, or was issued in the future, is refused', async () => {
    const { tokens } = await signedInUser(ctx);
    const iat = Math.floor(Date.now() / 1000);
    for (const change of [
      { exp: iat + 365 * 24 * 3600 },
      { iat: iat - 2 * ACCESS_TOKEN_TTL_S, exp: iat + 60 },
      { iat: iat + 3600, exp: iat + 3600 + 60 },
      { exp: String(iat + 60) },
    ]) {
      const response = await me(await forge(tokens.access_token, null, change));
      expect({ change, status: response.statusCode }).toEqual({ change, status: 401 });
    }
  });
});
