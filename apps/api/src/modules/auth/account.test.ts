// Self-service from Settings: change the password, change the email by a link to the new
// address, list the sessions and sign one out.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AccountSessionsResponse, ChangeEmailResponse, LoginResponse, User } from '@debesis/contract';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { login, PASSWORD, register, signedInUser } from '../../test/factories.ts';
import { activityEvents } from '../activity/activity.table.ts';

const NEW_PASSWORD = 'Battery-Staple-9';
const DAY = 24 * 60 * 60_000;
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('account self-service', () => {
  const ctx = useTestContext({ clock: true });

  const bearer = (tokens: LoginResponse) => ({ authorization: `Bearer ${tokens.access_token}` });
  const me = (tokens: LoginResponse) =>
    ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(tokens) });
  const refresh = (tokens: LoginResponse) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refresh_token: tokens.refresh_token },
    });
  const post = (url: string, tokens: LoginResponse | null, payload: object, lang = 'en') =>
    injectWithCsrf(ctx.app, {
      method: 'POST',
      url,
      payload,
      headers: { ...(tokens ? bearer(tokens) : {}), 'accept-language': lang },
    });
  /** A second sign-in of the same account, from another device. */
  const signInAgain = async (email: string, userAgent: string, password = PASSWORD) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: '192.0.2.44',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
      payload: new URLSearchParams({ username: email, password, grant_type: 'password' }).toString(),
    });
    expect(response.statusCode).toBe(200);
    return response.json<LoginResponse>();
  };
  const actions = async (userId: string) =>
    (await ctx.database.db.select().from(activityEvents).where(eq(activityEvents.accountId, userId))).map(
      (event) => event.action,
    );
  const changeEmailToken = (address: string) => ctx.mailbox.linkToken(address, 'confirm-email');

  describe('POST /auth/change-password', () => {
    it('sets the new password, ends every other session, keeps this one and tells the owner', async () => {
      const { email, user, tokens } = await signedInUser(ctx);
      const other = await signInAgain(email, FIREFOX_LINUX);

      const response = await post('/api/v1/auth/change-password', tokens, {
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
      });

      expect(response.statusCode).toBe(200);
      expect(response.json<{ message: string }>().message).toBe(
        'Your password is changed. Every other session was signed out.',
      );
      // This session goes on; the other one is refused at its next request and cannot refresh.
      expect((await me(tokens)).statusCode).toBe(200);
      expect((await me(other)).statusCode).toBe(401);
      expect((await refresh(other)).statusCode).toBe(401);
      expect((await refresh(tokens)).statusCode).toBe(200);
      expect((await login(ctx, email, PASSWORD)).statusCode).toBe(401);
      expect((await login(ctx, email, NEW_PASSWORD)).statusCode).toBe(200);
      const notice = ctx.mailbox.last(email);
      expect(notice.subject).toBe('Your password was changed – Debesis');
      expect(notice.text).toContain('every other session was signed out');
      expect(await actions(user.id)).toContain('password changed');
    });

    it('refuses a wrong current password with the field’s error and changes nothing', async () => {
      const { email, tokens } = await signedInUser(ctx);
      const other = await signInAgain(email, FIREFOX_LINUX);

      const response = await post(
        '/api/v1/auth/change-password',
        tokens,
        { current_password: 'Wrong-Password-1', new_password: NEW_PASSWORD },
        'lt',
      );

      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        detail: 'invalid_current_password',
        errors: [
          {
            field: 'current_password',
            code: 'invalid_current_password',
            message: 'Dabartinis slaptažodis neteisingas',
          },
        ],
      });
      expect((await me(other)).statusCode).toBe(200);
      expect((await login(ctx, email, PASSWORD)).statusCode).toBe(200);
    });

    it('limits wrong current passwords like failed sign-ins', async () => {
      const { tokens } = await signedInUser(ctx);
      const wrong = { current_password: 'Wrong-Password-1', new_password: NEW_PASSWORD };
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect((await post('/api/v1/auth/change-password', tokens, wrong)).statusCode).toBe(422);
      }
      const limited = await post('/api/v1/auth/change-password', tokens, {
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
      });
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
    });

    it('checks the new password against the password rules', async () => {
      const { tokens } = await signedInUser(ctx);
      const response = await post('/api/v1/auth/change-password', tokens, {
        current_password: PASSWORD,
        new_password: 'short',
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        errors: [{ field: 'new_password', code: 'password_too_short' }],
      });
    });

    it('needs a signed-in session', async () => {
      const response = await post('/api/v1/auth/change-password', null, {
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('email change', () => {
    it('sets the new address only when the link mailed to it is opened, and tells the old address', async () => {
      const { email, user, tokens } = await signedInUser(ctx);
      const newEmail = `moved-${Date.now()}@example.lt`;

      const asked = await post('/api/v1/auth/change-email', tokens, {
        new_email: newEmail.toUpperCase(),
        current_password: PASSWORD,
      });

      expect(asked.statusCode).toBe(200);
      const answer = asked.json<ChangeEmailResponse>();
      expect(answer.new_email).toBe(newEmail);
      expect(new Date(answer.expires_at).getTime() - ctx.now().getTime()).toBeCloseTo(DAY, -4);
      // Nothing changed yet: the account still answers to the old address.
      expect((await me(tokens)).json<User>().email).toBe(email);
      const link = ctx.mailbox.last(newEmail);
      expect(link.subject).toBe('Confirm your new email address – Debesis');
      expect(link.text).toContain('http://localhost:8080/auth/confirm-email?token=');
      // The old address is told, with what to do, and with no link that acts on the account.
      const requested = ctx.mailbox.last(email);
      expect(requested.subject).toBe('A change of your account’s email address was requested – Debesis');
      expect(requested.text).toContain(newEmail);
      expect(requested.text).toContain('change your password in Settings now');
      expect(requested.text).not.toContain('token=');

      const confirmed = await post('/api/v1/auth/confirm-email-change', null, {
        token: changeEmailToken(newEmail),
      });

      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json()).toEqual({
        email: newEmail,
        message: `Your account now uses ${newEmail}. Sign in with this address from now on.`,
      });
      expect((await me(tokens)).json<User>()).toMatchObject({ email: newEmail, email_verified: true });
      expect((await login(ctx, newEmail, PASSWORD)).statusCode).toBe(200);
      expect((await login(ctx, email, PASSWORD)).statusCode).toBe(401);
      const told = ctx.mailbox.last(email);
      expect(told.subject).toBe('Your account’s email address was changed – Debesis');
      expect(told.text).toContain(newEmail);
      expect(told.text).toContain('write to us now (http://localhost:8080/contact)');
      expect(told.text).not.toContain('token=');
      expect(told.html).not.toContain('token=');
      expect(await actions(user.id)).toEqual(
        expect.arrayContaining(['email change requested', 'email changed']),
      );
    });

    it('mails in the account’s language', async () => {
      const { email, tokens } = await signedInUser(ctx);
      await injectWithCsrf(ctx.app, {
        method: 'PUT',
        url: '/api/v1/settings/',
        headers: bearer(tokens),
        payload: { language: 'lt' },
      });
      const newEmail = `lt-${Date.now()}@example.lt`;
      expect(
        (
          await post(
            '/api/v1/auth/change-email',
            tokens,
            { new_email: newEmail, current_password: PASSWORD },
            'lt',
          )
        ).statusCode,
      ).toBe(200);
      expect(ctx.mailbox.last(newEmail).subject).toBe('Patvirtinkite naują el. pašto adresą – Debesis');
      expect(ctx.mailbox.last(email).subject).toBe('Paprašyta pakeisti paskyros el. pašto adresą – Debesis');
    });

    it('uses a link once', async () => {
      const { tokens } = await signedInUser(ctx);
      const newEmail = `once-${Date.now()}@example.lt`;
      await post('/api/v1/auth/change-email', tokens, { new_email: newEmail, current_password: PASSWORD });
      const token = changeEmailToken(newEmail);

      expect((await post('/api/v1/auth/confirm-email-change', null, { token })).statusCode).toBe(200);
      const again = await post('/api/v1/auth/confirm-email-change', null, { token });

      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ detail: 'email_change_link_invalid' });
    });

    it('refuses a link after 24 hours', async () => {
      const { email, tokens } = await signedInUser(ctx);
      const newEmail = `late-${Date.now()}@example.lt`;
      await post('/api/v1/auth/change-email', tokens, { new_email: newEmail, current_password: PASSWORD });
      const token = changeEmailToken(newEmail);

      ctx.advance(DAY + 1000);
      const late = await post('/api/v1/auth/confirm-email-change', null, { token });

      expect(late.statusCode).toBe(400);
      expect(late.json()).toMatchObject({ detail: 'email_change_link_invalid' });
      expect((await me(await signInAgain(email, FIREFOX_LINUX))).json<User>().email).toBe(email);
    });

    it('refuses an address another account has, when asked and when the link is opened', async () => {
      const { email, tokens } = await signedInUser(ctx);
      const taken = (await register(ctx)).body.email;

      const asked = await post('/api/v1/auth/change-email', tokens, {
        new_email: taken,
        current_password: PASSWORD,
      });
      expect(asked.statusCode).toBe(409);
      expect(asked.json()).toMatchObject({
        detail: 'email_taken',
        errors: [{ field: 'new_email', code: 'email_taken' }],
      });

      // Free when asked, registered by someone else before the link is opened.
      const later = `later-${Date.now()}@example.lt`;
      expect(
        (await post('/api/v1/auth/change-email', tokens, { new_email: later, current_password: PASSWORD }))
          .statusCode,
      ).toBe(200);
      const token = changeEmailToken(later);
      await register(ctx, { email: later });
      const confirmed = await post('/api/v1/auth/confirm-email-change', null, { token });
      expect(confirmed.statusCode).toBe(409);
      expect(confirmed.json()).toMatchObject({ detail: 'email_taken' });
      expect((await me(tokens)).json<User>().email).toBe(email);
    });

    it('refuses a wrong current password and the address the account already has, mailing nothing', async () => {
      const { email, tokens } = await signedInUser(ctx);
      const newEmail = `nope-${Date.now()}@example.lt`;
      const sent = ctx.mailbox.messages.length;

      const wrong = await post('/api/v1/auth/change-email', tokens, {
        new_email: newEmail,
        current_password: 'Wrong-Password-1',
      });
      const same = await post('/api/v1/auth/change-email', tokens, {
        new_email: email,
        current_password: PASSWORD,
      });

      expect(wrong.statusCode).toBe(422);
      expect(wrong.json()).toMatchObject({
        errors: [{ field: 'current_password', code: 'invalid_current_password' }],
      });
      expect(same.statusCode).toBe(422);
      expect(same.json()).toMatchObject({ errors: [{ field: 'new_email', code: 'same_email' }] });
      expect(ctx.mailbox.messages.length).toBe(sent);
    });

    it('keeps only the newest link, and a password change cancels it', async () => {
      const { tokens } = await signedInUser(ctx);
      const first = `first-${Date.now()}@example.lt`;
      const second = `second-${Date.now()}@example.lt`;
      await post('/api/v1/auth/change-email', tokens, { new_email: first, current_password: PASSWORD });
      const firstToken = changeEmailToken(first);
      await post('/api/v1/auth/change-email', tokens, { new_email: second, current_password: PASSWORD });
      const secondToken = changeEmailToken(second);

      expect((await post('/api/v1/auth/confirm-email-change', null, { token: firstToken })).statusCode).toBe(
        400,
      );

      await post('/api/v1/auth/change-password', tokens, {
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
      });
      expect((await post('/api/v1/auth/confirm-email-change', null, { token: secondToken })).statusCode).toBe(
        400,
      );
    });
  });

  describe('sessions', () => {
    it('lists the live sessions with device, IP and times, the current one marked', async () => {
      const { email, tokens } = await signedInUser(ctx);
      await signInAgain(email, SAFARI_IPHONE);
      const ended = await signInAgain(email, FIREFOX_LINUX);
      await injectWithCsrf(ctx.app, { method: 'POST', url: '/api/v1/auth/logout', headers: bearer(ended) });

      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/auth/sessions',
        headers: bearer(tokens),
      });

      expect(response.statusCode).toBe(200);
      const { sessions } = response.json<AccountSessionsResponse>();
      expect(sessions).toHaveLength(2);
      const current = sessions.find((session) => session.current);
      const phone = sessions.find((session) => !session.current);
      expect(current).toMatchObject({ method: 'password', ip: '127.0.0.1' });
      expect(phone).toMatchObject({
        browser: 'Safari',
        os: 'iOS',
        ip: '192.0.2.44',
        user_agent: SAFARI_IPHONE,
        method: 'password',
      });
      expect(Date.parse(phone?.created_at ?? '')).not.toBeNaN();
      expect(Date.parse(phone?.last_used_at ?? '')).not.toBeNaN();
    });

    it('signs one session out at once: its next request and its refresh are refused', async () => {
      const { email, user, tokens } = await signedInUser(ctx);
      const other = await signInAgain(email, FIREFOX_LINUX);
      expect((await me(other)).statusCode).toBe(200);
      const list = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/auth/sessions',
        headers: bearer(tokens),
      });
      const target = list.json<AccountSessionsResponse>().sessions.find((session) => !session.current);

      const response = await injectWithCsrf(ctx.app, {
        method: 'DELETE',
        url: `/api/v1/auth/sessions/${target?.id}`,
        headers: bearer(tokens),
      });

      expect(response.statusCode).toBe(200);
      expect((await me(other)).statusCode).toBe(401);
      expect((await refresh(other)).statusCode).toBe(401);
      expect((await me(tokens)).statusCode).toBe(200);
      const after = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/auth/sessions',
        headers: bearer(tokens),
      });
      expect(after.json<AccountSessionsResponse>().sessions.map((session) => session.id)).not.toContain(
        target?.id,
      );
      expect(await actions(user.id)).toContain('session signed out');

      const again = await injectWithCsrf(ctx.app, {
        method: 'DELETE',
        url: `/api/v1/auth/sessions/${target?.id}`,
        headers: bearer(tokens),
      });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toMatchObject({ detail: 'session_not_found' });
    });

    it('does not find another account’s session, nor a malformed id', async () => {
      const owner = await signedInUser(ctx);
      const stranger = await signedInUser(ctx);
      const list = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/auth/sessions',
        headers: bearer(owner.tokens),
      });
      const ownerSession = list.json<AccountSessionsResponse>().sessions[0]?.id;

      for (const id of [ownerSession, 'not-a-session']) {
        const response = await injectWithCsrf(ctx.app, {
          method: 'DELETE',
          url: `/api/v1/auth/sessions/${id}`,
          headers: bearer(stranger.tokens),
        });
        expect(response.statusCode).toBe(404);
      }
      expect((await me(owner.tokens)).statusCode).toBe(200);
    });
  });
});
