// Attacks on sign-up and sign-in (issue 12): each test replays what was found and shows it fixed.
import { describe, expect, it } from 'vitest';
import type { LoginResponse, User } from '@debesis/contract';
import {
  login,
  PASSWORD,
  registration,
  sessionBeforeVerification,
  signedInUser,
  tokenCalls,
} from '../../test/factories.ts';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { createActivityQueries } from '../activity/activity.queries.ts';
import { createActivityService } from '../activity/activity.service.ts';
import { createRateLimitQueries } from '../rate-limits/rate-limits.queries.ts';
import { createRateLimiter, LIMITS } from '../rate-limits/rate-limits.service.ts';
import { createUsersQueries } from '../users/users.queries.ts';
import { createAuthQueries } from './auth.queries.ts';
import { createAuthService } from './auth.service.ts';
import { createAccessTokens } from './tokens.ts';

/** Wraps `target` so that every method call is written to `log` as `name.method`. */
function recorded<T extends object>(name: string, target: T, log: string[]): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        log.push(`${name}.${String(property)}`);
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}

describe('auth attacks', () => {
  const ctx = useTestContext({ clock: true });

  const { me, refresh } = tokenCalls(() => ctx);

  describe('registration before the address is verified', () => {
    const ATTACKER_PASSWORD = 'Attacker-Pass-1';
    const OWNER_PASSWORD = 'Owner-Pass-2';

    const registerAs = async (email: string, password: string, firstName: string) => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: registration({ email, password, firstName }),
      });
      expect(response.statusCode).toBe(201);
      return response.json<{ user: User; token: unknown }>();
    };
    const post = (url: string, payload: object) => injectWithCsrf(ctx.app, { method: 'POST', url, payload });
    const openNewestLink = async (email: string) => {
      const response = await post('/api/v1/auth/verify-email', {
        token: ctx.mailbox.linkToken(email, 'verify-email'),
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ message: string }>().message;
    };

    /** Whatever the attacker holds or knows, none of it reaches the verified account. */
    async function expectAttackerLockedOut(
      email: string,
      attacker: { token: unknown; old: { access_token: string; refresh_token: string } },
    ) {
      expect(attacker.token).toBeNull();
      expect((await me(attacker.old.access_token)).statusCode).toBe(401);
      expect((await refresh(attacker.old.refresh_token)).statusCode).toBe(401);
      expect((await login(ctx, email, ATTACKER_PASSWORD, '10.130.0.9')).statusCode).toBe(401);
    }

    /** The owner takes the account through the mailed link to choose a password. */
    async function ownerChoosesPassword(email: string) {
      const reset = await post('/api/v1/auth/reset-password', {
        token: ctx.mailbox.linkToken(email, 'reset-password'),
        password: OWNER_PASSWORD,
      });
      expect(reset.statusCode).toBe(200);
      const account = await me(reset.json<LoginResponse>().access_token);
      expect(account.json<User>()).toMatchObject({ email, email_verified: true });
    }

    it('attack 12.1: attacker registers the address first, then the owner registers and verifies', async () => {
      const email = `victim-first-${Date.now()}@example.lt`;
      const attacker = await registerAs(email, ATTACKER_PASSWORD, 'Mallory');
      // What the attacker held before this fix: a session opened at registration.
      const old = await sessionBeforeVerification(ctx, attacker.user.id);
      expect((await me(old.access_token)).statusCode).toBe(200);

      const owner = await registerAs(email, OWNER_PASSWORD, 'Ona');
      expect(owner.token).toBeNull();
      expect(owner.user.id).toBe(attacker.user.id);
      // The owner's registration ended every session of the unproven account.
      expect((await me(old.access_token)).statusCode).toBe(401);

      expect(await openNewestLink(email)).toMatch(/choose your password/);
      await expectAttackerLockedOut(email, { token: attacker.token, old });
      await ownerChoosesPassword(email);
      await expectAttackerLockedOut(email, { token: attacker.token, old });
    });

    it('attack 12.1: the owner registers, the attacker registers the address again, the owner verifies', async () => {
      const email = `owner-first-${Date.now()}@example.lt`;
      const owner = await registerAs(email, OWNER_PASSWORD, 'Ona');
      expect(owner.token).toBeNull();
      const attacker = await registerAs(email, ATTACKER_PASSWORD, 'Mallory');
      const old = await sessionBeforeVerification(ctx, attacker.user.id);

      // The newest mail is the attacker's registration; the owner opens it all the same.
      expect(await openNewestLink(email)).toMatch(/choose your password/);
      await expectAttackerLockedOut(email, { token: attacker.token, old });
      await ownerChoosesPassword(email);
      await expectAttackerLockedOut(email, { token: attacker.token, old });
    });

    it('attack 12.1: verifying ends every session opened before it, and registering again opens none', async () => {
      const email = `retry-${Date.now()}@example.lt`;
      const first = await registerAs(email, OWNER_PASSWORD, 'Ona');
      const old = await sessionBeforeVerification(ctx, first.user.id);
      // The same person retrying with the same password keeps it: no reset needed.
      const again = await registerAs(email, OWNER_PASSWORD, 'Ona');
      expect(again.token).toBeNull();
      const later = await sessionBeforeVerification(ctx, first.user.id);
      expect(await openNewestLink(email)).toBe('Your email address is verified. You can sign in now.');
      for (const tokens of [old, later]) {
        expect((await me(tokens.access_token)).statusCode).toBe(401);
        expect((await refresh(tokens.refresh_token)).statusCode).toBe(401);
      }
      expect((await login(ctx, email, OWNER_PASSWORD, '10.131.0.1')).statusCode).toBe(200);
      expect(ctx.mailbox.to(email).filter((mail) => /reset/i.test(mail.subject))).toHaveLength(0);
    });
  });

  describe('password reset requests', () => {
    it('attack 12.12: a reset request does the same work whether or not the address has an account', async () => {
      const { email } = await signedInUser(ctx);
      /** Every call the request path makes, on a service whose every dependency is recorded. */
      async function callsFor(address: string, ip: string): Promise<string[]> {
        const log: string[] = [];
        const now = () => ctx.now();
        const db = ctx.database.db;
        const service = createAuthService({
          users: recorded('users', createUsersQueries(db), log),
          queries: recorded('auth', createAuthQueries(db), log),
          tokens: recorded('tokens', createAccessTokens(ctx.config.jwtSecret, now), log),
          limiter: createRateLimiter({
            queries: recorded('limits', createRateLimitQueries(db), log),
            now,
          }),
          activity: recorded('activity', createActivityService({ queries: createActivityQueries(db) }), log),
          sendMail: async () => {
            log.push('sendMail');
          },
          queuePasswordReset: async (queued) => {
            log.push(`queuePasswordReset(${queued === address.toLowerCase() ? 'the address' : queued})`);
          },
          publicUrl: 'http://localhost:8080',
          now,
        });
        const answer = await service.requestPasswordReset(address, { ip, userAgent: null, language: 'en' });
        log.push(`answer: ${answer.message}`);
        return log;
      }

      const known = await callsFor(email, '10.140.0.1');
      const unknown = await callsFor(`nobody-${Date.now()}@example.lt`, '10.140.0.2');
      expect(known).toEqual(unknown);
      expect(known).toContain('queuePasswordReset(the address)');
      expect(known.some((call) => call.startsWith('users.') || call === 'sendMail')).toBe(false);
    });
  });

  describe('registrations from one address', () => {
    const registerFrom = (remoteAddress: string, email: string, language = 'en') =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        remoteAddress,
        headers: { 'accept-language': language },
        payload: registration({ email }),
      });

    it('attack: probing which addresses have accounts (email_registered) stops at 20 an hour per address', async () => {
      const { email } = await signedInUser(ctx);
      const prober = '10.140.0.1';
      // The spec's answer stays as it is…
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const response = await registerFrom(prober, email);
        expect(response.statusCode).toBe(409);
        expect(response.json()).toMatchObject({ detail: 'email_registered', action: 'login' });
      }
      // …but the 21st registration from that address, of any address, is refused in its language.
      const refused = await registerFrom(prober, email);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({
        detail: 'too_many_registrations',
        message: 'Too many registrations from your network. Please try again later.',
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const lt = await registerFrom(prober, `new-${Date.now()}@example.lt`, 'lt');
      expect(lt.statusCode).toBe(429);
      expect(lt.json<{ message: string }>().message).toBe(
        'Per daug registracijų iš jūsų tinklo. Bandykite dar kartą vėliau.',
      );
      // Another address registers as before, and the prober may again after the hour.
      expect((await registerFrom('10.140.0.2', `other-${Date.now()}@example.lt`)).statusCode).toBe(201);
      ctx.advance(60 * 60_000 + 1000);
      expect((await registerFrom(prober, email)).statusCode).toBe(409);
    });
  });

  describe('failed sign-in limits', () => {
    const statuses = (responses: Array<{ statusCode: number }>) =>
      responses.reduce<Record<number, number>>((counts, { statusCode }) => {
        counts[statusCode] = (counts[statusCode] ?? 0) + 1;
        return counts;
      }, {});

    it('attack 12.10: 17 wrong passwords at once for one account from one address: only 5 reach the password check', async () => {
      const { email } = await signedInUser(ctx);
      const attempts = await Promise.all(
        Array.from({ length: 17 }, () => login(ctx, email, 'Wrong-Password-1', '10.120.0.1')),
      );
      expect(statuses(attempts)).toEqual({ 401: 5, 429: 12 });
      // That address is held even with the right password, until the window passes.
      expect((await login(ctx, email, PASSWORD, '10.120.0.1')).statusCode).toBe(429);
      ctx.advance(15 * 60_000 + 1000);
      expect((await login(ctx, email, PASSWORD, '10.120.0.1')).statusCode).toBe(200);
    });

    it('attack: wrong passwords from elsewhere do not lock the owner out (ASVS 2.2.1)', async () => {
      const { email } = await signedInUser(ctx);
      const attacker = '10.123.0.66';
      for (let attempt = 0; attempt < 5; attempt += 1)
        expect((await login(ctx, email, 'Wrong-Password-1', attacker)).statusCode).toBe(401);
      // The owner, from another address (one never used before), signs in with the right password…
      expect((await login(ctx, email, PASSWORD, '10.123.0.7')).statusCode).toBe(200);
      // …and the attacker's address stays held, whatever the owner did.
      const held = await login(ctx, email, 'Wrong-Password-2', attacker);
      expect(held.statusCode).toBe(429);
      expect(Number(held.headers['retry-after'])).toBeGreaterThan(14 * 60);
      expect((await login(ctx, email, PASSWORD, attacker)).statusCode).toBe(429);
    });

    it('attack: guessing from many addresses meets the account ceiling, but not the owner at a known address', async () => {
      // signedInUser signed in from 127.0.0.1: the owner's own address from now on.
      const { email } = await signedInUser(ctx);
      const { max } = LIMITS.loginFailuresPerAccount;
      for (let attempt = 0; attempt < max; attempt += 1) {
        const address = `10.124.${attempt >> 8}.${attempt & 255}`;
        expect((await login(ctx, email, 'Wrong-Password-1', address)).statusCode, address).toBe(401);
      }
      // The next guess, from a fresh address, is held by the ceiling; so is a new address's right password.
      expect((await login(ctx, email, 'Wrong-Password-1', '10.125.0.1')).statusCode).toBe(429);
      expect((await login(ctx, email, PASSWORD, '10.125.0.2')).statusCode).toBe(429);
      // The owner's own address is not.
      expect((await login(ctx, email, PASSWORD, '127.0.0.1')).statusCode).toBe(200);
      ctx.advance(15 * 60_000 + 1000);
      expect((await login(ctx, email, PASSWORD, '10.125.0.2')).statusCode).toBe(200);
    });

    it('attack: an address known to the guesser’s own account is not known to the victim’s', async () => {
      const victim = await signedInUser(ctx);
      const attacker = await signedInUser(ctx);
      // The guesser signs in to their own account from the address it will guess from.
      const own = '10.126.0.1';
      expect((await login(ctx, attacker.email, PASSWORD, own)).statusCode).toBe(200);
      const { max } = LIMITS.loginFailuresPerAccount;
      for (let attempt = 0; attempt < max; attempt += 1) {
        const address = `10.127.${attempt >> 8}.${attempt & 255}`;
        expect((await login(ctx, victim.email, 'Wrong-Password-1', address)).statusCode, address).toBe(401);
      }
      // Past the victim's ceiling, the guesser's known address is held like any other stranger's.
      expect((await login(ctx, victim.email, 'Wrong-Password-1', own)).statusCode).toBe(429);
      expect((await login(ctx, victim.email, PASSWORD, own)).statusCode).toBe(429);
      // The victim's own address still lets the victim in, and the guesser's own account too.
      expect((await login(ctx, victim.email, PASSWORD, '127.0.0.1')).statusCode).toBe(200);
      expect((await login(ctx, attacker.email, PASSWORD, own)).statusCode).toBe(200);
    });

    it('attack 12.10: 30 wrong sign-ins at once from one address: only 20 reach the password check', async () => {
      const attempts = await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          login(ctx, `stranger-${index}@example.lt`, 'Wrong-Password-1', '10.121.0.1'),
        ),
      );
      expect(statuses(attempts)).toEqual({ 401: 20, 429: 10 });
    });

    it('a right password among wrong ones is not counted as a failure', async () => {
      const { email } = await signedInUser(ctx);
      for (let attempt = 0; attempt < 4; attempt += 1) {
        expect((await login(ctx, email, PASSWORD, '10.122.0.1')).statusCode).toBe(200);
      }
      const wrong = await Promise.all(
        Array.from({ length: 4 }, () => login(ctx, email, 'Wrong-Password-1', '10.122.0.2')),
      );
      expect(statuses(wrong)).toEqual({ 401: 4 });
      expect((await login(ctx, email, PASSWORD, '10.122.0.3')).statusCode).toBe(200);
    });
  });

  describe('sign-out', () => {
    it('attack 12.13: POST /auth/logout without a body signs out', async () => {
      const bodies: Array<{ headers: Record<string, string>; payload?: string }> = [
        { headers: {} },
        { headers: { 'content-type': 'application/json' } },
        { headers: { 'content-type': 'application/json' }, payload: '' },
        { headers: { 'content-type': 'application/json' }, payload: '{}' },
      ];
      for (const body of bodies) {
        const { tokens, auth } = await signedInUser(ctx);
        const response = await injectWithCsrf(ctx.app, {
          method: 'POST',
          url: '/api/v1/auth/logout',
          headers: { ...auth, ...body.headers },
          ...(body.payload === undefined ? {} : { payload: body.payload }),
        });
        expect({ body, status: response.statusCode }).toEqual({ body, status: 200 });
        expect((await me(tokens.access_token)).statusCode).toBe(401);
        expect((await refresh(tokens.refresh_token)).statusCode).toBe(401);
      }
    });

    it('still refuses a body that is not JSON, without signing anyone out by mistake', async () => {
      const { tokens, auth } = await signedInUser(ctx);
      const response = await injectWithCsrf(ctx.app, {
        method: 'POST',
        url: '/api/v1/auth/logout',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect(response.statusCode).toBe(400);
      expect((await me(tokens.access_token)).statusCode).toBe(200);
    });
  });
});
