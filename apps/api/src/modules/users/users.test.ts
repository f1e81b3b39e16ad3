import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { userSchema, type Settings, type User } from '@debesis/contract';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import {
  register,
  sessionBeforeVerification,
  signedInUser,
  expectVatTypoRefused,
  VAT_NUMBER_TYPO,
} from '../../test/factories.ts';
import { activityEvents } from '../activity/activity.table.ts';

const business = {
  business_name: 'UAB Saugykla',
  business_code: '304111222',
  vat_number: 'LT100001919017',
  address: { street: 'Konstitucijos pr. 7', city: 'Vilnius', state: '', postal_code: 'LT-09308' },
  country: 'LT',
};

describe('users and settings', () => {
  const ctx = useTestContext();

  const change = (
    method: 'PUT' | 'POST',
    url: string,
    headers: Record<string, string>,
    payload: object,
    lang = 'en',
  ) => injectWithCsrf(ctx.app, { method, url, headers: { ...headers, 'accept-language': lang }, payload });

  const actions = async (userId: string) =>
    (await ctx.database.db.select().from(activityEvents).where(eq(activityEvents.accountId, userId))).map(
      (event) => `${event.tone}:${event.action}`,
    );

  it('shows the user merged with settings, also before the email is verified', async () => {
    const token = await sessionBeforeVerification(ctx, (await register(ctx)).user.id);
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(response.statusCode).toBe(200);
    const user = response.json<User>();
    expect(user).toMatchObject({ email_verified: false, theme: 'light', language: 'en', has_password: true });
    expect(Object.keys(user)).not.toContain('password_hash');
    expect(JSON.stringify(user)).not.toMatch(/argon2/);
    // The route writes through the contract's compiled JSON Schema, which checks no values: every
    // field is checked here, strictly, and read back unchanged.
    const checked = userSchema.strict().safeParse(user);
    expect(checked.success, checked.error?.message).toBe(true);
    expect(checked.data).toEqual(user);
  });

  it('updates the profile and settings through PUT /users/me and records it', async () => {
    const { auth, user } = await signedInUser(ctx);
    const response = await change('PUT', '/api/v1/users/me', auth, {
      first_name: 'Rūta',
      phone: '+37060000000',
      theme: 'dark',
      language: 'lt',
      notification_browser: false,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<User>()).toMatchObject({
      first_name: 'Rūta',
      phone: '+37060000000',
      theme: 'dark',
      language: 'lt',
      notification_browser: false,
      notification_email: true,
    });
    expect(await actions(user.id)).toContain('info:settings updated');
  });

  it('refuses unknown fields and company details on PUT /users/me', async () => {
    const { auth } = await signedInUser(ctx);
    const response = await change('PUT', '/api/v1/users/me', auth, {
      company: { name: 'X' },
      email: 'x@y.lt',
    });
    expect(response.statusCode).toBe(422);
  });

  it('reads and changes settings; invalid theme and language answer 422 with the spec messages', async () => {
    const { auth } = await signedInUser(ctx);
    const read = await ctx.app.inject({ method: 'GET', url: '/api/v1/settings/', headers: auth });
    expect(read.json<Settings>()).toEqual({
      theme: 'light',
      language: 'en',
      notifications: { email: true, browser: true },
    });

    const saved = await change('PUT', '/api/v1/settings/', auth, {
      theme: 'system',
      notifications: { email: false },
    });
    expect(saved.json<Settings>()).toEqual({
      theme: 'system',
      language: 'en',
      notifications: { email: false, browser: true },
    });

    const badTheme = await change('PUT', '/api/v1/settings/', auth, { theme: 'pink' });
    expect(badTheme.statusCode).toBe(422);
    expect(badTheme.json()).toMatchObject({
      errors: [{ field: 'theme', code: 'invalid_theme', message: 'Invalid theme selection' }],
    });
    const badLanguage = await change('PUT', '/api/v1/settings/', auth, { language: 'de' }, 'lt');
    expect(badLanguage.json()).toMatchObject({
      errors: [{ field: 'language', code: 'invalid_language', message: 'Netinkamas kalbos pasirinkimas' }],
    });
    const unchanged = await ctx.app.inject({ method: 'GET', url: '/api/v1/settings/', headers: auth });
    expect(unchanged.json<Settings>().theme).toBe('system');
  });

  it('needs a session for every account route', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/users/me'],
      ['GET', '/api/v1/settings/'],
    ] as const) {
      expect((await ctx.app.inject({ method, url })).statusCode).toBe(401);
    }
    const put = await change('PUT', '/api/v1/settings/', {}, { theme: 'dark' });
    expect(put.statusCode).toBe(401);
  });

  it('converts a personal account to business once; the second attempt is refused', async () => {
    const { auth, user } = await signedInUser(ctx);
    const first = await change('POST', '/api/v1/users/me/convert-to-business', auth, {
      business_details: business,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json<User>()).toMatchObject({
      account_type: 'business',
      company: { name: 'UAB Saugykla', code: '304111222', vat_number: 'LT100001919017', country: 'LT' },
    });
    const second = await change('POST', '/api/v1/users/me/convert-to-business', auth, {
      business_details: { ...business, business_name: 'Kita UAB' },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ detail: 'already_business' });
    const after = await ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: auth });
    expect(after.json<User>().company?.name).toBe('UAB Saugykla');
    expect(await actions(user.id)).toContain('success:account converted to business');
  });

  it('validates business details and needs a verified email to convert', async () => {
    const { auth } = await signedInUser(ctx);
    const invalid = await change('POST', '/api/v1/users/me/convert-to-business', auth, {
      business_details: { ...business, vat_number: '12', country: 'Lithuania' },
    });
    expect(invalid.statusCode).toBe(422);
    const fields = invalid.json<{ errors: Array<{ field: string; code: string }> }>().errors;
    expect(fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'business_details.vat_number', code: 'invalid_vat_number' }),
        expect.objectContaining({ field: 'business_details.country', code: 'invalid_country' }),
      ]),
    );

    const token = await sessionBeforeVerification(ctx, (await register(ctx)).user.id);
    const unverified = await change(
      'POST',
      '/api/v1/users/me/convert-to-business',
      { authorization: `Bearer ${token.access_token}` },
      { business_details: business },
    );
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json()).toMatchObject({ detail: 'email_not_verified' });
  });

  it('refuses a company code of the wrong shape for its country, another state’s VAT number, and a phone that is none', async () => {
    const { auth } = await signedInUser(ctx);
    const shortCode = await change(
      'POST',
      '/api/v1/users/me/convert-to-business',
      auth,
      { business_details: { ...business, business_code: '123' } },
      'lt',
    );
    expect(shortCode.statusCode).toBe(422);
    expect(shortCode.json()).toMatchObject({
      errors: [
        {
          field: 'business_details.business_code',
          code: 'invalid_company_code',
          message: 'Tai ne pasirinktos šalies įmonės kodas: patikrinkite skaitmenis',
        },
      ],
    });
    // A valid German number is not a Lithuanian company's.
    const german = await change('POST', '/api/v1/users/me/convert-to-business', auth, {
      business_details: { ...business, vat_number: 'DE136695976' },
    });
    expect(german.statusCode).toBe(422);
    expect(german.json()).toMatchObject({
      errors: [{ field: 'business_details.vat_number', code: 'vat_country_mismatch' }],
    });
    // A country whose codes have no known shape takes the code as typed.
    const elsewhere = await change('POST', '/api/v1/users/me/convert-to-business', auth, {
      business_details: { ...business, business_code: '123', vat_number: '', country: 'US' },
    });
    expect(elsewhere.statusCode).toBe(200);

    const phone = await change('PUT', '/api/v1/users/me', auth, { phone: 'abc' });
    expect(phone.statusCode).toBe(422);
    expect(phone.json()).toMatchObject({ errors: [{ field: 'phone', code: 'invalid_phone' }] });
    for (const good of ['+370 (600) 00-000', '860000000']) {
      expect((await change('PUT', '/api/v1/users/me', auth, { phone: good })).statusCode).toBe(200);
    }
    expect((await change('PUT', '/api/v1/users/me', auth, { phone: '12345' })).statusCode).toBe(422);
  });

  it('refuses a VAT number whose check digits fail, in the caller’s language, and stays personal', async () => {
    const { auth } = await signedInUser(ctx);
    const typo = await change(
      'POST',
      '/api/v1/users/me/convert-to-business',
      auth,
      { business_details: { ...business, vat_number: VAT_NUMBER_TYPO } },
      'lt',
    );
    expectVatTypoRefused(typo, 'business_details.vat_number');
    const wrongShape = await change('POST', '/api/v1/users/me/convert-to-business', auth, {
      business_details: { ...business, vat_number: 'LT1000019190' },
    });
    expect(wrongShape.json()).toMatchObject({
      errors: [
        {
          field: 'business_details.vat_number',
          code: 'invalid_vat_number',
          message: 'The VAT number format is invalid',
        },
      ],
    });
    const after = await ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: auth });
    expect(after.json<User>()).toMatchObject({ account_type: 'personal', company: null });
  });
});
