import { describe, expect, it } from 'vitest';
import type { LoginResponse, User } from '@debesis/contract';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import {
  login,
  PASSWORD,
  register,
  registration,
  signedInUser,
  verify,
  signOut,
  tokenCalls,
  expectVatTypoRefused,
  VAT_NUMBER_TYPO,
} from '../../test/factories.ts';

const HOUR = 60 * 60_000;

describe('auth', () => {
  const ctx = useTestContext({ clock: true });

  const { me, refresh } = tokenCalls(() => ctx);
  const post = (url: string, payload: object, remoteAddress = '127.0.0.1') =>
    injectWithCsrf(ctx.app, { method: 'POST', url, payload, remoteAddress });
  /** The reset link's token, once the job that mails it has run. */
  const resetToken = async (email: string) => {
    await ctx.mailbox.next(email, (mail) => mail.text.includes('/auth/reset-password?token='));
    return ctx.mailbox.linkToken(email, 'reset-password');
  };

  describe('register', () => {
    it('creates a personal account, answers the user without a session, and mails a verification link', async () => {
      const body = registration({ email: 'Jonas.Jonaitis@Example.LT' });
      const response = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: body });
      expect(response.statusCode).toBe(201);
      const { user, token } = response.json<{ user: User; token: null }>();
      expect(user).toMatchObject({
        email: 'jonas.jonaitis@example.lt',
        first_name: 'Ona',
        account_type: 'personal',
        email_verified: false,
        login_count: 0,
        roles: [],
        country: 'LT',
        theme: 'light',
        language: 'en',
        notification_email: true,
        notification_browser: true,
        company: null,
      });
      // Nobody is signed in before the address is verified.
      expect(token).toBeNull();
      const mail = ctx.mailbox.last('jonas.jonaitis@example.lt');
      expect(mail.subject).toMatch(/Verify your email/);
      expect(mail.text).toContain('http://localhost:8080/auth/verify-email?token=');
    });

    it('mails in Lithuanian when the visitor registers in Lithuanian', async () => {
      const body = registration();
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: body,
        headers: { 'accept-language': 'lt' },
      });
      expect(ctx.mailbox.last(body.email).subject).toMatch(/Patvirtinkite/);
    });

    it('creates a business account with its company details', async () => {
      const { user } = await register(ctx, {
        accountType: 'business',
        business_details: {
          business_name: 'UAB Debesėlis',
          business_code: '305123456',
          vat_number: 'lt 100001919017',
          address: { street: 'Gedimino pr. 1', city: 'Vilnius', state: '', postal_code: 'LT-01103' },
          country: 'LT',
        },
      });
      expect(user.account_type).toBe('business');
      expect(user.company).toMatchObject({
        name: 'UAB Debesėlis',
        code: '305123456',
        vat_number: 'LT100001919017',
      });
    });

    it('refuses a business account without business details', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: registration({ accountType: 'business' }),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json<{ errors: unknown[] }>().errors).toContainEqual({
        field: 'business_details',
        code: 'business_details_required',
        message: 'Business name, code, address and country are required for a business account',
      });
    });

    it('refuses a business whose VAT number fails its check digits, with the field error', async () => {
      const details = {
        business_name: 'UAB Debesėlis',
        business_code: '305123456',
        address: { street: 'Gedimino pr. 1', city: 'Vilnius', state: '', postal_code: 'LT-01103' },
        country: 'LT',
      };
      const typo = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: registration({
          accountType: 'business',
          business_details: { ...details, vat_number: VAT_NUMBER_TYPO },
        }),
        headers: { 'accept-language': 'lt' },
      });
      expectVatTypoRefused(typo, 'business_details.vat_number');
      const wrongShape = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: registration({
          accountType: 'business',
          business_details: { ...details, vat_number: 'LT10000191901' },
        }),
      });
      expect(wrongShape.json()).toMatchObject({
        errors: [{ field: 'business_details.vat_number', code: 'invalid_vat_number' }],
      });
    });

    it('explains every broken rule, per field, in the caller’s language', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        headers: { 'accept-language': 'lt' },
        payload: {
          email: 'not-an-email',
          password: 'short',
          firstName: 'O',
          lastName: '',
          country: 'Lithuania',
        },
      });
      expect(response.statusCode).toBe(422);
      const errors = response.json<{ errors: Array<{ field: string; code: string; message: string }> }>()
        .errors;
      const codes = Object.fromEntries(errors.map((error) => [error.field, error.code]));
      expect(codes).toMatchObject({
        email: 'invalid_email',
        password: 'password_too_short',
        firstName: 'name_too_short',
        lastName: 'required',
        country: 'invalid_country',
      });
      expect(errors.find((error) => error.field === 'email')?.message).toBe(
        'Įveskite teisingą el. pašto adresą',
      );
    });

    it('checks each password rule', async () => {
      for (const [password, code] of [
        ['alllowercase1', 'password_needs_uppercase'],
        ['ALLUPPERCASE1', 'password_needs_lowercase'],
        ['NoNumbersHere', 'password_needs_number'],
      ]) {
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/auth/register',
          payload: registration({ password }),
        });
        expect(
          response.json<{ errors: Array<{ code: string }> }>().errors.map((error) => error.code),
        ).toContain(code);
      }
    });

    it('answers email_registered with action login for a verified address', async () => {
      const { email } = await signedInUser(ctx);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: registration({ email }),
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        detail: 'email_registered',
        action: 'login',
        message: 'This email is already registered and verified. Please sign in instead.',
      });
    });

    it('lets an unverified registration be retried: details updated, a new link replaces the old one', async () => {
      const first = await register(ctx);
      const oldToken = ctx.mailbox.linkToken(first.body.email, 'verify-email');
      const again = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { ...first.body, firstName: 'Petras' },
      });
      expect(again.statusCode).toBe(201);
      expect(again.json<{ user: User }>().user.first_name).toBe('Petras');
      expect(again.json<{ user: User }>().user.id).toBe(first.user.id);
      const old = await post('/api/v1/auth/verify-email', { token: oldToken });
      expect(old.statusCode).toBe(400);
      await verify(ctx, first.body.email);
    });
  });

  describe('email verification', () => {
    it('verifies once, records it, and says so again on a second click', async () => {
      const { body } = await register(ctx);
      expect((await login(ctx, body.email)).json()).toMatchObject({ detail: 'email_not_verified' });
      const link = ctx.mailbox.linkToken(body.email, 'verify-email');

      const first = await post('/api/v1/auth/verify-email', { token: link });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ message: 'Your email address is verified. You can sign in now.' });

      const second = await post('/api/v1/auth/verify-email', { token: link });
      expect(second.json()).toEqual({ message: 'Your email address is already verified.' });
      const signedIn = await login(ctx, body.email);
      expect(signedIn.statusCode).toBe(200);
      expect((await me(signedIn.json<LoginResponse>().access_token)).json<User>().email_verified).toBe(true);
    });

    it('refuses an unknown or expired link with verification_link_invalid', async () => {
      const unknown = await post('/api/v1/auth/verify-email', { token: 'made-up' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({
        detail: 'verification_link_invalid',
        message: 'Failed to verify your email. The verification link may have expired or is invalid.',
      });

      const { body } = await register(ctx);
      const link = ctx.mailbox.linkToken(body.email, 'verify-email');
      ctx.advance(25 * HOUR);
      const expired = await post('/api/v1/auth/verify-email', { token: link });
      expect(expired.json()).toMatchObject({ detail: 'verification_link_invalid' });
    });

    it('resends a link to an unverified account, answers the same for strangers, and limits resends', async () => {
      const { body } = await register(ctx);
      const before = ctx.mailbox.to(body.email).length;
      const resent = await post('/api/v1/auth/resend-verification', { email: body.email }, '10.1.0.1');
      const stranger = await post(
        '/api/v1/auth/resend-verification',
        { email: 'nobody@example.lt' },
        '10.1.0.1',
      );
      expect(resent.statusCode).toBe(200);
      expect(stranger.json()).toEqual(resent.json());
      expect(ctx.mailbox.to(body.email).length).toBe(before + 1);
      expect(ctx.mailbox.to('nobody@example.lt')).toHaveLength(0);

      await post('/api/v1/auth/resend-verification', { email: body.email }, '10.1.0.1');
      await post('/api/v1/auth/resend-verification', { email: body.email }, '10.1.0.1');
      const limited = await post('/api/v1/auth/resend-verification', { email: body.email }, '10.1.0.1');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ detail: 'too_many_attempts' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('login', () => {
    it('signs in with the form-encoded password grant and counts the login', async () => {
      const { body } = await register(ctx);
      await verify(ctx, body.email);
      const response = await login(ctx, body.email.toUpperCase());
      expect(response.statusCode).toBe(200);
      const tokens = response.json<LoginResponse>();
      expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 900 });
      const user = (await me(tokens.access_token)).json<User>();
      expect(user.login_count).toBe(1);
      await login(ctx, body.email);
      expect((await me(tokens.access_token)).json<User>().login_count).toBe(2);
    });

    it('gives the same answer for an unknown email and a wrong password', async () => {
      const { email } = await signedInUser(ctx);
      const wrongPassword = await login(ctx, email, 'Wrong-Password-1', '10.2.0.1');
      const unknownEmail = await login(ctx, 'nobody-here@example.lt', PASSWORD, '10.2.0.1');
      expect(wrongPassword.statusCode).toBe(401);
      expect(unknownEmail.statusCode).toBe(401);
      expect(wrongPassword.json()).toEqual(unknownEmail.json());
      expect(wrongPassword.json()).toEqual({
        detail: 'invalid_credentials',
        message: 'Invalid email or password',
      });
    });

    it('refuses a wrong grant type and an empty form', async () => {
      const wrongGrant = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'username=a%40b.lt&password=x&grant_type=client_credentials',
      });
      expect(wrongGrant.statusCode).toBe(422);
      const empty = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(empty.statusCode).toBeGreaterThanOrEqual(400);
      expect(empty.statusCode).toBeLessThan(500);
    });

    it('locks an account for 15 minutes after 5 failed attempts from one address, with Retry-After', async () => {
      const { email } = await signedInUser(ctx);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect((await login(ctx, email, 'Wrong-Password-1', '10.3.0.1')).statusCode).toBe(401);
      }
      const locked = await login(ctx, email, PASSWORD, '10.3.0.1');
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toMatchObject({ detail: 'too_many_attempts' });
      const retryAfter = Number(locked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);

      ctx.advance(15 * 60_000 + 1000);
      expect((await login(ctx, email, PASSWORD, '10.3.0.1')).statusCode).toBe(200);
    });

    it('limits failed attempts per IP address across accounts', async () => {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        await login(ctx, `stranger${attempt}@example.lt`, 'Wrong-Password-1', '10.4.0.1');
      }
      const limited = await login(ctx, 'someone@example.lt', 'Wrong-Password-1', '10.4.0.1');
      expect(limited.statusCode).toBe(429);
      expect((await login(ctx, 'someone@example.lt', 'Wrong-Password-1', '10.4.0.2')).statusCode).toBe(401);
    });
  });

  describe('sessions', () => {
    it('rotates the refresh token on every use', async () => {
      const { tokens } = await signedInUser(ctx);
      const first = await refresh(tokens.refresh_token);
      expect(first.statusCode).toBe(200);
      const rotated = first.json<LoginResponse>();
      expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
      expect((await me(rotated.access_token)).statusCode).toBe(200);
      expect((await refresh(rotated.refresh_token)).statusCode).toBe(200);
    });

    it('revokes the whole family when a used refresh token comes back', async () => {
      const { tokens } = await signedInUser(ctx);
      const rotated = (await refresh(tokens.refresh_token)).json<LoginResponse>();

      const replay = await refresh(tokens.refresh_token);
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toMatchObject({ detail: 'invalid_refresh_token' });

      expect((await refresh(rotated.refresh_token)).statusCode).toBe(401);
      expect((await me(rotated.access_token)).statusCode).toBe(401);
      expect((await me(tokens.access_token)).statusCode).toBe(401);
    });

    it('lets only one of two simultaneous refreshes with the same token win', async () => {
      const { tokens } = await signedInUser(ctx);
      const results = await Promise.all([refresh(tokens.refresh_token), refresh(tokens.refresh_token)]);
      expect(results.map((result) => result.statusCode).sort()).toEqual([200, 401]);
    });

    it('expires access tokens after 15 minutes', async () => {
      const { tokens } = await signedInUser(ctx);
      expect((await me(tokens.access_token)).statusCode).toBe(200);
      ctx.advance(15 * 60_000 + 1000);
      expect((await me(tokens.access_token)).statusCode).toBe(401);
      const renewed = (await refresh(tokens.refresh_token)).json<LoginResponse>();
      expect((await me(renewed.access_token)).statusCode).toBe(200);
    });

    it('ends the session on logout', async () => {
      const { tokens, auth } = await signedInUser(ctx);
      const response = await signOut(ctx, auth, tokens.refresh_token);
      expect(response.statusCode).toBe(200);
      expect((await me(tokens.access_token)).statusCode).toBe(401);
      expect((await refresh(tokens.refresh_token)).statusCode).toBe(401);
    });

    it('refuses forged, malformed and missing tokens', async () => {
      const { tokens } = await signedInUser(ctx);
      const [header, payload] = tokens.access_token.split('.');
      for (const token of [`${header}.${payload}.forged-signature`, 'not-a-jwt', '']) {
        expect((await me(token)).statusCode).toBe(401);
      }
      expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/users/me' })).statusCode).toBe(401);
    });
  });

  describe('password reset', () => {
    it('answers the same for unknown addresses and mails nothing', async () => {
      const { email } = await signedInUser(ctx);
      const known = await post('/api/v1/auth/request-password-reset', { email }, '10.5.0.1');
      const unknown = await post(
        '/api/v1/auth/request-password-reset',
        { email: 'ghost@example.lt' },
        '10.5.0.1',
      );
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(known.json()).toEqual(unknown.json());
      expect((await ctx.mailbox.next(email, (mail) => /Reset your password/.test(mail.subject))).to).toBe(
        email.toLowerCase(),
      );
      expect(ctx.mailbox.to('ghost@example.lt')).toHaveLength(0);
    });

    it('sets the new password, ends every old session and signs in', async () => {
      const { email, tokens } = await signedInUser(ctx);
      const other = (await login(ctx, email)).json<LoginResponse>();
      await post('/api/v1/auth/request-password-reset', { email }, '10.6.0.1');
      const token = await resetToken(email);

      const response = await post('/api/v1/auth/reset-password', { token, password: 'Brand-New-Pass-9' });
      expect(response.statusCode).toBe(200);
      const fresh = response.json<LoginResponse>();
      expect((await me(fresh.access_token)).statusCode).toBe(200);

      expect((await me(tokens.access_token)).statusCode).toBe(401);
      expect((await me(other.access_token)).statusCode).toBe(401);
      expect((await refresh(tokens.refresh_token)).statusCode).toBe(401);
      expect((await login(ctx, email, PASSWORD, '10.6.0.2')).statusCode).toBe(401);
      expect((await login(ctx, email, 'Brand-New-Pass-9', '10.6.0.2')).statusCode).toBe(200);

      const reused = await post('/api/v1/auth/reset-password', { token, password: 'Another-Pass-9' });
      expect(reused.json()).toMatchObject({
        detail: 'reset_link_invalid',
        message: 'Failed to reset password. The link may have expired or is invalid.',
      });
    });

    it('refuses a link older than an hour and a weak new password', async () => {
      const { email } = await signedInUser(ctx);
      await post('/api/v1/auth/request-password-reset', { email }, '10.7.0.1');
      const token = await resetToken(email);
      const weak = await post('/api/v1/auth/reset-password', { token, password: 'weak' });
      expect(weak.statusCode).toBe(422);
      ctx.advance(HOUR + 1000);
      const expired = await post('/api/v1/auth/reset-password', { token, password: 'Brand-New-Pass-9' });
      expect(expired.json()).toMatchObject({ detail: 'reset_link_invalid' });
    });

    it('limits reset requests per address', async () => {
      const { email } = await signedInUser(ctx);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect(
          (await post('/api/v1/auth/request-password-reset', { email }, `10.8.0.${attempt}`)).statusCode,
        ).toBe(200);
      }
      const limited = await post('/api/v1/auth/request-password-reset', { email }, '10.8.1.1');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeTruthy();
    });
  });

  describe('detect-country', () => {
    const detect = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
      ctx.app.inject({ method: 'GET', url: '/api/v1/auth/detect-country', headers, remoteAddress });

    it('uses the offline GeoIP database for a public address', async () => {
      expect((await detect({}, '88.119.0.1')).json()).toEqual({ country: 'LT', source: 'geoip' });
    });

    it('falls back to the Accept-Language region, then to nothing', async () => {
      expect((await detect({ 'accept-language': 'lt-LT,lt;q=0.9' })).json()).toEqual({
        country: 'LT',
        source: 'accept_language',
      });
      expect((await detect({ 'accept-language': 'en' })).json()).toEqual({ country: null, source: 'none' });
    });

    it('ignores proxy country headers unless the proxy is trusted', async () => {
      expect((await detect({ 'cf-ipcountry': 'DE' })).json()).toEqual({ country: null, source: 'none' });
    });
  });
});
