import { describe, expect, it } from 'vitest';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import { seedCatalogue, placeOrder } from '../../test/payments.ts';

const PLAN = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m' };

describe('the sandbox card page', () => {
  const ctx = useTestContext({}, seedCatalogue);

  /** An order of an account that chose `language`, and the card page its payment opened. */
  async function cardPageOf(language: 'en' | 'lt') {
    const owner = await signedInUser(ctx);
    const put = await injectWithCsrf(ctx.app, {
      method: 'PUT',
      url: '/api/v1/settings/',
      headers: owner.auth,
      payload: { language },
    });
    expect(put.statusCode).toBe(200);
    const order = await placeOrder(ctx, owner.auth, PLAN);
    const session = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/orders/${order.id}/process`,
      headers: owner.auth,
    });
    return { order, path: new URL(session.json<{ url: string }>().url).pathname };
  }

  it('speaks the account’s language, whatever the browser says, and leads back to the payment page', async () => {
    const { order, path } = await cardPageOf('lt');
    // A browser left in English, as most are, by a customer who uses the app in Lithuanian.
    const page = await ctx.app.inject({
      method: 'GET',
      url: path,
      headers: { 'accept-language': 'en-US,en' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="lt">');
    expect(page.body).toContain('Bandomasis mokėjimas');
    expect(page.body).toContain('Galioja iki (mėnuo / metai)');
    for (const english of ['Sandbox payment', 'Card number', 'Pay<', 'placeholder="YY"', 'aria-label="YY"']) {
      expect(page.body).not.toContain(english);
    }
    expect(page.body).toMatch(
      new RegExp(
        `<a class="back" href="[^"]*/dashboard/payments/new/${order.id}/payment" data-testid="sandbox-back">Atšaukti ir grįžti</a>`,
      ),
    );

    // A refused card is told in the same language.
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `${path}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
      payload: 'card_number=4111111111111111&exp_month=12&exp_year=40&cvc=123',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Patikrinkite kortelės duomenis');
  });

  it('in English for an English account, with its back link', async () => {
    const { order, path } = await cardPageOf('en');
    const page = await ctx.app.inject({ method: 'GET', url: path, headers: { 'accept-language': 'lt' } });
    expect(page.body).toContain('Sandbox payment');
    expect(page.body).toContain(
      `/dashboard/payments/new/${order.id}/payment" data-testid="sandbox-back">Cancel and go back</a>`,
    );
  });
});
