// Issue 12, point 6: VAT followed the profile country, which PUT /users/me changes at will
// (country=US → 0% VAT). The place of supply now comes from evidence: the saved billing address
// checked against the IP country of the request (the registered country without billing info or
// with an unknown IP), frozen in the order's breakdown. 127.0.0.1 (every test's default) has no
// country; the addresses below are in the offline GeoIP database as LT, US and DE.
import { describe, expect, it } from 'vitest';
import type { Order, PlanChangeQuote, PriceBreakdownResponse, RegisterRequest } from '@debesis/contract';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';

const LT_IP = '78.56.1.1';
const US_IP = '8.8.8.8';
const DE_IP = '85.214.1.1';
const PLAN = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m' };
const ADDRESS = { street: 'Gedimino pr. 9', city: 'Vilnius', state: '', postal_code: 'LT-01103' };
type Auth = Record<string, string>;

describe('VAT country from evidence, not from the profile', () => {
  const ctx = useTestContext({}, seedCatalogue);

  const owner = async (overrides: Partial<RegisterRequest> = {}) => (await signedInUser(ctx, overrides)).auth;
  const setProfileCountry = async (auth: Auth, country: string) => {
    const response = await injectWithCsrf(ctx.app, {
      method: 'PUT',
      url: '/api/v1/users/me',
      headers: auth,
      payload: { country },
    });
    expect(response.statusCode).toBe(200);
  };
  const setBillingCountry = async (auth: Auth, country: string) => {
    const response = await injectWithCsrf(ctx.app, {
      method: 'PUT',
      url: '/api/v1/billing/info',
      headers: auth,
      payload: { company_name: null, vat_number: null, billing_address: { ...ADDRESS, country } },
    });
    expect(response.statusCode).toBe(200);
  };
  const order = async (auth: Auth, remoteAddress = '127.0.0.1') => {
    const response = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/orders/',
      headers: auth,
      payload: PLAN,
      remoteAddress,
    });
    expect(response.statusCode).toBe(201);
    return response.json<Order>();
  };
  const preview = async (auth: Auth, query: string, remoteAddress = '127.0.0.1') => {
    const response = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/orders/calculate-price${query}`,
      headers: auth,
      payload: PLAN,
      remoteAddress,
    });
    expect(response.statusCode).toBe(200);
    return response.json<PriceBreakdownResponse>();
  };

  it('attack 12.6: a profile country changed to US does not drop the VAT of the next order', async () => {
    const auth = await owner({ country: 'LT' });
    await setProfileCountry(auth, 'US');

    for (const ip of ['127.0.0.1', LT_IP, US_IP]) {
      const placed = await order(auth, ip);
      expect(placed.breakdown, ip).toMatchObject({
        vat_rate: 21,
        vat_reason: 'domestic',
        outside_scope: false,
      });
      expect(placed.breakdown.vat_evidence, ip).toMatchObject({
        country: 'LT',
        billing_country: null,
        account_country: 'LT',
      });
    }
    // Even an IP in the claimed country does not move it without billing info.
    expect((await order(auth, US_IP)).breakdown.vat_evidence).toEqual({
      country: 'LT',
      basis: 'contradicted',
      billing_country: null,
      ip_country: 'US',
      account_country: 'LT',
      relied_on: ['account_country', 'ip_address'],
    });
  });

  it('attack 12.6: the signed-in price preview shows what the order charges, whatever country it is asked for', async () => {
    const auth = await owner({ country: 'LT' });
    await setProfileCountry(auth, 'US');
    const shown = await preview(auth, '?country=US&is_business=false', LT_IP);
    expect(shown).toMatchObject({ vat_rate: 21, vat_evidence: { country: 'LT', basis: 'confirmed' } });
    const charged = await order(auth, LT_IP);
    expect(charged.amount).toBe(shown.total);
    expect(charged.breakdown.vat_evidence).toEqual(shown.vat_evidence);
  });

  it('attack 12.6: plan-change quotes and extension orders follow the same evidence', async () => {
    const auth = await owner({ country: 'LT' });
    const bought = await buyService(ctx, auth, PLAN);
    await setProfileCountry(auth, 'US');

    const quote = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/plan-changes/quote',
      headers: auth,
      payload: { service_id: bought.service_id, product_id: 'mini', disk_space: 100, users_count: 5 },
      remoteAddress: US_IP,
    });
    expect(quote.statusCode).toBe(200);
    expect(quote.json<PlanChangeQuote>().charge).toMatchObject({ vat_rate: 21, outside_scope: false });

    const extension = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/orders/service/${bought.service_id}/extend`,
      headers: auth,
      payload: {},
      remoteAddress: US_IP,
    });
    expect(extension.statusCode).toBe(201);
    expect(extension.json<Order>().breakdown).toMatchObject({
      vat_rate: 21,
      vat_evidence: { country: 'LT', ip_country: 'US' },
    });
  });

  it('attack 12.6: a billing address the IP country contradicts never lowers the VAT', async () => {
    const auth = await owner({ country: 'LT' });
    await setBillingCountry(auth, 'US');
    const placed = await order(auth, LT_IP);
    expect(placed.breakdown).toMatchObject({ vat_rate: 21, outside_scope: false });
    expect(placed.breakdown.vat_evidence).toEqual({
      country: 'LT',
      basis: 'contradicted',
      billing_country: 'US',
      ip_country: 'LT',
      account_country: 'LT',
      relied_on: ['billing_address', 'ip_address'],
    });
    // With no IP country (here: loopback) the registered country is the second piece.
    expect((await order(auth)).breakdown).toMatchObject({
      vat_rate: 21,
      vat_evidence: {
        country: 'LT',
        basis: 'contradicted',
        relied_on: ['billing_address', 'account_country'],
      },
    });
  });

  it('a billing address the IP country confirms moves the VAT, and the order keeps it frozen', async () => {
    const auth = await owner({ country: 'LT' });
    await setBillingCountry(auth, 'DE');
    const placed = await order(auth, DE_IP);
    expect(placed.breakdown).toMatchObject({ vat_rate: 19, vat_reason: 'eu_consumer' });
    expect(placed.breakdown.vat_evidence).toEqual({
      country: 'DE',
      basis: 'confirmed',
      billing_country: 'DE',
      ip_country: 'DE',
      account_country: 'LT',
      relied_on: ['billing_address', 'ip_address'],
    });

    await setBillingCountry(auth, 'LT');
    const again = await ctx.app.inject({ method: 'GET', url: `/api/v1/orders/${placed.id}`, headers: auth });
    expect(again.json<Order>().breakdown).toEqual(placed.breakdown);
  });

  it('a customer outside the EU, by registration and by billing address, is not charged EU VAT', async () => {
    const auth = await owner({ country: 'US' });
    expect((await order(auth)).breakdown).toMatchObject({
      outside_scope: true,
      vat_rate: 0,
      vat_evidence: { country: 'US', basis: 'single', relied_on: ['account_country'] },
    });
    await setBillingCountry(auth, 'US');
    expect((await order(auth, US_IP)).breakdown).toMatchObject({
      outside_scope: true,
      vat_evidence: { country: 'US', basis: 'confirmed', relied_on: ['billing_address', 'ip_address'] },
    });
  });

  it('a business with a valid VAT number is reverse-charged where it is established, wherever it orders from', async () => {
    const auth = await owner({
      accountType: 'business',
      country: 'DE',
      business_details: {
        business_name: 'Beispiel GmbH',
        business_code: 'HRB 12345',
        vat_number: 'DE136695976',
        address: { street: 'Unter den Linden 1', city: 'Berlin', state: '', postal_code: '10117' },
        country: 'DE',
      },
    });
    const placed = await order(auth, US_IP);
    expect(placed.breakdown).toMatchObject({ reverse_charge: true, vat_rate: 0 });
    expect(placed.breakdown.vat_evidence).toMatchObject({
      country: 'DE',
      basis: 'vat_number',
      relied_on: ['vat_number'],
    });
  });
});
