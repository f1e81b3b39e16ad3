import type { Order } from '@debesis/contract';
import { vatFor } from '@debesis/pricing';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import { makeOrder, miniBreakdown, ORDER_ID } from '../../payments/payment-fixtures.ts';
import { makeUser, storeSession, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { setCsrfCookie } from './plans-fixtures.ts';

const company = (country: string, vatNumber: string | null) => ({
  name: 'Beispiel GmbH',
  code: 'HRB 1',
  vat_number: vatNumber,
  country,
  address: { street: 'Hauptstr. 1', city: 'Berlin', state: '', postal_code: '10115' },
});

/** The order's frozen breakdown, priced as the server did for a business without the reverse charge. */
function orderFor(country: string, check: Order['breakdown']['vat_number_check'], valid: boolean | null) {
  const breakdown = {
    ...miniBreakdown(vatFor({ country, isBusiness: true, vatNumberValid: false })),
    vat_number_valid: valid,
    vat_number_check: check,
  };
  return makeOrder({ breakdown, amount: breakdown.total });
}

async function checkout(
  order: Order,
  user = makeUser({ account_type: 'business', company: company('DE', 'DE136695976') }),
) {
  storeSession();
  server.use(
    userHandler(user),
    http.get(`/api/v1/orders/${ORDER_ID}`, () => HttpResponse.json(order)),
  );
  renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);
  await screen.findByTestId('breakdown-total');
  return screen.queryByTestId('breakdown-no-reverse-charge')?.textContent ?? null;
}

beforeEach(() => {
  setCsrfCookie();
});

describe('checkout says in words why a business is not reverse-charged', () => {
  it.each([
    [
      'vies_unavailable',
      true,
      'VAT is charged because the EU VIES register did not answer just now, so your VAT number could not be confirmed. Once it answers again, new orders are reverse-charged.',
    ],
    [
      'vies_invalid',
      false,
      'VAT is charged because the EU VIES register does not confirm your VAT number as valid, so the reverse charge cannot apply.',
    ],
    [
      'format',
      false,
      'VAT is charged because your VAT number is not a valid number of your company’s country, so the reverse charge cannot apply.',
    ],
  ] as const)('%s', async (check, _valid, expected) => {
    expect(await checkout(orderFor('DE', check, false))).toBe(expected);
  });

  it('without a VAT number', async () => {
    const text = await checkout(
      orderFor('DE', null, null),
      makeUser({ account_type: 'business', company: company('DE', null) }),
    );
    expect(text).toBe(
      'VAT is charged because your company details have no VAT number. A business outside Lithuania with a valid EU VAT number is reverse-charged; contact support to add yours.',
    );
  });

  it('for a Lithuanian company, in Lithuanian', async () => {
    await changeLanguage('lt');
    const text = await checkout(
      orderFor('LT', 'format', true),
      makeUser({ account_type: 'business', language: 'lt', company: company('LT', 'LT100001919017') }),
    );
    expect(text).toBe(
      'Skaičiuojamas Lietuvos PVM: atvirkštinis apmokestinimas taikomas tik kitų ES šalių įmonėms.',
    );
  });

  it('says nothing of it to a private customer', async () => {
    expect(await checkout(orderFor('DE', null, null), makeUser({ country: 'DE' }))).toBeNull();
  });

  it('says nothing of it when the reverse charge applies', async () => {
    const reverseCharged = {
      ...miniBreakdown(vatFor({ country: 'DE', isBusiness: true, vatNumberValid: true })),
      vat_number_valid: true,
      vat_number_check: 'vies_valid' as const,
    };
    expect(await checkout(makeOrder({ breakdown: reverseCharged, amount: reverseCharged.total }))).toBeNull();
    expect(screen.getByTestId('breakdown-reverse-charge')).toBeTruthy();
  });
});
