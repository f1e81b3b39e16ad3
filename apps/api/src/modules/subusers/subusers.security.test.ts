// A subuser's second factor under guessing: wrong codes from one address held every address
// (five from anywhere locked the subuser out for 15 minutes). Counted per subuser AND address now.
import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { Subuser, TwoFactorSetupResponse } from '@debesis/contract';
import { useWorkspaceTestApp, ownerWithService } from '../directory/workspace.test-support.ts';

const PASSWORD = 'backup-work-1';

describe('subuser sign-in under guessing', () => {
  const { ctx, call } = useWorkspaceTestApp({ clock: true });

  const login = (serviceId: string, code: string, ip: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/subusers/auth/login',
      remoteAddress: ip,
      payload: { service_id: serviceId, username: 'anna', password: PASSWORD, two_factor_code: code },
    });

  it('attack: wrong 2FA codes from one address hold that address, not the subuser at another', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const base = `/api/v1/subusers/${serviceId}`;
    const created = await call.post(auth, base, {
      username: 'anna',
      password: PASSWORD,
      password_confirm: PASSWORD,
    });
    const subuser = created.json<Subuser>();
    const setup = (await call.post(auth, `${base}/${subuser.id}/2fa/setup`)).json<TwoFactorSetupResponse>();
    const codeNow = () => generate({ secret: setup.secret, epoch: Math.floor(ctx.now().getTime() / 1000) });
    expect(
      (await call.post(auth, `${base}/${subuser.id}/2fa/verify`, { code: await codeNow() })).statusCode,
    ).toBe(200);

    // Someone who has the password guesses codes from one address.
    const attacker = '198.51.100.66';
    ctx.advance(30_000);
    const right = await codeNow();
    const wrong = right === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const guess = await login(serviceId, wrong, attacker);
      expect(guess.json<{ detail: string }>().detail).toBe('invalid_verification_code');
    }
    expect((await login(serviceId, wrong, attacker)).statusCode).toBe(429);
    // The subuser, elsewhere, signs in with the password and the app's code…
    const owner = await login(serviceId, right, '198.51.100.7');
    expect(owner.statusCode, owner.body).toBe(200);
    // …while the guesser's address stays held.
    ctx.advance(30_000);
    expect((await login(serviceId, await codeNow(), attacker)).statusCode).toBe(429);
  });
});
