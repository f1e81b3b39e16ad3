import { describe, expect, it } from 'vitest';
import type { PriceBreakdownResponse } from '@debesis/contract';
import { calculatePrice, CATALOGUE_SEED } from '@debesis/pricing';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { seedCatalogue } from '../../test/payments.ts';
import { createProductsQueries } from '../products/products.queries.ts';
import { createProductsService } from '../products/products.service.ts';
import { createQuotesService } from './quotes.service.ts';

const mini = CATALOGUE_SEED.find((product) => product.id === 'mini');
if (!mini) throw new Error('the seed catalogue has no MINI plan');

describe('price and VAT quotes', () => {
  const ctx = useTestContext({}, seedCatalogue);

  const price = (body: object, query = '') =>
    injectWithCsrf(ctx.app, { method: 'POST', url: `/api/v1/orders/calculate-price${query}`, payload: body });
  const selection = { product_id: 'mini', disk_space: 100, users_count: 7, period_id: '12m' };

  it('gives the same breakdown the shared pricing function gives, before VAT without a country', async () => {
    const response = await price(selection);
    expect(response.statusCode).toBe(200);
    const breakdown = response.json<PriceBreakdownResponse>();
    expect(breakdown).toEqual({
      ...calculatePrice(mini, selection, null),
      vat_number_valid: null,
      vat_number_check: null,
      vies_consultation_number: null,
    });
    expect(breakdown).toMatchObject({ includes_vat: false, vat_rate: 0, months: 12, bandwidth: 200 });
    expect(breakdown.total).toBe(breakdown.subtotal);
  });

  it('charges 21% to a customer in Lithuania, business or not', async () => {
    for (const query of ['?country=LT', '?country=LT&is_business=true']) {
      const breakdown = (
        await price({ ...selection, vat_number: 'LT119511515' }, query)
      ).json<PriceBreakdownResponse>();
      expect(breakdown).toMatchObject({
        vat_rate: 21,
        includes_vat: true,
        reverse_charge: false,
        vat_reason: 'domestic',
      });
      expect(breakdown.vat_amount).toBe(Math.round(breakdown.subtotal * 0.21));
      expect(breakdown.total).toBe(breakdown.subtotal + breakdown.vat_amount);
    }
  });

  it('reverse-charges an EU business with a valid number, and charges its country’s rate without one', async () => {
    const valid = (
      await price({ ...selection, vat_number: 'DE136695976' }, '?country=DE&is_business=true')
    ).json<PriceBreakdownResponse>();
    expect(valid).toMatchObject({
      vat_rate: 0,
      vat_amount: 0,
      reverse_charge: true,
      vat_number_valid: true,
      // Without VIES_URL, format and checksum decide.
      vat_number_check: 'format',
      legal_note_key: 'reverse_charge',
    });

    const badChecksum = (
      await price({ ...selection, vat_number: 'DE136695978' }, '?country=DE&is_business=true')
    ).json<PriceBreakdownResponse>();
    expect(badChecksum).toMatchObject({ vat_rate: 19, reverse_charge: false, vat_number_valid: false });

    const otherCountry = (
      await price({ ...selection, vat_number: 'FR40303265045' }, '?country=DE&is_business=true')
    ).json<PriceBreakdownResponse>();
    expect(otherCountry).toMatchObject({ vat_rate: 19, vat_number_valid: false });

    const consumer = (await price(selection, '?country=FI')).json<PriceBreakdownResponse>();
    expect(consumer).toMatchObject({ vat_rate: 25.5, vat_reason: 'eu_consumer' });
  });

  it('charges no VAT outside the EU and says so', async () => {
    const breakdown = (await price(selection, '?country=US')).json<PriceBreakdownResponse>();
    expect(breakdown).toMatchObject({
      vat_rate: 0,
      outside_scope: true,
      vat_reason: 'outside_eu',
      legal_note_key: 'outside_scope',
    });
  });

  it('explains an impossible selection per field, in the caller’s language', async () => {
    const response = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/orders/calculate-price',
      headers: { 'accept-language': 'lt' },
      payload: { product_id: 'mini', disk_space: 20, users_count: 5, period_id: '7m' },
    });
    expect(response.statusCode).toBe(422);
    const errors = response.json<{ errors: Array<{ field: string; code: string; message: string }> }>()
      .errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        {
          field: 'disk_space',
          code: 'below_included',
          message: 'Negali būti mažiau, nei įeina į planą (50)',
        },
        expect.objectContaining({ field: 'period_id', code: 'period_unknown' }),
      ]),
    );
    const offStep = await price({ ...selection, disk_space: 55 });
    expect(offStep.json<{ errors: Array<{ code: string }> }>().errors[0]?.code).toBe('not_multiple_of_unit');
    const unknown = await price({ ...selection, product_id: 'gold' });
    expect(unknown.json()).toMatchObject({ errors: [{ field: 'product_id', code: 'invalid_value' }] });
    const badCountry = await price(selection, '?country=Lithuania');
    expect(badCountry.statusCode).toBe(422);
  });

  it('computes VAT on an amount for a customer', async () => {
    const vat = (body: object) =>
      injectWithCsrf(ctx.app, { method: 'POST', url: '/api/v1/orders/calculate-vat', payload: body });
    expect((await vat({ amount: 1000, country: 'LT', is_company: false })).json()).toEqual({
      amount: 1000,
      vat_rate: 21,
      vat_amount: 210,
      total: 1210,
      currency: 'EUR',
      reverse_charge: false,
      outside_scope: false,
      reason: 'domestic',
      vat_number_valid: null,
      vat_number_check: null,
      vies_consultation_number: null,
      legal_note_key: null,
    });
    expect(
      (await vat({ amount: 1000, country: 'FR', is_company: true, vat_number: 'FR40303265045' })).json(),
    ).toMatchObject({
      vat_rate: 0,
      total: 1000,
      reverse_charge: true,
      vat_number_valid: true,
    });
    expect((await vat({ amount: -5, country: 'LT' })).statusCode).toBe(422);
  });

  it('previews from the catalogue snapshot, while orders price from the database', async () => {
    const queries = createProductsQueries(ctx.database.db);
    // This process's catalogue, and another process changing it (as `npm run catalogue` does).
    const products = createProductsService({ queries, snapshotTtlMs: 60_000 });
    const otherProcess = createProductsService({ queries });
    const quotes = createQuotesService({ products });
    await otherProcess.save({
      product: {
        id: 'snapshot-plan',
        name: 'SNAPSHOT',
        priceMinor: 1000,
        diskSpaceGb: 10,
        allowedUsers: 1,
        address: 'nat',
        support: 'email',
      },
      options: [],
      periods: [{ id: '1m', months: 1, discountPercent: 0, isDefault: true }],
    });
    const plan = { product_id: 'snapshot-plan', disk_space: 10, users_count: 1, period_id: '1m' };
    expect((await quotes.preview(plan, null)).subtotal).toBe(1000);

    await otherProcess.setPrice('snapshot-plan', 1200);
    expect((await quotes.preview(plan, null)).subtotal).toBe(1000);
    expect((await quotes.price(plan, null)).subtotal).toBe(1200);

    // A change through this process's service shows at once.
    await products.setPrice('snapshot-plan', 1300);
    expect((await quotes.preview(plan, null)).subtotal).toBe(1300);
    await products.setActive('snapshot-plan', false);
    await expect(quotes.preview(plan, null)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(quotes.price(plan, null)).rejects.toMatchObject({ code: 'validation_error' });
  });
});
