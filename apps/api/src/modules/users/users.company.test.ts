import { describe, expect, it } from 'vitest';
import type { User } from '@debesis/contract';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import { buy, seedProducts } from '../billing/billing.test-support.ts';

const business = {
  business_name: 'UAB Saugykla',
  business_code: '304111222',
  vat_number: 'LT100001919017',
  address: { street: 'Konstitucijos pr. 7', city: 'Vilnius', state: '', postal_code: 'LT-09308' },
  country: 'LT',
};

describe('correcting company details', () => {
  const ctx = useTestContext({}, seedProducts);

  const send = (method: 'PUT' | 'POST', url: string, auth: Record<string, string>, payload: object) =>
    injectWithCsrf(ctx.app, { method, url, headers: auth, payload });
  const correct = (auth: Record<string, string>, details: object) =>
    send('PUT', '/api/v1/users/me/company', auth, { business_details: details });

  it('lets the owner correct the details until the first invoice, then keeps them', async () => {
    const { auth } = await signedInUser(ctx);
    expect(
      (await send('POST', '/api/v1/users/me/convert-to-business', auth, { business_details: business }))
        .statusCode,
    ).toBe(200);

    const fixed = await correct(auth, {
      ...business,
      business_name: 'UAB Saugykla LT',
      business_code: '304111223',
    });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json<User>().company).toMatchObject({ name: 'UAB Saugykla LT', code: '304111223' });

    await buy(ctx, auth);
    const locked = await correct(auth, { ...business, business_name: 'Kita UAB' });
    expect(locked.statusCode).toBe(409);
    expect(locked.json()).toMatchObject({ detail: 'company_details_locked' });
    const after = await ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: auth });
    expect(after.json<User>().company?.name).toBe('UAB Saugykla LT');
  });

  it('refuses a personal account and checks the details as the conversion does', async () => {
    const { auth } = await signedInUser(ctx);
    const personal = await correct(auth, business);
    expect(personal.statusCode).toBe(409);
    expect(personal.json()).toMatchObject({ detail: 'not_business_account' });

    await send('POST', '/api/v1/users/me/convert-to-business', auth, { business_details: business });
    const invalid = await correct(auth, { ...business, vat_number: 'DE123456789' });
    expect(invalid.statusCode).toBe(422);
  });
});
