import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type {
  BackupCodesResponse,
  Subuser,
  SubuserIdentity,
  SubuserLoginResponse,
  SubuserSessionsResponse,
  SubusersResponse,
  TwoFactorSetupResponse,
} from '@debesis/contract';
import { eq } from 'drizzle-orm';
import {
  useWorkspaceTestApp,
  activityOf,
  ownerWithService,
  type Auth,
} from '../directory/workspace.test-support.ts';
import { subuserBackupCodes, subusers } from './subusers.table.ts';

const PASSWORD = 'backup-work-1';

describe('subusers', () => {
  const { ctx, call } = useWorkspaceTestApp({ clock: true });

  const base = (serviceId: string) => `/api/v1/subusers/${serviceId}`;
  const bearer = (token: string): Auth => ({ authorization: `Bearer ${token}` });

  async function create(auth: Auth, serviceId: string, username = 'anna'): Promise<Subuser> {
    const response = await call.post(auth, base(serviceId), {
      username,
      password: PASSWORD,
      password_confirm: PASSWORD,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Subuser>();
  }

  const login = (body: Record<string, unknown>, ip = '198.51.100.20') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/subusers/auth/login',
      payload: { device_name: 'Firefox on Linux', ...body },
      remoteAddress: ip,
    });

  async function signIn(
    serviceId: string,
    extra: Record<string, unknown> = {},
  ): Promise<SubuserLoginResponse> {
    const response = await login({ service_id: serviceId, username: 'anna', password: PASSWORD, ...extra });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SubuserLoginResponse>();
  }

  /** The code an authenticator app shows now for `secret`. */
  const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(ctx.now().getTime() / 1000) });

  it('makes a subuser stored with the subuser- prefix, refusing mismatched passwords, bad names and twins', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const mismatch = await call.post(auth, base(serviceId), {
      username: 'anna',
      password: PASSWORD,
      password_confirm: 'something-else',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json<{ errors: unknown[] }>().errors).toContainEqual({
      field: 'password_confirm',
      code: 'passwords_do_not_match',
      message: 'Passwords do not match',
    });
    const badName = await call.post(auth, base(serviceId), {
      username: 'anna smith',
      password: PASSWORD,
      password_confirm: PASSWORD,
    });
    expect(badName.statusCode).toBe(422);
    const short = await call.post(auth, base(serviceId), {
      username: 'anna',
      password: 'short',
      password_confirm: 'short',
    });
    expect(short.json<{ errors: Array<{ code: string }> }>().errors[0]?.code).toBe('password_too_short');

    const made = await create(auth, serviceId, 'Anna');
    expect(made).toMatchObject({
      username: 'subuser-anna',
      enabled: true,
      two_factor_enabled: false,
      backup_codes_left: 0,
      last_login_at: null,
      active_sessions: 0,
    });
    // "subuser-anna" and "anna" are one name.
    const twin = await call.post(auth, base(serviceId), {
      username: 'subuser-ANNA',
      password: PASSWORD,
      password_confirm: PASSWORD,
    });
    expect(twin.statusCode).toBe(409);
    expect(twin.json<{ detail: string }>().detail).toBe('subuser_exists');

    const listed = (await call.get(auth, base(serviceId))).json<SubusersResponse>();
    expect(listed.service_id).toBe(serviceId);
    expect(listed.subusers.map((entry) => entry.username)).toEqual(['subuser-anna']);
    const [row] = await ctx.database.db.select().from(subusers).where(eq(subusers.id, made.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await activityOf(ctx, serviceId)).map((entry) => entry.action)).toContain('Subuser created');

    // Another account's owner sees nothing of it.
    const stranger = await ownerWithService(ctx);
    expect((await call.get(stranger.auth, base(serviceId))).statusCode).toBe(404);
    expect((await call.post(stranger.auth, `${base(serviceId)}/${made.id}/disable`)).statusCode).toBe(404);
  });

  it('signs a subuser in with service ID and username; it reaches its service’s backups and nothing else', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const other = await ownerWithService(ctx);
    await create(auth, serviceId);
    const session = await signIn(serviceId, { username: 'subuser-anna' });
    expect(session.access_token).toMatch(/^sus_/);
    expect(session.subuser).toMatchObject({
      username: 'subuser-anna',
      service_id: serviceId,
      two_factor_enabled: false,
    });

    const me = await call.get(bearer(session.access_token), '/api/v1/subusers/auth/me');
    expect(me.json<SubuserIdentity>().service_id).toBe(serviceId);
    const schedules = await call.get(bearer(session.access_token), `/api/v1/backups/${serviceId}/schedules`);
    expect(schedules.statusCode, schedules.body).toBe(200);
    const made = await call.post(bearer(session.access_token), `/api/v1/backups/${serviceId}/schedules`, {
      name: 'Nightly',
      frequency: 'daily',
      paths: [{ kind: 'share', name: 'nothing-yet' }],
    });
    // The backup module's own answer (no such share), not a refusal of the caller.
    expect([201, 422]).toContain(made.statusCode);

    for (const url of [
      `/api/v1/backups/${other.serviceId}/schedules`,
      `/api/v1/samba/${serviceId}/shares`,
      `/api/v1/services/${serviceId}/status`,
      '/api/v1/users/me',
      '/api/v1/billing/invoices',
      '/api/v1/billing/payment-methods',
      `/api/v1/subusers/${serviceId}`,
    ]) {
      const refused = await call.get(bearer(session.access_token), url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json<{ detail: string }>().detail, url).toBe('subuser_not_allowed');
    }
    // And the owner's token is not a subuser's.
    const notSubuser = await call.get(auth, '/api/v1/subusers/auth/me');
    expect(notSubuser.json<{ detail: string }>().detail).toBe('subuser_session_required');

    const listed = (await call.get(auth, base(serviceId))).json<SubusersResponse>().subusers[0];
    expect(listed?.last_login_at).not.toBeNull();
    expect(listed?.active_sessions).toBe(1);
    expect((await activityOf(ctx, serviceId)).map((entry) => entry.action)).toContain('Subuser logged in');

    const wrong = await login({ service_id: serviceId, username: 'anna', password: 'not-the-password' });
    expect(wrong.json<{ detail: string }>().detail).toBe('invalid_credentials');
    const elsewhere = await login({ service_id: other.serviceId, username: 'anna', password: PASSWORD });
    expect(elsewhere.json<{ detail: string }>().detail).toBe('invalid_credentials');

    const out = await call.post(bearer(session.access_token), '/api/v1/subusers/auth/logout');
    expect(out.statusCode).toBe(204);
    expect((await call.get(bearer(session.access_token), '/api/v1/subusers/auth/me')).statusCode).toBe(401);
  });

  it('turns 2FA on only with a right code, then asks for a code at sign-in and takes each code once', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const subuser = await create(auth, serviceId);
    const path = `${base(serviceId)}/${subuser.id}/2fa`;

    expect(
      (await call.post(auth, `${path}/verify`, { code: '123456' })).json<{ detail: string }>().detail,
    ).toBe('two_factor_not_started');
    const setup = (await call.post(auth, `${path}/setup`)).json<TwoFactorSetupResponse>();
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Debesis:.*subuser-anna\?secret=[A-Z2-7]+&/);
    expect(setup).toMatchObject({ digits: 6, period: 30 });
    // The secret is kept sealed, never as given.
    const [row] = await ctx.database.db.select().from(subusers).where(eq(subusers.id, subuser.id));
    expect(row?.totpPending).not.toContain(setup.secret);

    const right = await codeNow(setup.secret);
    const wrongCode = right === '000000' ? '111111' : '000000';
    const wrong = await call.post(auth, `${path}/verify`, { code: wrongCode });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json<{ detail: string; message: string }>()).toMatchObject({
      detail: 'invalid_verification_code',
      message: 'Invalid verification code',
    });
    expect((await call.post(auth, `${path}/verify`, { code: '12a456' })).statusCode).toBe(422);
    // Still off: a sign-in needs no code yet.
    await signIn(serviceId);

    const verified = await call.post(auth, `${path}/verify`, { code: right });
    const { backup_codes: codes, subuser: on } = verified.json<BackupCodesResponse>();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(on).toMatchObject({ two_factor_enabled: true, backup_codes_left: 10 });
    const kept = await ctx.database.db
      .select()
      .from(subuserBackupCodes)
      .where(eq(subuserBackupCodes.subuserId, subuser.id));
    expect(kept.map((entry) => entry.codeHash)).not.toContain(codes[0]);
    expect((await call.post(auth, `${path}/setup`)).json<{ detail: string }>().detail).toBe(
      'two_factor_already_enabled',
    );

    const needed = await login({ service_id: serviceId, username: 'anna', password: PASSWORD });
    expect(needed.statusCode).toBe(401);
    expect(needed.json<{ message: string }>().message).toBe('Two-factor authentication is required');
    // The code that turned 2FA on was taken then.
    const reused = await login({
      service_id: serviceId,
      username: 'anna',
      password: PASSWORD,
      two_factor_code: right,
    });
    expect(reused.json<{ detail: string }>().detail).toBe('invalid_verification_code');

    ctx.advance(30_000);
    const next = await codeNow(setup.secret);
    await signIn(serviceId, { two_factor_code: next });
    const again = await login({
      service_id: serviceId,
      username: 'anna',
      password: PASSWORD,
      two_factor_code: next,
    });
    expect(again.json<{ detail: string }>().detail).toBe('invalid_verification_code');
    // A wrong password is refused as such, whatever the code.
    const wrongPassword = await login({
      service_id: serviceId,
      username: 'anna',
      password: 'nope-nope',
      two_factor_code: next,
    });
    expect(wrongPassword.json<{ detail: string }>().detail).toBe('invalid_credentials');

    // A backup code works once, in any case and without its hyphen.
    const backup = codes[3]!;
    await signIn(serviceId, { two_factor_code: backup.replace('-', '').toUpperCase() });
    const backupAgain = await login({
      service_id: serviceId,
      username: 'anna',
      password: PASSWORD,
      two_factor_code: backup,
    });
    expect(backupAgain.json<{ detail: string }>().detail).toBe('invalid_verification_code');
    expect(
      (await call.get(auth, base(serviceId))).json<SubusersResponse>().subusers[0]?.backup_codes_left,
    ).toBe(9);

    // New codes replace the old ones.
    const renewed = (await call.post(auth, `${path}/backup-codes`)).json<BackupCodesResponse>();
    expect(renewed.subuser.backup_codes_left).toBe(10);
    const oldCode = await login({
      service_id: serviceId,
      username: 'anna',
      password: PASSWORD,
      two_factor_code: codes[5],
    });
    expect(oldCode.json<{ detail: string }>().detail).toBe('invalid_verification_code');
    await signIn(serviceId, { two_factor_code: renewed.backup_codes[0] });

    // Off: the secret and codes are forgotten, the sessions end, a sign-in needs no code.
    const sessionBefore = await signIn(serviceId, { two_factor_code: renewed.backup_codes[1] });
    const off = await call.del(auth, path);
    expect(off.json<Subuser>()).toMatchObject({
      two_factor_enabled: false,
      backup_codes_left: 0,
      active_sessions: 0,
    });
    expect((await call.get(bearer(sessionBefore.access_token), '/api/v1/subusers/auth/me')).statusCode).toBe(
      401,
    );
    expect((await call.post(auth, `${path}/backup-codes`)).json<{ detail: string }>().detail).toBe(
      'two_factor_not_enabled',
    );
    await signIn(serviceId);
    const actions = (await activityOf(ctx, serviceId)).map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining(['Subuser 2FA enabled', 'Subuser backup codes renewed', 'Subuser 2FA disabled']),
    );
  });

  it('lists sessions per device and ends one or all; a disabled, re-passworded or deleted subuser is out at once', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const subuser = await create(auth, serviceId);
    const laptop = await signIn(serviceId, { device_name: 'Firefox on Windows' });
    const phone = await signIn(serviceId, { device_name: 'Safari on iOS', remember_me: true });
    const tablet = await signIn(serviceId, { device_name: 'Chrome on Android' });
    const sessionsPath = `${base(serviceId)}/${subuser.id}/sessions`;
    const { sessions } = (await call.get(auth, sessionsPath)).json<SubuserSessionsResponse>();
    expect(sessions.map((entry) => entry.device_name).sort()).toEqual([
      'Chrome on Android',
      'Firefox on Windows',
      'Safari on iOS',
    ]);
    const phoneSession = sessions.find((entry) => entry.device_name === 'Safari on iOS')!;
    expect(phoneSession.remember_me).toBe(true);
    expect(phone.access_token.startsWith(phoneSession.token_hint)).toBe(true);
    expect(JSON.stringify(sessions)).not.toContain(phone.access_token);

    expect((await call.del(auth, `${sessionsPath}/${phoneSession.id}`)).statusCode).toBe(204);
    expect((await call.get(bearer(phone.access_token), '/api/v1/subusers/auth/me')).statusCode).toBe(401);
    expect((await call.get(bearer(laptop.access_token), '/api/v1/subusers/auth/me')).statusCode).toBe(200);
    expect(
      (await call.del(auth, `${sessionsPath}/${phoneSession.id}`)).json<{ detail: string }>().detail,
    ).toBe('subuser_session_not_found');
    expect((await call.del(auth, sessionsPath)).statusCode).toBe(204);
    for (const token of [laptop.access_token, tablet.access_token]) {
      expect((await call.get(bearer(token), `/api/v1/backups/${serviceId}/schedules`)).statusCode).toBe(401);
    }

    const before = await signIn(serviceId);
    const disabled = await call.post(auth, `${base(serviceId)}/${subuser.id}/disable`);
    expect(disabled.json<Subuser>()).toMatchObject({ enabled: false, active_sessions: 0 });
    expect((await call.get(bearer(before.access_token), '/api/v1/subusers/auth/me')).statusCode).toBe(401);
    const refused = await login({ service_id: serviceId, username: 'anna', password: PASSWORD });
    expect(refused.json<{ detail: string }>().detail).toBe('subuser_disabled');
    await call.post(auth, `${base(serviceId)}/${subuser.id}/enable`);

    const withOld = await signIn(serviceId);
    const changed = await call.patch(auth, `${base(serviceId)}/${subuser.id}`, {
      password: 'a-new-password-2',
      password_confirm: 'a-new-password-2',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call.get(bearer(withOld.access_token), '/api/v1/subusers/auth/me')).statusCode).toBe(401);
    expect((await login({ service_id: serviceId, username: 'anna', password: PASSWORD })).statusCode).toBe(
      401,
    );
    const fresh = await login({ service_id: serviceId, username: 'anna', password: 'a-new-password-2' });
    expect(fresh.statusCode).toBe(200);

    expect((await call.del(auth, `${base(serviceId)}/${subuser.id}`)).statusCode).toBe(204);
    const token = fresh.json<SubuserLoginResponse>().access_token;
    expect((await call.get(bearer(token), `/api/v1/backups/${serviceId}/schedules`)).statusCode).toBe(401);
    expect((await call.del(auth, `${base(serviceId)}/${subuser.id}`)).statusCode).toBe(404);
    expect((await activityOf(ctx, serviceId)).map((entry) => entry.action)).toEqual(
      expect.arrayContaining([
        'Subuser sessions revoked',
        'Subuser disabled',
        'Subuser password changed',
        'Subuser deleted',
      ]),
    );
  });

  it('limits wrong passwords like the owner’s sign-in', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await create(auth, serviceId);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await login(
        { service_id: serviceId, username: 'anna', password: 'wrong-password' },
        '198.51.100.77',
      );
      expect(response.statusCode).toBe(401);
    }
    const limited = await login(
      { service_id: serviceId, username: 'anna', password: PASSWORD },
      '198.51.100.77',
    );
    expect(limited.statusCode).toBe(429);
  });

  it('ends a session at its expiry: 12 hours, or 30 days with remember me', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await create(auth, serviceId);
    const day = await signIn(serviceId);
    const remembered = await signIn(serviceId, { remember_me: true });
    expect(Date.parse(day.expires_at) - ctx.now().getTime()).toBeGreaterThan(12 * 3_600_000 - 5000);
    expect(Date.parse(day.expires_at) - ctx.now().getTime()).toBeLessThanOrEqual(12 * 3_600_000);
    ctx.advance(12 * 3_600_000 + 1000);
    expect((await call.get(bearer(day.access_token), '/api/v1/subusers/auth/me')).statusCode).toBe(401);
    const me = await call.get(bearer(remembered.access_token), '/api/v1/subusers/auth/me');
    expect(me.statusCode).toBe(200);
    ctx.advance(30 * 86_400_000);
    expect((await call.get(bearer(remembered.access_token), '/api/v1/subusers/auth/me')).statusCode).toBe(
      401,
    );
  });
});
